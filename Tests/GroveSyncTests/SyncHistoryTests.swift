import Foundation
import GRDB
import GroveCore
import GroveSimulation
import GroveSync
import Testing

@testable import GroveStore

/// No history disappears as a side effect through sync: a deletion from another device retires an
/// app or a content item that pauses here name, as a removal here does, and every device keeps them.
@Suite("Pause history kept through sync", .timeLimit(.minutes(5)))
struct SyncHistoryTests {
    typealias World = SyncFaultTests.World

    static let quote = MindfulnessContent(
        id: "own-quote", type: .quote, text: "Attention is the rarest and purest form of generosity, said Simone Weil.",
        category: .mindfulness, author: "Simone Weil")

    /// Two devices that both know the app `news` and the person's own quote; b pauses in front of it.
    static func pausedOnB() async throws -> (World, SimulatedDevice, SimulatedDevice) {
        let world = try await World()
        let a = try await world.device(), b = try await world.device()
        try a.database.pause.addApp(SocialApp(id: "news", displayName: "News", urlScheme: "news://", iconAssetName: "newspaper", order: 20))
        try a.database.content.save([quote])
        _ = try await a.engine.sync()
        _ = try await b.engine.sync()
        world.advance(60, [a, b])
        let start = b.clock.now
        try b.database.pause.record(
            GatewaySession(
                id: UUID(), appId: "news", contentId: quote.id, startTimestamp: start, durationSetting: 15,
                completionStatus: .completed, timeSpent: 15, actionOutcome: .exitToHome, platform: "linux-cli",
                calendar: ZonedCalendar(timeZone: SyncFaultTests.zone), endTimestamp: start.addingTimeInterval(15)))
        return (world, a, b)
    }

    static func pauses(_ device: SimulatedDevice) throws -> Int {
        try device.database.pause.statistics().reduce(0) { $0 + $1.totalSessions }
    }

    @Test("a quote and an app removed on a device that has not seen the pause: both devices keep it", arguments: [false, true])
    func removedBeforeThePauseArrived(bSyncsFirst: Bool) async throws {
        let (world, a, b) = try await Self.pausedOnB()
        // a, not yet synced, removes both: it has no pause of its own, so they are deleted there.
        try a.database.pause.deleteApp(id: "news")
        try a.database.content.delete(id: Self.quote.id)
        world.advance(60, [a, b])
        for device in bSyncsFirst ? [b, a, b, a] : [a, b, a, b] { _ = try await device.engine.sync() }
        #expect(try Self.pauses(b) == 1)
        #expect(try Self.pauses(a) == 1)
        #expect(try b.database.pause.sessions().count == 1)
        #expect(try a.database.pause.sessions().count == 1)
        // Retired, not offered: neither lists nor gates the app, nor shows the quote again.
        for device in [a, b] {
            #expect(try device.database.pause.app(id: "news") == nil)
            #expect(try device.database.content.all().contains { $0.id == Self.quote.id } == false)
        }
        try await world.expectConverged([a, b])
    }

    @Test("no foreign key cascades into history: deleting a named app fails rather than erase pauses")
    func noCascade() async throws {
        let (_, _, b) = try await Self.pausedOnB()
        let keys = try await b.database.writer.read { db in
            try Row.fetchAll(db, sql: "SELECT \"table\", on_delete FROM pragma_foreign_key_list('gateway_session')")
                .map { "\($0["table"] as String) \($0["on_delete"] as String)" }
        }
        #expect(keys.sorted() == ["mindfulness_content RESTRICT", "social_app RESTRICT"])
        await #expect(throws: (any Error).self) {
            try await b.database.writer.write { db in try db.execute(sql: "DELETE FROM social_app WHERE id = 'news'") }
        }
        #expect(try b.database.pause.sessions().count == 1)
    }
}
