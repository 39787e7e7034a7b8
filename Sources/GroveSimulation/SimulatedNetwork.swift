import Foundation
import GroveCore
import GroveSync

/// A lost request or response.
public struct NetworkFault: Error {
    public init() {}
}

/// The network between one simulated device and the in-process server: while faulty, 10% of
/// requests and 10% of responses are lost, 10% of pushes delivered twice, and old pushes come back
/// late (reordered) — all from the seed.
public final class SimulatedNetwork: @unchecked Sendable {
    let lock = NSLock()
    var random: SeededRandom
    /// Whether requests and responses are lost, repeated and reordered now.
    public var faulty = true
    /// Every push the server acknowledged, with what it acknowledged (the oracle's log).
    public var acknowledged: [(request: PushRequest, lastMutationId: Int64)] = []
    /// Pushes held back, to arrive later than newer ones.
    var delayed: [(SyncService.Caller, PushRequest)] = []

    public init(seed: UInt64) { random = SeededRandom(seed: seed) }

    func roll(_ p: Double) -> Bool { lock.withLock { faulty && random.chance(p) } }
}

/// `SyncTransport` straight into `SyncService`, through `SimulatedNetwork`.
public struct SimulatedTransport: SyncTransport {
    public let service: SyncService
    public let token: String
    public let network: SimulatedNetwork
    /// Look the token up once (the simulation, where nothing is revoked and "last seen" is not read).
    public var cachesCaller = false

    private let cache = CallerCache()

    public init(service: SyncService, token: String, network: SimulatedNetwork, cachesCaller: Bool = false) {
        self.service = service
        self.token = token
        self.network = network
        self.cachesCaller = cachesCaller
    }

    final class CallerCache: @unchecked Sendable {
        let lock = NSLock()
        var caller: SyncService.Caller?
    }

    private func caller() async throws -> SyncService.Caller {
        if cachesCaller, let cached = cache.lock.withLock({ cache.caller }) { return cached }
        do {
            let caller = try await service.authenticate(token: token)
            cache.lock.withLock { cache.caller = caller }
            return caller
        } catch let error as SyncServerError { throw SyncProblem(error) }
    }

    private func call<T>(_ body: () async throws -> T) async throws -> T {
        if network.roll(0.1) { throw NetworkFault() }
        let result: T
        do { result = try await body() } catch let error as SyncServerError { throw SyncProblem(error) }
        if network.roll(0.1) { throw NetworkFault() }
        return result
    }

    public func status() async throws -> ServerStatus { try await call { try await service.status(try await caller()) } }

    public func push(_ request: PushRequest) async throws -> PushResponse {
        let caller = try await caller()
        // A push held back earlier arrives now, after newer ones (its response goes nowhere).
        if network.roll(0.1), let late = network.lock.withLock({ network.delayed.popLast() }) {
            if let response = try? await service.push(late.0, late.1) { record(late.1, response) }
        }
        if network.roll(0.1) { network.lock.withLock { network.delayed.append((caller, request)) } }
        return try await call {
            let response = try await service.push(caller, request)
            record(request, response)
            if network.roll(0.1), let again = try? await service.push(caller, request) { record(request, again) }
            return response
        }
    }

    private func record(_ request: PushRequest, _ response: PushResponse) {
        network.lock.withLock { network.acknowledged.append((request, response.lastMutationId)) }
    }

    public func pull(cursor: Int64, limit: Int, checksum: String, full: Bool) async throws -> PullResponse {
        try await call { try await service.pull(try await caller(), cursor: cursor, limit: limit, checksum: checksum, full: full) }
    }

    public func fork() async throws -> DeviceCredentials { try await call { try await service.fork(try await caller()) } }

    public func reclaim(_ request: DeviceReclaim) async throws { try await call { try await service.reclaim(token: token, request) } }

    public func snapshot(asOf: Date, after: EntityKey?, limit: Int) async throws -> SnapshotPage {
        try await call { try await service.snapshot(try await caller(), asOf: asOf, after: after, limit: limit) }
    }
}
