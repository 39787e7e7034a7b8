import ArgumentParser
import Foundation
import GroveCore
import GroveStore

struct IntentionRephrase: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "rephrase", abstract: "Reword today's intention (offline assistant).")
    @OptionGroup var options: GlobalOptions
    @Flag(name: .long, help: "Save the new wording (with a fitting quote).") var apply = false

    func run() throws {
        let db = try options.open()
        guard let current = try db.currentIntention() else { throw CLIError.usage("no intention for today to rephrase") }
        let rephrasing = try db.rephraseIntention(id: current.id, apply: apply)
        // `--json` prints the intention as it is (applied) or would be (proposed), as it always has.
        if options.json {
            var shown = rephrasing.intention
            if !apply { shown.text = rephrasing.text; shown.aiRephrased = true; shown.quote = rephrasing.quote }
            return try Output.json(shown)
        }
        print(rephrasing.text)
        if let quote = rephrasing.quote { print(Style(.current()).dim(quote)) }
        if !apply { print(Style(.current()).dim("(grove intention rephrase --apply saves it)")) }
    }
}
