import Foundation
import GRDB
import GroveCore
import Testing

@testable import GroveStore

/// The store refuses what it cannot keep honestly: newer schemas, vanished files, contradicting
/// imports, and rules broken below validation.
@Suite("Store hardening: the store knows itself, imports are checked, nothing traps")
struct HardeningTests {
    /// SQLite's memory statistics take a process-wide mutex on every allocation: with them on, the
    /// server's connections (and the sync simulation's devices) queue behind each other.
    @Test func sqliteMemoryStatisticsAreOffOnceAStoreOpens() throws {
        let store = try AppDatabase.inMemory()
        _ = try store.timers.create(name: "Tea", durationInSeconds: 180)
        #expect(SQLiteProcess.memoryStatisticsOff)
    }

    @Test func aStoreWrittenByANewerGroveIsRefused() throws {
        let (db, clock, path) = try makeFileStore()
        try db.writer.write { try $0.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v99-from-the-future')") }
        #expect(throws: StoreError.newerStore(path: path, unknownMigrations: ["v99-from-the-future"])) {
            try AppDatabase.open(path: path, environment: .test(clock: clock))
        }
    }

    @Test func aDeletedDatabaseFileRefusesWritesInsteadOfLosingThem() throws {
        let (db, _, path) = try makeFileStore()
        try db.timers.create(name: "Before", durationInSeconds: 60)
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        #expect(throws: StoreError.databaseFileGone(path)) { try db.timers.create(name: "Lost?", durationInSeconds: 60) }
        #expect(throws: StoreError.databaseFileGone(path)) { try db.focus.start() }
    }

    @Test func aReplacedDatabaseFileRefusesWrites() throws {
        let (db, clock, path) = try makeFileStore()
        let other = path + ".other"
        _ = try AppDatabase.open(path: other, environment: .test(clock: clock))
        try FileManager.default.removeItem(atPath: path)
        try FileManager.default.moveItem(atPath: other, toPath: path)
        #expect(throws: StoreError.databaseFileReplaced(path)) { try db.intentions.set("Gone", scope: .day) }
    }

    @Test func theStoreIsReadableByItsOwnerOnly() throws {
        let (_, _, path) = try makeFileStore()
        func mode(_ p: String) throws -> Int { (try FileManager.default.attributesOfItem(atPath: p)[.posixPermissions] as? Int) ?? -1 }
        #expect(try mode(path) == 0o600)
        #expect(try mode(URL(fileURLWithPath: path).deletingLastPathComponent().path) == 0o700)
        for suffix in ["-wal", "-shm", ".lock"] where FileManager.default.fileExists(atPath: path + suffix) {
            #expect(try mode(path + suffix) == 0o600, "\(suffix)")
        }
    }

    /// A store made by an earlier Grove (or copied in) with wider permissions is narrowed on open, in
    /// a directory created for it if missing; an empty file counts as a store.
    @Test func anExistingStoreOrEmptyFileIsNarrowedAndMissingDirectoriesAreMade() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("grove-perm-\(UUID().uuidString)").path
        func mode(_ p: String) throws -> Int { (try FileManager.default.attributesOfItem(atPath: p)[.posixPermissions] as? Int) ?? -1 }
        let nested = root + "/a/b/grove.sqlite"
        _ = try AppDatabase.open(path: nested, environment: .test(clock: TestClock(Date())), concurrentReads: false)
        #expect(try mode(root + "/a/b") == 0o700)
        let copy = root + "/copy.sqlite"
        try FileManager.default.copyItem(atPath: nested, toPath: copy)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: copy)
        _ = try AppDatabase.open(path: copy, environment: .test(clock: TestClock(Date())), concurrentReads: false)
        #expect(try mode(copy) == 0o600)
        let empty = root + "/empty.sqlite"
        #expect(FileManager.default.createFile(atPath: empty, contents: Data(), attributes: [.posixPermissions: 0o644]))
        _ = try AppDatabase.open(path: empty, environment: .test(clock: TestClock(Date())), concurrentReads: false)
        #expect(try mode(empty) == 0o600)
        #expect(
            StoreFile.directoryOf("/grove.sqlite") == "/" && StoreFile.directoryOf("grove.sqlite") == "."
                && StoreFile.directoryOf("a/b/c") == "a/b")
    }

    /// A directory, a pipe, a text file or another program's database is named for what it is
    /// (bad input: exit 64), and left exactly as it was: no WAL switch, no Grove tables.
    @Test func whatIsNotAStoreIsRefusedByNameAndLeftAlone() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("grove-notastore-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: root + "/dir", withIntermediateDirectories: true)
        #expect(mkfifo(root + "/pipe", 0o600) == 0)
        try Data("hello\n".utf8).write(to: URL(fileURLWithPath: root + "/notes.txt"))
        for (journal, name) in [("DELETE", "/rollback.sqlite"), ("WAL", "/wal.sqlite")] {
            let other = try DatabaseQueue(path: root + name)
            try other.writeWithoutTransaction { db in
                _ = try String.fetchOne(db, sql: "PRAGMA journal_mode = \(journal)")
                try db.execute(sql: "CREATE TABLE moz_places (id INTEGER PRIMARY KEY, url TEXT); INSERT INTO moz_places (url) VALUES ('x')")
            }
            try other.close()
        }
        let before = try Data(contentsOf: URL(fileURLWithPath: root + "/rollback.sqlite"))
        let cases = [
            ("/dir", "a directory"), ("/pipe", "a device, a pipe or a socket, not a file"),
            ("/notes.txt", "a file that is not an SQLite database"),
            ("/rollback.sqlite", "an SQLite database of another program"), ("/wal.sqlite", "an SQLite database of another program"),
        ]
        for (name, what) in cases {
            for concurrentReads in [false, true] {
                #expect(throws: StoreError.notAStore(path: root + name, what: what), "\(name)") {
                    try AppDatabase.open(path: root + name, environment: .test(clock: TestClock(Date())), concurrentReads: concurrentReads)
                }
            }
            #expect(StoreError.notAStore(path: root + name, what: what).isBadInput)
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: root + "/rollback.sqlite")) == before)
        let wal = try DatabaseQueue(path: root + "/wal.sqlite")
        #expect(try wal.read { try $0.tableExists("grdb_migrations") } == false)
        // A Grove store copied back in the old journal mode still opens.
        let store = root + "/grove.sqlite"
        _ = try AppDatabase.open(path: store, environment: .test(clock: TestClock(Date())), concurrentReads: false)
        let copy = try DatabaseQueue(path: store)
        _ = try copy.writeWithoutTransaction { try String.fetchOne($0, sql: "PRAGMA journal_mode = DELETE") }
        try copy.close()
        #expect(try StoreFile.prepare(path: store))
        _ = try AppDatabase.open(path: store, environment: .test(clock: TestClock(Date())), concurrentReads: false)
    }

    @Test func aPathThatIsNotAStoreKeepsItsPermissions() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("not-a-store-\(UUID().uuidString)").path
        try Data("root:x:0:0:root:/root:/bin/bash\n".utf8).write(to: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: path)
        #expect(throws: (any Error).self) { try AppDatabase.open(path: path, environment: .test(clock: TestClock(Date()))) }
        #expect((try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) == 0o644)
        #expect(try String(contentsOfFile: path, encoding: .utf8).hasPrefix("root:"))
    }

    @Test func addingAnAppWithAnIdInUseIsAnErrorNotAReplacement() throws {
        let (db, _) = try makeStore()
        let before = try db.pause.app(id: "youtube")
        #expect(throws: InvalidField("id", "An app with id \"youtube\" already exists")) {
            try db.pause.addApp(SocialApp(id: "youtube", displayName: "Mine", urlScheme: "mine://"))
        }
        #expect(try db.pause.app(id: "youtube") == before)
        #expect(throws: PauseValidationError.unknownApp("nope")) {
            try db.pause.updateApp(SocialApp(id: "nope", displayName: "No", urlScheme: "no://"))
        }
    }

    @Test func aSessionSettledFromAnotherZoneKeepsTheZoneItWasLivedIn() throws {
        // Started in Kiritimati (UTC+14) at 09:30 local on 2 May; it falls due while nobody watches and is
        // first noticed by a process configured for Pago Pago (UTC-11), where it is still 1 May.
        let (db, clock) = try makeStore(at: "2025-05-01T19:30:00Z", zone: "Pacific/Kiritimati")
        let started = try db.focus.start(plannedDuration: 1500)
        #expect(started.timeZoneIdentifier == "Pacific/Kiritimati")
        var prefs = try UserPreferencesRepository(database: db).getOrCreatePreferences()
        prefs.timeZoneIdentifier = "Pacific/Pago_Pago"
        try UserPreferencesRepository(database: db).update(prefs)
        clock.advance(by: 3600)
        #expect(try db.focus.current() == nil)
        let settled = try #require(try db.focus.session(id: started.id))
        #expect(settled.state == .completed)
        #expect(settled.timeZoneIdentifier == "Pacific/Kiritimati")
        #expect(settled.endDay == day("2025-05-02"))
    }

    @Test func usageStatisticsWithOnlyOpenPausesAreZeroNotATrap() throws {
        let (db, _) = try makeStore()
        try db.pause.start(appId: "youtube", platform: "test")
        let stats = try db.pause.statistics(appId: "youtube")
        #expect(stats.count == 1)
        #expect(stats.first?.totalSessions == 1)
        #expect(stats.first?.completedSessions == 0)
        #expect(stats.first?.exitedSessions == 0)
    }

    @Test func aBrokenSchemaRuleIsAValidationErrorNamingTheFieldWithoutSQL() throws {
        let (db, _) = try makeStore()
        let violation = try #require(throws: ConstraintViolation.self) {
            try db.write {
                try $0.execute(
                    sql:
                        "UPDATE timer SET name = '' WHERE 0 = 1; INSERT INTO timer (id, name, duration_in_seconds, icon, color_hex, created_at, updated_at) VALUES ('x', '   ', 10, 'timer', '#000000', 0, 0)"
                )
            }
        }
        #expect(violation.field == "name")
        #expect(!violation.message.contains("length("))
        #expect(!violation.message.uppercased().contains("CHECK"))
        let fk = try #require(throws: ConstraintViolation.self) {
            try db.write {
                try $0.execute(
                    sql:
                        "INSERT INTO todo_item (id, timer_id, text, is_completed, sort_order, created_at, updated_at) VALUES ('t', 'no-such-timer', 'x', 0, 0, 0, 0)"
                )
            }
        }
        #expect(fk.message == "The item refers to something that does not exist")
    }

    @Test func millisecondConversionsAreTotal() {
        #expect(Double.infinity.groveClampedInt64 == .max && (-Double.infinity).groveClampedInt64 == .min)
        #expect(Double.nan.groveClampedInt64 == 0)
        #expect(0x1p63.groveClampedInt64 == .max && (-0x1p63).groveClampedInt64 == .min)
        #expect(1e300.groveClampedInt64 == .max && 9.2e18.groveClampedInt64 == 9_200_000_000_000_000_000)
        #expect(TimeInterval(1e300).groveMillis == .max)
        #expect(1500.4.groveClampedInt64 == 1500)
    }

    @Test func constraintFieldsAreReadFromTheRuleInCamelCase() {
        #expect(ConstraintViolation.field("length(trim(display_name)) > 0") == "displayName")
        #expect(ConstraintViolation.field("timer.duration_in_seconds") == "durationInSeconds")
        #expect(
            ConstraintViolation.field("url_scheme GLOB '[A-Za-z]*://' AND instr(url_scheme, '://') = length(url_scheme) - 2") == "urlScheme"
        )
        #expect(ConstraintViolation.field("") == "body")
    }

    // MARK: Import

    /// An export of a small store, as JSON that a test can edit.
    func exportObject() throws -> (AppDatabase, [String: Any]) {
        let (db, clock) = try makeStore(at: "2025-03-10T15:00:00Z", zone: "America/New_York")
        try db.focus.log(start: instant("2025-03-09T06:00:00Z"), end: instant("2025-03-09T06:25:00Z"))
        try db.timers.create(name: "Tea", durationInSeconds: 180, todos: ["Kettle", "Cup"])
        let (g, _) = try db.pause.start(appId: "youtube", platform: "test")
        clock.advance(by: 20)
        try db.pause.finishSession(id: g.id, status: .completed, outcome: .proceedToApp)
        try db.intentions.set("Read", scope: .day)
        let object = try #require(try JSONSerialization.jsonObject(with: db.transfer.exportJSON()) as? [String: Any])
        return (db, object)
    }

    /// Imports `object` after `edit` into a fresh store and returns the error, checking nothing changed.
    func importError(_ edit: (inout [String: Any]) -> Void) throws -> (any Error)? {
        var (_, object) = try exportObject()
        edit(&object)
        let (fresh, _) = try makeStore(at: "2025-03-10T15:00:00Z", zone: "America/New_York")
        let before = try snapshot(fresh)
        defer { #expect((try? snapshot(fresh)) == before, "a refused import changes nothing") }
        do {
            try fresh.transfer.importJSON(try JSONSerialization.data(withJSONObject: object))
            return nil
        } catch {
            return error
        }
    }

    func edit(_ object: inout [String: Any], _ list: String, _ index: Int = 0, _ change: (inout [String: Any]) -> Void) {
        var items = object[list] as? [[String: Any]] ?? []
        change(&items[index])
        object[list] = items
    }

    @Test func anImportWithADayThatContradictsItsInstantIsRefused() throws {
        let error = try importError { object in edit(&object, "focusSessions") { $0["endDay"] = "2025-03-08" } }
        #expect((error as? InvalidField)?.field == "endDay")
        let pause = try importError { object in edit(&object, "gatewaySessions") { $0["localDay"] = "2025-03-01" } }
        #expect((pause as? PauseValidationError)?.field == "localDay")
    }

    @Test func anImportWithHugeOrMissingNumbersIsRefusedNotATrap() throws {
        let huge = try importError { object in edit(&object, "focusSessions") { $0["pausedDuration"] = 1e300 } }
        #expect((huge as? InvalidField)?.field == "pausedDuration")
        let planned = try importError { object in edit(&object, "focusSessions") { $0["plannedDuration"] = 1e300 } }
        #expect((planned as? InvalidField)?.field == "plannedDuration")
    }

    @Test func anImportThatNamesAnIdTwiceIsRefused() throws {
        let error = try importError { object in
            let sessions = object["focusSessions"] as? [[String: Any]] ?? []
            object["focusSessions"] = sessions + sessions
        }
        #expect((error as? InvalidField)?.field == "focusSessions")
    }

    @Test func anImportWithReferencesToNothingIsRefused() throws {
        let theme = try importError { object in edit(&object, "intentions") { $0["themeId"] = UUID().uuidString } }
        #expect((theme as? InvalidField)?.field == "intentions[0].themeId")
        let app = try importError { object in edit(&object, "gatewaySessions") { $0["appId"] = "nowhere" } }
        #expect(app as? PauseValidationError == .unknownApp("nowhere"))
        let zone = try importError { object in edit(&object, "focusSessions") { $0["timeZoneIdentifier"] = "../../../dev/zero" } }
        #expect((zone as? InvalidField)?.field == "timeZoneIdentifier")
    }

    @Test func aChecklistCannotTakeAnotherTimersToDo() throws {
        let (db, _) = try makeStore()
        let a = try db.timers.create(name: "A", durationInSeconds: 60, todos: ["Mine"])
        var b = try db.timers.create(name: "B", durationInSeconds: 60)
        b.todoItems = a.todoItems
        #expect(throws: InvalidField.self) { try db.timers.save(b) }
        #expect(try db.timers.find(id: a.id)?.todoItems.count == 1)
    }

    // MARK: Paging

    @Test func sessionsPageInSQLNewestFirstWithCheckedBounds() throws {
        let (db, _) = try makeStore(at: "2025-05-01T09:00:00Z")
        try db.focus.insert(
            SyntheticHistory.sessions(
                count: 300, days: 30, lastDay: day("2025-04-30"), calendar: ZonedCalendar(timeZone: TimeZone(identifier: "UTC")!)))
        let all = try db.focus.all()
        let page = try db.focus.sessions(limit: 10, offset: 20)
        #expect(page == Array(all.dropFirst(20).prefix(10)))
        #expect(try db.focus.sessions(state: .abandoned, limit: 5) == Array(all.filter { $0.state == .abandoned }.prefix(5)))
        #expect(try db.focus.latest() == all.first)
        #expect(throws: InvalidField.self) { try db.focus.sessions(limit: 0) }
        #expect(throws: InvalidField.self) { try db.focus.sessions(limit: FocusRoom.maxPageSize + 1) }
        #expect(throws: InvalidField.self) { try db.focus.sessions(limit: 10, offset: -1) }
        #expect(throws: InvalidField.self) { try db.focus.completed(limit: 10, offset: -1) }
        // Bounded: a page by offset never steps over more than `maxOffset` rows, whatever the history.
        #expect(throws: InvalidField.self) { try db.focus.sessions(limit: 10, offset: FocusRoom.maxOffset + 1) }
        #expect(throws: InvalidField.self) { try db.focus.completed(limit: 10, offset: FocusRoom.maxOffset + 1) }
        #expect(try db.focus.sessions(limit: 10, offset: FocusRoom.maxOffset).isEmpty)
    }

    /// A page must not sort every session: the plan walks an index and stops after the page. This
    /// counts what SQLite does, so a return to reading every session fails here at any size.
    @Test func aPageOfSessionsWalksAnIndexWithoutSortingEverySession() throws {
        let (db, _) = try makeStore()
        let plans = try db.writer.read { d in
            try [
                "SELECT * FROM focus_session ORDER BY start_time DESC, id LIMIT 10",
                "SELECT * FROM focus_session WHERE state = 'abandoned' ORDER BY start_time DESC, id LIMIT 10",
            ].map { sql in
                try Row.fetchAll(d, sql: "EXPLAIN QUERY PLAN " + sql).map { $0["detail"] as String }.joined(separator: " | ")
            }
        }
        for plan in plans {
            #expect(plan.contains("USING INDEX focus_session"), "\(plan)")
            #expect(!plan.contains("TEMP B-TREE"), "\(plan)")
        }
    }
}
