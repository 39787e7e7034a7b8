import Foundation
import GroveCore
import GroveSimulation
import GroveStore
import GroveSync
import GroveTestSupport
import Testing

/// SYNC.md's convergence simulation (`GroveSimulation`), against the test servers: SQLite in memory,
/// or two instances on one PostgreSQL database. `GROVE_SIM_SEEDS=N` runs N seeds (16 by default);
/// a failing seed names itself so that `GROVE_SIM_SEED=S` replays exactly that one. `.ci/run` runs 200
/// on the release build through `grove-sim`.
@Suite("Convergence simulation", .heavy)
struct ConvergenceSimulationTests {
    static var seeds: [UInt64] {
        let environment = ProcessInfo.processInfo.environment
        if let one = environment["GROVE_SIM_SEED"].flatMap(UInt64.init) { return [one] }
        return Simulation.seeds(count: environment["GROVE_SIM_SEEDS"].flatMap(Int.init) ?? 16)
    }

    @Test("every device converges to the server, nothing acknowledged is lost", .timeLimit(.minutes(10)))
    func converges() async throws {
        let workers =
            ProcessInfo.processInfo.environment["GROVE_SIM_WORKERS"].flatMap(Int.init) ?? ProcessInfo.processInfo.activeProcessorCount + 1
        let failures = await Simulation.run(
            seeds: Self.seeds, workers: workers,
            servers: { try await TestServers.instances().map { SimulationServer(store: $0.store, pokes: $0.pokes) } },
            account: { TestServers.uniqueName("sim-\($0)") })
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n")) — replay one with GROVE_SIM_SEED=<seed>")
    }
}
