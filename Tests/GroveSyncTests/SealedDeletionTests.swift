import Foundation
import GroveCore
import GroveSimulation
import GroveStore
import GroveSync
import Testing

/// Deletions on an encrypted account carry a sealed mark (a box of nothing bound to the record and
/// the deletion's clock): the server keeps it with the tombstone and cannot make one up, so it cannot
/// delete what no device deleted.
@Suite("Sync: sealed deletions")
struct SealedDeletionTests {
    typealias World = SyncFaultTests.World

    /// A server that also sends a deletion no device made, of `id`, with each pull.
    struct ForgingTransport: ForwardingTransport {
        let inner: any SyncTransport
        let entity: String, id: String, clock: HLC
        func pull(cursor: Int64, limit: Int, checksum: String, full: Bool) async throws -> PullResponse {
            var page = try await inner.pull(cursor: cursor, limit: limit, checksum: checksum, full: full)
            page.changes.append(SyncChange(seq: page.cursor, entity: entity, entityId: id, state: SyncState(tomb: clock), deleted: true))
            return page
        }
    }

    @Test("a deletion travels sealed to the other device; the server keeps its mark and refuses one without")
    func deletionsTravelSealed() async throws {
        let world = try await World()
        let a = try await world.device(), b = try await world.device()
        let essay = try a.database.timers.create(name: "Essay", durationInSeconds: 600, todos: ["outline"])
        _ = try await a.engine.sync()
        _ = try await b.engine.sync()
        let (key, _, _) = try await EncryptedSyncTests.encrypt(world, a)
        try EncryptedSyncTests.unlock(key, b)
        _ = try await b.engine.sync()
        #expect(try b.database.timers.all().count == 1)
        try a.database.timers.delete(id: essay.id)
        _ = try await a.engine.sync()
        let onB = try await b.engine.sync()
        #expect(try b.database.timers.all().isEmpty, "\(onB.notes)")
        let stored = try await world.store.entities(userId: world.userId)
        let tombstone = try #require(stored[EntityKey(entity: "timer", id: essay.id.uuidString)])
        #expect(tombstone.tomb != nil && tombstone.fields["@tomb"]?.text?.hasPrefix(SealedValue.prefix) == true)
        try await EncryptedSyncTests.expectSealed(world)
        // A delete without its mark is refused whole.
        let caller = try await world.service.authenticate(token: try EncryptedSyncTests.token(a))
        let last = try await world.service.status(caller).lastMutationId
        let clock = HLC(millis: world.serverClock.now.groveMillis, counter: 0, node: HLC.node(for: caller.device.id))
        let bare = SyncMutation(id: last + 1, hlc: clock, entity: "timer", entityId: UUID().uuidString, op: .delete)
        await #expect(throws: SyncServerError.push(.notSealed(mutationId: last + 1, field: "@tomb"))) {
            _ = try await world.service.push(caller, PushRequest(deviceId: caller.device.id, mutations: [bare]))
        }
    }

    @Test("a deletion the server makes up deletes nothing on a device, and is said")
    func madeUpDeletion() async throws {
        let world = try await World()
        let a = try await world.device()
        let essay = try a.database.timers.create(name: "Essay", durationInSeconds: 600)
        let (key, _, _) = try await EncryptedSyncTests.encrypt(world, a)
        let inner = (a.engine.transport as? SealingTransport)?.inner ?? a.engine.transport
        let later = HLC(millis: world.serverClock.now.groveMillis + 1000, counter: 0, node: "00000000000000ff")
        a.engine.transport = SealingTransport(
            inner: ForgingTransport(inner: inner, entity: "timer", id: essay.id.uuidString, clock: later), key: key)
        let summary = try await a.engine.sync()
        #expect(try a.database.timers.all().map(\.id) == [essay.id])
        #expect(summary.notes.contains { $0.contains("no device of yours made it") }, "\(summary.notes)")
    }

    @Test("a mark opens only for its record and clock; an unmarked tombstone under a newer insert is dropped")
    func marks() throws {
        let key = DataKey.random(), sealer = Sealer(key: key)
        let clock = try #require(HLC("2026-11-24T09:00:00.000Z-0000-00000000000000aa"))
        let later = try #require(HLC("2026-11-24T10:00:00.000Z-0000-00000000000000aa"))
        let delete = try sealer.seal(SyncMutation(id: 1, hlc: later, entity: "timer", entityId: "A", op: .delete))
        let genuine = SyncState(fields: delete.fields, clocks: ["tomb": later], tomb: later)
        let opened = try sealer.open(SyncChange(seq: 1, entity: "timer", entityId: "A", state: genuine, deleted: true))
        #expect(opened.tomb == later && opened.clocks["tomb"] == nil && opened.fields.isEmpty)
        for (id, state) in [
            ("A", SyncState(tomb: later)), ("B", genuine), ("A", SyncState(fields: delete.fields, clocks: ["tomb": clock], tomb: clock)),
        ] {
            #expect(throws: AccountKeyError.unsealedDeletion(entity: "timer", id: id)) {
                _ = try sealer.open(SyncChange(seq: 2, entity: "timer", entityId: id, state: state, deleted: true))
            }
        }
        // A theme deleted before sealed deletions and made again since: its tombstone can delete nothing.
        let put = try sealer.seal(
            SyncMutation(id: 2, hlc: later, entity: "theme", entityId: "T", op: .put, fields: ["name": .text("Dusk")]))
        let revived = SyncState(fields: put.fields, clocks: ["name": later], alive: later, tomb: clock)
        let kept = try sealer.open(SyncChange(seq: 3, entity: "theme", entityId: "T", state: revived, deleted: false))
        #expect(kept.tomb == nil && kept.fields["name"] == .text("Dusk"))
    }
}
