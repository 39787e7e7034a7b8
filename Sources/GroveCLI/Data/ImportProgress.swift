import Foundation

/// How far `grove import` has read its file, on one line of standard error redrawn in place.
///
/// A million sessions take a quarter of a minute to import; without it the terminal looks stuck.
/// Progress is measured in bytes read, which every format shares and which the file's size bounds,
/// so no importer needs to know about it. It shows only when standard error is a terminal, only
/// once the import has run a second (a small file never flickers a line), and at most four times
/// a second; the line is cleared before the result is printed.
///
/// The reader may be called from the import's reading thread, so the counters sit behind a lock.
final class ImportProgress: @unchecked Sendable {
    /// Seconds before the first line: shorter imports show nothing.
    static let delay: TimeInterval = 1
    /// Seconds between two redraws.
    static let interval: TimeInterval = 0.25

    private let name: String
    private let total: Int64
    private let uptime: @Sendable () -> TimeInterval
    private let write: @Sendable (String) -> Void
    private let lock = NSLock()
    private let start: TimeInterval
    private var read: Int64 = 0
    private var drawn: TimeInterval?

    /// - Parameters:
    ///   - name: the file as the person named it.
    ///   - total: its size in bytes (0 when unknown: the line then counts bytes alone).
    ///   - uptime: a monotonic clock, in seconds.
    ///   - write: where the line goes (standard error).
    init(name: String, total: Int64, uptime: @escaping @Sendable () -> TimeInterval, write: @escaping @Sendable (String) -> Void) {
        self.name = name
        self.total = total
        self.uptime = uptime
        self.write = write
        self.start = uptime()
    }

    /// `read`, counting what it returns and redrawing the line when it is due.
    func counting(_ read: @escaping () throws -> [UInt8]?) -> () throws -> [UInt8]? {
        { [self] in
            let chunk = try read()
            advance(by: chunk?.count ?? 0)
            return chunk
        }
    }

    private func advance(by count: Int) {
        let now = uptime()
        let line: String? = lock.withLock {
            read += Int64(count)
            guard now - start >= Self.delay, drawn.map({ now - $0 >= Self.interval }) ?? true else { return nil }
            drawn = now
            return Self.line(name: name, read: read, total: total, seconds: now - start)
        }
        if let line { write("\r\u{1B}[K" + TerminalText.neutralized(line)) }
    }

    /// Clears the line, if one is shown, so that the result (or the error) prints on a clean line.
    func finish() {
        let shown = lock.withLock { () -> Bool in
            defer { drawn = nil }
            return drawn != nil
        }
        if shown { write("\r\u{1B}[K") }
    }

    /// "Importing timew.json: 45% (150.2 of 332.1 MB, 8 s)".
    static func line(name: String, read: Int64, total: Int64, seconds: TimeInterval) -> String {
        let elapsed = "\(Int(seconds.rounded(.down))) s"
        guard total > 0 else { return "Importing \(name): \(megabytes(read)) MB, \(elapsed)" }
        let percent = min(100, Int(Double(read) * 100 / Double(total)))
        return "Importing \(name): \(percent)% (\(megabytes(min(read, total))) of \(megabytes(total)) MB, \(elapsed))"
    }

    private static func megabytes(_ bytes: Int64) -> String {
        let tenths = Int64((Double(bytes) / 100_000).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }
}
