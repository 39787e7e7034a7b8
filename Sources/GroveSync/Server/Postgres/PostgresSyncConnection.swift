#if Postgres
    import Foundation
    import Logging
    import PostgresNIO
    import ServiceLifecycle

    /// `grove sync-server --postgres URL`: the URL read into PostgresNIO's pool configuration.
    public enum PostgresSyncConnection {
        /// `postgres://user:password@host:port/database?sslmode=disable|prefer|require` (also
        /// `postgresql://`); the password may come from `PGPASSWORD` instead. `poolSize` bounds the
        /// connections this instance opens (one more is held by the poke listener).
        public static func configuration(
            url text: String, poolSize: Int, environment: [String: String] = ProcessInfo.processInfo.environment
        )
            throws -> PostgresClient.Configuration
        {
            guard let url = URLComponents(string: text), ["postgres", "postgresql"].contains(url.scheme ?? ""),
                let user = url.user.flatMap({ $0.removingPercentEncoding }), !user.isEmpty
            else { throw PostgresURLError("--postgres is postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE") }
            let password = url.password.flatMap { $0.removingPercentEncoding } ?? environment["PGPASSWORD"]
            let database = String(url.path.drop { $0 == "/" })
            let query = Dictionary((url.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { _, last in last })
            let tls: PostgresClient.Configuration.TLS
            switch query["sslmode"] ?? "disable" {
            case "disable": tls = .disable
            case "prefer", "allow": tls = .prefer(.makeClientConfiguration())
            case "require", "verify-full", "verify-ca": tls = .require(.makeClientConfiguration())
            case let other: throw PostgresURLError("--postgres: sslmode \(other) is not one of disable, prefer, require")
            }
            var configuration = PostgresClient.Configuration(
                host: url.host ?? "127.0.0.1", port: url.port ?? 5432, username: user,
                password: password, database: database.isEmpty ? user : database, tls: tls)
            guard (1...1000).contains(poolSize) else { throw PostgresURLError("--pool-size is 1 to 1000") }
            configuration.options.maximumConnections = poolSize
            configuration.options.minimumConnections = 0
            return configuration
        }
    }

    /// A `--postgres` URL that cannot be used (the message names the option and the rule).
    public struct PostgresURLError: Error, CustomStringConvertible {
        public let description: String
        init(_ description: String) { self.description = description }
    }

    /// Pokes that cross instances: one listening connection per instance (`LISTEN grove_sync`); every
    /// `user:head` notification pokes this instance's open streams of that user. After the connection
    /// drops and comes back, every stream is poked (notifications sent meanwhile were lost).
    public struct PostgresPokeListener: Service {
        let client: PostgresClient
        let store: any SyncStore
        let pokes: PokeHub
        let logger: Logger

        public init(client: PostgresClient, store: any SyncStore, pokes: PokeHub, logger: Logger) {
            self.client = client
            self.store = store
            self.pokes = pokes
            self.logger = logger
        }

        public func run() async throws {
            await cancelWhenGracefulShutdown { await listen() }
        }

        private func listen() async {
            var reconnected = false
            while !Task.isCancelled {
                let pokeAll = reconnected
                do {
                    try await client.withConnection { connection in
                        try await connection.listen(on: PostgresSyncStore.channel) { notifications in
                            if pokeAll {
                                logger.info("Poke listener back: poking every stream")
                                await pokeEveryone()
                            }
                            for try await notification in notifications {
                                let parts = notification.payload.split(separator: ":")
                                guard parts.count == 2, let user = Int64(parts[0]), let head = Int64(parts[1]) else { continue }
                                await pokes.poke(user: user, head: head)
                            }
                        }
                    }
                } catch {
                    guard !Task.isCancelled else { return }
                    logger.warning("Poke listener lost its connection; retrying", metadata: ["error": "\(error)"])
                }
                reconnected = true
                try? await Task.sleep(for: .milliseconds(500))
            }
        }

        private func pokeEveryone() async {
            for user in await pokes.users {
                if let head = try? await store.head(userId: user).head { await pokes.poke(user: user, head: head) }
            }
        }
    }
#endif

#if Postgres
    /// One instance's PostgreSQL side: the pool, the store on it, and what runs beside the server.
    public struct PostgresDeployment: Sendable {
        public let client: PostgresClient
        public let store: PostgresSyncStore
        let logger: Logger

        /// A pool for `url` (nothing connects until it runs).
        public init(url: String, poolSize: Int, logger: Logger) throws {
            client = PostgresClient(
                configuration: try PostgresSyncConnection.configuration(url: url, poolSize: poolSize), backgroundLogger: logger)
            store = PostgresSyncStore(client: client, logger: logger)
            self.logger = logger
        }

        /// The pool and the poke listener, for the server's service group.
        public func services(pokes: PokeHub) -> [any Service] {
            [client, PostgresPokeListener(client: client, store: store, pokes: pokes, logger: logger)]
        }

        /// Brings the schema up to date (under the advisory lock).
        public func migrate() async throws { try await PostgresSyncSchema.migrate(client, logger: logger) }

        /// Runs `body` with the pool running and the schema migrated (one-shot commands: `user add`).
        public func withRunning<T>(_ body: (PostgresSyncStore) async throws -> T) async throws -> T {
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { await client.run() }
                do {
                    try await migrate()
                    let result = try await body(store)
                    group.cancelAll()
                    return result
                } catch {
                    group.cancelAll()
                    throw error
                }
            }
        }
    }
#endif
