import Foundation
import Testing

@testable import GroveCore

@Suite("Timers, to-dos and sync messages")
struct TimerTests {
    let now = instant("2025-05-01T09:00:00Z")

    func timer(name: String = "Workout", seconds: Int = 1500, color: String = "#FF3B30") -> NamedTimer {
        NamedTimer(id: uuid(1), name: name, durationInSeconds: seconds, colorHex: color, createdAt: now)
    }

    @Test(arguments: [
        ("", 60, TimerValidationError.emptyName, "Timer name cannot be empty"),
        ("   ", 60, .emptyName, "Timer name cannot be empty"),
        ("Run", 0, .invalidDuration, "Duration must be greater than 0"),
        ("Run", -5, .invalidDuration, "Duration must be greater than 0"),
        ("Run", 86_401, .durationTooLong, "Duration cannot exceed 24 hours"),
    ])
    func validationUsesTheSeedsMessages(name: String, seconds: Int, error: TimerValidationError, message: String) {
        let t = timer(name: name, seconds: seconds)
        #expect(throws: error) { try t.validate() }
        #expect(error.message == message)
        #expect(error.errorDescription == message)
        #expect(!t.isValid)
    }

    @Test func boundariesAndColours() throws {
        try timer(seconds: 1).validate()
        try timer(seconds: 86_400).validate()
        #expect(throws: TimerValidationError.invalidColor("red")) { try timer(color: "red").validate() }
        #expect(TimerValidationError.invalidColor("x").field == "colorHex")
        #expect(TimerValidationError.emptyName.field == "name")
        #expect(TimerValidationError.durationTooLong.field == "durationInSeconds")
    }

    @Test func anIconIsReadByItsWordOrKeptAsTheSymbolNameGiven() throws {
        #expect(try TimerIcon.name(validating: "Book") == "book.fill")
        #expect(try TimerIcon.name(validating: " running ") == "figure.run")
        #expect(try TimerIcon.name(validating: "cup.and.saucer.fill") == "cup.and.saucer.fill")
        // The seed's icon is any symbol's name: one Grove does not draw is kept as given.
        #expect(try TimerIcon.name(validating: "alarm.fill") == "alarm.fill")
        #expect(TimerIcon.word(for: "alarm.fill") == "alarm.fill" && TimerIcon.word(for: "book.fill") == "book")
        #expect(throws: InvalidField.self) { try TimerIcon.name(validating: "a star!") }
        // Blank or too long: the seed's rule answers in its own words.
        #expect(try TimerIcon.name(validating: " ") == " ")
        #expect(TimerIcon.choice("moon.stars").symbol == "icon-timer")
        #expect(Set(TimerIcon.choices.map(\.symbol)).count == TimerIcon.choices.count)
    }

    @Test func todoValidationUsesTheSeedsMessage() {
        let item = TodoItem(id: uuid(2), text: "  ", createdAt: now)
        #expect(throws: TodoValidationError.emptyText) { try item.validate() }
        #expect(TodoValidationError.emptyText.message == "To-do text cannot be empty")
        #expect(!item.isValid)
    }

    @Test(arguments: [(1500, 0, 25, 0, "25:00"), (3661, 1, 1, 1, "01:01:01"), (59, 0, 0, 59, "00:59"), (86_400, 24, 0, 0, "24:00:00")])
    func computedDuration(seconds: Int, h: Int, m: Int, s: Int, formatted: String) {
        let t = timer(seconds: seconds)
        #expect(t.hours == h)
        #expect(t.minutes == m)
        #expect(t.seconds == s)
        #expect(t.formattedDuration == formatted)
    }

    @Test func sampleDataMatchesTheSeed() {
        let samples = NamedTimer.sampleData(createdAt: now)
        #expect(samples.map(\.name) == ["Workout", "Study Session", "Coffee Break", "Meditation"])
        #expect(samples.map(\.durationInSeconds) == [1500, 2700, 600, 1200])
        #expect(
            samples[0].todoItems.map(\.text) == ["Warm up 5 minutes", "20 push-ups", "30 squats", "Plank 1 minute", "Cool down stretch"])
        #expect(samples[1].todoItems.count == 2)
        #expect(samples[0].notes == "Remember to hydrate!")
        #expect(samples.allSatisfy { $0.isValid })
    }

    @Test func movingATodoRenumbersTheChecklist() {
        var items = (0..<4).map { TodoItem(id: uuid($0), text: "item \($0)", sortOrder: $0, createdAt: now) }
        items.move(from: 3, to: 0, at: now + 5)
        #expect(items.map(\.text) == ["item 3", "item 0", "item 1", "item 2"])
        #expect(items.map(\.sortOrder) == [0, 1, 2, 3])
        #expect(items[0].updatedAt == now + 5)
    }

    @Test func dtosRoundTripThroughJSON() throws {
        var t = timer()
        t.notes = "hydrate"
        t.todoItems = [
            TodoItem(id: uuid(2), text: "Warm up", sortOrder: 0, createdAt: now),
            TodoItem(id: uuid(3), text: "Run", isCompleted: true, sortOrder: 1, createdAt: now),
        ]
        let dto = TimerDTO(from: t)
        let data = try JSONEncoder().encode(dto)
        let decoded = try JSONDecoder().decode(TimerDTO.self, from: data)
        #expect(decoded == dto)
        #expect(try decoded.toModel() == t)
        #expect(decoded.schemaVersion == TimerDTO.currentSchemaVersion)

        let payload = TimerSyncPayload(timers: [dto], syncTimestamp: now)
        #expect(try JSONDecoder().decode(TimerSyncPayload.self, from: JSONEncoder().encode(payload)) == payload)
        let update = TimerUpdateMessage(type: .updated, timer: dto, timerID: t.id)
        #expect(try JSONDecoder().decode(TimerUpdateMessage.self, from: JSONEncoder().encode(update)) == update)
        let deleted = TimerUpdateMessage(type: .deleted, timer: nil, timerID: t.id)
        #expect(try JSONDecoder().decode(TimerUpdateMessage.self, from: JSONEncoder().encode(deleted)) == deleted)
        let quick = QuickActionMessage(action: .todoToggled, timerID: t.id, todoID: uuid(2), todoCompleted: true)
        #expect(try JSONDecoder().decode(QuickActionMessage.self, from: JSONEncoder().encode(quick)) == quick)
    }

    @Test func badPeerDataIsRejected() throws {
        var t = timer()
        t.name = ""
        #expect(throws: TimerValidationError.emptyName) { try TimerDTO(from: t).toModel() }
        let newer =
            ##"{"schemaVersion":99,"id":"00000000-0000-4000-8000-000000000001","name":"x","durationInSeconds":1,"icon":"t","colorHex":"#000000","createdAt":0,"updatedAt":0,"todoItems":[]}"##
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(TimerDTO.self, from: Data(newer.utf8)) }
        let updateWithoutTimer = #"{"type":"updated","timerID":"00000000-0000-4000-8000-000000000001"}"#
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(TimerUpdateMessage.self, from: Data(updateWithoutTimer.utf8)) }
    }

    @Test func quickActionsApply() throws {
        var t = timer()
        t.todoItems = [TodoItem(id: uuid(2), text: "Warm up", createdAt: now)]
        try QuickActionMessage(action: .todoToggled, timerID: t.id, todoID: uuid(2), todoCompleted: true).apply(to: &t, at: now + 1)
        #expect(t.todoItems[0].isCompleted)
        #expect(t.updatedAt == now + 1)
        try QuickActionMessage(action: .noteUpdated, timerID: t.id, noteText: "Stretch").apply(to: &t, at: now + 2)
        #expect(t.notes == "Stretch")
        #expect(throws: InvalidField.self) {
            try QuickActionMessage(action: .todoToggled, timerID: t.id, todoID: uuid(9), todoCompleted: true).apply(to: &t, at: now)
        }
    }
}
