import Foundation
import GRDB
import GroveCore

extension AppDatabase {
    /// Refuses a change to `app`'s gate while a strict block of its own is in force.
    func refuseDuringStrictBlock(_ app: SocialApp, _ db: Database) throws {
        guard app.blockStrict, let schedule = app.blockSchedule else { return }
        let calendar = try calendar(db), now = environment.now()
        if let block = schedule.activeBlock(at: now, calendar: calendar) {
            throw PauseValidationError.strictBlock(app.displayName, until: calendar.wallText(block.end, today: calendar.localDay(of: now)))
        }
    }

    /// The block `app` is in now, if any.
    func activeBlock(_ app: SocialApp, _ db: Database) throws -> DateInterval? {
        guard app.isEnabled, let schedule = app.blockSchedule else { return nil }
        return schedule.activeBlock(at: environment.now(), calendar: try calendar(db))
    }

    /// This calendar week's pass: the pauses that used it (any app, any device) since the week began.
    func emergencyPass(_ db: Database) throws -> EmergencyPass {
        let calendar = try calendar(db)
        let week = calendar.startOfWeek(containing: calendar.localDay(of: environment.now()))
        let start = calendar.startOfDay(week), next = calendar.startOfDay(week.adding(days: 7))
        let used = try GatewaySessionRecord.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT * FROM gateway_session WHERE emergency_pass = 1 AND start_timestamp >= ? AND start_timestamp < ?
                    ORDER BY start_timestamp LIMIT ?
                    """),
            arguments: [start.groveMillis, next.groveMillis, EmergencyPass.perWeek]
        ).map(\.session)
        return EmergencyPass(available: used.count < EmergencyPass.perWeek, usedBy: used.first, nextAt: next)
    }
}

extension PauseRoom {
    /// Sets when `id` is blocked outright (`mon-fri 09:00-12:00`), or with nil never; `strict` holds
    /// the app's gate while a block is in force. One transaction; refused during a strict block.
    @discardableResult
    public func setBlock(id: String, schedule: String?, strict: Bool) throws -> SocialApp {
        let parsed = try schedule.map { text throws(PauseValidationError) in try BlockSchedule(parsing: text) }
        return try write { db in
            guard var app = try SocialAppRecord.live(db, id: id) else { throw PauseValidationError.unknownApp(id) }
            app.blockSchedule = parsed
            app.blockStrict = strict && parsed != nil
            try database.saveApp(app, db)
            return app
        }
    }

    /// Lets `id` open through its gate while a tree grows without withering it: in every session
    /// (`always`), in sessions with one of `tags`, or (neither) never again.
    @discardableResult
    public func setFocusAllowed(id: String, always: Bool, tags: [String]) throws -> SocialApp {
        let allowed = try SocialApp.focusAllowed(always: always, tags: tags)
        return try write { db in
            guard var app = try SocialAppRecord.live(db, id: id) else { throw PauseValidationError.unknownApp(id) }
            app.focusAllowed = allowed
            try database.saveApp(app, db)
            return app
        }
    }

    /// The block an app is in now (gated apps only), or nil.
    public func activeBlock(appId: String) throws -> DateInterval? {
        try writer.snapshotRead { db in
            guard let app = try SocialAppRecord.live(db, id: appId) else { throw PauseValidationError.unknownApp(appId) }
            return try database.activeBlock(app, db)
        }
    }

    /// This week's emergency pass.
    public func emergencyPass() throws -> EmergencyPass {
        try writer.snapshotRead { db in try database.emergencyPass(db) }
    }
}
