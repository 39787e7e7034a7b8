import Foundation
import GRDB
import GroveCore

extension AppDatabase {
    // MARK: Apps

    func saveApp(_ app: SocialApp, _ db: Database) throws {
        let stored = try SocialAppRecord.live(db, id: app.id)
        if let stored,
            stored.blockSchedule != app.blockSchedule || stored.blockStrict != app.blockStrict || stored.gatedPaths != app.gatedPaths
                || stored.webURL != app.webURL || (stored.isEnabled && !app.isEnabled)
        {
            try refuseDuringStrictBlock(stored, db)
        }
        if let stored { try recordLoosening(GateChange.loosenings(from: stored, to: app), appId: app.id, db) }
        let others =
            try Int.fetchOne(db.cachedStatement(sql: "SELECT count(*) FROM social_app WHERE is_enabled AND id <> ?"), arguments: [app.id])
            ?? 0
        if app.isEnabled, others >= PausePreferences.maxEnabledApps {
            throw PauseValidationError.tooManyEnabledApps(PausePreferences.maxEnabledApps + 1)
        }
        try SocialAppRecord(app).upsert(db)
    }

    /// Switches on exactly the apps in `enabled`, writing only the switches that change: a switch
    /// rewritten to the value it had would be a new choice to sync, beating a later one elsewhere.
    static func switchApps(on enabled: Set<String>, _ db: Database) throws {
        let ids = enabled.sorted()
        let list = ids.isEmpty ? "''" : ids.map { _ in "?" }.joined(separator: ", ")
        try db.execute(
            sql: "UPDATE social_app SET is_enabled = 0 WHERE is_enabled AND id NOT IN (\(list))", arguments: StatementArguments(ids))
        for id in ids { try db.cachedExecute("UPDATE social_app SET is_enabled = 1 WHERE id = ? AND NOT is_enabled", [id]) }
    }

    // MARK: Preferences

    func pausePreferences(_ db: Database) throws -> PausePreferences {
        var preferences = try PausePreferencesRecord.fetchOne(db, key: PausePreferences.singletonID)?.preferences ?? .default
        preferences.enabledApps = Set(try String.fetchAll(db.cachedStatement(sql: "SELECT id FROM social_app WHERE is_enabled")))
        return preferences
    }

    func savePausePreferences(_ preferences: PausePreferences, _ db: Database) throws {
        let known = Set(try String.fetchAll(db.cachedStatement(sql: "SELECT id FROM social_app WHERE retired IS NOT 1")))
        if let unknown = preferences.enabledApps.subtracting(known).sorted().first { throw PauseValidationError.unknownApp(unknown) }
        try PausePreferencesRecord(preferences).upsert(db)
        for app in try SocialAppRecord.fetchAll(db, sql: "SELECT * FROM social_app WHERE is_enabled AND block_strict").map(\.app)
        where !preferences.enabledApps.contains(app.id) {
            try refuseDuringStrictBlock(app, db)
        }
        for id in try String.fetchAll(db.cachedStatement(sql: "SELECT id FROM social_app WHERE is_enabled"))
        where !preferences.enabledApps.contains(id) {
            try recordLoosening([.gateOff], appId: id, db)
        }
        try Self.switchApps(on: preferences.enabledApps, db)
    }

    /// Local housekeeping, not a deletion anyone made (SYNC.md "30-day pruning is local and makes no
    /// tombstones"): the capture triggers are held off, and the pruned rows' clocks go with them. Every
    /// device prunes by the same rule, so nothing needs to travel.
    func pruneExpiredPauseData(_ db: Database) throws -> Int {
        let cutoff = try retentionStart(db).description
        try db.cachedExecute("INSERT OR IGNORE INTO sync_applying (id) VALUES (1)")
        try db.cachedExecute(
            """
            DELETE FROM sync_clock WHERE entity = 'gatewaySession' AND entity_id IN (SELECT id FROM gateway_session WHERE local_day < ?)
            """, [cutoff])
        try db.cachedExecute("DELETE FROM gateway_session WHERE local_day < ?", [cutoff])
        let pruned = db.changesCount
        try db.cachedExecute(
            "DELETE FROM sync_clock WHERE entity = 'gateChange' AND entity_id IN (SELECT id FROM gate_change WHERE local_day < ?)", [cutoff]
        )
        try db.cachedExecute("DELETE FROM gate_change WHERE local_day < ?", [cutoff])
        try db.cachedExecute("DELETE FROM sync_applying")
        return pruned
    }

    /// Keeps the ways a person loosened an app's gate (`GateChange`), as they happen, for the gate's
    /// integrity figures. Only a person's own change comes here: one from another device arrives
    /// with its record.
    func recordLoosening(_ kinds: [GateChange.Kind], appId: String, _ db: Database) throws {
        guard !kinds.isEmpty else { return }
        let calendar = try calendar(db), now = environment.now()
        for kind in kinds {
            try GateChangeRecord(GateChange(id: environment.uuid(), appId: appId, kind: kind, timestamp: now, calendar: calendar)).insert(
                db)
        }
    }

    func retentionStart(_ db: Database) throws -> LocalDay {
        UsageStatistics.retentionStart(today: try calendar(db).localDay(of: environment.now()))
    }

}

extension PauseRoom {
    /// Every app in hub order.
    public func apps() throws -> [SocialApp] {
        try writer.snapshotRead { db in
            try SocialAppRecord.filter(sql: "retired IS NOT 1").order(sql: "sort_order, id").fetchAll(db).map(\.app)
        }
    }

    /// Every app's display name by id, retired ones included: the names statistics and reviews show
    /// for pauses taken in front of an app since removed.
    public func appNames() throws -> [String: String] {
        try writer.snapshotRead { db in
            Dictionary(
                try db.cachedRows("SELECT id, display_name FROM social_app").map { ($0["id"], $0["display_name"]) },
                uniquingKeysWith: { a, _ in a })
        }
    }

    public func app(id: String) throws -> SocialApp? {
        try writer.snapshotRead { db in try SocialAppRecord.live(db, id: id) }
    }

    /// Adds a new app after validating it (at most 10 enabled); an id already in use is an error,
    /// never a silent replacement. The id of a retired app brings it back, with these settings and its
    /// history.
    public func addApp(_ app: SocialApp) throws {
        let app = app.normalizingPaths()
        try app.validate()
        try write { db in
            guard try SocialAppRecord.live(db, id: app.id) == nil else {
                throw InvalidField("id", "An app with id \"\(app.id)\" already exists")
            }
            try database.saveApp(app, db)
            try db.cachedExecute("UPDATE social_app SET retired = 0 WHERE id = ? AND retired", [app.id])
        }
    }

    /// Changes an existing app (at most 10 enabled).
    public func updateApp(_ app: SocialApp) throws {
        let app = app.normalizingPaths()
        try app.validate()
        try write { db in
            guard try SocialAppRecord.live(db, id: app.id) != nil else { throw PauseValidationError.unknownApp(app.id) }
            try database.saveApp(app, db)
        }
    }

    /// Adds or replaces an app after validating it (at most 10 enabled).
    public func saveApp(_ app: SocialApp) throws {
        let app = app.normalizingPaths()
        try app.validate()
        try write { db in try database.saveApp(app, db) }
    }

    /// Sets the parts of an app's site that are gated (`/shorts`), as typed; none gates the whole
    /// site. One transaction: the app's other settings, changed meanwhile elsewhere, are kept.
    @discardableResult
    public func setGatedPaths(id: String, _ paths: [String]) throws -> SocialApp {
        try write { db in
            guard var app = try SocialAppRecord.live(db, id: id) else { throw PauseValidationError.unknownApp(id) }
            app.gatedPaths = paths
            app = app.normalizingPaths()
            try app.validate()
            try database.saveApp(app, db)
            return app
        }
    }

    /// Gates (or stops gating) an app.
    public func setAppEnabled(id: String, _ enabled: Bool) throws {
        try write { db in
            guard var app = try SocialAppRecord.live(db, id: id) else { throw PauseValidationError.unknownApp(id) }
            if enabled && !app.isEnabled,
                try Int.fetchOne(db.cachedStatement(sql: "SELECT count(*) FROM social_app WHERE is_enabled")) ?? 0
                    >= PausePreferences.maxEnabledApps
            {
                throw PauseValidationError.tooManyEnabledApps(PausePreferences.maxEnabledApps + 1)
            }
            if !enabled { try database.refuseDuringStrictBlock(app, db) }
            if app.isEnabled && !enabled { try database.recordLoosening([.gateOff], appId: id, db) }
            app.isEnabled = enabled
            try SocialAppRecord(app).update(db)
            try SyncChoice.record(db, .app, id: id, fields: ["isEnabled"])
        }
    }

    /// Removes an app. One that pauses were taken in front of is retired instead (no longer listed,
    /// gated or counted; its pauses and their statistics stay): history is never deleted as a side
    /// effect. Returns whether it was retired rather than deleted.
    @discardableResult
    public func deleteApp(id: String) throws -> Bool {
        try write { db in
            guard let app = try SocialAppRecord.live(db, id: id) else { throw PauseValidationError.unknownApp(id) }
            try database.refuseDuringStrictBlock(app, db)
            return try AppDatabase.removeKeepingHistory(db, .app, id: id)
        }
    }

    /// The Pause settings; `enabledApps` reflects the apps' switches.
    public func preferences() throws -> PausePreferences {
        try writer.snapshotRead { db in try database.pausePreferences(db) }
    }

    /// Saves the Pause settings; `enabledApps` switches apps on and off (they must exist).
    @discardableResult
    public func updatePreferences(_ preferences: PausePreferences) throws -> PausePreferences {
        try preferences.validate()
        return try write { db in
            try database.savePausePreferences(preferences, db)
            return try database.pausePreferences(db)
        }
    }

    /// Changes some Pause settings in one transaction (the rest stay as stored, whoever changed them).
    @discardableResult
    public func changePreferences(_ change: (inout PausePreferences) -> Void) throws -> PausePreferences {
        try write { db in
            var preferences = try database.pausePreferences(db)
            let probe = preferences.syncProbe
            change(&preferences)
            try preferences.validate()
            try database.savePausePreferences(preferences, db)
            try SyncChoice.record(
                db, .pausePreferences, id: "", fields: SyncChoice.assigned(by: change, probe: probe, fields: PausePreferences.syncFields))
            return preferences
        }
    }

    /// Deletes pauses older than the 30-day retention window (local days, configured zone).
    @discardableResult
    public func pruneExpired() throws -> Int {
        try write { db in try database.pruneExpiredPauseData(db) }
    }

    /// Closes abandoned pauses as timeout and drops history past 30 days, the way focus reads settle
    /// a due session: whoever reads next. A cheap read first, so the write lock is taken only when
    /// there is something to change. Returns how many rows changed.
    @discardableResult
    public func settle() throws -> Int {
        let needed = try writer.snapshotRead { db in
            try Bool.fetchOne(
                db.cachedStatement(
                    sql: """
                        SELECT EXISTS (SELECT 1 FROM gateway_session WHERE completion_status IS NULL AND start_timestamp < ?)
                            OR EXISTS (SELECT 1 FROM gateway_session WHERE local_day < ?)
                        """), arguments: [database.overdueCandidatesBefore, try database.retentionStart(db).description]) ?? false
        }
        guard needed else { return 0 }
        return try write { db in try database.recoverAbandonedGatewaySessions(db) + database.pruneExpiredPauseData(db) }
    }
}
