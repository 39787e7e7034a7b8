import Foundation
import GroveCore
import GroveStore
import GroveSync

/// What a seed's run found wrong, in words.
public struct SimulationFailure: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// One server instance of a simulation: its store and its live pokes.
public struct SimulationServer: Sendable {
    public let store: any SyncStore
    public let pokes: PokeHub
    public init(store: any SyncStore, pokes: PokeHub) {
        self.store = store
        self.pokes = pokes
    }
}

/// SYNC.md's convergence simulation, one seed's run: an in-process server, 2–5 devices with skewed,
/// jumping clocks, 300 random steps across every room weighted toward conflicts, a lossy network that
/// drops, repeats and reorders; then a quiet network and the invariants. Deterministic per seed.
public final class Simulation {
    public let seed: UInt64
    static let steps = 300
    /// The server instances (one SQLite store, or two on one PostgreSQL database).
    private let servers: [SimulationServer]
    /// The account of this seed (unique per run on a shared PostgreSQL database).
    private var name: String

    /// A run of `seed` against `servers`, under the account `account`.
    public init(seed: UInt64, servers: [SimulationServer], account: String) {
        self.seed = seed
        self.servers = servers
        self.name = account
    }

    /// The seeds of a run of `count` (a failing one replays alone by its number).
    public static func seeds(count: Int) -> [UInt64] {
        (0..<UInt64(max(1, count))).map { $0 &* 7919 &+ 17 }
    }

    /// Runs `seeds`, `workers` at a time (each waits on its stores at times), and stops starting new
    /// ones after three failures. Returns each failure as "seed S: what".
    public static func run(
        seeds: [UInt64], workers: Int, servers: @escaping @Sendable () async throws -> [SimulationServer],
        account: @escaping @Sendable (UInt64) -> String
    ) async -> [String] {
        await withTaskGroup(of: String?.self) { group -> [String] in
            var failures: [String] = []
            var pending = seeds[...]
            func next() -> Bool {
                guard let seed = pending.popFirst() else { return false }
                group.addTask {
                    do {
                        try await Simulation(seed: seed, servers: try await servers(), account: account(seed)).run()
                        return nil
                    } catch { return "seed \(seed): \(error)" }
                }
                return true
            }
            for _ in 0..<max(1, workers) { _ = next() }
            while let result = await group.next() {
                if let result { failures.append(result) }
                if failures.count < 3 { _ = next() }
            }
            return failures
        }
    }

    /// Runs the seed; throws a `SimulationFailure` naming what broke.
    public func run() async throws {
        var random = SeededRandom(seed: seed)
        let start = Date(timeIntervalSince1970: 1_772_000_000)  // 2026-02-25
        let serverClock = TestClock(start)
        let network = SimulatedNetwork(seed: seed ^ 0xABCDEF)
        // One server instance (SQLite), or two on one PostgreSQL database with the devices spread
        // over them (`TestServers`).
        let services = servers.map {
            SyncService(store: $0.store, pokes: $0.pokes, now: { serverClock.now }, bcryptCost: 4)
        }
        guard let service = services.first else { throw SimulationFailure("no server") }
        let store = service.store
        let name = self.name
        let user = try await service.addUser(name: name, password: "password-\(seed)")
        let zone = TimeZone(identifier: "Europe/Berlin") ?? .current
        var devices: [SimulatedDevice] = []
        let count = Int.random(in: 2...5, using: &random)
        for index in 0..<count {
            let instance = services[index % services.count]
            let credentials = try await instance.register(
                DeviceRegistration(user: name, password: "password-\(seed)", deviceName: "device \(index)"))
            let skew = Double(Int.random(in: -240...240, using: &random))
            devices.append(
                try SimulatedDevice(
                    name: "device \(index)", start: start, skew: skew, idPrefix: seed &* 16 &+ UInt64(index),
                    zone: zone, service: instance, network: network, credentials: credentials, user: name,
                    cachesCaller: true))
        }
        var actions = SimulatedActions(random: random)
        var unexpected: [String] = []
        for step in 0..<Self.steps {
            let seconds = actions.random.chance(0.05) ? 3600.0 : Double(Int.random(in: 5...120, using: &actions.random))
            serverClock.advance(by: seconds)
            for device in devices { device.clock.advance(by: seconds) }
            if actions.random.chance(0.03), let device = devices.randomElement(using: &actions.random) {
                device.clock.setWall(device.clock.now.addingTimeInterval(-30))
            }
            guard let device = devices.randomElement(using: &actions.random) else { continue }
            if actions.random.chance(0.2) {
                do { _ = try await device.engine.sync() } catch is NetworkFault {} catch {
                    unexpected.append("step \(step) \(device.name) sync: \(error)")
                }
            } else if let problem = actions.act(on: device.database) {
                unexpected.append("step \(step) \(device.name): \(problem)")
            }
        }
        // A quiet network: everyone syncs until nothing moves.
        network.faulty = false
        for _ in 0..<3 {
            for device in devices {
                do { _ = try await device.engine.sync() } catch { unexpected.append("quiet sync \(device.name): \(error)") }
            }
        }
        guard unexpected.isEmpty else { throw SimulationFailure(unexpected.prefix(5).joined(separator: "\n")) }

        let states = try await store.entities(userId: user.id)
        let expected = SyncSnapshot.canonical(states)
        for device in devices {
            let snapshot = try device.database.sync.snapshot()
            if snapshot != expected {
                throw SimulationFailure("\(device.name) differs from the server: \(Self.difference(snapshot, expected))")
            }
            // One total to-do order everywhere: the rank each device shows is the order of (key, id).
            for timer in try device.database.timers.all() {
                let expectedOrder = expected.filter { $0.key.entity == "todo" && $0.value["timerId"]?.text == timer.id.uuidString }
                    .sorted { ($0.value["orderKey"]?.text ?? "", $0.key.id) < ($1.value["orderKey"]?.text ?? "", $1.key.id) }.map(\.key.id)
                let shown = timer.todoItems.map(\.id.uuidString)
                if shown != expectedOrder || timer.todoItems.map(\.sortOrder) != Array(0..<shown.count) {
                    throw SimulationFailure("\(device.name) shows the to-dos of \(timer.name) as \(shown), not \(expectedOrder)")
                }
            }
            let status = try device.database.sync.status()
            if status?.pendingMutations != 0 || status?.parkedChanges != 0 {
                throw SimulationFailure(
                    "\(device.name) has \(status?.pendingMutations ?? -1) pending and \(status?.parkedChanges ?? -1) parked")
            }
            // Per-tag totals kept by triggers through every applied change equal a count of the sessions.
            // Last (settling may write), and settled first: reading the totals completes a session that has run its length.
            try device.database.focus.settle()
            let sessions = try device.database.focus.all().filter { $0.endDay != nil }
            let summaries = try device.database.focus.tags()
            if Set(summaries.map(\.tag)) != Set(sessions.flatMap(\.tags)) {
                throw SimulationFailure(
                    "\(device.name) has totals for tags \(summaries.map(\.tag)), its sessions \(Set(sessions.flatMap(\.tags)))")
            }
            for summary in summaries {
                let tagged = sessions.filter { $0.tags.contains { FocusTags.folded($0) == FocusTags.folded(summary.tag) } }
                let trees = tagged.filter { $0.state == .completed }.count, abandoned = tagged.filter { $0.state == .abandoned }.count
                if summary.trees != trees || summary.abandoned != abandoned {
                    throw SimulationFailure(
                        "\(device.name) counts \(summary.trees)/\(summary.abandoned) for tag \(summary.tag), its sessions \(trees)/\(abandoned)"
                    )
                }
            }
        }
        try Self.checkInvariants(expected)
        // The server holds exactly what the design's merge makes of every acknowledged write: each
        // group the greatest version ever acknowledged (`ReferenceMerge`, not the join under test). No
        // acknowledged write is lost unless a greater one superseded it, and nothing else is held.
        var written: [EntityKey: (entity: SyncEntity, versions: [SyncState])] = [:]
        for (request, last) in network.acknowledged {
            for mutation in request.mutations where mutation.id <= last {
                guard let entity = SyncEntity.named(mutation.entity) else { continue }
                let key = EntityKey(entity: mutation.entity, id: mutation.entityId)
                written[key, default: (entity, [])].versions.append(try mutation.state(of: entity))
            }
        }
        for (key, history) in written {
            let reference = ReferenceMerge.merge(history.versions, entity: history.entity)
            if states[key] != reference {
                throw SimulationFailure("the server holds \(key) as \(String(describing: states[key])), not \(reference)")
            }
        }
        if let extra = states.keys.first(where: { written[$0] == nil }) {
            throw SimulationFailure("the server holds \(extra), which no acknowledged push wrote")
        }
        // Replaying an acknowledged push changes nothing. Not vacuous: the replay reaches the server and
        // is acknowledged as far as before, or is refused only because its device's token is gone.
        if let (request, last) = network.acknowledged.randomElement(using: &actions.random) {
            let head = try await store.head(userId: user.id).head
            do {
                let caller = try await service.authenticate(token: try await tokenOf(request.deviceId, service: service, devices: devices))
                let again = try await service.push(caller, request)
                if again.lastMutationId < last {
                    throw SimulationFailure("a replayed push was acknowledged to \(again.lastMutationId), before \(last)")
                }
            } catch let error as SyncServerError {
                switch error {
                case .unauthorized, .unknownDevice, .wrongDevice: break
                default: throw SimulationFailure("replaying an acknowledged push was refused: \(error)")
                }
            }
            let after = try await store.entities(userId: user.id)
            let headAfter = try await store.head(userId: user.id).head
            if after != states || headAfter != head {
                throw SimulationFailure("replaying an acknowledged push changed the server")
            }
        }
        // Applying the server's changes in any order gives the same state.
        try await checkShuffledApply(service: service, store: store, userId: user.id, expected: expected, random: &actions.random)
    }

    /// The token of a device, found again by registering? No: replay through any live device's
    /// transport is enough, since a replay's identity is its device id; use the first device that has it.
    private func tokenOf(_ deviceId: UUID, service: SyncService, devices: [SimulatedDevice]) async throws -> String {
        for device in devices {
            if let transport = device.engine.transport as? SimulatedTransport, try device.database.sync.device()?.deviceId == deviceId {
                return transport.token
            }
        }
        return ""
    }

    private func checkShuffledApply(
        service: SyncService, store: any SyncStore, userId: Int64, expected: [EntityKey: SyncFields],
        random: inout SeededRandom
    ) async throws {
        let credentials = try await service.register(DeviceRegistration(user: name, password: "password-\(seed)", deviceName: "observer"))
        let caller = try await service.authenticate(token: credentials.token)
        let page = try await service.pull(caller, cursor: 0, limit: SyncWire.maxPullLimit, checksum: nil)
        let database = try AppDatabase.inMemory(environment: .test(clock: TestClock(Date(timeIntervalSince1970: 1_772_000_000))))
        try database.sync.begin(
            SyncDevice(
                serverURL: "sim://server", user: name, deviceId: credentials.deviceId, deviceName: "observer",
                tokenFile: "", cursor: 0, lastMutationId: 0, ackedMutationId: 0))
        // What the observer would push itself (its untouched defaults) joins what it pulls.
        var combined = try await store.entities(userId: userId)
        for mutation in try database.sync.mutationsToPush(limit: 100_000) {
            guard let entity = SyncEntity.named(mutation.entity) else { continue }
            let key = EntityKey(entity: mutation.entity, id: mutation.entityId)
            combined[key] = ReferenceMerge.merge([combined[key] ?? SyncState(), try mutation.state(of: entity)], entity: entity)
        }
        // Shuffled, in pages of a few changes each applied as it arrives (a child before its parent,
        // a delete before the insert it beats).
        let shuffled = page.changes.shuffled(using: &random)
        for start in stride(from: 0, to: shuffled.count, by: 5) {
            let changes = Array(shuffled[start..<min(start + 5, shuffled.count)])
            try database.sync.receive(
                PullResponse(changes: changes, cursor: changes.last?.seq ?? 0, hasMore: false, checksum: "", serverTime: Date()))
        }
        let joined = SyncSnapshot.canonical(combined)
        let snapshot = try database.sync.snapshot()
        if snapshot != joined { throw SimulationFailure("shuffled apply differs: \(Self.difference(snapshot, joined))") }
        _ = expected
    }

    public static func checkInvariants(_ snapshot: [EntityKey: SyncFields]) throws {
        let open = snapshot.filter { $0.key.entity == "focusSession" && ["active", "paused"].contains($0.value["state"]?.text ?? "") }
        if open.count > 1 { throw SimulationFailure("\(open.count) open focus sessions") }
        let enabled = snapshot.filter { $0.key.entity == "app" && $0.value["isEnabled"] == .bool(true) }
        if enabled.count > 10 { throw SimulationFailure("\(enabled.count) enabled apps") }
        var periods: [String: Int] = [:]
        for (key, fields) in snapshot where key.entity == "intention" {
            periods["\(fields["scope"]?.text ?? "")/\(key.id)", default: 0] += 1
        }
        // To-do order: total (sort order, then id) within each timer — nothing to check beyond
        // presence, since ties break by id; but every to-do must belong to a timer that exists.
        for (key, fields) in snapshot where key.entity == "todo" {
            guard let timer = fields["timerId"]?.text, snapshot[EntityKey(entity: "timer", id: timer)] != nil else {
                throw SimulationFailure("to-do \(key.id) without its timer")
            }
        }
    }

    public static func difference(_ a: [EntityKey: SyncFields], _ b: [EntityKey: SyncFields]) -> String {
        var lines: [String] = []
        for key in Set(a.keys).union(b.keys).sorted() where a[key] != b[key] {
            let left = a[key].map { "\($0.filter { b[key]?[$0.key] != $0.value })" } ?? "absent"
            let right = b[key].map { "\($0.filter { a[key]?[$0.key] != $0.value })" } ?? "absent"
            lines.append("\(key.entity)/\(key.id): device \(left) vs server \(right)")
            if lines.count >= 4 { break }
        }
        return lines.joined(separator: "; ")
    }
}
