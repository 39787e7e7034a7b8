import Foundation
import GRDB
import GroveCore

extension AppDatabase {
    // MARK: Apps

    /// Every app in hub order.
    public func apps() throws -> [SocialApp] {
        try writer.snapshotRead { db in try SocialAppRecord.order(sql: "sort_order, id").fetchAll(db).map(\.app) }
    }

    public func app(id: String) throws -> SocialApp? {
        try writer.snapshotRead { db in try SocialAppRecord.fetchOne(db, key: id)?.app }
    }

    /// Adds a new app after validating it (at most 10 enabled); an id already in use is an error,
    /// never a silent replacement.
    public func addApp(_ app: SocialApp) throws {
        try app.validate()
        try write { db in
            guard try !SocialAppRecord.exists(db, key: app.id) else {
                throw InvalidField("id", "An app with id \"\(app.id)\" already exists")
            }
            try saveApp(app, db)
        }
    }

    /// Changes an existing app (at most 10 enabled).
    public func updateApp(_ app: SocialApp) throws {
        try app.validate()
        try write { db in
            guard try SocialAppRecord.exists(db, key: app.id) else { throw PauseValidationError.unknownApp(app.id) }
            try saveApp(app, db)
        }
    }

    /// Adds or replaces an app after validating it (at most 10 enabled).
    public func saveApp(_ app: SocialApp) throws {
        try app.validate()
        try write { db in try saveApp(app, db) }
    }

    private func saveApp(_ app: SocialApp, _ db: Database) throws {
        let others =
            try Int.fetchOne(db.cachedStatement(sql: "SELECT count(*) FROM social_app WHERE is_enabled AND id <> ?"), arguments: [app.id])
            ?? 0
        if app.isEnabled, others >= PausePreferences.maxEnabledApps {
            throw PauseValidationError.tooManyEnabledApps(PausePreferences.maxEnabledApps + 1)
        }
        try SocialAppRecord(app).upsert(db)
    }

    /// Gates (or stops gating) an app.
    public func setAppEnabled(id: String, _ enabled: Bool) throws {
        try write { db in
            guard var app = try SocialAppRecord.fetchOne(db, key: id)?.app else { throw PauseValidationError.unknownApp(id) }
            if enabled && !app.isEnabled,
                try Int.fetchOne(db.cachedStatement(sql: "SELECT count(*) FROM social_app WHERE is_enabled")) ?? 0
                    >= PausePreferences.maxEnabledApps
            {
                throw PauseValidationError.tooManyEnabledApps(PausePreferences.maxEnabledApps + 1)
            }
            app.isEnabled = enabled
            try SocialAppRecord(app).update(db)
            try SyncChoice.record(db, .app, id: id, fields: ["isEnabled"])
        }
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

    /// Deletes an app and its pause history.
    public func deleteApp(id: String) throws {
        try write { db in
            guard try SocialAppRecord.deleteOne(db, key: id) else { throw PauseValidationError.unknownApp(id) }
        }
    }

    // MARK: Content

    /// The content library, optionally one category, by id (items a content source withdrew are
    /// kept for the pauses that showed them, and left out here).
    public func contents(category: MindfulnessContent.ContentCategory? = nil) throws -> [MindfulnessContent] {
        try writer.snapshotRead { db in
            var request = ContentRecord.filter(sql: "retired IS NOT 1").order(sql: "id")
            if let category { request = request.filter(sql: "category = ?", arguments: [category.rawValue]) }
            return try request.fetchAll(db).map(\.content)
        }
    }

    public func content(id: String) throws -> MindfulnessContent? {
        try writer.snapshotRead { db in try ContentRecord.fetchOne(db, key: id)?.content }
    }

    /// Adds or replaces content items (a user's own, or a content pack), all or none.
    public func saveContents(_ items: [MindfulnessContent]) throws {
        let normalized = items.map { item -> MindfulnessContent in
            var item = item
            item.text = item.text.trimmingCharacters(in: .whitespacesAndNewlines)
            return item
        }
        for item in normalized { try item.validate() }
        try write { db in for item in normalized { try ContentRecord(item).upsert(db) } }
    }

    /// Deletes a content item (and the pauses that showed it).
    ///
    /// History is never deleted as a side effect: an item a pause showed is retired instead (kept for
    /// that pause and its day's statistics, never shown again), as a content pack retires what it drops.
    /// Returns whether the item was retired rather than deleted.
    @discardableResult
    public func deleteContent(id: String) throws -> Bool {
        try write { db in
            guard try db.cachedExists("SELECT 1 FROM mindfulness_content WHERE id = ? AND retired IS NOT 1", [id]) else {
                throw PauseValidationError.unknownContent(id)
            }
            if try db.cachedExists("SELECT 1 FROM gateway_session WHERE content_id = ?", [id]) {
                try db.cachedExecute("UPDATE mindfulness_content SET retired = 1 WHERE id = ?", [id])
                return true
            }
            try db.cachedExecute("DELETE FROM mindfulness_content WHERE id = ?", [id])
            return false
        }
    }

    // MARK: Preferences

    /// The Pause settings; `enabledApps` reflects the apps' switches.
    public func pausePreferences() throws -> PausePreferences {
        try writer.snapshotRead { db in try pausePreferences(db) }
    }

    func pausePreferences(_ db: Database) throws -> PausePreferences {
        var preferences = try PausePreferencesRecord.fetchOne(db, key: PausePreferences.singletonID)?.preferences ?? .default
        preferences.enabledApps = Set(try String.fetchAll(db.cachedStatement(sql: "SELECT id FROM social_app WHERE is_enabled")))
        return preferences
    }

    /// Saves the Pause settings; `enabledApps` switches apps on and off (they must exist).
    public func updatePausePreferences(_ preferences: PausePreferences) throws {
        try preferences.validate()
        try write { db in try savePausePreferences(preferences, db) }
    }

    /// Changes some Pause settings in one transaction (the rest stay as stored, whoever changed them).
    @discardableResult
    public func changePausePreferences(_ change: (inout PausePreferences) -> Void) throws -> PausePreferences {
        try write { db in
            var preferences = try pausePreferences(db)
            let probe = preferences.syncProbe
            change(&preferences)
            try preferences.validate()
            try savePausePreferences(preferences, db)
            try SyncChoice.record(
                db, .pausePreferences, id: "", fields: SyncChoice.assigned(by: change, probe: probe, fields: PausePreferences.syncFields))
            return preferences
        }
    }

    private func savePausePreferences(_ preferences: PausePreferences, _ db: Database) throws {
        let known = Set(try String.fetchAll(db.cachedStatement(sql: "SELECT id FROM social_app")))
        if let unknown = preferences.enabledApps.subtracting(known).sorted().first { throw PauseValidationError.unknownApp(unknown) }
        try PausePreferencesRecord(preferences).upsert(db)
        try Self.switchApps(on: preferences.enabledApps, db)
    }

    // MARK: Gateway sessions

    /// What a gate does when someone opens an app through it (every face: the web gateway, the
    /// browser extension, `grove pause`): an app whose gate is off opens without a pause and without
    /// counting (`appNotGated`); otherwise the pause starts, and `attemptsBefore` is how many times
    /// the app was opened through the gate earlier today. One attempt per call: a face that shows the
    /// same pause again (a reload) reads it with `gatewaySession(id:)` instead.
    public func openGateway(appId: String, platform: String) throws -> (
        session: GatewaySession, content: MindfulnessContent, attemptsBefore: Int
    ) {
        try write { db in
            guard let app = try SocialAppRecord.fetchOne(db, key: appId)?.app else { throw PauseValidationError.unknownApp(appId) }
            guard app.isEnabled else { throw PauseValidationError.appNotGated(appId) }
            let attempts = try attemptsToday(appId: appId, db)
            let (session, content) = try startGatewaySession(appId: appId, platform: platform, db)
            return (session, content, attempts)
        }
    }

    /// Opens a pause in front of `appId` whether or not its gate is on (imports, tests, the seed's
    /// repository method): recovers abandoned pauses, picks the next content by the rotation, records
    /// it as shown, and stores the open session. All in one transaction.
    public func startGatewaySession(appId: String, platform: String) throws -> (session: GatewaySession, content: MindfulnessContent) {
        try write { db in try startGatewaySession(appId: appId, platform: platform, db) }
    }

    private func startGatewaySession(appId: String, platform: String, _ db: Database) throws -> (
        session: GatewaySession, content: MindfulnessContent
    ) {
        try recoverAbandonedGatewaySessions(db)
        guard try SocialAppRecord.exists(db, key: appId) else { throw PauseValidationError.unknownApp(appId) }
        let preferences = try pausePreferences(db)
        let library = try ContentRecord.filter(sql: "retired IS NOT 1").fetchAll(db).map(\.content)
        guard var content = ContentRotation.forPause(from: library, categories: preferences.selectedCategories) else {
            throw PauseValidationError.noContent
        }
        let now = environment.now()
        ContentRotation.markShown(&content, at: now)
        try ContentRecord(content).update(db)
        let calendar = try calendar(db)
        let duration = try pauseDuration(appId: appId, base: preferences.timerDuration, calendar: calendar, db)
        let session = GatewaySession(
            id: environment.uuid(), appId: appId, contentId: content.id, startTimestamp: now,
            durationSetting: duration, platform: platform, calendar: calendar)
        try GatewaySessionRecord(session).insert(db)
        return (session, content)
    }

    /// Ends an open pause with its status and outcome.
    @discardableResult
    public func finishGatewaySession(id: UUID, status: GatewaySession.CompletionType, outcome: GatewaySession.ActionType?) throws
        -> GatewaySession
    {
        try finishPause(id: id, status: status, outcome: outcome).pause
    }

    /// Ends a pause with what the person chose, in one transaction with what the choice does: "plant a
    /// tree instead" (`deepenPause`) starts a focus session of the preferred length, unless one is already
    /// open (then that one goes on, and `focus` is it). Every face (CLI, API, web) calls this one operation.
    public func finishPause(id: UUID, status: GatewaySession.CompletionType, outcome: GatewaySession.ActionType?) throws -> PauseFinish {
        try write { db in
            guard var session = try GatewaySessionRecord.fetchOne(db, key: id.uuidString)?.session else {
                throw NotFoundError("gateway session", id.uuidString)
            }
            try session.finish(status, outcome: outcome, at: environment.now())
            try GatewaySessionRecord(session).update(db)
            guard outcome == .deepenPause else { return PauseFinish(pause: session, focus: nil, focusStarted: false) }
            if let open = try settledOpenSession(db, calendar: calendar(db))?.session, open.state.isOpen {
                return PauseFinish(pause: session, focus: open, focusStarted: false)
            }
            return PauseFinish(pause: session, focus: try startFocusSession(db, plannedDuration: nil, tags: []), focusStarted: true)
        }
    }

    /// Stores a finished session from elsewhere (import, another device), validated against the seed's rules.
    public func recordGatewaySession(_ session: GatewaySession) throws {
        try write { db in
            try session.validate(
                appExists: { (try? SocialAppRecord.exists(db, key: $0)) == true },
                contentExists: { (try? ContentRecord.exists(db, key: $0)) == true })
            try GatewaySessionRecord(session).upsert(db)
        }
    }

    /// Closes every open pause whose duration plus grace has passed as `timeout`. Returns how many.
    @discardableResult
    public func recoverAbandonedGatewaySessions() throws -> Int {
        try write { db in try recoverAbandonedGatewaySessions(db) }
    }

    @discardableResult
    func recoverAbandonedGatewaySessions(_ db: Database) throws -> Int {
        let now = environment.now()
        let open = try GatewaySessionRecord.filter(
            sql: "completion_status IS NULL AND start_timestamp < ?",
            arguments: [overdueCandidatesBefore]
        ).fetchAll(db)
        var count = 0
        for record in open {
            var session = record.session
            if session.recoverIfAbandoned(at: now) {
                try GatewaySessionRecord(session).update(db)
                count += 1
            }
        }
        return count
    }

    /// Only pauses that started before this instant can be overdue: the shortest lasts 15 s + 5 s grace.
    private var overdueCandidatesBefore: Int64 {
        environment.now().groveMillis - Int64((GatewaySession.durationRange.lowerBound + GatewaySession.gracePeriod) * 1000)
    }

    public func gatewaySession(id: UUID) throws -> GatewaySession? {
        try writer.snapshotRead { db in try GatewaySessionRecord.fetchOne(db, key: id.uuidString)?.session }
    }

    /// Pauses, newest first, optionally for one app (abandoned ones already closed as timeout).
    public func gatewaySessions(appId: String? = nil, limit: Int? = nil) throws -> [GatewaySession] {
        try settlePauseData()
        return try writer.snapshotRead { db in
            var request = GatewaySessionRecord.order(sql: "start_timestamp DESC, id")
            if let appId { request = request.filter(sql: "app_id = ?", arguments: [appId]) }
            return try request.limit(limit ?? -1).fetchAll(db).map(\.session)
        }
    }

    /// How many times `appId` was opened through Grove today (configured zone), or — given `before`
    /// — today before that instant (the attempts before a pause shown again).
    public func attemptsToday(appId: String, before: Date? = nil) throws -> Int {
        try writer.snapshotRead { db in try attemptsToday(appId: appId, before: before, db) }
    }

    private func attemptsToday(appId: String, before: Date? = nil, _ db: Database) throws -> Int {
        let today = try calendar(db).localDay(of: environment.now())
        return try Int.fetchOne(
            db.cachedStatement(sql: "SELECT count(*) FROM gateway_session WHERE app_id = ? AND local_day = ? AND start_timestamp < ?"),
            arguments: [appId, today.description, before?.groveMillis ?? Int64.max]) ?? 0
    }

    /// Usage per app per local day, derived from sessions on read (grouped in SQL), newest first;
    /// abandoned pauses count as timeouts and days past the 30-day window are gone.
    public func usageStatistics(appId: String? = nil, from: LocalDay? = nil, to: LocalDay? = nil) throws -> [UsageStatistics] {
        try RangeRule.check(from: from, to: to)
        try settlePauseData()
        return try writer.snapshotRead { db in
            var sql = """
                SELECT local_day, app_id, count(*) AS total,
                       total(completion_status IS 'completed') AS completed, total(\(UsageStatistics.exitToFocusSQL)) AS exited,
                       coalesce(sum(CASE WHEN completion_status IS NOT NULL THEN time_spent END), 0) AS spent,
                       total(completion_status IS NOT NULL) AS finished
                FROM gateway_session
                """
            var arguments: StatementArguments = []
            // Streaks look back, so the day filter applies after deriving.
            if let appId {
                sql += " WHERE app_id = ?"
                arguments += [appId]
            }
            sql += " GROUP BY app_id, local_day"
            let counts = try Row.fetchAll(db, sql: sql, arguments: arguments).compactMap { row -> UsageDayCounts? in
                guard let day = LocalDay(row["local_day"] as String) else { return nil }
                // Every aggregate has a value for a day of open pauses only (total() is 0.0, never NULL);
                // read optionally all the same, so that no row can trap.
                func count(_ column: String) -> Int { (row[column] as Double?).map { Int($0) } ?? 0 }
                return UsageDayCounts(
                    date: day, appId: row["app_id"], total: row["total"] as Int? ?? 0, completed: count("completed"),
                    exited: count("exited"), timeSpentSum: row["spent"] as Int? ?? 0, finished: count("finished"))
            }
            return UsageStatistics.derive(from: counts, calendar: try calendar(db)).filter { stat in
                (from.map { stat.date >= $0 } ?? true) && (to.map { stat.date <= $0 } ?? true)
            }
        }
    }

    /// Deletes pauses older than the 30-day retention window (local days, configured zone).
    @discardableResult
    public func pruneExpiredPauseData() throws -> Int {
        try write { db in try pruneExpiredPauseData(db) }
    }

    /// Local housekeeping, not a deletion anyone made (SYNC.md "30-day pruning is local and makes no
    /// tombstones"): the capture triggers are held off, and the pruned rows' clocks go with them. Every
    /// device prunes by the same rule, so nothing needs to travel.
    private func pruneExpiredPauseData(_ db: Database) throws -> Int {
        let cutoff = try retentionStart(db).description
        try db.cachedExecute("INSERT OR IGNORE INTO sync_applying (id) VALUES (1)")
        try db.cachedExecute(
            """
            DELETE FROM sync_clock WHERE entity = 'gatewaySession' AND entity_id IN (SELECT id FROM gateway_session WHERE local_day < ?)
            """, [cutoff])
        try db.cachedExecute("DELETE FROM gateway_session WHERE local_day < ?", [cutoff])
        let pruned = db.changesCount
        try db.cachedExecute("DELETE FROM sync_applying")
        return pruned
    }

    private func retentionStart(_ db: Database) throws -> LocalDay {
        UsageStatistics.retentionStart(today: try calendar(db).localDay(of: environment.now()))
    }

    /// Closes abandoned pauses as timeout and drops history past 30 days, the way focus reads settle
    /// a due session: whoever reads next. A cheap read first, so the write lock is taken only when
    /// there is something to change. Returns how many rows changed.
    @discardableResult
    public func settlePauseData() throws -> Int {
        let needed = try writer.snapshotRead { db in
            try Bool.fetchOne(
                db.cachedStatement(
                    sql: """
                        SELECT EXISTS (SELECT 1 FROM gateway_session WHERE completion_status IS NULL AND start_timestamp < ?)
                            OR EXISTS (SELECT 1 FROM gateway_session WHERE local_day < ?)
                        """), arguments: [overdueCandidatesBefore, try retentionStart(db).description]) ?? false
        }
        guard needed else { return 0 }
        return try write { db in try recoverAbandonedGatewaySessions(db) + pruneExpiredPauseData(db) }
    }
}
