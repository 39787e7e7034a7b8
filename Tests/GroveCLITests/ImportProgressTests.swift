import Foundation
import Testing

@testable import GroveCLI

/// `grove import` shows how far it has read on a terminal's standard error, and nowhere else.
@Suite("grove import: the progress line")
struct ImportProgressTests {
    /// A timewarrior export of `count` intervals, one a day from 2001 (about 80 bytes each).
    static func timewarriorFile(_ g: Grove, count: Int) throws -> String {
        var lines: [String] = []
        let start = Date(timeIntervalSince1970: 978_336_000)  // 2001-01-01T08:00:00Z
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = TimeZone(identifier: "UTC")
        f.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        for day in 0..<count {
            let from = start.addingTimeInterval(Double(day) * 86_400)
            lines.append(
                #"{"id":\#(count - day),"start":"\#(f.string(from: from))","end":"\#(f.string(from: from.addingTimeInterval(1_500)))","tags":["essay"]}"#
            )
        }
        let path = g.home + "-timew.json"
        try ("[\n" + lines.joined(separator: ",\n") + "\n]\n").write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// A monotonic clock that moves half a second each time it is read.
    final class SteppingClock: @unchecked Sendable {
        private let lock = NSLock()
        private var seconds: TimeInterval = 0
        func read() -> TimeInterval {
            lock.withLock {
                seconds += 0.5; return seconds
            }
        }
    }

    static func io(_ clock: SteppingClock) -> LiveIO {
        LiveIO(openTerminal: { nil }, uptime: { clock.read() }, sleep: { _ in }, notify: { _, _ in false })
    }

    static let terminal = TerminalTraits(color: false, trueColor: false, width: 80, isTTY: false, errorIsTTY: true)

    @Test(arguments: ["timewarrior", "grove"])
    func onATerminalTheLineGrowsAndIsClearedBeforeTheResult(_ format: String) async throws {
        let g = Grove(timeZone: "UTC", now: "2026-01-01T12:00:00Z")
        var file = try Self.timewarriorFile(g, count: 4_000)
        if format == "grove" {
            // The same sessions as Grove's own JSON export (read on the import's reading thread).
            #expect(try await g.run("import", "--from", "timewarrior", file).status == 0)
            file = g.home + "-export.json"
            try try await g.run("export", "--format", "json").out.write(toFile: file, atomically: true, encoding: .utf8)
            let other = Grove(timeZone: "UTC", now: "2026-01-01T12:00:00Z")
            let result = try await other.run(["import", file], terminal: Self.terminal, io: Self.io(SteppingClock()))
            #expect(result.status == 0 && result.out.hasPrefix("Imported 4000 focus sessions"), "\(result.out)")
            return try Self.expectProgress(result.err, name: "grove-")
        }
        let result = try await g.run(["import", "--from", "timewarrior", file], terminal: Self.terminal, io: Self.io(SteppingClock()))
        #expect(result.status == 0 && result.out.hasPrefix("Imported 4000 sessions."), "\(result.out)")
        try Self.expectProgress(result.err, name: "grove-")
    }

    static func expectProgress(_ err: String, name: String) throws {
        let clear = "\r\u{1B}[K"
        let lines = err.components(separatedBy: clear).filter { !$0.isEmpty }
        #expect(lines.count >= 3, "\(err.debugDescription)")
        #expect(lines.allSatisfy { $0.hasPrefix("Importing \(name)") && $0.contains("% (") && $0.hasSuffix(" s)") }, "\(lines)")
        // Percentages only grow, and the line is wiped last.
        let percents = lines.compactMap { line in
            line.split(separator: ":").last?.split(separator: "%").first.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        }
        #expect(percents == percents.sorted() && percents.count == lines.count, "\(percents)")
        #expect(err.hasSuffix(clear))
    }

    @Test func withoutATerminalNothingIsWrittenToStandardError() async throws {
        let g = Grove(timeZone: "UTC", now: "2026-01-01T12:00:00Z")
        let file = try Self.timewarriorFile(g, count: 4_000)
        let result = try await g.run(["import", "--from", "timewarrior", file], io: Self.io(SteppingClock()))
        #expect(result.status == 0 && result.err.isEmpty, "\(result.err.debugDescription)")
    }

    @Test func aShortImportShowsNothing() async throws {
        let g = Grove(timeZone: "UTC", now: "2026-01-01T12:00:00Z")
        let file = try Self.timewarriorFile(g, count: 10)
        // The clock stands still: the import is over before the first second.
        let still = LiveIO(openTerminal: { nil }, uptime: { 3 }, sleep: { _ in }, notify: { _, _ in false })
        let result = try await g.run(["import", "--from", "timewarrior", file], terminal: Self.terminal, io: still)
        #expect(result.status == 0 && result.err.isEmpty)
    }

    @Test func theLineSaysHowFarInPercentAndMegabytes() {
        #expect(
            ImportProgress.line(name: "timew.json", read: 150_240_000, total: 332_100_000, seconds: 8.9)
                == "Importing timew.json: 45% (150.2 of 332.1 MB, 8 s)")
        #expect(ImportProgress.line(name: "x.csv", read: 500, total: 400, seconds: 1) == "Importing x.csv: 100% (0.0 of 0.0 MB, 1 s)")
        #expect(ImportProgress.line(name: "pipe", read: 2_500_000, total: 0, seconds: 2) == "Importing pipe: 2.5 MB, 2 s")
    }
}
