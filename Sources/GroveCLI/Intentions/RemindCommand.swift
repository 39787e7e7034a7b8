import ArgumentParser
import Foundation
import GroveCore
import GroveStore

/// `grove remind`: intention reminders and the calendar they follow.
struct RemindCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remind", abstract: "View and change intention reminders.",
        discussion: """
            Shows each reminder and when it next fires. Days: sun mon tue wed thu fri sat (or 0–6, Sunday = 0).
              grove remind --daily 08:00
              grove remind --weekly mon 09:00 --monthly 31 18:00
              grove remind --daily off --zone Europe/Lisbon --week-starts mon
            """)
    @OptionGroup var options: GlobalOptions
    @Option(name: .long, help: ArgumentHelp("HH:MM or off.", valueName: "time")) var daily: String?
    @Option(name: .long, parsing: .upToNextOption, help: ArgumentHelp("DAY HH:MM, or off.", valueName: "day time")) var weekly: [String] =
        []
    @Option(
        name: .long, parsing: .upToNextOption,
        help: ArgumentHelp("N HH:MM (1–31; 29–31 fall on the last day of shorter months), or off.", valueName: "n time")) var monthly:
        [String] = []
    @Option(
        name: .long, help: ArgumentHelp("IANA zone for today, streaks and reminders (\"system\" to follow the machine).", valueName: "zone")
    ) var zone: String?
    @Option(name: .customLong("week-starts"), help: ArgumentHelp("First day of the week.", valueName: "day")) var weekStarts: Weekday?

    static func weekday(_ text: String, field: String) throws -> Int { try Weekday(parsing: text, field: field).rawValue }

    static func time(_ text: String, field: String) throws -> TimeOfDay {
        guard let t = TimeOfDay(text) else { throw InvalidField(field, "\(field) must be a time like 08:30 (got \"\(text)\")") }
        return t
    }

    struct Report: Encodable {
        struct Next: Encodable { var kind: ReminderKind; var at: Date }
        var notificationSettings: NotificationSettings
        var timeZoneIdentifier: String
        var firstWeekday: Int
        var next: [Next]
    }

    /// A day and a time given to `--weekly` or `--monthly`: nil when not given, `.some(nil)` for off.
    private static func schedule(_ words: [String], option: String, day parseDay: (String) throws -> Int) throws -> (
        day: Int, time: TimeOfDay
    )?? {
        if words.isEmpty { return nil }
        if words == ["off"] { return .some(nil) }
        let field = option + "Day"
        guard words.count == 2 else {
            throw InvalidField(field, "--\(option) takes a day and a time, e.g. --\(option) \(option == "weekly" ? "mon" : "1") 09:00")
        }
        return (try parseDay(words[0]), try time(words[1], field: option + "Time"))
    }

    /// What the command line asks to change, parsed before the store is touched.
    private func changes() throws -> (inout UserPreferences) -> Void {
        let daily = try daily.map { $0 == "off" ? nil : try Self.time($0, field: "daily") }
        let weekly = try Self.schedule(weekly, option: "weekly") { try Self.weekday($0, field: "weekly") }
        let monthly = try Self.schedule(monthly, option: "monthly") { text in
            guard let day = Int(text) else { throw InvalidField("monthly", "monthly must be a day 1–31 (got \"\(text)\")") }
            return day
        }
        let zone = zone, weekStarts = weekStarts
        return { p in
            if let daily {
                p.notificationSettings.dailyEnabled = daily != nil
                if let time = daily { p.notificationSettings.dailyTime = time }
            }
            if let weekly {
                p.notificationSettings.weeklyEnabled = weekly != nil
                if let (day, time) = weekly { p.notificationSettings.weeklyDay = day; p.notificationSettings.weeklyTime = time }
            }
            if let monthly {
                p.notificationSettings.monthlyEnabled = monthly != nil
                if let (day, time) = monthly { p.notificationSettings.monthlyDay = day; p.notificationSettings.monthlyTime = time }
            }
            if let zone { p.timeZoneIdentifier = zone == "system" ? nil : zone }
            if let weekStarts { p.firstWeekday = weekStarts.rawValue }
        }
    }

    func run() throws {
        let change = try changes()
        let db = try options.open()
        let changing = daily != nil || !weekly.isEmpty || !monthly.isEmpty || zone != nil || weekStarts != nil
        // One transaction: a reminder changed meanwhile in the browser is kept.
        let n = try (changing ? db.intentions.changePreferences(change) : db.intentions.preferences()).notificationSettings
        let calendar = try db.calendar()
        let upcoming = try db.intentions.upcomingReminders()
        if options.json {
            return try Output.json(
                Report(
                    notificationSettings: n, timeZoneIdentifier: calendar.timeZone.identifier, firstWeekday: calendar.firstWeekday,
                    next: upcoming.map { .init(kind: $0.kind, at: $0.at) }))
        }
        let today = calendar.localDay(of: db.environment.now())
        func next(_ kind: ReminderKind) -> String {
            upcoming.first { $0.kind == kind }.map { "next \(calendar.wallText($0.at, today: today))" } ?? ""
        }
        func name(_ day: Int) -> String { Weekday(rawValue: day)?.name ?? "day \(day)" }
        func at(_ enabled: Bool, _ time: TimeOfDay?) -> String { enabled ? time.map { "at \($0)" } ?? "on" : "off" }
        print("Daily    \(at(n.dailyEnabled, n.dailyTime))   \(next(.daily))")
        print("Weekly   \(n.weeklyEnabled ? "\(name(n.weeklyDay)) \(at(true, n.weeklyTime))" : "off")   \(next(.weekly))")
        print("Monthly  \(n.monthlyEnabled ? "day \(n.monthlyDay) \(at(true, n.monthlyTime))" : "off")   \(next(.monthly))")
        print(
            Style(.current()).dim(
                "Zone \(calendar.timeZone.identifier) · weeks start \(name(calendar.firstWeekday)) · reminders fire while `grove serve` runs"
            ))
    }
}
