import Foundation
import GRDB
import GroveCore
import Testing

@testable import GroveStore

@Suite("Schema, migrations and bundled data")
struct SchemaTests {
    @Test func everyTableIsStrictAndForeignKeysAreOn() throws {
        let (db, _) = try makeStore()
        let (tables, foreignKeys, migrations) = try db.writer.read { d throws -> ([Row], Bool?, [String]) in
            (
                try Row.fetchAll(d, sql: "PRAGMA table_list"), try Bool.fetchOne(d, sql: "PRAGMA foreign_keys"),
                try String.fetchAll(d, sql: "SELECT identifier FROM grdb_migrations")
            )
        }
        let ours = tables.filter {
            ($0["schema"] as String) == "main" && !($0["name"] as String).hasPrefix("sqlite_") && !($0["name"] as String).hasPrefix("grdb_")
        }
        #expect(ours.count >= 13)
        for table in ours { #expect((table["strict"] as Int) == 1, "\(table["name"] as String) is STRICT") }
        #expect(foreignKeys == true)
        #expect(
            migrations == [
                "v1", "v2-session-order", "v3-sync", "v4-content-sources", "v5-adaptive-friction", "v6-focus-tags", "v7-timer-runs",
                "v8-focus-notices", "v9-todo-ticks", "v10-retired-apps", "v11-timer-run-anchors", "v12-open-sessions-and-breaks",
                "v13-sync-refusals", "v14-server-clock-anchor", "v15-pause-history-kept", "v16-tag-spelling", "v17-tag-days-folded",
                "v18-web-sessions", "v19-applied-requests", "v20-push-subscriptions", "v21-gated-paths", "v22-app-blocks",
                "v23-gate-integrity", "v24-forest-day-order", "v25-keyed-ids", "v26-awaiting-key", "v27-account-restore", "v28-held-key-id",
                "v29-intention-newest", "v30-focus-runs", "v31-keys-kept-at", "v32-server-key-id",
            ])
    }

    @Test func fileDatabasesUseWALAndABusyTimeout() throws {
        let (db, _, _) = try makeFileStore()
        let (mode, timeout, sync) = try db.writer.read { d throws -> (String?, Int?, Int?) in
            (
                try String.fetchOne(d, sql: "PRAGMA journal_mode"), try Int.fetchOne(d, sql: "PRAGMA busy_timeout"),
                try Int.fetchOne(d, sql: "PRAGMA synchronous")
            )
        }
        #expect(mode == "wal")
        #expect(timeout! >= 5000)
        #expect(sync == 2, "FULL")
    }

    @Test func theServersPoolCommitsWithAFullSyncToo() throws {
        let (_, clock, path) = try makeFileStore()
        let pool = try AppDatabase.open(path: path, environment: .test(clock: clock), concurrentReads: true)
        // GRDB sets a pool's writer to NORMAL: an acknowledged commit could then be lost to a power cut.
        let sync = try pool.writer.writeWithoutTransaction { try Int.fetchOne($0, sql: "PRAGMA synchronous") }
        #expect(sync == 2, "FULL on the writer, where commits happen")
    }

    @Test func bundledDataIsInstalledOnceAndReopeningChangesNothing() throws {
        let (db, clock, path) = try makeFileStore()
        let before = try snapshot(db)
        #expect(before["intention_theme"] == 5)
        #expect(before["mindfulness_content"] == BundledContent.all.count)
        #expect(before["social_app"] == SocialApp.known.count)
        #expect(before["user_preferences"] == 1)
        let again = try AppDatabase.open(path: path, environment: .test(clock: clock))
        #expect(try snapshot(again) == before)
        #expect(try ThemeRepository(database: again).getPresetThemes().count == 5)
    }

    @Test(arguments: [
        "INSERT INTO focus_session (id, start_time, state, duration_ms, paused_ms, planned_ms, created_at, time_zone, clock_uncertain) VALUES ('x', 0, 'sleeping', 0, 0, 1500000, 0, 'UTC', 0)",
        "INSERT INTO focus_session (id, start_time, state, duration_ms, paused_ms, planned_ms, created_at, time_zone, clock_uncertain) VALUES ('x', 0, 'active', 2000000, 0, 1500000, 0, 'UTC', 0)",
        "INSERT INTO focus_session (id, start_time, state, duration_ms, paused_ms, planned_ms, created_at, time_zone, clock_uncertain) VALUES ('x', 0, 'completed', 0, 0, 1500000, 0, 'UTC', 0)",
        "INSERT INTO timer (id, name, duration_in_seconds, icon, color_hex, created_at, updated_at) VALUES ('t', '  ', 60, 'timer', '#FFFFFF', 0, 0)",
        "INSERT INTO timer (id, name, duration_in_seconds, icon, color_hex, created_at, updated_at) VALUES ('t', 'Run', 86401, 'timer', '#FFFFFF', 0, 0)",
        "INSERT INTO timer (id, name, duration_in_seconds, icon, color_hex, created_at, updated_at) VALUES ('t', 'Run', 60, 'timer', 'white', 0, 0)",
        "INSERT INTO todo_item (id, timer_id, text, is_completed, sort_order, created_at, updated_at) VALUES ('a', 'no-such-timer', 'x', 0, 0, 0, 0)",
        "INSERT INTO social_app (id, display_name, url_scheme, icon_asset_name, is_enabled, sort_order) VALUES ('Bad_Id', 'B', 'b://', 'b', 0, 0)",
        "INSERT INTO social_app (id, display_name, url_scheme, icon_asset_name, is_enabled, sort_order) VALUES ('b', 'B', 'b', 'b', 0, 0)",
        "INSERT INTO mindfulness_content (id, type, text, category, length, priority, is_bundled, times_shown) VALUES ('c', 'quote', 'too short', 'nature', 10, 5, 0, 0)",
        "INSERT INTO mindfulness_content (id, type, text, category, length, priority, is_bundled, times_shown) VALUES ('c', 'quote', '\(String(repeating: "x", count: 60))', 'nature', 10, 11, 0, 0)",
        "UPDATE pause_preferences SET timer_duration = 46",
        "UPDATE user_preferences SET weekly_day = 7",
        "UPDATE user_preferences SET monthly_day = 32",
        "INSERT INTO user_preferences (id, onboarding_completed, daily_enabled, weekly_enabled, weekly_day, monthly_enabled, monthly_day, first_weekday) VALUES ('second', 0, 0, 0, 0, 0, 1, 1)",
        "INSERT INTO intention (id, text, scope, date, created_at, updated_at, ai_generated, ai_rephrased) VALUES ('i', 'x', 'year', '2025-01-01', 0, 0, 0, 0)",
        "INSERT INTO intention_theme (id, name, background_color, text_color, is_preset, is_ai_generated, created_at) VALUES ('t', 'T', '#FFF', '#000000', 0, 0, 0)",
    ])
    func checkConstraintsMirrorValidation(sql: String) throws {
        let (db, _) = try makeStore()
        let before = try snapshot(db)
        #expect(throws: DatabaseError.self) { try db.writer.write { try $0.execute(sql: sql) } }
        #expect(try snapshot(db) == before)
    }

    @Test func atMostOneOpenFocusSessionEvenThroughRawSQL() throws {
        let (db, _) = try makeStore()
        try db.focus.start()
        #expect(throws: DatabaseError.self) {
            try db.writer.write {
                try $0.execute(
                    sql:
                        "INSERT INTO focus_session (id, start_time, state, duration_ms, paused_ms, planned_ms, created_at, time_zone, clock_uncertain) VALUES ('other', 0, 'active', 0, 0, 1500000, 0, 'UTC', 0)"
                )
            }
        }
    }

    @Test func defaultPathFollowsGroveHomeThenXDGThenHome() {
        #expect(AppDatabase.defaultPath(environment: ["GROVE_HOME": "/g", "XDG_DATA_HOME": "/x", "HOME": "/h"]) == "/g/grove.sqlite")
        #expect(AppDatabase.defaultPath(environment: ["XDG_DATA_HOME": "/x", "HOME": "/h"]) == "/x/grove/grove.sqlite")
        #expect(AppDatabase.defaultPath(environment: ["HOME": "/h"]) == "/h/.local/share/grove/grove.sqlite")
    }
}
