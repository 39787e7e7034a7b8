import Foundation
import GroveCore
import Testing

@testable import GroveSync

@Suite("What /metrics says about the build and the process")
struct BuildMetricsTests {
    @Test("grove_build_info names the version and the commit; process figures are read at scrape time")
    func buildInfo() {
        let text = SyncMetrics(commit: "0123456789ab").text()
        #expect(text.contains(#"grove_build_info{version="\#(GroveVersion.number)",commit="0123456789ab"} 1"#))
        #if os(Linux)
            let resident = text.split(separator: "\n").first { $0.hasPrefix("process_resident_memory_bytes ") }
            #expect((resident?.split(separator: " ").last).flatMap { Double($0) } ?? 0 > 1_000_000)
            #expect(text.contains("process_open_fds "))
            #expect(text.contains("process_start_time_seconds "))
        #endif
    }

    @Test("/proc/self/stat read by proc(5)'s field numbers, a name with spaces and parentheses included")
    func parse() {
        let stat = "1234 (grove (sync) x) S 1 1234 1234 0 -1 4194560 100 0 0 0 250 50 0 0 20 0 9 0 5000 123456789 2048 18446744073709551615"
        let stats = ProcessStats.parse(stat: stat, system: "cpu  1 2 3\nbtime 1700000000\n", ticksPerSecond: 100, pageSize: 4096, fds: 12)
        #expect(stats == ProcessStats(cpuSeconds: 3, residentBytes: 2048 * 4096, openFileDescriptors: 12, startTime: 1_700_000_050))
    }
}
