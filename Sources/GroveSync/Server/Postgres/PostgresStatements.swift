#if Postgres
import PostgresNIO

/// The statements every request runs, prepared once per connection: PostgreSQL parses and plans
/// them once instead of on every push and every authentication.
enum PostgresStatements {
    /// The device a token's prefix names, with its user (every authenticated request).
    struct DeviceByPrefix: PostgresPreparedStatement {
        typealias Row = (String, Int64, String, String, Int64, Int64?, Bool, String, String, Bool, Int64)
        static let sql = """
            SELECT d.id, d.user_id, d.name, d.token_hash, d.last_mutation_id, d.last_seen, d.revoked,
                   u.name, u.password_hash, u.disabled, u.created_at
            FROM sync_device d JOIN sync_user u ON u.id = d.user_id WHERE d.token_prefix = $1
            """
        var prefix: String

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 1)
            bindings.append(prefix)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode(Row.self) }
    }

    /// A push's first read: the user's row locked (orders this user's pushes), the device's last mutation.
    struct LockForPush: PostgresPreparedStatement {
        typealias Row = (Int64, Int64, String)
        static let sql = """
            SELECT u.head, d.last_mutation_id, d.last_mutation_digest FROM sync_user u JOIN sync_device d ON d.user_id = u.id
            WHERE u.id = $1 AND d.id = $2 FOR UPDATE OF u
            """
        var userId: Int64
        var deviceId: String

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 2)
            bindings.append(userId)
            bindings.append(deviceId)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode(Row.self) }
    }

    /// A push's second read: the rows it touches and the user's open focus sessions.
    struct TouchedAndOpen: PostgresPreparedStatement {
        typealias Row = (String, String, String, Bool)
        static let sql = """
            SELECT e.entity, e.entity_id, e.state, true FROM sync_entity e
            JOIN unnest($2::text[], $3::text[]) AS t (entity, entity_id) ON e.entity = t.entity AND e.entity_id = t.entity_id
            WHERE e.user_id = $1
            UNION ALL
            SELECT entity, entity_id, state, false FROM sync_entity WHERE user_id = $1 AND entity = 'focusSession' AND open
            """
        var userId: Int64
        var entities: [String]
        var ids: [String]

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 3)
            bindings.append(userId)
            bindings.append(entities)
            bindings.append(ids)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode(Row.self) }
    }
}
#endif
