import Foundation
import GRDB
import GroveCore
import Testing

@testable import GroveStore

@Suite("Timers and to-dos in the store")
struct TimerStoreTests {
    @Test func createReadUpdateAndOrder() throws {
        let (db, clock) = try makeStore()
        let b = try db.timers.create(name: "Study Session", durationInSeconds: 2700, todos: ["Review chapter 3", "Practice"])
        clock.advance(by: 1)
        let a = try db.timers.create(name: "Abs", durationInSeconds: 600, colorHex: "#ff3b30")
        #expect(a.colorHex == "#FF3B30")
        #expect(try db.timers.all().map(\.id) == [a.id, b.id], "newest first")
        #expect(try db.timers.all(orderedBy: .name).map(\.name) == ["Abs", "Study Session"])
        #expect(try db.timers.find(id: b.id)?.todoItems.map(\.text) == ["Review chapter 3", "Practice"])
        clock.advance(by: 5)
        let renamed = try db.timers.update(id: a.id, name: "Core", notes: "Breathe")
        #expect(renamed.name == "Core")
        #expect(renamed.updatedAt == clock.now)
        #expect(try db.timers.update(id: a.id, notes: "").notes == nil)
    }

    @Test func badInputIsRefusedWithTheSeedsMessageAndChangesNothing() throws {
        let (db, _) = try makeStore()
        let t = try db.timers.create(name: "Run", durationInSeconds: 60)
        let before = try snapshot(db)
        #expect(throws: TimerValidationError.emptyName) { try db.timers.create(name: " ", durationInSeconds: 60) }
        #expect(throws: TimerValidationError.durationTooLong) { try db.timers.update(id: t.id, durationInSeconds: 86_401) }
        #expect(throws: TodoValidationError.emptyText) { try db.timers.addTodo(timerID: t.id, text: "  ") }
        #expect(throws: TodoValidationError.emptyText) { try db.timers.create(name: "X", durationInSeconds: 60, todos: ["ok", ""]) }
        #expect(throws: NotFoundError.self) { try db.timers.addTodo(timerID: UUID(), text: "x") }
        #expect(try snapshot(db) == before)
        #expect(try db.timers.find(id: t.id)?.durationInSeconds == 60)
    }

    @Test func deletingATimerDeletesItsTodos() throws {
        let (db, _) = try makeStore()
        let t = try db.timers.create(name: "Workout", durationInSeconds: 1500, todos: ["Warm up", "Push-ups", "Squats"])
        let other = try db.timers.create(name: "Other", durationInSeconds: 60, todos: ["Keep me"])
        #expect(try db.writer.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM todo_item") } == 4)
        try db.timers.delete(id: t.id)
        #expect(try db.writer.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM todo_item") } == 1)
        #expect(try db.timers.find(id: other.id)?.todoItems.count == 1)
        #expect(throws: NotFoundError.self) { try db.timers.delete(id: t.id) }
    }

    @Test func checklistToggleMoveEditDelete() throws {
        let (db, clock) = try makeStore()
        let t = try db.timers.create(name: "Workout", durationInSeconds: 1500, todos: ["A", "B", "C"])
        clock.advance(by: 10)
        let toggled = try db.timers.toggleTodo(timerID: t.id, todoID: t.todoItems[1].id)
        #expect(toggled.isCompleted)
        #expect(toggled.updatedAt == clock.now)
        #expect(try db.timers.find(id: t.id)?.updatedAt == clock.now, "the parent is stamped too")
        try db.timers.moveTodo(timerID: t.id, todoID: t.todoItems[2].id, to: 0)
        #expect(try db.timers.find(id: t.id)?.todoItems.map(\.text) == ["C", "A", "B"])
        #expect(try db.timers.find(id: t.id)?.todoItems.map(\.sortOrder) == [0, 1, 2])
        #expect(throws: InvalidField.self) { try db.timers.moveTodo(timerID: t.id, todoID: t.todoItems[2].id, to: 3) }
        try db.timers.editTodo(timerID: t.id, todoID: t.todoItems[0].id, text: "A2")
        try db.timers.deleteTodo(timerID: t.id, todoID: t.todoItems[2].id)
        #expect(try db.timers.find(id: t.id)?.todoItems.map(\.text) == ["A2", "B"])
        #expect(try db.timers.find(id: t.id)?.todoItems.map(\.sortOrder) == [0, 1])
        let added = try db.timers.addTodo(timerID: t.id, text: "D")
        #expect(added.sortOrder == 2)
    }

    @Test func timersWithIncompleteTodos() throws {
        let (db, _) = try makeStore()
        let open = try db.timers.create(name: "Open", durationInSeconds: 60, todos: ["x"])
        let done = try db.timers.create(name: "Done", durationInSeconds: 60, todos: ["y"])
        _ = try db.timers.create(name: "Empty", durationInSeconds: 60)
        try db.timers.toggleTodo(timerID: done.id, todoID: done.todoItems[0].id)
        #expect(try db.timers.withIncompleteTodos().map(\.id) == [open.id])
    }

    @Test func syncMessagesAndSamples() throws {
        let (db, clock) = try makeStore()
        try db.timers.loadSamples()
        try db.timers.loadSamples()
        #expect(try db.timers.all().count == 4)
        let payload = try db.timers.syncPayload()
        #expect(payload.timers.count == 4)
        let (peer, _) = try makeStore()
        for dto in payload.timers { try peer.timers.apply(TimerUpdateMessage(type: .created, timer: dto, timerID: dto.id)) }
        #expect(
            try peer.timers.all().map(TimerDTO.init(from:)).sorted { $0.id.uuidString < $1.id.uuidString }
                == payload.timers.sorted { $0.id.uuidString < $1.id.uuidString })
        let workout = try #require(try db.timers.all().first { $0.name == "Workout" })
        clock.advance(by: 3)
        try db.timers.apply(
            QuickActionMessage(action: .todoToggled, timerID: workout.id, todoID: workout.todoItems[0].id, todoCompleted: true))
        #expect(try db.timers.find(id: workout.id)?.todoItems[0].isCompleted == true)
        try db.timers.apply(TimerUpdateMessage(type: .deleted, timer: nil, timerID: workout.id))
        #expect(try db.timers.find(id: workout.id) == nil)
    }

    @Test func anOlderMessageNeverOverwritesANewerTimerOrDeletesItsTodos() throws {
        let (db, clock) = try makeStore()
        let timer = try db.timers.create(name: "Essay", durationInSeconds: 600, todos: ["outline", "draft"])
        // A message written in 2020 about the same timer, with an empty checklist.
        var stale = TimerDTO(from: timer)
        stale = try JSONDecoder.grove.decode(TimerDTO.self, from: JSONEncoder.grove.encode(stale))
        var old = try stale.toModel()
        old.name = "Stale name"
        old.todoItems = []
        old.updatedAt = Date(timeIntervalSince1970: 1_580_000_000)
        #expect(try db.timers.apply(TimerUpdateMessage(type: .updated, timer: TimerDTO(from: old), timerID: timer.id)) == false)
        let kept = try #require(try db.timers.find(id: timer.id))
        #expect(kept.name == "Essay" && kept.todoItems.map(\.text) == ["outline", "draft"])

        // A newer message wins, checklist included (the peer ticked a to-do).
        clock.advance(by: 60)
        var newer = kept
        newer.name = "Essay draft"
        newer.todoItems[0].isCompleted = true
        newer.todoItems[0].updatedAt = clock.now
        newer.updatedAt = clock.now
        #expect(try db.timers.apply(TimerUpdateMessage(type: .updated, timer: TimerDTO(from: newer), timerID: timer.id)))
        let merged = try #require(try db.timers.find(id: timer.id))
        #expect(merged.name == "Essay draft")
        #expect(merged.todoItems.map(\.text) == ["outline", "draft"] && merged.todoItems[0].isCompleted)
        // A to-do changed here after the message was written keeps its version.
        var local = merged
        local.todoItems.append(TodoItem(id: UUID(), text: "added here later", sortOrder: 2, createdAt: clock.now.addingTimeInterval(30)))
        local.todoItems[2].updatedAt = clock.now.addingTimeInterval(30)
        let peer = TimerMerge.merge(
            existing: local,
            incoming: {
                var m = merged; m.updatedAt = clock.now.addingTimeInterval(10); return m
            }())
        #expect(peer?.todoItems.map(\.text) == ["outline", "draft", "added here later"])
        // The whole payload goes by the same rule.
        #expect(try db.timers.apply(TimerSyncPayload(timers: [TimerDTO(from: old)], syncTimestamp: clock.now)) == 0)
    }

    @Test func unknownSchemaVersionsAreRefusedInEveryMessage() throws {
        let timer =
            ##"{"id":"6A1C6E1E-4E4E-4A4A-9A9A-1A1A1A1A1A1A","name":"x","durationInSeconds":60,"icon":"timer","colorHex":"#007AFF","createdAt":"2026-01-01T00:00:00Z","updatedAt":"2026-01-01T00:00:00Z","todoItems":[]}"##
        let bodies = [
            #"{"schemaVersion":99,"type":"deleted","timerID":"6A1C6E1E-4E4E-4A4A-9A9A-1A1A1A1A1A1A"}"#,
            #"{"schemaVersion":0,"type":"created","timer":"# + timer + #","timerID":"6A1C6E1E-4E4E-4A4A-9A9A-1A1A1A1A1A1A"}"#,
            #"{"schemaVersion":2,"action":"noteUpdated","timerID":"6A1C6E1E-4E4E-4A4A-9A9A-1A1A1A1A1A1A","noteText":"x"}"#,
            #"{"schemaVersion":-1,"timers":[],"syncTimestamp":"2026-01-01T00:00:00Z"}"#,
        ]
        #expect(throws: DecodingError.self) { try JSONDecoder.grove.decode(TimerUpdateMessage.self, from: Data(bodies[0].utf8)) }
        #expect(throws: DecodingError.self) { try JSONDecoder.grove.decode(TimerUpdateMessage.self, from: Data(bodies[1].utf8)) }
        #expect(throws: DecodingError.self) { try JSONDecoder.grove.decode(QuickActionMessage.self, from: Data(bodies[2].utf8)) }
        #expect(throws: DecodingError.self) { try JSONDecoder.grove.decode(TimerSyncPayload.self, from: Data(bodies[3].utf8)) }
        #expect(
            try JSONDecoder.grove.decode(TimerUpdateMessage.self, from: Data(bodies[0].replacingOccurrences(of: "99", with: "1").utf8)).type
                == .deleted)
    }
}

private extension JSONDecoder {
    static var grove: JSONDecoder { GroveExport.makeDecoder() }
}

private extension JSONEncoder {
    static var grove: JSONEncoder { GroveExport.makeEncoder() }
}
