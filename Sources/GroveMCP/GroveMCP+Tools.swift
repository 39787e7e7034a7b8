import Foundation
import GroveCore
import GroveStore

extension GroveMCP {
    static func schema(_ properties: [String: JSONValue] = [:], required: [String] = []) -> JSONValue {
        ["type": "object", "properties": .object(properties), "required": .array(required.map { .string($0) })]
    }

    static func property(_ type: String, _ description: String) -> JSONValue {
        ["type": .string(type), "description": .string(description)]
    }

    /// What an assistant may read: today, focus stats and streaks, the forest, pause figures, the
    /// weekly review, the timers.
    public static let readTools: [Tool] = [
        Tool(
            name: "today",
            description: "Today: the intention (day over week over month), the focus session running, today's focus and the streak.",
            inputSchema: schema(), readOnly: true),
        Tool(
            name: "focus_stats", description: "Focus totals: trees grown and withered, minutes, the current and longest streak.",
            inputSchema: schema(["tag": property("string", "Only sessions with this tag")]), readOnly: true),
        Tool(
            name: "forest", description: "The forest: the last days with trees, each day's trees, newest first.",
            inputSchema: schema(["days": property("integer", "How many days with trees (1 to 366; 7 by default)")]), readOnly: true),
        Tool(
            name: "pause_figures",
            description:
                "Mindful pauses per app: each day (pauses, exits, not opened, delayed, time saved; the last 7 days by default) and each week against the week before.",
            inputSchema: schema([
                "from": property("string", "First day, YYYY-MM-DD"), "to": property("string", "Last day, YYYY-MM-DD"),
                "appId": property("string", "One app only"),
            ]), readOnly: true),
        Tool(
            name: "weekly_review", description: "The week across focus, intentions, pauses and timers.",
            inputSchema: schema(["week": property("string", "2026-W47, last, or a day in the week; this week by default")]),
            readOnly: true),
        Tool(name: "timers", description: "The named timers with their to-dos.", inputSchema: schema(), readOnly: true),
    ]

    /// What an assistant may change, only with `--allow-writes`.
    public static let writeTools: [Tool] = [
        Tool(
            name: "start_focus", description: "Start a focus session (a tree starts growing).",
            inputSchema: schema([
                "minutes": property("integer", "Its length in minutes (the configured length by default)"),
                "tags": ["type": "array", "items": ["type": "string"], "description": "Tags for the session"],
            ]), readOnly: false),
        Tool(
            name: "set_intention", description: "Set the intention for today (or this week or month).",
            inputSchema: schema(
                [
                    "text": property("string", "The intention"), "scope": property("string", "day, week or month (day by default)"),
                    "date": property("string", "A day in the period, YYYY-MM-DD (today by default)"),
                ], required: ["text"]), readOnly: false),
    ]

    /// The pause figures, by day and by week, as one answer.
    struct PauseFigures: Encodable {
        var days: [UsageStatistics]
        var weeks: [PauseWeek]
    }

    /// Today's picture, as one answer.
    struct Today: Encodable {
        var date: LocalDay
        var intention: Intention?
        var session: FocusSession?
        var today: DailyFocusTotals?
        var currentStreak: Int
    }

    func answer(_ name: String, _ arguments: Arguments) throws -> String {
        let calendar = try database.calendar()
        let today = calendar.localDay(of: database.environment.now())
        switch name {
        case "today":
            let stats = try database.focus.stats()
            return try Self.json(
                Today(
                    date: today, intention: try database.intentions.current(), session: try database.focus.current(),
                    today: try database.focus.dailyTotals(from: today, to: today).first, currentStreak: stats.currentStreak))
        case "focus_stats":
            return try Self.json(try database.focus.stats(tag: try arguments.string("tag")))
        case "forest":
            return try Self.json(try database.focus.forest(days: try arguments.integer("days", in: ForestWindow.dayRange) ?? 7))
        case "pause_figures":
            let to = try arguments.day("to", today: today) ?? today
            let from = try arguments.day("from", today: today) ?? to.adding(days: -6)
            guard from <= to else { throw InvalidField("from", "from must not be after to") }
            let appId = try arguments.string("appId")
            return try Self.json(
                PauseFigures(
                    days: try database.pause.statistics(appId: appId, from: from, to: to), weeks: try database.pause.weeks(appId: appId)))
        case "weekly_review":
            return try Self.json(try database.review.week(named: try arguments.string("week")))
        case "timers":
            return try Self.json(try database.timers.all())
        case "start_focus":
            let minutes = try arguments.integer("minutes", in: 1...1440)
            return try Self.json(
                try database.focus.start(plannedDuration: minutes.map { TimeInterval($0 * 60) }, tags: try arguments.strings("tags")))
        case "set_intention":
            guard let text = try arguments.string("text") else { throw InvalidField("text", "text is required") }
            let scope = try arguments.string("scope").map { try IntentionScope(validating: $0) }
            return try Self.json(try database.intentions.set(text, scope: scope ?? .day, date: try arguments.day("date", today: today)))
        default:
            throw InvalidField("name", "No tool named \(name.prefix(64))")
        }
    }
}
