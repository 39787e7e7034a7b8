import ArgumentParser
import Foundation
import GroveCore
import GroveRemote
import GroveStore

struct IntentionRephrase: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rephrase", abstract: "Reword today's intention (a language model if one is set up, else the offline assistant).",
        discussion: """
            With a model set up (`grove assistant set --url http://127.0.0.1:11434/v1 --model llama3.2`, or
            GROVE_ASSISTANT_URL and GROVE_ASSISTANT_MODEL), the model proposes the wording; if it does not answer,
            the offline assistant does.
            """)
    @OptionGroup var options: GlobalOptions
    @Flag(name: .long, help: "Save the new wording (with a fitting quote).") var apply = false

    func run() async throws {
        let db = try options.open()
        let assistant = Assistant(try AssistantConfiguration.resolve(environment: CLIEnvironment.current.variables, database: db))
        guard let current = try db.intentions.current() else { throw CLIError.usage("no intention for today to rephrase") }
        let proposal = await assistant.rephrasing(current)
        let rephrasing = try db.intentions.rephrase(
            id: current.id, apply: apply, proposal: proposal?.text, assistant: proposal?.by ?? "offline")
        // `--json` prints the intention as it is (applied) or would be (proposed), as it always has.
        if options.json {
            var shown = rephrasing.intention
            if !apply { shown.text = rephrasing.text; shown.aiRephrased = true; shown.quote = rephrasing.quote }
            return try Output.json(shown)
        }
        print(rephrasing.text)
        if let quote = rephrasing.quote { print(Style(.current()).dim(quote)) }
        if rephrasing.assistant != "offline" { print(Style(.current()).dim("(worded by \(rephrasing.assistant))")) }
        if !apply { print(Style(.current()).dim("(grove intention rephrase --apply saves a new wording)")) }
    }
}
