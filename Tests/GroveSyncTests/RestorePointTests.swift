import Foundation
import GroveCore
import GroveSimulation
import GroveStore
import GroveSync
import Testing

/// Restore points: the server keeps what pushes replaced for a while, and a device rebuilds the
/// account as it stood at any instant of that window into a new store — rows renamed since show
/// their old names, rows deleted since come back, rows made since are absent, children with them.
@Suite("Sync: restore points")
struct RestorePointTests {
    typealias World = SyncFaultTests.World

    static func rebuilt(_ device: SimulatedDevice, asOf: Date, pageSize: Int = 2) async throws -> (AppDatabase, RestoreSummary) {
        let target = try AppDatabase.inMemory()
        let summary = try await RestorePoint.rebuild(from: device.engine.transport, asOf: asOf, into: target, pageSize: pageSize)
        return (target, summary)
    }

    @Test("the account as it stood at an instant: renamed rows by their old names, deleted ones back, later ones absent")
    func asItStood() async throws {
        let world = try await World()
        let a = try await world.device(), b = try await world.device()
        let essay = try a.database.timers.create(name: "Essay", durationInSeconds: 600, todos: ["outline", "draft"])
        let reading = try a.database.timers.create(name: "Reading", durationInSeconds: 900, todos: ["chapter one"])
        _ = try await a.engine.sync()
        world.advance(3600, [a, b])
        let restorePoint = world.serverClock.now
        world.advance(3600, [a, b])
        _ = try await b.engine.sync()
        _ = try b.database.timers.update(id: essay.id, name: "Essay, second draft")
        try b.database.timers.delete(id: reading.id)
        _ = try b.database.timers.create(name: "Made later", durationInSeconds: 60)
        _ = try await b.engine.sync()
        world.advance(60, [a, b])

        // Pages of two rows: parents and children cross pages.
        let (then, summary) = try await Self.rebuilt(a, asOf: restorePoint)
        #expect(Set(try then.timers.all().map(\.name)) == ["Essay", "Reading"])
        #expect(Set(try then.timers.all().flatMap { $0.todoItems.map(\.text) }) == ["outline", "draft", "chapter one"])
        #expect(summary.refused == 0 && summary.rows >= 5, "\(summary)")
        // The restore point is a copy: it syncs nowhere and the account is as it is now.
        #expect(try then.sync.device() == nil)
        _ = try await a.engine.sync()
        #expect(Set(try a.database.timers.all().map(\.name)) == ["Essay, second draft", "Made later"])
        // Now, it is now.
        let (current, _) = try await Self.rebuilt(a, asOf: world.serverClock.now)
        #expect(Set(try current.timers.all().map(\.name)) == ["Essay, second draft", "Made later"])
    }

    @Test("an instant before the keep window, or in the future, is refused by name; pruning keeps the window")
    func window() async throws {
        let world = try await World()
        let service = SyncService(store: world.store, now: { [clock = world.serverClock] in clock.now }, bcryptCost: 4, historyKeep: 86_400)
        world.service = service
        let a = try await world.device()
        let timer = try a.database.timers.create(name: "First", durationInSeconds: 60)
        _ = try await a.engine.sync()
        world.advance(600, [a])
        let early = world.serverClock.now
        world.advance(600, [a])
        _ = try a.database.timers.update(id: timer.id, name: "Second")
        _ = try await a.engine.sync()
        #expect(Set(try await Self.rebuilt(a, asOf: early).0.timers.all().map(\.name)) == ["First"])
        await #expect(throws: SyncProblem.self) { _ = try await Self.rebuilt(a, asOf: world.serverClock.now.addingTimeInterval(60)) }
        // Two days on: the replaced name went with the window.
        world.advance(2 * 86_400, [a])
        #expect(try await service.pruneHistory() == 1)
        do {
            _ = try await Self.rebuilt(a, asOf: early)
            Issue.record("an instant before the window was shown")
        } catch let problem as SyncProblem {
            #expect(problem.status == 422 && problem.field == "asOf", "\(problem)")
        }
        #expect(
            Set(try await Self.rebuilt(a, asOf: world.serverClock.now.addingTimeInterval(-3600)).0.timers.all().map(\.name)) == ["Second"])
    }

    @Test("a linked store is never rebuilt into")
    func onlyIntoANewStore() async throws {
        let world = try await World()
        let a = try await world.device()
        _ = try await a.engine.sync()
        await #expect(throws: SyncStoreError.restoreIntoLinkedStore) {
            _ = try await RestorePoint.rebuild(from: a.engine.transport, asOf: world.serverClock.now, into: a.database)
        }
    }
}
