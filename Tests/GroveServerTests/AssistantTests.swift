import Foundation
import GroveCore
import GroveStore
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOConcurrencyHelpers
import Testing

@testable import GroveRemote
@testable import GroveServer

/// An OpenAI-compatible server on a real loopback port: answers `/v1/chat/completions` with what the
/// test sets, and remembers each request's model, key and messages.
final class FakeModelServer: Sendable {
    /// What the next request gets; `held` answers only once the test calls `release()` (or after a minute).
    /// `dripping` sends its head and a first byte at once, then the rest only once released.
    enum Mode: Sendable { case answer(String), status(HTTPResponse.Status), garbage, held(String), dripping(String) }
    private let state = NIOLockedValueBox(
        (mode: Mode.answer(""), requests: [Data](), keys: [String?](), released: false, heldAnswers: 0))

    func set(_ mode: Mode) { state.withLockedValue { $0.mode = mode } }
    /// Lets every held request answer.
    func release() { state.withLockedValue { $0.released = true } }
    /// How many held requests have answered so far.
    var heldAnswers: Int { state.withLockedValue { $0.heldAnswers } }
    var requests: [[String: Any]] {
        state.withLockedValue { $0.requests }.map { (try? JSONSerialization.jsonObject(with: $0) as? [String: Any]) ?? [:] }
    }
    var keys: [String?] { state.withLockedValue { $0.keys } }

    func application() -> some ApplicationProtocol {
        let router = Router()
        router.post("v1/chat/completions") { [state] request, context -> Response in
            let body = try await request.body.collect(upTo: 1 << 20)
            let mode = state.withLockedValue { s in
                s.requests.append(Data(buffer: body)); s.keys.append(request.headers[.authorization]); return s.mode
            }
            switch mode {
            case .status(let status): return Response(status: status)
            case .garbage: return Response(status: .ok, body: .init(byteBuffer: ByteBuffer(string: "<html>not json</html>")))
            case .held(let content):
                // Polled, not timed: the test decides when the model answers, whatever the machine's load.
                for _ in 0..<3000 where !state.withLockedValue({ $0.released }) { try await Task.sleep(for: .milliseconds(20)) }
                state.withLockedValue { $0.heldAnswers += 1 }
                let reply = try JSONSerialization.data(withJSONObject: [
                    "choices": [["message": ["role": "assistant", "content": content]]]
                ])
                return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: reply)))
            case .dripping(let content):
                let reply = try JSONSerialization.data(withJSONObject: [
                    "choices": [["message": ["role": "assistant", "content": content]]]
                ])
                return Response(
                    status: .ok, headers: [.contentType: "application/json"],
                    body: .init { writer in
                        try await writer.write(ByteBuffer(bytes: reply.prefix(1)))
                        for _ in 0..<3000 where !state.withLockedValue({ $0.released }) { try await Task.sleep(for: .milliseconds(20)) }
                        state.withLockedValue { $0.heldAnswers += 1 }
                        try await writer.write(ByteBuffer(bytes: reply.dropFirst()))
                        try await writer.finish(nil)
                    })
            case .answer(let content):
                let reply = try JSONSerialization.data(withJSONObject: [
                    "choices": [["message": ["role": "assistant", "content": content]]]
                ])
                return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: reply)))
            }
        }
        router.get("v1/models") { _, _ -> Response in
            let list = try JSONSerialization.data(withJSONObject: ["object": "list", "data": [["id": "tiny", "object": "model"]]])
            return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: list)))
        }
        return Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
    }
}

@Suite("The assistant: a language model over the OpenAI chat API, the offline assistant behind it")
struct AssistantTests {
    @Test func rephrasingAndThemesComeFromTheModelAndFallBackWhenItFails() async throws {
        let model = FakeModelServer()
        try await model.application().test(.live) { live in
            let base = "http://127.0.0.1:\(try #require(live.port))/v1"
            var configuration = ServerConfiguration(assistant: AssistantConfiguration(baseURL: base, model: "tiny", apiKey: "sk-test"))
            // The model answers; only the machine's load (every other test at once) may be slow.
            configuration.assistantFetch = .patient
            let server = try await TestServer(configuration: configuration)
            let database = server.database
            let intention = try database.intentions.set("finish the essay", scope: .week)
            try await server.test { client in
                // A proposal, cleaned of the quotes models add; nothing saved yet.
                model.set(.answer("\"Give the essay the calm hours it needs this week.\"\nHope that helps!"))
                let preview = try await client.post("/api/v1/intentions/\(intention.id)/rephrase")
                #expect(preview.object["text"] as? String == "Give the essay the calm hours it needs this week.")
                #expect(preview.object["assistant"] as? String == "tiny" && preview.object["applied"] as? Bool == false)
                #expect(try database.intentions.find(id: intention.id)?.text == "finish the essay")
                let sent = try #require(model.requests.last)
                #expect(sent["model"] as? String == "tiny" && model.keys.last == "Bearer sk-test")
                #expect(((sent["messages"] as? [[String: Any]])?.last?["content"] as? String) == "finish the essay")
                // Accepting the preview saves what was shown, without asking the model again.
                let asked = model.requests.count
                let applied = try await client.post(
                    "/api/v1/intentions/\(intention.id)/rephrase?apply=true",
                    #"{"text":"Give the essay the calm hours it needs this week.","assistant":"tiny"}"#)
                #expect(applied.object["applied"] as? Bool == true && model.requests.count == asked)
                #expect(
                    try database.intentions.find(id: intention.id).map { ($0.text, $0.aiRephrased) } ?? ("", false)
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

    @Test func aSlowAnswerPastTheTimeoutAndARefusedConnectionFallBackToOffline() async throws {
        let model = FakeModelServer()
        let intention = Intention(
            id: UUID(), text: "finish the essay", scope: .day, date: try #require(LocalDay("2026-11-23")), createdAt: Date())
        try await model.application().test(.live) { live in
            let base = "http://127.0.0.1:\(try #require(live.port))/v1"
            let quick = Assistant(model: ModelAssistant(AssistantConfiguration(baseURL: base, model: "tiny"), timeout: .milliseconds(300)))
            model.set(.held("Too late to matter."))
            #expect(await quick.rephrasing(intention) == nil, "past the timeout: the offline assistant answers")
            // Causal, not timed: the answer came back while the model was still holding its reply.
            #expect(model.heldAnswers == 0, "and nobody waits for the slow model")
            #expect(await quick.theme(for: "calm ocean") == nil)
            #expect(model.heldAnswers == 0)
            // A head at once, then the body a byte at a time: the timeout bounds the whole answer.
            model.set(.dripping("Too late as well."))
            #expect(await quick.rephrasing(intention) == nil, "a dripped body past the timeout: the offline assistant answers")
            #expect(model.heldAnswers == 0, "the drip was still held when the assistant gave up")
            model.release()
            // A prompt answer is used (a generous timeout: the machine may be busy with every other test).
            model.set(.answer("Give the essay its calm hours."))
            let patient = Assistant(
                model: ModelAssistant(
                    AssistantConfiguration(baseURL: base, model: "tiny"), client: ContentRefresherTests.patient, timeout: .seconds(60)))
            #expect(await patient.rephrasing(intention)?.text == "Give the essay its calm hours.")
            #expect(
                try await ModelAssistant(AssistantConfiguration(baseURL: base, model: "tiny"), client: ContentRefresherTests.patient)
                    .probe(timeout: .seconds(60)) == 1,
                "status: the model answers")
        }
        // Nothing listens on a port just closed: refused at once, offline again.
        let closed = "http://127.0.0.1:\(try Self.closedPort())/v1"
        let refused = Assistant(model: ModelAssistant(AssistantConfiguration(baseURL: closed, model: "tiny"), timeout: .seconds(60)))
        #expect(await refused.rephrasing(intention) == nil)
        await #expect(throws: (any Error).self) { try await ModelAssistant(AssistantConfiguration(baseURL: closed, model: "tiny")).probe() }
    }

    /// A loopback port that was free a moment ago and has nothing listening now.
    static func closedPort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
