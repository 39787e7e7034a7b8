import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The process figures Prometheus' client libraries publish under `process_*`, read from `/proc`
/// when `/metrics` is scraped (nothing is sampled in between). Nil where there is no `/proc`.
struct ProcessStats: Equatable {
    /// User and system CPU time.
    var cpuSeconds: Double
    /// Resident memory.
    var residentBytes: Double
    /// Open file descriptors (sockets included: connections and the database's files).
    var openFileDescriptors: Double
    /// When the process started, in seconds since 1970.
    var startTime: Double

    static func current() -> ProcessStats? {
        guard let stat = try? String(contentsOfFile: "/proc/self/stat", encoding: .utf8),
            let system = try? String(contentsOfFile: "/proc/stat", encoding: .utf8)
        else { return nil }
        let fds = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? 0
        return parse(
            stat: stat, system: system, ticksPerSecond: Double(sysconf(Int32(_SC_CLK_TCK))), pageSize: Double(getpagesize()), fds: fds)
    }

    /// `stat`: `/proc/self/stat` (the command's name, in parentheses, may hold spaces); `system`:
    /// `/proc/stat`, for the boot time the start is counted from.
    static func parse(stat: String, system: String, ticksPerSecond: Double, pageSize: Double, fds: Int) -> ProcessStats? {
        guard let close = stat.lastIndex(of: ")"), ticksPerSecond > 0 else { return nil }
        // Fields after the name, numbered from 3 (state) as in proc(5).
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        func field(_ number: Int) -> Double? { fields.indices.contains(number - 3) ? Double(fields[number - 3]) : nil }
        let boot = system.split(separator: "\n").first { $0.hasPrefix("btime ") }.flatMap { Double($0.dropFirst(6)) }
        guard let user = field(14), let kernel = field(15), let start = field(22), let pages = field(24), let boot else { return nil }
        return ProcessStats(
            cpuSeconds: (user + kernel) / ticksPerSecond, residentBytes: pages * pageSize, openFileDescriptors: Double(fds),
            startTime: boot + start / ticksPerSecond)
    }
}
