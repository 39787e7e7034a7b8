import Foundation
import GRDB
import GroveCore

extension AppDatabase {
    // MARK: Preferences

    func focusPreferences(_ db: Database) throws -> FocusPreferences {
        try FocusPreferencesRecord.fetchOne(db.cachedStatement(sql: "SELECT * FROM focus_preferences WHERE id = 1"))?.model ?? .default
    }

}

extension FocusRoom {
    public func preferences() throws -> FocusPreferences {
        try writer.snapshotRead { db in try database.focusPreferences(db) }
    }

    /// Changes some focus preferences in one transaction (the rest stay as stored, whoever changed them).
    @discardableResult
    public func changePreferences(_ change: (inout FocusPreferences) -> Void) throws -> FocusPreferences {
        try write { db in
            var preferences = try database.focusPreferences(db)
            let probe = preferences.syncProbe
            change(&preferences)
            try preferences.validate()
            try FocusPreferencesRecord(preferences).upsert(db)
            try SyncChoice.record(
                db, .focusPreferences, id: "", fields: SyncChoice.assigned(by: change, probe: probe, fields: FocusPreferences.syncFields))
            return preferences
        }
    }

    @discardableResult
    public func updatePreferences(_ preferences: FocusPreferences) throws -> FocusPreferences {
        try preferences.validate()
        return try write { db in
            try FocusPreferencesRecord(preferences).upsert(db)
            return try database.focusPreferences(db)
        }
    }
}
