import Foundation
import GRDB
import GroveCore

extension AppDatabase {

    /// Every reminder due in the 7 days from `day` (the week after the reviewed one).
    static func reminders(settings: NotificationSettings, from day: LocalDay, calendar: ZonedCalendar) -> [WeeklyReview.Reminder] {
        let start = calendar.startOfDay(day), end = calendar.startOfDay(day.adding(days: 7))
        var found: [WeeklyReview.Reminder] = []
        for kind in ReminderKind.allCases {
            var after = start.addingTimeInterval(-0.001)
            // At most one a day: the bound keeps a schedule that misbehaves from looping.
            for _ in 0..<8 {
                guard let at = ReminderSchedule.nextFire(kind, settings: settings, after: after, calendar: calendar), at < end else {
                    break
                }
                found.append(.init(kind: kind, at: at))
                after = at
            }
        }
        return found.sorted { $0.at < $1.at }
    }
}

extension ReviewRoom {
    /// The review of the calendar week (the configured first weekday) that contains `day`, today's
    /// by default. Every figure comes from a bounded read: per-day focus totals for two weeks, the
    /// streak's own days, the week's pauses by the day index, the week's intentions by date, and the
    /// to-dos changed in the week.
    /// The review of the week `text` names (`2026-W47`, a day in it, `this` or `last`; this week when
    /// nil), read by the core's one rule for every face. Anything else is refused naming `week`.
    public func week(named text: String?) throws -> WeeklyReview {
        let today = try database.calendar().localDay(of: environment.now())
        return try week(containing: WeeklyReview.day(validating: text ?? "this", today: today))
    }

    public func week(containing day: LocalDay? = nil) throws -> WeeklyReview {
        try database.focus.settle()
        // Pauses past the 30 days are dropped first, so an old week shows none rather than a remnant.
        try database.pause.settle()
        let calendar = try database.calendar()
        let today = calendar.localDay(of: environment.now())
        let week = IntentionScope.week.period(containing: day ?? today, calendar: calendar)
        let start = week.lowerBound, end = week.upperBound.adding(days: -1)
        let weekIntention = try database.intentions.find(for: start, scope: .week)?.text
        let monthIntention = try database.intentions.find(for: start, scope: .month)?.text
        let dayIntentions = Dictionary(
            try database.intentions.all(from: start, to: end).filter { $0.scope == .day }.map { ($0.date, $0.text) },
            uniquingKeysWith: { a, _ in a })
        let totals = Dictionary(
            try database.focus.dailyTotals(from: start.adding(days: -7), to: end).map { ($0.day, $0) }, uniquingKeysWith: { a, _ in a })
        // Per tag: the week's rows of the per-day-per-tag totals (by the day index).
        let tagDays = try writer.snapshotRead { db in
            try db.cachedRows(
                "SELECT tag, day, trees, abandoned, focus_ms FROM focus_day_tag WHERE day BETWEEN ? AND ?",
                [start.description, end.description])
        }
        func byFocus(_ rows: [Row]) -> [WeeklyReview.TagTotal] {
            var totals: [String: (trees: Int, abandoned: Int, ms: Int64)] = [:]
            for row in rows {
                let tag: String = row["tag"]
                var t = totals[tag] ?? (0, 0, 0)
                t.trees += row["trees"] as Int; t.abandoned += row["abandoned"] as Int; t.ms += row["focus_ms"] as Int64
                totals[tag] = t
            }
            return totals.map {
                WeeklyReview.TagTotal(
                    tag: $0.key, trees: $0.value.trees, abandoned: $0.value.abandoned,
                    focusMinutes: Int((Double($0.value.ms) / 60_000).rounded()))
            }
            .sorted { ($1.focusMinutes, $1.trees, $0.tag) < ($0.focusMinutes, $0.trees, $1.tag) }
        }
        let tagRowsByDay = Dictionary(grouping: tagDays) { $0["day"] as String }
        let days = (0..<7).map { offset -> WeeklyReview.Day in
            let date = start.adding(days: offset)
            let t = totals[date]
            return WeeklyReview.Day(
                date: date, trees: t?.trees ?? 0, abandoned: t?.abandoned ?? 0,
                focusMinutes: Int(((t?.focusTime ?? 0) / 60).rounded()), intention: dayIntentions[date],
                tags: byFocus(tagRowsByDay[date.description] ?? []))
        }
        let previousWeek = (1...7).reduce(0.0) { $0 + (totals[start.adding(days: -$1)]?.focusTime ?? 0) }
        let asOf = min(end, today)
        let from = calendar.startOfDay(start), to = calendar.startOfDay(week.upperBound)
        let settings = try database.intentions.preferences().notificationSettings

        // Rows throughout, not `Int.fetchCursor` or `String.fetchAll` (why: `Database.cachedRecord`).
        return try writer.snapshotRead { db in
            // The run of days with trees that ends at `asOf` (or the day before): read newest first and
            // stopped at the first gap, so it costs the streak's length, not the history's.
            var streak = 0
            var previous: LocalDay?
            let cursor = try Row.fetchCursor(
                db.cachedStatement(
                    sql: """
                        SELECT CAST(julianday(day) - 2440587.5 AS INTEGER) FROM focus_day WHERE trees > 0 AND day <= ? ORDER BY day DESC
                        """), arguments: [asOf.description])
            while let row = try cursor.next() {
                let day = try LocalDay(dayNumber: row.decode(Int.self, atIndex: 0))
                let continues = previous.map { calendar.areConsecutive(day, $0) } ?? (day == asOf || calendar.areConsecutive(day, asOf))
                guard continues else { break }
                streak += 1
                previous = day
            }

            let names = Dictionary(
                try db.cachedRows("SELECT id, display_name FROM social_app")
                    .map { ($0["id"] as String, $0["display_name"] as String) }, uniquingKeysWith: { a, _ in a })
            let pauses = try db.cachedRows(
                """
                SELECT app_id, count(*) AS attempts, total(\(UsageStatistics.exitToFocusSQL)) AS exits,
                       total(action_outcome IS 'deepen_pause') AS rescued, total(action_outcome IS 'proceed_to_app') AS proceeded,
                       total(\(UsageStatistics.delayedSQL)) AS delayed,
                       total(withered_tree IS 1) AS withered, coalesce(sum(grace_visits), 0) AS grace,
                       total(emergency_pass IS 1) AS passes, total(visit_seconds IS NOT NULL) AS measured,
                       coalesce(sum(visit_seconds), 0) AS visit_seconds
                FROM gateway_session WHERE local_day BETWEEN ? AND ? GROUP BY app_id ORDER BY attempts DESC, app_id
                """, [start.description, end.description])
            // The week before, for the trend: only when all of it is still kept.
            let previousStart = start.adding(days: -7)
            let before: [String: Int]? =
                previousStart >= UsageStatistics.retentionStart(today: today)
                ? Dictionary(
                    try db.cachedRows(
                        "SELECT app_id, count(*) AS attempts FROM gateway_session WHERE local_day BETWEEN ? AND ? GROUP BY app_id",
                        [previousStart.description, start.adding(days: -1).description]
                    ).map { ($0["app_id"] as String, $0["attempts"] as Int) }, uniquingKeysWith: { a, _ in a }) : nil
            var appPauses = pauses.map { row -> WeeklyReview.AppPauses in
                func count(_ column: String) -> Int { (row[column] as Double?).map { Int($0) } ?? 0 }
                let id: String = row["app_id"]
                var app = WeeklyReview.AppPauses(
                    appId: id, name: names[id] ?? id, attempts: row["attempts"] as Int? ?? 0,
                    exits: count("exits"), rescued: count("rescued"), proceeded: count("proceeded"), delayed: count("delayed"),
                    previousAttempts: before.map { $0[id] ?? 0 })
                app.witheredTrees = count("withered")
                app.graceVisits = row["grace"] as Int? ?? 0
                app.emergencyPasses = count("passes")
                app.measuredVisits = count("measured")
                app.visitSeconds = row["visit_seconds"] as Int? ?? 0
                return app
            }
            try addGateChanges(to: &appPauses, from: start, to: end, names: names, before: before, db)
            let todos =
                try db.cachedRow(
                    "SELECT count(*) FROM todo_item WHERE completed_at >= ? AND completed_at < ?", [from.groveMillis, to.groveMillis]
                ).map { try $0.decode(Int.self, atIndex: 0) } ?? 0
            let checklists = try db.cachedRows(
                """
                SELECT t.name FROM timer t JOIN todo_item i ON i.timer_id = t.id
                WHERE t.id IN (SELECT timer_id FROM todo_item WHERE completed_at >= ? AND completed_at < ?) GROUP BY t.id
                HAVING min(i.is_completed) = 1 AND max(i.completed_at) < ? ORDER BY t.name
                """, [from.groveMillis, to.groveMillis, to.groveMillis]
            ).map { try $0.decode(String.self, atIndex: 0) }
            return WeeklyReview(
                week: ISOWeek.label(weekStarting: start), start: start, end: end, weekIntention: weekIntention,
                monthIntention: monthIntention, days: days,
                previousWeekFocusMinutes: Int((previousWeek / 60).rounded()),
                streak: streak,
                pauses: appPauses, pausesKept: start >= UsageStatistics.retentionStart(today: today),
                todosCompleted: todos, checklistsCompleted: checklists,
                upcomingReminders: AppDatabase.reminders(settings: settings, from: week.upperBound, calendar: calendar),
                tags: byFocus(tagDays))
        }
    }
}

extension ReviewRoom {
    /// The week's gate loosenings (`GateChange`) on each app's line; an app whose gate was switched off
    /// and then saw no pause gets a line of its own: a week of fewer pauses is not a week of fewer tries.
    func addGateChanges(
        to apps: inout [WeeklyReview.AppPauses], from start: LocalDay, to end: LocalDay, names: [String: String],
        before: [String: Int]?, _ db: Database
    ) throws {
        let changes = Dictionary(grouping: try database.gateChangeCounts(appId: nil, from: start, to: end, db), by: \.appId)
        for (id, days) in changes.sorted(by: { $0.key < $1.key }) {
            let off = days.reduce(0) { $0 + $1.gatesOff }, loosened = days.reduce(0) { $0 + $1.blocksLoosened }
            if !apps.contains(where: { $0.appId == id }) {
                apps.append(
                    WeeklyReview.AppPauses(
                        appId: id, name: names[id] ?? id, attempts: 0, exits: 0, rescued: 0, proceeded: 0,
                        previousAttempts: before.map { $0[id] ?? 0 }))
            }
            guard let index = apps.firstIndex(where: { $0.appId == id }) else { continue }
            apps[index].gatesOff = off
            apps[index].blocksLoosened = loosened
        }
    }
}
