import Foundation
import GroveCore
import Testing

@testable import GroveStore

@Suite("The weekly review")
struct ReviewStoreTests {
    /// Berlin, the week of 24–30 March 2025 (Monday first): the clocks go forward on its Sunday.
    func berlin(now: String = "2025-04-02T10:00:00Z") throws -> (AppDatabase, TestClock, ZonedCalendar) {
        let (db, clock) = try makeStore(at: now, zone: "Europe/Berlin")
        _ = try db.intentions.changePreferences { $0.firstWeekday = 1 }
        return (db, clock, try db.calendar())
    }

    @Test func focusPerDayMatchesTheSessionsAcrossTheDSTChange() throws {
        let (db, _, calendar) = try berlin()
        // Sessions around the week's edges and across the change (times in UTC).
        let sessions: [(String, String, Bool)] = [
            ("2025-03-23T22:40:00Z", "2025-03-23T23:05:00Z", false),  // ends 00:05 Monday in Berlin: in the week
            ("2025-03-24T08:00:00Z", "2025-03-24T08:25:00Z", false),
            ("2025-03-24T09:00:00Z", "2025-03-24T09:50:00Z", false),
            ("2025-03-26T12:00:00Z", "2025-03-26T12:10:00Z", true),  // abandoned
            ("2025-03-30T00:30:00Z", "2025-03-30T01:20:00Z", false),  // 01:30 CET → 03:20 CEST: 50 real minutes
            ("2025-03-30T21:50:00Z", "2025-03-30T22:15:00Z", false),  // ends 00:15 Monday 31 March: next week
            ("2025-03-17T10:00:00Z", "2025-03-17T10:45:00Z", false),  // the week before
        ]
        var logged: [FocusSession] = []
        for (start, end, abandoned) in sessions {
            logged.append(try db.focus.log(start: instant(start), end: instant(end), abandoned: abandoned))
        }
        let review = try db.review.week(containing: day("2025-03-27"))
        #expect(review.start == day("2025-03-24") && review.end == day("2025-03-30") && review.week == "2025-W13")
        #expect(review.days.map(\.weekday) == ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"])
        // The oracle: the sessions themselves, grouped by the Berlin day they ended on.
        for reviewDay in review.days {
            let mine = logged.filter { $0.state == .completed && calendar.localDay(of: $0.endTime!) == reviewDay.date }
            #expect(reviewDay.trees == mine.count, "\(reviewDay.date)")
            #expect(reviewDay.focusMinutes == Int((mine.reduce(0) { $0 + $1.duration } / 60).rounded()), "\(reviewDay.date)")
        }
        #expect(review.days[0].focusMinutes == 25 + 25 + 50 && review.days[6].focusMinutes == 50)
        #expect(review.abandoned == 1 && review.days[2].abandoned == 1)
        #expect(review.focusMinutes == 150 && review.previousWeekFocusMinutes == 45)
        // The streak at the week's end: Sunday only (Saturday had none).
        #expect(review.streak == 1)
    }

    @Test func intentionsPausesChecklistsAndNextWeeksReminders() throws {
        let (db, clock, calendar) = try berlin(now: "2025-03-26T09:00:00Z")
        try db.intentions.set("Finish the essay draft", scope: .week)
        try db.intentions.set("Outline chapter two", scope: .day)
        try db.pause.setAppEnabled(id: "youtube", true)
        // Three openings: left, a tree instead, and one waited out and opened.
        let a = try db.pause.open(appId: "youtube", platform: "test").session
        try db.pause.finishSession(id: a.id, status: .exited, outcome: .exitToHome)
        let b = try db.pause.open(appId: "youtube", platform: "test").session
        try db.pause.finishSession(id: b.id, status: .exited, outcome: .deepenPause)
        // (`start`, not the gate: the gate keeps the app closed while b's tree grows.)
        let c = try db.pause.start(appId: "youtube", platform: "test").session
        clock.advance(by: TimeInterval(c.durationSetting))
        try db.pause.finishSession(id: c.id, status: .completed, outcome: .proceedToApp)
        let tea = try db.timers.create(name: "Tea", durationInSeconds: 240, todos: ["Kettle", "Cup"])
        let notes = try db.timers.create(name: "Notes", durationInSeconds: 600, todos: ["Read", "Write"])
        for todo in tea.todoItems { try db.timers.toggleTodo(timerID: tea.id, todoID: todo.id) }
        try db.timers.toggleTodo(timerID: notes.id, todoID: notes.todoItems[0].id)
        var settings = try db.intentions.preferences().notificationSettings
        settings.weeklyEnabled = true
        settings.weeklyDay = 1
        settings.weeklyTime = TimeOfDay(hour: 9, minute: 0)
        settings.dailyEnabled = false
        settings.monthlyEnabled = false
        _ = try db.intentions.changePreferences { $0.notificationSettings = settings }

        let review = try db.review.week()
        #expect(review.weekIntention == "Finish the essay draft")
        #expect(review.days.first { $0.date == day("2025-03-26") }?.intention == "Outline chapter two")
        #expect(
            review.pauses == [
                WeeklyReview.AppPauses(
                    appId: "youtube", name: "YouTube", attempts: 3, exits: 1, rescued: 1, proceeded: 1, previousAttempts: 0)
            ])
        #expect(review.pausesKept)
        #expect(review.todosCompleted == 3 && review.checklistsCompleted == ["Tea"])
        // Next week's Monday 09:00 in Berlin, summer time by then: 07:00 UTC.
        #expect(review.upcomingReminders == [WeeklyReview.Reminder(kind: .weekly, at: instant("2025-03-31T07:00:00Z"))])
        #expect(calendar.wallText(review.upcomingReminders[0].at) == "2025-03-31 09:00")

        // A week past the 30 days pauses are kept says so instead of showing zeros.
        clock.advance(by: 40 * 86_400)
        let old = try db.review.week(containing: day("2025-03-26"))
        #expect(!old.pausesKept && old.pauses.isEmpty)
        // Last week had none of it.
        let before = try db.review.week(containing: day("2025-03-19"))
        #expect(before.weekIntention == nil && before.todosCompleted == 0 && before.checklistsCompleted.isEmpty)
    }

    @Test func weeksAreNamedTheISOWay() {
        #expect(ISOWeek.label(day("2026-11-23")) == "2026-W48")
        #expect(ISOWeek.label(day("2021-01-01")) == "2020-W53")
        #expect(ISOWeek.label(day("2024-12-30")) == "2025-W01")
        #expect(ISOWeek.monday("2026-W48") == day("2026-11-23"))
        #expect(ISOWeek.monday("2020w53") == day("2020-12-28"))
        #expect(ISOWeek.monday("2025-W01") == day("2024-12-30"))
        for bad in ["2021-W53", "2026-W00", "2026-W54", "2026-W4", "26-W47", "2026-47", "", "W47", "２０２６-W47"] {
            #expect(ISOWeek.monday(bad) == nil, "\(bad)")
        }
        let today = day("2026-11-25")
        #expect(WeeklyReview.day(in: "last", today: today) == day("2026-11-18"))
        #expect(WeeklyReview.day(in: "this", today: today) == today)
        #expect(WeeklyReview.day(in: "2026-11-02", today: today) == day("2026-11-02"))
        #expect(WeeklyReview.day(in: "next tuesday", today: today) == nil)
    }
}

@Suite("The weekly review: week names and tick instants")
struct ReviewWeekTests {
    /// Wednesday 14 May 2025 is in ISO week 20 (12–18 May). A Thursday-first week holding it (8–14 May)
    /// has four days in week 19.
    @Test(arguments: [
        (0, "2025-05-11", "2025-W20"), (6, "2025-05-10", "2025-W20"), (1, "2025-05-12", "2025-W20"), (4, "2025-05-08", "2025-W19"),
    ])
    func aWeekIsNamedByTheISOWeekHoldingMostOfItsDaysAndThatNameSelectsIt(firstWeekday: Int, start: String, name: String) throws {
        let clock = TestClock(instant("2025-05-14T09:00:00Z"))
        let db = try AppDatabase.inMemory(environment: .test(clock: clock))
        _ = try db.intentions.changePreferences { $0.firstWeekday = firstWeekday }
        let review = try db.review.week(containing: day("2025-05-14"))
        #expect(review.start == day(start))
        #expect(review.week == name)
        // The name it prints selects the same week, on every face (they all read it with this rule).
        #expect(try db.review.week(named: review.week).start == review.start)
        #expect(
            try db.review.week(named: ISOWeek.label(weekStarting: review.start.adding(days: -7))).start == review.start.adding(days: -7))
        #expect(throws: InvalidField.self) { try db.review.week(named: "W20") }
    }

    @Test func aTickStaysInTheWeekItWasMadeWhateverIsEditedLater() throws {
        let clock = TestClock(instant("2025-05-14T09:00:00Z"))
        let db = try AppDatabase.inMemory(environment: .test(clock: clock))
        let tea = try db.timers.create(name: "Tea", durationInSeconds: 240, todos: ["Kettle"])
        try db.timers.toggleTodo(timerID: tea.id, todoID: tea.todoItems[0].id)
        // A week later the to-do's text changes and a new one is added and moved first.
        clock.advance(by: 7 * 86_400)
        let todo = try #require(try db.timers.find(id: tea.id)?.todoItems.first)
        try db.timers.editTodo(timerID: tea.id, todoID: todo.id, text: "Boil the kettle")
        let cup = try db.timers.addTodo(timerID: tea.id, text: "Cup")
        try db.timers.toggleTodo(timerID: tea.id, todoID: cup.id)
        try db.timers.moveTodo(timerID: tea.id, todoID: cup.id, to: 0)
        #expect(try db.review.week(containing: day("2025-05-14")).todosCompleted == 1)
        #expect(try db.review.week(containing: day("2025-05-14")).checklistsCompleted == [], "finished by its last tick, next week")
        // This week: the new to-do's tick only, and the checklist finished by it.
        #expect(try db.review.week(containing: day("2025-05-21")).todosCompleted == 1)
        #expect(try db.review.week(containing: day("2025-05-21")).checklistsCompleted == ["Tea"])
        // Unticked and ticked again: the new tick's week.
        try db.timers.toggleTodo(timerID: tea.id, todoID: todo.id)
        try db.timers.toggleTodo(timerID: tea.id, todoID: todo.id)
        #expect(try db.review.week(containing: day("2025-05-14")).todosCompleted == 0)
        #expect(try db.review.week(containing: day("2025-05-21")).todosCompleted == 2)
    }
}
