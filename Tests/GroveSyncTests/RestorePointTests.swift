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

    @Test("a restore point made current: every device takes it, history stays, and what a device had not sent goes on top")
    func madeCurrent() async throws {
        let world = try await World()
        let a = try await world.device(), c = try await world.device()
        func names(_ device: SimulatedDevice) throws -> Set<String> { Set(try device.database.timers.all().map(\.name)) }
        let essay = try a.database.timers.create(name: "Essay", durationInSeconds: 600, todos: ["outline"])
        let reading = try a.database.timers.create(name: "Reading", durationInSeconds: 900, todos: ["chapter one"])
        _ = try await a.engine.sync()
        world.advance(3600, [a, c])
        let restorePoint = world.serverClock.now
        world.advance(3600, [a, c])
        _ = try a.database.timers.update(id: essay.id, name: "Essay, ruined")
        try a.database.timers.delete(id: reading.id)
        _ = try a.database.timers.create(name: "Made later", durationInSeconds: 60)
        _ = try await a.engine.sync()
        _ = try await c.engine.sync()
        // On c, not sent yet when the account goes back: a new title for the essay, and a new timer.
        world.advance(60, [a, c])
        _ = try c.database.timers.update(id: essay.id, name: "Essay, c's title")
        _ = try c.database.timers.create(name: "Offline on c", durationInSeconds: 120)
        world.advance(60, [a, c])

        let path = NSTemporaryDirectory() + "grove-restore-\(UUID().uuidString).sqlite"
        defer { for suffix in ["", "-wal", "-shm", ".lock"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let target = try AppDatabase.open(path: path, environment: a.database.environment, createDirectory: false)
        _ = try await RestorePoint.rebuild(from: a.engine.transport, asOf: restorePoint, into: target)
        // Asked first: what it would change, and nothing written.
        let preview = try a.database.sync.makeCurrent(restoredFrom: path, asOf: restorePoint, deviceName: "a", apply: false)
        // Back: the timer and its to-do; as it was: the essay's name; removed: the timer made later.
        #expect(preview.added == 2 && preview.changed == 1 && preview.removed == 1 && !preview.applied, "\(preview)")
        #expect(try a.database.sync.pendingCount() == 0 && names(a) == ["Essay, ruined", "Made later"])
        let done = try a.database.sync.makeCurrent(restoredFrom: path, asOf: restorePoint, deviceName: "a", apply: true)
        #expect(done.total == 4)
        _ = try await a.engine.sync()
        #expect(try names(a) == ["Essay", "Reading"])
        #expect(Set(try a.database.timers.all().flatMap { $0.todoItems.map(\.text) }) == ["outline", "chapter one"])

        // c takes the restore, and its own unsent changes land on top of it.
        world.advance(60, [a, c])
        let onC = try await c.engine.sync()
        #expect(onC.notes.contains { $0.contains("went on top") }, "\(onC.notes)")
        _ = try await a.engine.sync()
        for device in [a, c] {
            let now = try names(device)
            #expect(now == ["Essay, c's title", "Reading", "Offline on c"], "\(now)")
        }
        // The server's history is whole: the account as it stood before the restore still opens.
        let (before, _) = try await Self.rebuilt(a, asOf: restorePoint.addingTimeInterval(3600 + 30))
        #expect(Set(try before.timers.all().map(\.name)) == ["Essay, ruined", "Made later"])
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
