import Foundation
import GRDB
import GroveCore

extension AppDatabase {
    // MARK: Preferences

    public func focusPreferences() throws -> FocusPreferences {
        try writer.snapshotRead { db in try focusPreferences(db) }
    }

    func focusPreferences(_ db: Database) throws -> FocusPreferences {
        try FocusPreferencesRecord.fetchOne(db.cachedStatement(sql: "SELECT * FROM focus_preferences WHERE id = 1"))?.model ?? .default
    }

    /// Changes some focus preferences in one transaction (the rest stay as stored, whoever changed them).
    @discardableResult
    public func changeFocusPreferences(_ change: (inout FocusPreferences) -> Void) throws -> FocusPreferences {
        try write { db in
            var preferences = try focusPreferences(db)
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
    public func updateFocusPreferences(_ preferences: FocusPreferences) throws -> FocusPreferences {
        try preferences.validate()
        return try write { db in
            try FocusPreferencesRecord(preferences).upsert(db)
            return try focusPreferences(db)
        }
    }
}
