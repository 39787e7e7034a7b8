import Foundation
import GroveSimulation
import GroveSync

// SYNC.md's convergence simulation on an optimized build, as `.ci/run` runs it (200 seeds): each seed
// against a private in-memory SQLite sync server. `--seed S` replays one; exit 1 names failing seeds.
//   grove-sim [--seeds N] [--seed S] [--workers W]
var count = 200
var only: UInt64?
var workers = ProcessInfo.processInfo.activeProcessorCount + 1
var arguments = CommandLine.arguments.dropFirst()[...]
while let flag = arguments.popFirst() {
    guard let value = arguments.popFirst() else {
        FileHandle.standardError.write(Data("grove-sim: \(flag) needs a value\n".utf8))
        exit(64)
    }
    switch flag {
    case "--seeds" where Int(value).map({ $0 > 0 }) == true: count = Int(value) ?? count
    case "--seed" where UInt64(value) != nil: only = UInt64(value)
    case "--workers" where Int(value).map({ $0 > 0 }) == true: workers = Int(value) ?? workers
    default:
        FileHandle.standardError.write(Data("grove-sim: \(flag) \(value): usage: grove-sim [--seeds N] [--seed S] [--workers W]\n".utf8))
        exit(64)
    }
}
let seeds = only.map { [$0] } ?? Simulation.seeds(count: count)
let started = ContinuousClock.now
let failures = await Simulation.run(
    seeds: seeds, workers: workers,
    servers: { [SimulationServer(store: try SQLiteSyncStore(path: nil), pokes: PokeHub())] },
    account: { "sim-\($0)" })
let seconds = started.duration(to: .now).components.seconds
if failures.isEmpty {
    print("convergence simulation: \(seeds.count) seeds converged in \(seconds) s")
} else {
    print(failures.joined(separator: "\n"))
    print("convergence simulation: \(failures.count) of \(seeds.count) seeds failed; replay one with grove-sim --seed S")
    exit(1)
}
