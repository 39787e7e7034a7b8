import Foundation
import GRDB

extension AppDatabase {
    /// The server's login token: the stored one, else `make()`'s, stored for next time.
    public func serverToken(orCreate make: () -> String) throws -> (token: String, created: Bool) {
        try write { db in
            if let token = try String.fetchOne(db.cachedStatement(sql: "SELECT value FROM grove_meta WHERE key = 'server_token'")) {
                return (token, false)
            }
            let token = make()
            try db.cachedExecute("INSERT INTO grove_meta (key, value) VALUES ('server_token', ?)", [token])
            return (token, true)
        }
    }
}
