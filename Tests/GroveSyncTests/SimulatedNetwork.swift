import Foundation
import GroveCore
import GroveSync

/// A seeded random source (SplitMix64): a failing seed replays exactly.
struct SeededRandom: RandomNumberGenerator, Sendable {
    var state: UInt64
    init(seed: UInt64) { state = seed &+ 0x9E37_79B9_7F4A_7C15 }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func chance(_ p: Double) -> Bool { Double.random(in: 0..<1, using: &self) < p }
}

/// A lost request or response.
struct NetworkFault: Error {}

/// The network between one simulated device and the in-process server: while faulty, 10% of
/// requests and 10% of responses are lost, 10% of pushes delivered twice, and old pushes come back
/// late (reordered) — all from the seed.
final class SimulatedNetwork: @unchecked Sendable {
    let lock = NSLock()
    var random: SeededRandom
    var faulty = true
    /// Every push the server acknowledged, with what it acknowledged (the oracle's log).
    var acknowledged: [(request: PushRequest, lastMutationId: Int64)] = []
    /// Pushes held back, to arrive later than newer ones.
    var delayed: [(SyncService.Caller, PushRequest)] = []

    init(seed: UInt64) { random = SeededRandom(seed: seed) }

    func roll(_ p: Double) -> Bool { lock.withLock { faulty && random.chance(p) } }
}

/// `SyncTransport` straight into `SyncService`, through `SimulatedNetwork`.
struct SimulatedTransport: SyncTransport {
    let service: SyncService
    let token: String
    let network: SimulatedNetwork
    /// Look the token up once (the simulation, where nothing is revoked and "last seen" is not read).
    var cachesCaller = false

    private let cache = CallerCache()

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

    func status() async throws -> ServerStatus { try await call { try await service.status(try await caller()) } }

    func push(_ request: PushRequest) async throws -> PushResponse {
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

    func pull(cursor: Int64, limit: Int, checksum: String, full: Bool) async throws -> PullResponse {
        try await call { try await service.pull(try await caller(), cursor: cursor, limit: limit, checksum: checksum, full: full) }
    }

    func fork() async throws -> DeviceCredentials { try await call { try await service.fork(try await caller()) } }
}
