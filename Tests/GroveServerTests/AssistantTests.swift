import Foundation
import GroveCore
import GroveStore
import Hummingbird
import HummingbirdTesting
import HTTPTypes
import NIOConcurrencyHelpers
import Testing
@testable import GroveServer

/// An OpenAI-compatible server on a real loopback port: answers `/v1/chat/completions` with what the
/// test sets, and remembers each request's model, key and messages.
final class FakeModelServer: Sendable {
    enum Mode: Sendable { case answer(String), status(HTTPResponse.Status), garbage }
    private let state = NIOLockedValueBox((mode: Mode.answer(""), requests: [Data](), keys: [String?]()))

    func set(_ mode: Mode) { state.withLockedValue { $0.mode = mode } }
    var requests: [[String: Any]] {
        state.withLockedValue { $0.requests }.map { (try? JSONSerialization.jsonObject(with: $0) as? [String: Any]) ?? [:] }
    }
    var keys: [String?] { state.withLockedValue { $0.keys } }

    func application() -> some ApplicationProtocol {
        let router = Router()
        router.post("v1/chat/completions") { [state] request, context -> Response in
            let body = try await request.body.collect(upTo: 1 << 20)
            let mode = state.withLockedValue { s in s.requests.append(Data(buffer: body)); s.keys.append(request.headers[.authorization]); return s.mode }
            switch mode {
            case .status(let status): return Response(status: status)
            case .garbage: return Response(status: .ok, body: .init(byteBuffer: ByteBuffer(string: "<html>not json</html>")))
            case .answer(let content):
                let reply = try JSONSerialization.data(withJSONObject: ["choices": [["message": ["role": "assistant", "content": content]]]])
                return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: reply)))
            }
        }
        return Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
    }
}

@Suite("The assistant: a language model over the OpenAI chat API, the offline assistant behind it")
struct AssistantTests {
    @Test func configurationComesFromTheEnvironmentAndBadValuesNameTheVariable() throws {
        #expect(try AssistantConfiguration.from(environment: [:]) == nil)
        let config = try AssistantConfiguration.from(environment: ["GROVE_ASSISTANT_URL": "http://127.0.0.1:11434/v1", "GROVE_ASSISTANT_MODEL": "llama3.2"])
        #expect(config == AssistantConfiguration(baseURL: "http://127.0.0.1:11434/v1", model: "llama3.2"))
        #expect { try AssistantConfiguration.from(environment: ["GROVE_ASSISTANT_URL": "ftp://x", "GROVE_ASSISTANT_MODEL": "m"]) } throws: {
            ($0 as? InvalidField)?.field == "GROVE_ASSISTANT_URL"
        }
        #expect { try AssistantConfiguration.from(environment: ["GROVE_ASSISTANT_URL": "http://127.0.0.1:1/v1"]) } throws: {
            ($0 as? InvalidField)?.field == "GROVE_ASSISTANT_MODEL"
        }
    }

    @Test func rephrasingAndThemesComeFromTheModelAndFallBackWhenItFails() async throws {
        let model = FakeModelServer()
        try await model.application().test(.live) { live in
            let base = "http://127.0.0.1:\(try #require(live.port))/v1"
            let server = try await TestServer(configuration: ServerConfiguration(assistant: AssistantConfiguration(baseURL: base, model: "tiny", apiKey: "sk-test")))
            let database = server.database
            let intention = try database.setIntention("finish the essay", scope: .week)
            try await server.test { client in
                // A proposal, cleaned of the quotes models add; nothing saved yet.
                model.set(.answer("\"Give the essay the calm hours it needs this week.\"\nHope that helps!"))
                let preview = try await client.post("/api/v1/intentions/\(intention.id)/rephrase")
                #expect(preview.object["text"] as? String == "Give the essay the calm hours it needs this week.")
                #expect(preview.object["assistant"] as? String == "tiny" && preview.object["applied"] as? Bool == false)
                #expect(try database.intention(id: intention.id)?.text == "finish the essay")
                let sent = try #require(model.requests.last)
                #expect(sent["model"] as? String == "tiny" && model.keys.last == "Bearer sk-test")
                #expect(((sent["messages"] as? [[String: Any]])?.last?["content"] as? String) == "finish the essay")
                // Accepting the preview saves what was shown, without asking the model again.
                let asked = model.requests.count
                let applied = try await client.post("/api/v1/intentions/\(intention.id)/rephrase?apply=true",
                                                    #"{"text":"Give the essay the calm hours it needs this week.","assistant":"tiny"}"#)
                #expect(applied.object["applied"] as? Bool == true && model.requests.count == asked)
                #expect(try database.intention(id: intention.id).map { ($0.text, $0.aiRephrased) } ?? ("", false)
                        == ("Give the essay the calm hours it needs this week.", true))
                // The model down, or answering nonsense: the offline assistant answers, nothing fails.
                for failure in [FakeModelServer.Mode.status(.internalServerError), .garbage, .answer("   \n")] {
                    model.set(failure)
                    let fallback = try await client.post("/api/v1/intentions/\(intention.id)/rephrase")
                    #expect(fallback.status == 200 && fallback.object["assistant"] as? String == "offline", "\(failure)")
                }
                // A readable palette from the model is used; an unreadable one is replaced by the offline assistant's.
                model.set(.answer(##"Sure! {"name": "Ember night", "background": "#1A0A05", "text": "#FFE8D6", "accent": "#FF5A1F"}"##))
                let theme = try await client.post("/api/v1/themes/generate", #"{"prompt":"angry red volcano at night"}"#).object
                #expect(theme["name"] as? String == "Ember night" && theme["backgroundColor"] as? String == "#1A0A05")
                model.set(.answer(##"{"name": "Invisible", "background": "#FFFFFF", "text": "#FFFF00"}"##))
                let offline = try await client.post("/api/v1/themes/generate", #"{"prompt":"angry red volcano at night"}"#).object
                #expect(offline["name"] as? String != "Invisible")
                let ratio = HexColor.contrastRatio(offline["textColor"] as? String ?? "", offline["backgroundColor"] as? String ?? "") ?? 0
                #expect(ratio >= 4.5)
                #expect(try await client.post("/api/v1/themes/generate", #"{"prompt":"   "}"#).status == 422)
            }
        }
    }
}
