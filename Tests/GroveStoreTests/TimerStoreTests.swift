import Foundation
import GRDB
import GroveCore
import Testing
@testable import GroveStore

@Suite("Timers and to-dos in the store")
struct TimerStoreTests {
    @Test func createReadUpdateAndOrder() throws {
        let (db, clock) = try makeStore()
        let b = try db.createTimer(name: "Study Session", durationInSeconds: 2700, todos: ["Review chapter 3", "Practice"])
        clock.advance(by: 1)
        let a = try db.createTimer(name: "Abs", durationInSeconds: 600, colorHex: "#ff3b30")
        #expect(a.colorHex == "#FF3B30")
        #expect(try db.timers().map(\.id) == [a.id, b.id], "newest first")
        #expect(try db.timers(orderedBy: .name).map(\.name) == ["Abs", "Study Session"])
        #expect(try db.timer(id: b.id)?.todoItems.map(\.text) == ["Review chapter 3", "Practice"])
        clock.advance(by: 5)
        let renamed = try db.updateTimer(id: a.id, name: "Core", notes: "Breathe")
        #expect(renamed.name == "Core")
        #expect(renamed.updatedAt == clock.now)
        #expect(try db.updateTimer(id: a.id, notes: "").notes == nil)
    }

    @Test func badInputIsRefusedWithTheSeedsMessageAndChangesNothing() throws {
        let (db, _) = try makeStore()
        let t = try db.createTimer(name: "Run", durationInSeconds: 60)
        let before = try snapshot(db)
        #expect(throws: TimerValidationError.emptyName) { try db.createTimer(name: " ", durationInSeconds: 60) }
        #expect(throws: TimerValidationError.durationTooLong) { try db.updateTimer(id: t.id, durationInSeconds: 86_401) }
        #expect(throws: TodoValidationError.emptyText) { try db.addTodo(timerID: t.id, text: "  ") }
        #expect(throws: TodoValidationError.emptyText) { try db.createTimer(name: "X", durationInSeconds: 60, todos: ["ok", ""]) }
        #expect(throws: NotFoundError.self) { try db.addTodo(timerID: UUID(), text: "x") }
        #expect(try snapshot(db) == before)
        #expect(try db.timer(id: t.id)?.durationInSeconds == 60)
    }

    @Test func deletingATimerDeletesItsTodos() throws {
        let (db, _) = try makeStore()
        let t = try db.createTimer(name: "Workout", durationInSeconds: 1500, todos: ["Warm up", "Push-ups", "Squats"])
        let other = try db.createTimer(name: "Other", durationInSeconds: 60, todos: ["Keep me"])
        #expect(try db.writer.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM todo_item") } == 4)
        try db.deleteTimer(id: t.id)
        #expect(try db.writer.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM todo_item") } == 1)
        #expect(try db.timer(id: other.id)?.todoItems.count == 1)
        #expect(throws: NotFoundError.self) { try db.deleteTimer(id: t.id) }
    }

    @Test func checklistToggleMoveEditDelete() throws {
        let (db, clock) = try makeStore()
        let t = try db.createTimer(name: "Workout", durationInSeconds: 1500, todos: ["A", "B", "C"])
        clock.advance(by: 10)
        let toggled = try db.toggleTodo(timerID: t.id, todoID: t.todoItems[1].id)
        #expect(toggled.isCompleted)
        #expect(toggled.updatedAt == clock.now)
        #expect(try db.timer(id: t.id)?.updatedAt == clock.now, "the parent is stamped too")
        try db.moveTodo(timerID: t.id, todoID: t.todoItems[2].id, to: 0)
        #expect(try db.timer(id: t.id)?.todoItems.map(\.text) == ["C", "A", "B"])
        #expect(try db.timer(id: t.id)?.todoItems.map(\.sortOrder) == [0, 1, 2])
        #expect(throws: InvalidField.self) { try db.moveTodo(timerID: t.id, todoID: t.todoItems[2].id, to: 3) }
        try db.editTodo(timerID: t.id, todoID: t.todoItems[0].id, text: "A2")
        try db.deleteTodo(timerID: t.id, todoID: t.todoItems[2].id)
        #expect(try db.timer(id: t.id)?.todoItems.map(\.text) == ["A2", "B"])
        #expect(try db.timer(id: t.id)?.todoItems.map(\.sortOrder) == [0, 1])
        let added = try db.addTodo(timerID: t.id, text: "D")
        #expect(added.sortOrder == 2)
    }

    @Test func timersWithIncompleteTodos() throws {
        let (db, _) = try makeStore()
        let open = try db.createTimer(name: "Open", durationInSeconds: 60, todos: ["x"])
        let done = try db.createTimer(name: "Done", durationInSeconds: 60, todos: ["y"])
        _ = try db.createTimer(name: "Empty", durationInSeconds: 60)
        try db.toggleTodo(timerID: done.id, todoID: done.todoItems[0].id)
        #expect(try db.timersWithIncompleteTodos().map(\.id) == [open.id])
    }

    @Test func syncMessagesAndSamples() throws {
        let (db, clock) = try makeStore()
        try db.loadSampleTimers()
        try db.loadSampleTimers()
        #expect(try db.timers().count == 4)
        let payload = try db.timerSyncPayload()
        #expect(payload.timers.count == 4)
        let (peer, _) = try makeStore()
        for dto in payload.timers { try peer.apply(TimerUpdateMessage(type: .created, timer: dto, timerID: dto.id)) }
        #expect(try peer.timers().map(TimerDTO.init(from:)).sorted { $0.id.uuidString < $1.id.uuidString }
                == payload.timers.sorted { $0.id.uuidString < $1.id.uuidString })
        let workout = try #require(try db.timers().first { $0.name == "Workout" })
        clock.advance(by: 3)
        try db.apply(QuickActionMessage(action: .todoToggled, timerID: workout.id, todoID: workout.todoItems[0].id, todoCompleted: true))
        #expect(try db.timer(id: workout.id)?.todoItems[0].isCompleted == true)
        try db.apply(TimerUpdateMessage(type: .deleted, timer: nil, timerID: workout.id))
        #expect(try db.timer(id: workout.id) == nil)
    }
}
