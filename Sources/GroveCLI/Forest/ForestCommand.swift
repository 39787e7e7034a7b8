import ArgumentParser
import Foundation
import GroveCore
import GroveStore

/// `grove forest`: the trees of the last days with trees, newest first, a window at a time.
struct ForestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "forest", abstract: "Show your forest: one tree per completed session, a row per day, newest first.",
        discussion: """
              grove forest                       # the last 14 days you planted on (each day's 150 newest trees)
              grove forest --days 60 --before 2025-01-01
              grove forest --limit 50 --json     # the 50 newest trees
              grove forest --tag essay           # the trees of sessions tagged essay
            """)
    @OptionGroup var options: GlobalOptions
    @Option(name: .long, help: "Show this many days with trees (1–366).") var days: Int = ForestWindow.defaultDays
    @Option(name: .long, help: ArgumentHelp("Only days before this one (YYYY-MM-DD, today, yesterday).", valueName: "day")) var before:
        String?
    @Option(name: .long, help: "Show the newest trees instead, at most this many (1–1000).") var limit: Int?
    @OptionGroup var filter: TagFilter

    func run() throws { try Self.run(options.plain, days: days, before: before, limit: limit, tag: try filter.checked()) }

    /// The forest, for whichever parse made the command (`EverydayParse.immediate`: the defaults).
    static func run(
        _ options: PlainOptions, days: Int = ForestWindow.defaultDays, before: String? = nil, limit: Int? = nil, tag: String? = nil
    ) throws {
        if let limit, !(1...FocusRoom.maxPageSize).contains(limit) {
            throw InvalidField("limit", "limit must be between 1 and \(FocusRoom.maxPageSize)")
        }
        guard ForestWindow.dayRange.contains(days) else {
            throw InvalidField("days", "days must be between 1 and \(ForestWindow.dayRange.upperBound)")
        }
        if limit != nil, tag != nil {
            throw InvalidField("limit", "limit cannot be combined with tag: use --days to choose how much of a tag's forest to show")
        }
        let db = try options.open()
        let today = try db.calendar().localDay(of: db.environment.now())
        let beforeDay = try before.map { try TimeParsing.day($0, field: "before", today: today) }
        if let limit { return try newest(limit, db, options) }
        // The days come from the per-day totals, then the sessions of those days only (each tree is drawn).
        let window = try db.focus.forest(days: days, before: beforeDay, tag: tag)
        if options.json { return try Output.json(window.days.flatMap(\.sessions)) }
        guard !window.days.isEmpty else {
            if let tag {
                return print(
                    "No trees tagged \(tag)\(beforeDay.map { " before \($0)" } ?? ""). Tag a session with `grove focus --tag \(tag)`.")
            }
            return print(beforeDay.map { "No trees before \($0)." } ?? "Your forest is empty. Plant the first tree with `grove focus`.")
        }
        print(
            ForestGrid.render(
                days: window.days.map { ($0.day, $0.sessions + $0.withered) }, width: TerminalTraits.current().width,
                more: Dictionary(window.days.map { ($0.day, $0.notDrawn) }, uniquingKeysWith: { a, _ in a })))
        let total = try db.focus.stats(tag: tag).totalTrees
        let shown = window.days.reduce(0) { $0 + $1.sessions.count }
        let withered = window.days.reduce(0) { $0 + $1.abandoned }
        var summary = "\(total) tree\(total == 1 ? "" : "s")\(tag.map { " tagged \($0)" } ?? "")"
        if shown < total { summary += " (showing \(shown))" }
        if withered > 0 { summary += " · \(withered) withered 🍂" }
        if let older = window.older { summary += " · older: grove forest --before \(older)\(tag.map { " --tag \"\($0)\"" } ?? "")" }
        print(summary)
    }

    private static func newest(_ limit: Int, _ db: AppDatabase, _ options: PlainOptions) throws {
        let trees = try db.focus.completed(limit: limit)
        if options.json { return try Output.json(trees) }
        guard !trees.isEmpty else { return print("Your forest is empty. Plant the first tree with `grove focus`.") }
        print(ForestGrid.render(trees, width: TerminalTraits.current().width))
        let total = try db.focus.stats().totalTrees
        print("\(total) tree\(total == 1 ? "" : "s")\(limit < total ? " (showing \(limit))" : "")")
    }
}
