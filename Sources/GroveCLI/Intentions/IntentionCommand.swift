import ArgumentParser
import Foundation
import GroveCore
import GroveStore

/// `grove intention …`
struct IntentionCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "intention", abstract: "Day, week and month intentions (day > week > month).",
        discussion: """
              grove intention set "Finish the essay draft" --scope week
              grove intention set "One page before lunch"
              grove intention now
              grove intention search essay
              grove intention rephrase --apply
            """,
        subcommands: [IntentionSet.self, IntentionNow.self, IntentionList.self, IntentionSearch.self, IntentionRemove.self, IntentionRephrase.self],
        defaultSubcommand: IntentionNow.self)
}

enum ScopeOption {
    static func parse(_ text: String) throws -> IntentionScope {
        guard let scope = IntentionScope(rawValue: text.lowercased()) else { throw InvalidField("scope", "scope must be day, week or month (got \"\(text)\")") }
        return scope
    }
}

/// An intention drawn as a card in its theme's colours.
enum IntentionCard {
    static func render(_ intention: Intention, theme: IntentionTheme?, traits: TerminalTraits) -> String {
        let style = Style(traits)
        let width = min(60, max(24, traits.width - 4))
        let label = "\(intention.scope.displayName) · \(intention.date)"
        var body = Wrap.lines(intention.text, width: width - 4)
        if let quote = intention.quote { body += [""] + Wrap.lines("“\(quote)”", width: width - 4) }
        let rows = [""] + [label] + [""] + body + [""]
        let fg = theme?.textColor ?? "#000000", bg = theme?.backgroundColor
        return rows.map { row in
            let padded = "  " + row + String(repeating: " ", count: max(0, width - 2 - row.count))
            return traits.color && bg != nil ? style.colors(padded, foreground: row == label ? (theme?.accentColor ?? fg) : fg, background: bg) : "│" + padded + "│"
        }.joined(separator: "\n")
    }
}

struct IntentionSet: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "set", abstract: "Set the intention for a day, week or month (replaces that period's).")
    @OptionGroup var options: GlobalOptions
    @Argument(help: "The intention.") var text: String
    @Option(name: .long, help: "day, week or month.") var scope: String = "day"
    @Option(name: .long, help: "A day in the period: YYYY-MM-DD, today, tomorrow (default today).") var date: String?
    @Option(name: .long, help: "Theme name or id.") var theme: String?

    func run() throws {
        let scope = try ScopeOption.parse(scope)
        let db = try options.open()
        let calendar = try db.calendar()
        let day = try date.map { try TimeParsing.day($0, today: calendar.localDay(of: db.environment.now())) }
        let themeID = try theme.map { try ThemeLookup.find($0, in: db).id }
        let intention = try db.setIntention(text, scope: scope, date: day, themeId: themeID)
        if options.json { return try Output.json(intention) }
        print("\(scope.displayName) intention for \(intention.date): \(intention.text)")
    }
}

struct IntentionNow: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "now", abstract: "Show today's intention as a card.")
    @OptionGroup var options: GlobalOptions
    @Option(name: .long, help: "Another day (YYYY-MM-DD).") var date: String?

    func run() throws {
        let db = try options.open()
        let calendar = try db.calendar()
        let day = try date.map { try TimeParsing.day($0, today: calendar.localDay(of: db.environment.now())) }
        let intention = try db.currentIntention(on: day)
        if options.json { return try Output.json(intention) }
        guard let intention else { return print("No intention for \(day.map(\.description) ?? "today"). Set one: grove intention set \"…\"") }
        let themes = ThemeRepository(database: db)
        let defaultTheme = try UserPreferencesRepository(database: db).getOrCreatePreferences().defaultThemeId
        let theme = try (intention.themeId ?? defaultTheme).flatMap { try themes.getTheme(byId: $0) }
        print(IntentionCard.render(intention, theme: theme, traits: .current()))
    }
}

struct IntentionList: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List intentions, newest first.")
    @OptionGroup var options: GlobalOptions
    @Option(name: .long, help: "Only this scope.") var scope: String?
    @Option(name: .long, help: "From this day.") var from: String?
    @Option(name: .long, help: "To this day.") var to: String?

    func run() throws {
        let db = try options.open()
        let today = try db.calendar().localDay(of: db.environment.now())
        var items: [Intention]
        if from != nil || to != nil {
            items = try db.intentions(from: try from.map { try TimeParsing.day($0, field: "from", today: today) } ?? LocalDay.earliest,
                                      to: try to.map { try TimeParsing.day($0, field: "to", today: today) } ?? LocalDay.latest)
            if let scope { let s = try ScopeOption.parse(scope); items = items.filter { $0.scope == s } }
        } else if let scope {
            items = try db.intentions(scope: try ScopeOption.parse(scope))
        } else {
            items = try db.intentions()
        }
        try IntentionPrinter.print(items, options: options)
    }
}

enum IntentionPrinter {
    static func print(_ items: [Intention], options: GlobalOptions) throws {
        if options.json { return try Output.json(items) }
        if items.isEmpty { return Swift.print("No intentions.") }
        for i in items { Swift.print("\(i.date)  \(i.scope.rawValue.padding(toLength: 5, withPad: " ", startingAt: 0))  \(i.text)  \(String(i.id.uuidString.prefix(8)).lowercased())") }
    }
}

struct IntentionSearch: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "search", abstract: "Find intentions by text (any case, any accents).")
    @OptionGroup var options: GlobalOptions
    @Argument var query: String
    func run() throws {
        let db = try options.open()
        try IntentionPrinter.print(try db.searchIntentions(query), options: options)
    }
}

struct IntentionRemove: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "rm", abstract: "Delete an intention by id (or its first characters).")
    @OptionGroup var options: GlobalOptions
    @Argument var id: String
    func run() throws {
        let db = try options.open()
        let matches = try db.intentions().filter { $0.id.uuidString.lowercased().hasPrefix(id.lowercased()) }
        guard matches.count == 1, id.count >= 4 else {
            throw matches.count > 1 ? InvalidField("id", "\"\(id)\" matches several intentions") as Error : NotFoundError("intention", id)
        }
        try db.deleteIntention(id: matches[0].id)
        if options.json { return try Output.json(matches[0]) }
        print("Deleted \"\(matches[0].text)\".")
    }
}

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
