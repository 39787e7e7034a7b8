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
    @Option(name: .long, parsing: .upToNextOption, help: ArgumentHelp("DAY HH:MM, or off.", valueName: "day time")) var weekly: [String] = []
    @Option(name: .long, parsing: .upToNextOption, help: ArgumentHelp("N HH:MM (1–31; 29–31 fall on the last day of shorter months), or off.", valueName: "n time")) var monthly: [String] = []
    @Option(name: .long, help: ArgumentHelp("IANA zone for today, streaks and reminders (\"system\" to follow the machine).", valueName: "zone")) var zone: String?
    @Option(name: .customLong("week-starts"), help: ArgumentHelp("First day of the week.", valueName: "day")) var weekStarts: String?

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

    func run() throws {
        let db = try options.open()
        let repo = UserPreferencesRepository(database: db)
        var p = try repo.getOrCreatePreferences()
        var n = p.notificationSettings
        if let daily {
            if daily == "off" { n.dailyEnabled = false } else { n.dailyEnabled = true; n.dailyTime = try Self.time(daily, field: "dailyTime") }
        }
        if !weekly.isEmpty {
            if weekly == ["off"] { n.weeklyEnabled = false } else {
                guard weekly.count == 2 else { throw InvalidField("weeklyDay", "--weekly takes a day and a time, e.g. --weekly mon 09:00") }
                n.weeklyEnabled = true
                n.weeklyDay = try Self.weekday(weekly[0], field: "weeklyDay")
                n.weeklyTime = try Self.time(weekly[1], field: "weeklyTime")
            }
        }
        if !monthly.isEmpty {
            if monthly == ["off"] { n.monthlyEnabled = false } else {
                guard monthly.count == 2, let day = Int(monthly[0]) else { throw InvalidField("monthlyDay", "--monthly takes a day 1–31 and a time, e.g. --monthly 1 09:00") }
                n.monthlyEnabled = true
                n.monthlyDay = day
                n.monthlyTime = try Self.time(monthly[1], field: "monthlyTime")
            }
        }
        p.notificationSettings = n
        if let zone { p.timeZoneIdentifier = zone == "system" ? nil : zone }
        if let weekStarts { p.firstWeekday = try Self.weekday(weekStarts, field: "firstWeekday") }
        if daily != nil || !weekly.isEmpty || !monthly.isEmpty || zone != nil || weekStarts != nil { try repo.update(p) }
        let calendar = try db.calendar()
        let upcoming = try db.upcomingReminders()
        if options.json {
            return try Output.json(Report(notificationSettings: n, timeZoneIdentifier: calendar.timeZone.identifier, firstWeekday: calendar.firstWeekday,
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
        print(Style(.current()).dim("Zone \(calendar.timeZone.identifier) · weeks start \(name(calendar.firstWeekday)) · reminders fire while `grove serve` runs"))
    }
}
