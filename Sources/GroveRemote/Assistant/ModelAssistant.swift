import AsyncHTTPClient
import Foundation
import GroveCore
import GroveStore
import Logging
import NIOCore
import NIOFoundationCompat

/// Where a language model answers: an OpenAI-compatible `/chat/completions` endpoint (Ollama,
/// llama.cpp's server, vLLM, LM Studio and the hosted services all speak it).
public struct AssistantConfiguration: Sendable, Equatable {
    /// The API's base, e.g. `http://127.0.0.1:11434/v1` (Ollama); `/chat/completions` is appended.
    public var baseURL: String
    public var model: String
    /// Sent as `Authorization: Bearer`, for services that want one.
    public var apiKey: String?

    public init(baseURL: String, model: String, apiKey: String? = nil) {
        self.baseURL = baseURL
        self.model = model
        self.apiKey = apiKey
    }

    /// From `GROVE_ASSISTANT_URL`, `GROVE_ASSISTANT_MODEL` and `GROVE_ASSISTANT_API_KEY`; nil when
    /// no URL is set (the offline assistant then does everything). A URL that is not http(s) is an
    /// error naming the variable.
    public static func from(environment: [String: String]) throws -> AssistantConfiguration? {
        guard let url = environment["GROVE_ASSISTANT_URL"]?.trimmingCharacters(in: .whitespaces), !url.isEmpty else { return nil }
        try StoredAssistant.checkURL(url, field: "GROVE_ASSISTANT_URL")
        let model = environment["GROVE_ASSISTANT_MODEL"]?.trimmingCharacters(in: .whitespaces)
        guard let model, !model.isEmpty else {
            throw InvalidField(
                "GROVE_ASSISTANT_MODEL", "GROVE_ASSISTANT_MODEL must name the model to ask (e.g. llama3.2) when GROVE_ASSISTANT_URL is set")
        }
        return AssistantConfiguration(
            baseURL: url, model: model, apiKey: environment["GROVE_ASSISTANT_API_KEY"].flatMap { $0.isEmpty ? nil : $0 })
    }
}

extension AssistantConfiguration {
    /// Where a model is configured: `"environment"` (`GROVE_ASSISTANT_*`, which win) or `"store"`
    /// (`grove assistant set`).
    public enum Source: String, Sendable { case environment, store }

    /// The model every face asks: the environment's when `GROVE_ASSISTANT_URL` is set, else the one
    /// `grove assistant set` stored (its key read from its file now), else nil (offline).
    public static func resolve(environment: [String: String], stored: StoredAssistant?) throws -> (AssistantConfiguration, Source)? {
        if let configured = try from(environment: environment) { return (configured, .environment) }
        guard let stored else { return nil }
        var key: String?
        if let file = stored.apiKeyFile {
            guard let text = try? String(contentsOfFile: file, encoding: .utf8) else {
                throw InvalidField(
                    "api-key-file", "The assistant's key file \(file) cannot be read (grove assistant set --api-key-file FILE)")
            }
            key = text.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        return (AssistantConfiguration(baseURL: stored.url, model: stored.model, apiKey: key?.isEmpty == false ? key : nil), .store)
    }

    /// The model for a store: `resolve` with the store's stored choice.
    public static func resolve(environment: [String: String], database: AppDatabase) throws -> AssistantConfiguration? {
        try resolve(environment: environment, stored: try database.setup.assistant())?.0
    }
}

/// Why a model's answer was not used (the offline assistant answers instead).
public enum AssistantError: Error, Equatable {
    /// The server answered with an HTTP error.
    case http(UInt)
    /// The answer was not the shape asked for.
    case unusableAnswer(String)
    /// The whole answer did not come within the assistant's timeout (seconds).
    case timedOut(Int64)
}

/// Rephrasing and themes by a language model, over the OpenAI chat API. Quotes stay the offline
/// assistant's: they come from the person's own content library, which a model has not read.
public struct ModelAssistant: IntentionAssistant {
    public let configuration: AssistantConfiguration
    private let client: HTTPClient
    private let timeout: TimeAmount

    public init(_ configuration: AssistantConfiguration, client: HTTPClient = ContentRefresher.client, timeout: TimeAmount = .seconds(30)) {
        self.configuration = configuration
        self.client = client
        self.timeout = timeout
    }

    public func rephrase(_ text: String, scope: IntentionScope) async throws -> String {
        let answer = try await complete(
            system:
                "You reword a person's intention for their \(scope.rawValue). Keep its meaning and its language; make it warmer and more concrete. "
                + "Answer with the new wording only: one sentence of at most 200 characters, no quotation marks, no preamble.",
            user: text)
        // First line, without the quotes models like to add.
        let line = answer.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
        let cleaned = line.trimmingCharacters(in: CharacterSet.whitespaces.union(CharacterSet(charactersIn: "\"'“”‘’")))
        guard !cleaned.isEmpty, cleaned.unicodeScalars.count <= Intention.maxTextLength, !cleaned.contains("\u{0}") else {
            throw AssistantError.unusableAnswer("no usable wording")
        }
        return cleaned
    }

    public func quote(for text: String, from library: [MindfulnessContent]) async throws -> String? {
        OfflineAssistant.bestQuote(for: text, from: library)
    }

    public func generateTheme(prompt: String, id: UUID, createdAt: Date) async throws -> IntentionTheme {
        let answer = try await complete(
            system: "You design a colour theme for a card that shows a short text. Answer with JSON only, no prose: "
                + ##"{"name": "two or three words", "background": "#RRGGBB", "text": "#RRGGBB", "accent": "#RRGGBB"}. "##
                + "The text colour must be readable on the background (contrast at least 4.5:1).",
            user: prompt)
        guard let start = answer.firstIndex(of: "{"), let end = answer.lastIndex(of: "}"), start < end,
            let object = try? JSONSerialization.jsonObject(with: Data(answer[start...end].utf8)) as? [String: Any],
            let background = object["background"] as? String, let text = object["text"] as? String
        else { throw AssistantError.unusableAnswer("no theme JSON") }
        let name = (object["name"] as? String).map { String($0.prefix(60)) }.flatMap { $0.isEmpty ? nil : $0 } ?? String(prompt.prefix(40))
        return IntentionTheme(
            id: id, name: name, backgroundColor: background, textColor: text, accentColor: object["accent"] as? String,
            isPreset: false, isAIGenerated: true, createdAt: createdAt)
    }

    /// Whether the model's server answers: the model list (`GET /models`, which OpenAI-compatible
    /// servers serve), within `timeout`. Returns how many models it lists, or throws why not.
    public func probe(timeout: TimeAmount = .seconds(3)) async throws -> Int {
        let base = configuration.baseURL.hasSuffix("/") ? String(configuration.baseURL.dropLast()) : configuration.baseURL
        var request = HTTPClientRequest(url: base + "/models")
        request.headers.add(name: "User-Agent", value: GroveVersion.userAgent)
        if let key = configuration.apiKey { request.headers.add(name: "Authorization", value: "Bearer \(key)") }
        let (status, data) = try await exchange(request, within: timeout)
        guard status == 200 else { throw AssistantError.http(status) }
        guard let object = try? JSONSerialization.jsonObject(with: Data(buffer: data)) as? [String: Any],
            let models = object["data"] as? [Any]
        else {
            throw AssistantError.unusableAnswer("not a model list")
        }
        return models.count
    }

    /// `request` sent and its whole answer read (at most 1 MiB) within `amount`: a server that sends
    /// its body a byte at a time holds nothing longer.
    private func exchange(_ request: HTTPClientRequest, within amount: TimeAmount) async throws -> (UInt, ByteBuffer) {
        let client = self.client
        do {
            return try await Deadline.run(within: amount) {
                let response = try await client.execute(request, timeout: amount)
                return (response.status.code, try await response.body.collect(upTo: 1 << 20))
            }
        } catch let exceeded as Deadline.Exceeded {
            throw AssistantError.timedOut(exceeded.seconds)
        }
    }

    /// One chat completion: the system message and the user's, the first choice's text back.
    func complete(system: String, user: String) async throws -> String {
        let base = configuration.baseURL.hasSuffix("/") ? String(configuration.baseURL.dropLast()) : configuration.baseURL
        var request = HTTPClientRequest(url: base + "/chat/completions")
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.headers.add(name: "User-Agent", value: GroveVersion.userAgent)
        if let key = configuration.apiKey { request.headers.add(name: "Authorization", value: "Bearer \(key)") }
        let body: [String: Any] = [
            "model": configuration.model, "temperature": 0.7, "max_tokens": 200, "stream": false,
            "messages": [["role": "system", "content": system], ["role": "user", "content": user]],
        ]
        request.body = .bytes(ByteBuffer(bytes: try JSONSerialization.data(withJSONObject: body)))
        let (status, data) = try await exchange(request, within: timeout)
        guard status == 200 else { throw AssistantError.http(status) }
        guard let object = try? JSONSerialization.jsonObject(with: Data(buffer: data)) as? [String: Any],
            let choices = object["choices"] as? [[String: Any]], let message = choices.first?["message"] as? [String: Any],
            let content = message["content"] as? String
        else { throw AssistantError.unusableAnswer("not a chat completion") }
        return content
    }
}

/// The assistant every face uses: the model when one is configured, the offline assistant when there
/// is none or it fails (no answer, an error, an answer of the wrong shape) — a rephrase never fails
/// because a local server is down.
public struct Assistant: Sendable {
    public let model: ModelAssistant?
    private let logger = Logger(label: "grove.assistant")

    public init(_ configuration: AssistantConfiguration?) {
        model = configuration.map { ModelAssistant($0) }
    }

    /// With this model (its own client and timeout), or none.
    public init(model: ModelAssistant?) {
        self.model = model
    }

    /// A model's wording of `intention` and the model's name, or nil (the offline assistant's then).
    public func rephrasing(_ intention: Intention) async -> (text: String, by: String)? {
        guard let model else { return nil }
        do {
            return (try await model.rephrase(intention.text, scope: intention.scope), model.configuration.model)
        } catch {
            logger.warning("The assistant's model did not rephrase; the offline assistant did", metadata: ["error": "\(error)"])
            return nil
        }
    }

    private static let placeholderID = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))

    /// A model's palette for `prompt`, or nil (its id and date are the store's to give).
    public func theme(for prompt: String) async -> IntentionTheme? {
        guard let model else { return nil }
        do {
            // Placeholders: `AppDatabase.themes.generate(prompt:proposal:)` gives the theme its id and
            // time from the store's environment (no clock or id source is read here).
            return try await model.generateTheme(prompt: prompt, id: Self.placeholderID, createdAt: Date(timeIntervalSince1970: 0))
        } catch {
            logger.warning("The assistant's model made no theme; the offline assistant did", metadata: ["error": "\(error)"])
            return nil
        }
    }
}
