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
        let text = OfflineAssistant.rephrased(current.text, scope: current.scope)
        let quote = OfflineAssistant.bestQuote(for: current.text, from: try db.contents())
        var result = current
        if apply {
            result.text = text
            result.aiRephrased = true
            result.quote = quote ?? current.quote
            result = try db.updateIntention(result)
        }
        if options.json { return try Output.json(apply ? result : Intention(id: current.id, text: text, scope: current.scope, date: current.date, createdAt: current.createdAt, aiRephrased: true, quote: quote)) }
        print(text)
        if let quote { print(Style(.current()).dim(quote)) }
        if !apply { print(Style(.current()).dim("(grove intention rephrase --apply saves it)")) }
    }
}
