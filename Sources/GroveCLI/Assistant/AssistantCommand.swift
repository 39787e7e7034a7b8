import ArgumentParser
import Foundation
import GroveCore
import GroveRemote
import GroveStore

/// `grove assistant`: the language model rephrasing and themes ask first (any OpenAI-compatible chat
/// API: Ollama, llama.cpp's server, a hosted service), or none (the offline assistant does it all).
struct AssistantCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "assistant", abstract: "The language model the assistant asks first (or none: offline).",
        discussion: """
              grove assistant set --url http://127.0.0.1:11434/v1 --model llama3.2     # Ollama
              grove assistant set --url https://api.example.com/v1 --model m --api-key-file ~/.config/grove/key
              grove assistant status
              grove assistant unset
            GROVE_ASSISTANT_URL, GROVE_ASSISTANT_MODEL and GROVE_ASSISTANT_API_KEY, when set, win over the stored choice.
            """,
        subcommands: [AssistantStatus.self, AssistantSet.self, AssistantUnset.self], defaultSubcommand: AssistantStatus.self)
}

/// `grove assistant set --url URL --model NAME [--api-key-file FILE]`
struct AssistantSet: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "set", abstract: "Use a model (kept with this device's data).")
    @OptionGroup var options: GlobalOptions
    @Option(name: .long, help: "The API's base URL, e.g. http://127.0.0.1:11434/v1.") var url: String
    @Option(name: .long, help: "The model to ask, e.g. llama3.2.") var model: String
    @Option(
        name: .customLong("api-key-file"), help: ArgumentHelp("A file holding the API key (only its path is stored).", valueName: "file"))
    var apiKeyFile: String?

    func run() throws {
        let db = try options.open()
        let stored = StoredAssistant(
            url: url.trimmingCharacters(in: .whitespaces), model: model.trimmingCharacters(in: .whitespaces),
            apiKeyFile: apiKeyFile.map(CLIEnvironment.current.resolve))
        try db.setup.setAssistant(stored)
        if options.json { return try Output.json(stored) }
        print("The assistant asks \(stored.model) at \(stored.url) first (`grove assistant status` checks it answers).")
    }
}

/// `grove assistant unset`
struct AssistantUnset: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unset", abstract: "Forget the model: the offline assistant does everything.")
    @OptionGroup var options: GlobalOptions

    func run() throws {
        try options.open().setup.setAssistant(nil)
        if options.json { return try Output.json(["model": nil as String?]) }
        print("No model: the offline assistant rephrases and makes themes.")
    }
}

/// `grove assistant status`: which model, from where, and whether it answers now.
struct AssistantStatus: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status", abstract: "Which model is asked, and whether it answers (the default).")
    @OptionGroup var options: GlobalOptions

    struct Report: Encodable {
        var source: String
        var url: String?
        var model: String?
        var answering: Bool
        var models: Int?
        var problem: String?
    }

    func run() async throws {
        let db = try options.open()
        guard
            let (configuration, source) = try AssistantConfiguration.resolve(
                environment: CLIEnvironment.current.variables, stored: try db.setup.assistant())
        else {
            if options.json { return try Output.json(Report(source: "offline", answering: true)) }
            return print("Offline assistant (no model set: grove assistant set --url URL --model NAME).")
        }
        var report = Report(source: source.rawValue, url: configuration.baseURL, model: configuration.model, answering: false)
        do {
            report.models = try await ModelAssistant(configuration).probe()
            report.answering = true
        } catch {
            report.problem = Self.describe(error)
        }
        if options.json { return try Output.json(report) }
        print(
            "Model \(configuration.model) at \(configuration.baseURL) (\(source == .environment ? "from GROVE_ASSISTANT_URL" : "grove assistant set"))."
        )
        print(
            report.answering
                ? "Answering (\(report.models ?? 0) model\(report.models == 1 ? "" : "s") listed)."
                : "Not answering: \(report.problem ?? "no answer"). The offline assistant stands in until it does.")
    }

    static func describe(_ error: Error) -> String {
        switch error {
        case AssistantError.http(let code): "HTTP \(code)"
        case AssistantError.unusableAnswer(let what): what
        case AssistantError.timedOut(let seconds): "no whole answer within \(seconds) s"
        default: String(describing: error).components(separatedBy: "(").first ?? "no answer"
        }
    }
}
