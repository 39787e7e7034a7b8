import Foundation
import GroveCore
import GroveSync
import Logging

/// The server stores the sync tests run against: a private SQLite store in memory, or — in a build
/// with the `Postgres` trait and `GROVE_TEST_POSTGRES=postgres://…` set — two server instances
/// (each with its own pool, pokes and listener) on one PostgreSQL database, as a hosted service runs.
enum TestServers {
    /// The PostgreSQL URL the tests use, if any.
    static var postgresURL: String? {
        ProcessInfo.processInfo.environment["GROVE_TEST_POSTGRES"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// One instance: its store and its live pokes (the listener of a PostgreSQL instance feeds them).
    struct Instance: Sendable {
        let store: any SyncStore
        let pokes: PokeHub
    }

    /// The instances of this run (one for SQLite, two for PostgreSQL); each call of SQLite's makes a new store.
    static func instances() async throws -> [Instance] {
        #if Postgres
            if postgresURL != nil { return try await shared.value }
        #endif
        return [Instance(store: try SQLiteSyncStore(path: nil), pokes: PokeHub())]
    }

    /// A user name no earlier run of the tests took (a PostgreSQL database outlives a run).
    static func uniqueName(_ base: String) -> String {
        postgresURL == nil ? base : "\(base)-\(runTag)"
    }

    private static let runTag = String(UUID().uuidString.prefix(8)).lowercased()

    #if Postgres
        /// Two instances for the whole test process: pools running, schema migrated by both at once (the
        /// advisory lock makes one wait), listeners started.
        private static let shared = Task { () throws -> [Instance] in
            guard let url = postgresURL else { return [] }
            var logger = Logger(label: "grove.tests.postgres")
            logger.logLevel = .warning
            let deployments = try (0..<2).map { _ in try PostgresDeployment(url: url, poolSize: 12, logger: logger) }
            var instances: [Instance] = []
            for deployment in deployments {
                let pokes = PokeHub()
                for service in deployment.services(pokes: pokes) { Task.detached { try? await service.run() } }
                instances.append(Instance(store: deployment.store, pokes: pokes))
            }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for deployment in deployments { group.addTask { try await deployment.migrate() } }
                try await group.waitForAll()
            }
            return instances
        }
    #endif
}
