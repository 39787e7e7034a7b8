import Foundation

/// One of the three intention reminders.
public enum ReminderKind: String, Codable, CaseIterable, Sendable {
    case daily, weekly, monthly

    /// What the reminder asks.
    public var prompt: String {
        switch self {
        case .daily: "What is your intention for today?"
        case .weekly: "Set your intention for the week."
        case .monthly: "Set your intention for the month."
        }
    }
}

/// When reminders fire, under DESIGN.md's rules: a time that a transition skips fires at the first
/// instant after the gap; a time it repeats fires once, at its first occurrence; a monthly reminder on
/// days 29–31 falls on the last day of shorter months; days that never happened are skipped by the
/// daily reminder (the weekly and monthly ones fire at the first instant after them).
public enum ReminderSchedule {
    /// The next instant strictly after `now` at which `kind` fires, or nil when it is off.
    public static func nextFire(_ kind: ReminderKind, settings: NotificationSettings, after now: Date, calendar: ZonedCalendar) -> Date? {
        let today = calendar.localDay(of: now)
        switch kind {
        case .daily:
            guard settings.dailyEnabled, let time = settings.dailyTime else { return nil }
            var day = today.adding(days: -1)
            for _ in 0..<5 {
                day = day.adding(days: 1)
                guard calendar.exists(day) else { continue }
                let t = calendar.instant(of: day, at: time)
                if t > now { return t }
            }
            return nil
        case .weekly:
            guard settings.weeklyEnabled, let time = settings.weeklyTime else { return nil }
            let offset = (settings.weeklyDay - today.weekday + 7) % 7
            for week in 0..<3 {
                let t = calendar.instant(of: today.adding(days: offset + 7 * week), at: time)
                if t > now { return t }
            }
            return nil
        case .monthly:
            guard settings.monthlyEnabled, let time = settings.monthlyTime else { return nil }
            for month in 0..<3 {
                let first = today.addingMonths(month)
                let day = LocalDay(validYear: first.year, month: first.month, day: max(1, min(settings.monthlyDay, first.daysInMonth)))
                let t = calendar.instant(of: day, at: time)
                if t > now { return t }
            }
            return nil
        }
    }

    /// Every enabled reminder's next fire instant, soonest first.
    public static func upcoming(settings: NotificationSettings, after now: Date, calendar: ZonedCalendar) -> [(
        kind: ReminderKind, at: Date
    )] {
        ReminderKind.allCases.compactMap { kind in nextFire(kind, settings: settings, after: now, calendar: calendar).map { (kind, $0) } }
            .sorted { $0.at < $1.at }
    }
}
