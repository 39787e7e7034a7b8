import ArgumentParser
import Foundation
import GroveCore
import GroveSystem
import GroveStore

/// `grove focus`: an interactive session, or its subcommands for scripts.
struct FocusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "focus",
        abstract: "Grow a tree: a Pomodoro focus session.",
        discussion: """
            With no subcommand, runs a live session in the terminal: a countdown, a growing tree and \
            a progress bar. Keys: p pause/resume, a abandon, d detach (the session goes on without \
            the window; `grove focus status` shows it). When it completes Grove rings the bell, sends a \
            desktop notification where notify-send exists, and offers the break the Pomodoro cycle \
            calls for.

            Examples:
              grove focus                  # 25 minutes (or your configured length)
              grove focus --length 50m
              grove focus start --length 90s && grove focus status
              grove focus log --start 09:00 --end 09:25
            """,
        subcommands: [FocusRun.self, FocusStart.self, FocusPause.self, FocusResume.self, FocusAbandon.self, FocusStatus.self, FocusLog.self, FocusConfig.self],
        defaultSubcommand: FocusRun.self)
}

/// `grove focus [run]`: the live session.
struct FocusRun: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "run", abstract: "Run a live session in this terminal (the default).")

    @OptionGroup var options: GlobalOptions

    @Option(name: .long, help: ArgumentHelp("Session length, e.g. 25m, 90s, 1h30m.", valueName: "duration"))
    var length: String?

    func run() throws {
        let db = try options.open()
        let planned = try length.map { try TimeParsing.duration($0, field: "length") }
        try InteractiveFocus(db: db, traits: .current(), notifier: DesktopNotifier()).run(length: planned)
    }
}

struct FocusStart: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "start", abstract: "Start a session in the background.")
    @OptionGroup var options: GlobalOptions
    @Option(name: .long, help: ArgumentHelp("Session length, e.g. 25m, 90s, 1h30m.", valueName: "duration"))
    var length: String?

    func run() throws {
        let db = try options.open()
        let session = try db.startFocusSession(plannedDuration: try length.map { try TimeParsing.duration($0, field: "length") })
        if options.json { return try Output.json(FocusStatusReport(session, now: session.startTime)) }
        let calendar = try db.calendar()
        let due = session.dueAt ?? session.startTime.addingTimeInterval(session.plannedDuration)
        print("Planted a seed: \(DurationParser.clock(session.plannedDuration)) of focus, done at \(calendar.wallText(due, today: calendar.localDay(of: session.startTime))).")
    }
}

/// Shared by pause, resume and abandon.
private func report(_ session: FocusSession, db: AppDatabase, options: GlobalOptions, verb: String) throws {
    let now = try db.now(for: session)
    if options.json { return try Output.json(FocusStatusReport(session, now: now)) }
    print("\(verb): \(DurationParser.clock(session.remaining(at: now))) left.")
}

struct FocusPause: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "pause", abstract: "Pause the running session.")
    @OptionGroup var options: GlobalOptions
    func run() throws {
        let db = try options.open()
        try report(try db.pauseFocusSession(), db: db, options: options, verb: "Paused")
    }
}

struct FocusResume: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "resume", abstract: "Resume the paused session.")
    @OptionGroup var options: GlobalOptions
    func run() throws {
        let db = try options.open()
        try report(try db.resumeFocusSession(), db: db, options: options, verb: "Resumed")
    }
}

struct FocusAbandon: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "abandon", abstract: "Give up the session (no tree).")
    @OptionGroup var options: GlobalOptions
    func run() throws {
        let db = try options.open()
        let session = try db.abandonFocusSession()
        if options.json { return try Output.json(FocusStatusReport(session, now: session.endTime ?? db.environment.now())) }
        print("Abandoned after \(ForestStats.formatDuration(session.duration)) of focus. No tree this time.")
    }
}

struct FocusStatus: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "status", abstract: "Show the running session, or the last one.")
    @OptionGroup var options: GlobalOptions

    func run() throws {
        let db = try options.open()
        let current = try db.currentFocusSession()
        let session = try current ?? db.latestFocusSession()
        let now = try session.map { try db.now(for: $0) } ?? db.environment.now()
        if options.json { return try Output.json(FocusStatusReport(session, now: now)) }
        guard let session else { return print("No focus sessions yet. Start one with `grove focus`.") }
        let calendar = try db.calendar()
        let today = calendar.localDay(of: now)
        switch session.state {
        case .active, .paused:
            for line in FocusScreen.lines(session, now: now, traits: .plain).prefix(3) { print(line) }
            if session.clockUncertain { print("(The machine restarted during this session; its time is measured by the wall clock.)") }
        case .completed:
            let end = session.endTime ?? session.startTime
            print("No session running. Last: completed at \(calendar.wallText(end, today: today)), \(ForestStats.formatDuration(session.duration)) of focus 🌳")
        case .abandoned:
            print("No session running. Last: abandoned at \(calendar.wallText(session.endTime ?? session.startTime, today: today)).")
        }
    }
}

struct FocusLog: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "log", abstract: "Record a session that happened (with pauses, or as abandoned).",
        discussion: """
            Times are HH:MM (today), YYYY-MM-DD HH:MM (in your configured zone) or ISO 8601 with an offset.
              grove focus log --start 09:00 --end 09:30 --pause 09:10-09:15
              grove focus log --start "2025-03-09 23:30" --end "2025-03-09 23:55" --zone America/New_York
            """)
    @OptionGroup var options: GlobalOptions
    @Option(name: .long, help: "When it started.") var start: String
    @Option(name: .long, help: "When it ended.") var end: String
    @Option(name: .long, help: ArgumentHelp("A pause, START-END (repeatable).", valueName: "start-end")) var pause: [String] = []
    @Flag(name: .long, help: "It was abandoned (no tree).") var abandoned = false
    @Option(name: .long, help: ArgumentHelp("Its planned length, e.g. 25m (abandoned sessions).", valueName: "duration")) var length: String?
    @Option(name: .long, help: ArgumentHelp("IANA zone it was lived in (default: configured).", valueName: "zone")) var zone: String?

    func run() throws {
        let db = try options.open()
        var calendar = try db.calendar()
        if let zone { calendar = try ZonedCalendar(validating: zone, firstWeekday: calendar.firstWeekday) }
        let now = db.environment.now()
        let startDate = try TimeParsing.instant(start, field: "start", now: now, calendar: calendar)
        // A bare HH:MM for the end or a pause means the day the session started.
        let endDate = try TimeParsing.instant(end, field: "end", now: startDate, calendar: calendar)
        let pauses = try pause.map { text -> AppDatabase.LoggedPause in
            let parts = text.split(separator: "-", maxSplits: 1).map(String.init)
            // ISO instants contain "-": accept "START/END" as well.
            let pieces = text.contains("/") ? text.split(separator: "/").map(String.init) : parts
            guard pieces.count == 2 else { throw InvalidField("pause", "pause must be START-END, e.g. 09:10-09:15 (got \"\(text)\")") }
            return .init(start: try TimeParsing.instant(pieces[0], field: "pause", now: startDate, calendar: calendar),
                         end: try TimeParsing.instant(pieces[1], field: "pause", now: startDate, calendar: calendar))
        }
        let session = try db.logFocusSession(start: startDate, end: endDate, pauses: pauses, abandoned: abandoned,
                                             plannedDuration: try length.map { try TimeParsing.duration($0, field: "length") }, timeZone: calendar.timeZone)
        if options.json { return try Output.json(session) }
        print("Logged a \(session.state.rawValue) session on \(session.endDay?.description ?? "?"): \(ForestStats.formatDuration(session.duration)) of focus\(session.state == .completed ? " 🌳" : "").")
    }
}

struct FocusConfig: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config", abstract: "Show or change session and break lengths.",
        discussion: "  grove focus config --length 50m --short-break 10m --long-break 30m --long-break-every 3")
    @OptionGroup var options: GlobalOptions
    @Option(name: .long, help: "Focus length.") var length: String?
    @Option(name: .customLong("short-break"), help: "Short break length.") var shortBreak: String?
    @Option(name: .customLong("long-break"), help: "Long break length.") var longBreak: String?
    @Option(name: .customLong("long-break-every"), help: "A long break after every N sessions.") var interval: Int?

    func run() throws {
        let db = try options.open()
        var p = try db.focusPreferences()
        if let length { p.focusDuration = try TimeParsing.duration(length, field: "length") }
        if let shortBreak { p.shortBreakDuration = try TimeParsing.duration(shortBreak, field: "shortBreakDuration") }
        if let longBreak { p.longBreakDuration = try TimeParsing.duration(longBreak, field: "longBreakDuration") }
        if let interval { p.longBreakInterval = interval }
        if length != nil || shortBreak != nil || longBreak != nil || interval != nil { try db.updateFocusPreferences(p) }
        if options.json { return try Output.json(p) }
        print("Focus \(DurationParser.clock(p.focusDuration)), short break \(DurationParser.clock(p.shortBreakDuration)), long break \(DurationParser.clock(p.longBreakDuration)) every \(p.longBreakInterval) sessions.")
    }
}
