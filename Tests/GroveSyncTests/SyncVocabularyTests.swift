import Foundation
import GRDB
import GroveCore
import GroveSimulation
import GroveSync
import Testing

@testable import GroveStore

/// One vocabulary on every side of sync: a value the server's rules take, every device's store can
/// hold; a refused change is set aside and blocks nothing; a pulled value a store cannot hold is told
/// in words once and blocks nothing either.
@Suite("Sync: one vocabulary on every side")
struct SyncVocabularyTests {
    typealias World = SyncFaultTests.World

    /// A device store with a row of every synced entity.
    static func everyEntity() throws -> AppDatabase {
        let clock = TestClock(SyncFaultTests.start)
        let db = try AppDatabase.inMemory(environment: .test(clock: clock))
        try db.timers.create(name: "Tea", durationInSeconds: 180, todos: ["Kettle"])
        try db.themes.create(
            IntentionTheme(
                id: UUID(), name: "Dusk", backgroundColor: "#112233", textColor: "#FFFFFF", createdAt: SyncFaultTests.start))
        try db.intentions.set("Write", scope: .day)
        _ = try db.focus.log(start: SyncFaultTests.start.addingTimeInterval(-3600), end: SyncFaultTests.start.addingTimeInterval(-2100))
        let pause = try db.pause.start(appId: "youtube", platform: "test")
        clock.advance(by: 60)
        _ = try db.pause.finishSession(id: pause.session.id, status: .completed, outcome: .exitToHome)
        try db.pause.addApp(SocialApp(id: "news", displayName: "News", urlScheme: "news://", isEnabled: false))
        try db.pause.setAppEnabled(id: "news", true)
        try db.pause.setAppEnabled(id: "news", false)  // a gate change
        try db.content.save([
            MindfulnessContent(
                id: "mine-1", type: .quote, text: String(repeating: "A quiet line of my own to read slowly. ", count: 3),
                category: .mindfulness, priority: 5)
        ])
        // A restore made current (`SyncRoom.makeCurrent` writes it on a linked store only).
        try db.writer.write { db in
            try db.execute(
                sql: "INSERT INTO account_restore (id, as_of, applied_at, device_name, rows_changed) VALUES ('r1', 0, 1000, 'laptop', 3)")
        }
        return db
    }

    /// A whole row as the server sends it.
    static func change(seq: Int64, _ entity: SyncEntity, id: String, _ fields: SyncFields, clock: HLC) -> SyncChange {
        let clocks = Dictionary(uniqueKeysWithValues: entity.groups.map { ($0.name, clock) })
        return SyncChange(
            seq: seq, entity: entity.name, entityId: id, state: SyncState(fields: fields, clocks: clocks, alive: clock), deleted: false)
    }

    /// Values at and around every bound the rules and CHECKs use.
    static let integers: [Int64] = [
        -1, 0, 1, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 30, 31, 32, 44, 45, 46, 50, 51, 59, 60, 61, 100, 101, 999, 1000,
        10_000, 10_001, 86_400, 86_401,
        3_600_000, 3_600_001, 7_200_000, 7_200_001, 14_400_000, 14_400_001, 86_400_000, Int64(Int32.max), Int64(Int32.max) + 1,
    ]

    @Test("every synced integer the server's rules take is one every device's store holds")
    func serverRulesFitTheStore() throws {
        let db = try Self.everyEntity()
        var checked = 0
        try db.writer.write { db in
            for entity in SyncEntity.all {
                let condition = entity.localOnly.map { "WHERE NOT (\($0))" } ?? ""
                guard let key = try String.fetchOne(db, sql: "SELECT \(entity.keyColumn) FROM \(entity.table) \(condition) LIMIT 1"),
                    let fields = try SyncRows.fields(db, entity, id: entity.singleton ?? key)
                else {
                    Issue.record("no \(entity.name) row to probe")
                    continue
                }
                for field in entity.fields where field.kind == .integer {
                    for value in Self.integers {
                        var probe = fields
                        probe[field.wire] = .int(value)
                        var state = SyncState(fields: probe)
                        for group in entity.groups { state.clocks[group.name] = HLC.zero(node: PushPlan.serverNode) }
                        let serverTakes =
                            (try? SyncValueRules.checkFields(entity, probe)) != nil && (try? SyncValueRules.checkRow(entity, state)) != nil
                        guard serverTakes else { continue }
                        try db.execute(sql: "SAVEPOINT probe")
                        do {
                            try db.execute(
                                sql: "UPDATE \(entity.table) SET \(field.column) = ? WHERE \(entity.keyColumn) = ?",
                                arguments: [value, key])
                        } catch {
                            Issue.record("the server takes \(entity.name).\(field.wire) = \(value), which a device cannot store: \(error)")
                        }
                        try db.execute(sql: "ROLLBACK TO SAVEPOINT probe")
                        try db.execute(sql: "RELEASE SAVEPOINT probe")
                        checked += 1
                    }
                }
            }
        }
        #expect(checked > 100, "probed \(checked) values")
    }

    @Test("the days of the week are the core's on every side: Sunday is 0 to the store, the rules and the server")
    func weekdaysAgree() throws {
        for day in -1...8 {
            var settings = NotificationSettings.default
            settings.weeklyDay = day
            let core = (try? settings.validate()) != nil
            let server = (try? SyncValueRules.checkFields(.userPreferences, ["weeklyDay": .int(Int64(day))])) != nil
            let firstDay = (try? SyncValueRules.checkFields(.userPreferences, ["firstWeekday": .int(Int64(day))])) != nil
            #expect(core == server && server == firstDay && core == NotificationSettings.weekdays.contains(day), "day \(day)")
        }
    }

    @Test("Sunday chosen on one device reaches the other, and what was written after it too")
    func sundaySyncs() async throws {
        let world = try await World()
        let a = try await world.device(), b = try await world.device()
        _ = try a.database.intentions.changePreferences {
            $0.notificationSettings.weeklyEnabled = true
            $0.notificationSettings.weeklyDay = 0
            $0.firstWeekday = 0
        }
        try a.database.timers.create(name: "After Sunday", durationInSeconds: 60)
        let summary = try await a.engine.sync()
        #expect(summary.pending == 0 && summary.notes.isEmpty, "\(summary)")
        _ = try await b.engine.sync()
        let preferences = try b.database.intentions.preferences()
        #expect(preferences.notificationSettings.weeklyDay == 0 && preferences.firstWeekday == 0)
        #expect(try b.database.timers.all().contains { $0.name == "After Sunday" })
        try await world.expectConverged([a, b])
    }

    @Test("a change the server refuses is set aside, said once, and every later change still syncs")
    func refusedChangeBlocksNothing() async throws {
        let world = try await World()
        let a = try await world.device(), b = try await world.device()
        // A theme written by another program (the triggers capture it): text the colour of its background,
        // which no face saves and the server refuses.
        try await a.database.writer.write { db in
            try db.execute(
                sql: """
                    INSERT INTO intention_theme (id, name, background_color, text_color, is_preset, is_ai_generated, created_at)
                    VALUES ('0D0D0D0D-0000-4000-8000-000000000001', 'Invisible', '#222222', '#222222', 0, 0, 1772000000000)
                    """)
        }
        try a.database.timers.create(name: "Written after", durationInSeconds: 60)
        let first = try await a.engine.sync()
        #expect(first.notes.count == 1 && first.notes.first?.contains("stays on this device only") == true, "\(first.notes)")
        #expect(first.pending == 0)
        let status = try #require(try a.database.sync.status())
        #expect(status.refusedChanges == 1 && status.refusals.first?.field.hasSuffix("textColor") == true, "\(status.refusals)")
        // Said once: the next sync has nothing to say.
        #expect(try await a.engine.sync().notes.isEmpty)
        _ = try await b.engine.sync()
        #expect(try b.database.timers.all().contains { $0.name == "Written after" })
        #expect(try b.database.themes.all().contains { $0.name == "Invisible" } == false)
    }

    @Test("a pulled value this store cannot hold is set aside in words and blocks nothing behind it")
    func pulledValueBlocksNothing() throws {
        let db = try AppDatabase.inMemory(environment: .test(clock: TestClock(SyncFaultTests.start)))
        try db.sync.begin(
            SyncDevice(
                serverURL: "sim://server", user: "ada", deviceId: UUID(), deviceName: "d", tokenFile: "", cursor: 0, lastMutationId: 0,
                ackedMutationId: 0))
        let clock = HLC(millis: SyncFaultTests.startMillis, counter: 0, node: "00000000000000aa")
        var preferences =
            try db.sync.snapshot()
            .first { $0.key.entity == "userPreferences" }?.value ?? [:]
        preferences["weeklyDay"] = .int(7)  // what an older server stored for Sunday
        let bad = Self.change(seq: 1, .userPreferences, id: SyncEntity.userPreferences.singleton ?? "", preferences, clock: clock)
        // A timer made on another device, pulled in the same page after it.
        let source = try AppDatabase.inMemory(environment: .test(clock: TestClock(SyncFaultTests.start)))
        try source.timers.create(name: "Pulled", durationInSeconds: 60)
        let made = try #require(try source.sync.snapshot().first { $0.key.entity == "timer" })
        let timer = Self.change(seq: 2, .timer, id: made.key.id, made.value, clock: clock)
        let result = try db.sync.receive(
            PullResponse(changes: [bad, timer], cursor: 2, hasMore: false, checksum: "", serverTime: SyncFaultTests.start))
        #expect(result.refused.count == 1 && result.refused.first?.field == "fields.weeklyDay", "\(result.refused)")
        #expect(result.parked == 0)
        #expect(try db.timers.all().contains { $0.name == "Pulled" })
        #expect(try db.intentions.preferences().notificationSettings.weeklyDay != 7)
        #expect(try db.sync.status()?.refusedChanges == 1)
    }
}
