import Foundation
import GRDB
import GroveCore
import Testing

@testable import GroveStore

@Suite("Applied requests: a change sent again is applied once")
struct AppliedRequestTests {
    /// Runs `body` as the request keyed `key` (what `IdempotencyMiddleware` does for a face).
    func asRequest<T>(_ key: String, _ body: () throws -> T) throws -> T {
        let request = try #require(AppliedRequest(key: key, request: "POST /toggle"))
        return try AppliedRequest.$current.withValue(request) { try body() }
    }

    @Test func theKeyIsKeptWithTheChangeAndASecondArrivalChangesNothing() throws {
        let (db, _) = try makeStore()
        let timer = try db.timers.create(name: "Tea", durationInSeconds: 180)
        let todo = try db.timers.addTodo(timerID: timer.id, text: "Kettle")
        let ticked = try asRequest("key-0001") { try db.timers.toggleTodo(timerID: timer.id, todoID: todo.id) }
        #expect(ticked.isCompleted)
        #expect(try db.appliedRequest(key: "key-0001")?.request == "POST /toggle")
        #expect(throws: AlreadyApplied(key: "key-0001")) {
            try asRequest("key-0001") { try db.timers.toggleTodo(timerID: timer.id, todoID: todo.id) }
        }
        #expect(try db.timers.find(id: timer.id)?.todoItems.first?.isCompleted == true, "the second arrival did not untick it")
        // Without a key, a toggle is a toggle (what the key protects against).
        #expect(try !db.timers.toggleTodo(timerID: timer.id, todoID: todo.id).isCompleted)
    }

    @Test func aRefusedChangeKeepsNoKeyAndIsJudgedAgain() throws {
        let (db, _) = try makeStore()
        #expect(throws: FocusError.noOpenSession) { try asRequest("pause-0001") { try db.focus.pause() } }
        #expect(try db.appliedRequest(key: "pause-0001") == nil)
        try db.focus.start(plannedDuration: 1500)
        #expect(try asRequest("pause-0001") { try db.focus.pause() }.state == .paused)
    }

    @Test func tasksOfOneRequestWritingAtOnceAreNotTakenForARepeat() async throws {
        let (db, _) = try makeStore()
        let request = try #require(AppliedRequest(key: "push-test-1", request: "POST /push/test"))
        // A request whose work fans out (a push to every browser, each noting its outcome): the tasks
        // share its key, and only one of their writes keeps it.
        let made = try await AppliedRequest.$current.withValue(request) {
            try await withThrowingTaskGroup(of: Bool.self) { group in
                for n in 0..<8 { group.addTask { try db.timers.create(name: "Tea \(n)", durationInSeconds: 60).name.isEmpty == false } }
                return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
        }
        #expect(made == 8)
        #expect(request.recorded)
        #expect(try db.appliedRequest(key: "push-test-1") != nil)
    }

    @Test func keysAreForgottenAfterThirtyDays() throws {
        let (db, clock) = try makeStore()
        try asRequest("old-key-1") { try db.focus.start(plannedDuration: 1500) }
        clock.advance(by: AppDatabase.appliedRequestsKept + 60)
        try asRequest("new-key-1") { try db.focus.start(plannedDuration: 1500) }
        #expect(try db.appliedRequest(key: "old-key-1") == nil)
        #expect(try db.appliedRequest(key: "new-key-1") != nil)
    }

    @Test func aKeyIsEightToAHundredSafeCharacters() {
        #expect(AppliedRequest(key: "short", request: "POST /") == nil)
        #expect(AppliedRequest(key: String(repeating: "a", count: 101), request: "POST /") == nil)
        #expect(AppliedRequest(key: "has space 1", request: "POST /") == nil)
        #expect(AppliedRequest(key: "0f6e1f9c-3b0e-4c2e-9f5a-2d1b7c8e9a10", request: "POST /") != nil)
    }
}
