import Foundation
import GroveCore
import Prometheus

/// What `/metrics` reports (Prometheus text format): pushes, pulls and mutations counted, push and
/// pull latency as histograms, open event streams and store calls in flight (how much of the
/// connection pool is in use). One registry per server, no global state.
public final class SyncMetrics: Sendable {
    public let registry = PrometheusCollectorRegistry()
    let pushes: Counter
    let pulls: Counter
    let mutations: Counter
    let refused: Counter
    let reclaims: Counter
    let pushSeconds: DurationHistogram
    let pullSeconds: DurationHistogram
    let streams: Gauge
    let storeCalls: Gauge
    let cpuSeconds: Gauge
    let residentBytes: Gauge
    let openFileDescriptors: Gauge
    let startTime: Gauge

    /// `commit`: the build's (`grove_build_info`), so a dashboard says which build each instance runs.
    public init(commit: String = "unknown") {
        let buckets: [Duration] = [
            .milliseconds(1), .milliseconds(2), .milliseconds(5), .milliseconds(10), .milliseconds(25),
            .milliseconds(50), .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(5),
        ]
        pushes = registry.makeCounter(name: "grove_sync_pushes_total", help: "Pushes answered")
        pulls = registry.makeCounter(name: "grove_sync_pulls_total", help: "Pulls answered")
        mutations = registry.makeCounter(name: "grove_sync_mutations_total", help: "Mutations received in pushes")
        refused = registry.makeCounter(name: "grove_sync_refusals_total", help: "Pushes and pulls answered with a problem")
        reclaims = registry.makeCounter(
            name: "grove_sync_devices_reclaimed_total", help: "Devices taken back after a restore from an older backup")
        pushSeconds = registry.makeDurationHistogram(name: "grove_sync_push_duration_seconds", buckets: buckets, help: "Push latency")
        pullSeconds = registry.makeDurationHistogram(name: "grove_sync_pull_duration_seconds", buckets: buckets, help: "Pull latency")
        streams = registry.makeGauge(name: "grove_sync_event_streams", help: "Open event streams (live pokes)")
        storeCalls = registry.makeGauge(name: "grove_sync_store_calls_in_flight", help: "Push and pull store calls running (pool use)")
        registry.makeGauge(
            name: "grove_build_info", labels: [("version", GroveVersion.number), ("commit", commit)],
            help: "The build this server runs (always 1)"
        ).set(1.0)
        cpuSeconds = registry.makeGauge(name: "process_cpu_seconds_total", help: "User and system CPU time spent in seconds")
        residentBytes = registry.makeGauge(name: "process_resident_memory_bytes", help: "Resident memory size in bytes")
        openFileDescriptors = registry.makeGauge(name: "process_open_fds", help: "Number of open file descriptors")
        startTime = registry.makeGauge(name: "process_start_time_seconds", help: "Start time of the process since the epoch in seconds")
    }

    /// Times `body` into `histogram`, counting it (and a refusal when it throws).
    func measure<T>(_ counter: Counter, _ histogram: DurationHistogram, _ body: () async throws -> T) async throws -> T {
        let start = ContinuousClock.now
        storeCalls.increment()
        defer {
            storeCalls.decrement()
            histogram.record(ContinuousClock.now - start)
        }
        do {
            let result = try await body()
            counter.increment()
            return result
        } catch {
            refused.increment()
            throw error
        }
    }

    /// Counts a device taken back by a server restored from an older backup.
    func reclaimed() { reclaims.increment() }

    /// The text `/metrics` serves, the process figures read now.
    public func text() -> String {
        if let process = ProcessStats.current() {
            cpuSeconds.set(process.cpuSeconds)
            residentBytes.set(process.residentBytes)
            openFileDescriptors.set(process.openFileDescriptors)
            startTime.set(process.startTime)
        }
        return registry.emitToString()
    }
}
