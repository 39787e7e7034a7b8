import Foundation
import GRDB
import GroveCore

extension AppDatabase {
    // MARK: Gateway sessions

    func startGatewaySession(
        appId: String, platform: String, emergencyPass: Bool = false, witheredTree: Bool = false, _ db: Database
    ) throws -> (
        session: GatewaySession, content: MindfulnessContent
    ) {
        try recoverAbandonedGatewaySessions(db)
        guard try SocialAppRecord.live(db, id: appId) != nil else { throw PauseValidationError.unknownApp(appId) }
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
        var session = GatewaySession(
            id: environment.uuid(), appId: appId, contentId: content.id, startTimestamp: now,
            durationSetting: duration, platform: platform, calendar: calendar)
        if emergencyPass { session.emergencyPass = true }
        if witheredTree { session.witheredTree = true }
        try GatewaySessionRecord(session).insert(db)
        return (session, content)
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
    var overdueCandidatesBefore: Int64 {
        environment.now().groveMillis - Int64((GatewaySession.durationRange.lowerBound + GatewaySession.gracePeriod) * 1000)
    }

    func attemptsToday(appId: String, before: Date? = nil, _ db: Database) throws -> Int {
        let today = try calendar(db).localDay(of: environment.now())
        return try Int.fetchOne(
            db.cachedStatement(sql: "SELECT count(*) FROM gateway_session WHERE app_id = ? AND local_day = ? AND start_timestamp < ?"),
            arguments: [appId, today.description, before?.groveMillis ?? Int64.max]) ?? 0
    }
}

extension PauseRoom {
    /// What a gate does when someone opens an app through it (every face: the web gateway, the
    /// browser extension, `grove pause`): an app whose gate is off opens without a pause and without
    /// counting (`appNotGated`); otherwise the pause starts, and `attemptsBefore` is how many times
    /// the app was opened through the gate earlier today. While a tree grows it refuses
    /// (`treeGrowing`) and counts nothing. During the app's scheduled block it refuses (`blocked`)
    /// unless `emergency` asks for the week's pass, which the pause then uses (`emergencyPassUsed`
    /// once it is gone). `letTreeWither` is the person's answer to the growing tree: the session is
    /// abandoned and the pause opened in one transaction, and the pause remembers it (`witheredTree`,
    /// a figure of the gate's integrity). One attempt per call: a face that shows the same pause
    /// again (a reload) reads it with `pause.session(id:)` instead.
    public func open(appId: String, platform: String, emergency: Bool = false, letTreeWither: Bool = false) throws -> (
        session: GatewaySession, content: MindfulnessContent, attemptsBefore: Int
    ) {
        try write { db in
            guard let app = try SocialAppRecord.live(db, id: appId) else { throw PauseValidationError.unknownApp(appId) }
            guard app.isEnabled else { throw PauseValidationError.appNotGated(appId) }
            // The gated app waits behind a growing tree, whichever face asks: nothing is counted
            // until the person lets the tree wither (every face asks them first).
            // An app on the allowlist for this session (`focusAllowed`) opens through its gate as ever.
            // The scheduled block and, only when one is in force, the week's emergency pass: read once.
            let block = try database.activeBlock(app, db)
            let pass = try block.map { _ in try database.emergencyPass(db) }
            var withered = false
            if let growing = try database.settledOpenSession(db, calendar: calendar(db)), growing.session.state == .active,
                !app.isAllowed(duringSessionTagged: growing.session.tags)
            {
                // A visit the block refuses must not cost the tree: the tree is asked about first.
                let throughBlock = block == nil || (emergency && pass?.available == true)
                guard letTreeWither, throughBlock else { throw PauseValidationError.treeGrowing(app.displayName) }
                try database.abandonFocusSession(db)
                withered = true
            }
            if let block, let pass {
                let calendar = try calendar(db), today = calendar.localDay(of: environment.now())
                guard emergency else {
                    throw PauseValidationError.blocked(app.displayName, until: calendar.wallText(block.end, today: today))
                }
                guard pass.available else {
                    throw PauseValidationError.emergencyPassUsed(next: calendar.wallText(pass.nextAt, today: today))
                }
            }
            let attempts = try database.attemptsToday(appId: appId, db)
            let (session, content) = try database.startGatewaySession(
                appId: appId, platform: platform, emergencyPass: block != nil, witheredTree: withered, db)
            return (session, content, attempts)
        }
    }

    /// Opens a pause in front of `appId` whether or not its gate is on (imports, tests, the seed's
    /// repository method): recovers abandoned pauses, picks the next content by the rotation, records
    /// it as shown, and stores the open session. All in one transaction.
    public func start(appId: String, platform: String) throws -> (session: GatewaySession, content: MindfulnessContent) {
        try write { db in try database.startGatewaySession(appId: appId, platform: platform, db) }
    }

    /// Ends an open pause with its status and outcome.
    @discardableResult
    public func finishSession(id: UUID, status: GatewaySession.CompletionType, outcome: GatewaySession.ActionType?) throws
        -> GatewaySession
    {
        try finish(id: id, status: status, outcome: outcome).pause
    }

    /// Ends a pause with what the person chose, in one transaction with what the choice does: "plant a
    /// tree instead" (`deepenPause`) starts a focus session of the preferred length, unless one is already
    /// open (then that one goes on, and `focus` is it). Every face (CLI, API, web) calls this one operation.
    public func finish(id: UUID, status: GatewaySession.CompletionType, outcome: GatewaySession.ActionType?) throws -> PauseFinish {
        try write { db in
            guard var session = try GatewaySessionRecord.fetchOne(db, key: id.uuidString)?.session else {
                throw NotFoundError("gateway session", id.uuidString)
            }
            try session.finish(status, outcome: outcome, at: environment.now())
            try GatewaySessionRecord(session).update(db)
            guard outcome == .deepenPause else { return PauseFinish(pause: session, focus: nil, focusStarted: false) }
            if let open = try database.settledOpenSession(db, calendar: calendar(db))?.session, open.state.isOpen {
                return PauseFinish(pause: session, focus: open, focusStarted: false)
            }
            return PauseFinish(
                pause: session, focus: try database.startFocusSession(db, plannedDuration: nil, tags: []), focusStarted: true)
        }
    }

    /// The browser extension's report of the visit after a Proceed (`GatewaySession.recordVisit`):
    /// seconds on the app's pages so far and visits its grace window let through. Each only grows.
    @discardableResult
    public func reportVisit(id: UUID, seconds: Int, graceVisits: Int) throws -> GatewaySession {
        try write { db in
            guard var session = try GatewaySessionRecord.fetchOne(db, key: id.uuidString)?.session else {
                throw NotFoundError("gateway session", id.uuidString)
            }
            let before = session
            try session.recordVisit(seconds: seconds, graceVisits: graceVisits, at: environment.now())
            // The same totals again (a retry) write nothing: nothing new to sync.
            if session != before { try GatewaySessionRecord(session).update(db) }
            return session
        }
    }

    /// Stores a finished session from elsewhere (import, another device), validated against the seed's rules.
    public func record(_ session: GatewaySession) throws {
        try write { db in
            try session.validate(
                appExists: { (try? SocialAppRecord.exists(db, key: $0)) == true },
                contentExists: { (try? ContentRecord.exists(db, key: $0)) == true })
            try GatewaySessionRecord(session).upsert(db)
        }
    }

    /// Closes every open pause whose duration plus grace has passed as `timeout`. Returns how many.
    @discardableResult
    public func recoverAbandoned() throws -> Int {
        try write { db in try database.recoverAbandonedGatewaySessions(db) }
    }

    public func session(id: UUID) throws -> GatewaySession? {
        try writer.snapshotRead { db in try GatewaySessionRecord.fetchOne(db, key: id.uuidString)?.session }
    }

    /// Pauses, newest first, optionally for one app (abandoned ones already closed as timeout).
    public func sessions(appId: String? = nil, limit: Int? = nil) throws -> [GatewaySession] {
        try settle()
        return try writer.snapshotRead { db in
            var request = GatewaySessionRecord.order(sql: "start_timestamp DESC, id")
            if let appId { request = request.filter(sql: "app_id = ?", arguments: [appId]) }
            return try request.limit(limit ?? -1).fetchAll(db).map(\.session)
        }
    }

    /// How many times today (configured zone) a pause stood before `appId`: attempts to open it
    /// through Grove, whatever came after. Given `before`, those before that instant (the attempts
    /// before a pause shown again).
    public func attemptsToday(appId: String, before: Date? = nil) throws -> Int {
        try writer.snapshotRead { db in try database.attemptsToday(appId: appId, before: before, db) }
    }
}
