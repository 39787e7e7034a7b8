import Foundation
import Logging

#if canImport(Glibc)
    import Glibc
#endif

/// Grove's log lines on standard error. Under systemd (its journal is standard error, as
/// `JOURNAL_STREAM` says), each line starts with its syslog priority (`<6>` for info, `<4>` for a
/// warning) and leaves the time to the journal, so `journalctl -p warning` finds the warnings; in
/// a terminal, the time and the level in words.
public struct JournalLogHandler: LogHandler {
    /// Whether lines carry a priority prefix instead of a time.
    let journal: Bool
    let label: String
    let write: @Sendable (String) -> Void
    public var metadata: Logger.Metadata = [:]
    public var logLevel: Logger.Level = .info

    public init(label: String, journal: Bool, write: @escaping @Sendable (String) -> Void) {
        self.label = label
        self.journal = journal
        self.write = write
    }

    /// The handler for this process: journal lines when standard error is the journal's stream.
    public static func standardError(label: String) -> JournalLogHandler {
        // A line that cannot be written (a full disk, a closed stream) is dropped and counted, never a trap.
        JournalLogHandler(label: label, journal: isJournal(ProcessInfo.processInfo.environment["JOURNAL_STREAM"])) { line in
            StandardStream.error.write(Data(line.utf8))
        }
    }

    /// `JOURNAL_STREAM` is `device:inode` of the journal's socket; a child whose standard error was
    /// redirected elsewhere inherits the variable, so the descriptor is checked too.
    static func isJournal(_ variable: String?) -> Bool {
        guard let variable else { return false }
        let parts = variable.split(separator: ":")
        guard parts.count == 2, let device = UInt64(parts[0]), let inode = UInt64(parts[1]) else { return false }
        var status = stat()
        guard fstat(STDERR_FILENO, &status) == 0 else { return false }
        return UInt64(status.st_dev) == device && UInt64(status.st_ino) == inode
    }

    /// syslog's priorities (RFC 5424), as `sd-daemon(3)` reads them at the start of a line.
    static func priority(_ level: Logger.Level) -> Int {
        switch level {
        case .trace, .debug: 7
        case .info: 6
        case .notice: 5
        case .warning: 4
        case .error: 3
        case .critical: 2
        }
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        write(line(event, at: Date()))
    }

    /// One line: `<6>grove.server: GET / 200 0.4 ms` in the journal, with the time and level elsewhere.
    func line(_ event: LogEvent, at date: Date) -> String {
        let merged = metadata.merging(event.metadata ?? [:]) { $1 }
        let fields = merged.sorted { $0.key < $1.key }.map { " \($0.key)=\($0.value)" }.joined()
        // One event, one line: a newline inside a message would start a line without its priority.
        let text = "\(event.message)".replacingOccurrences(of: "\n", with: " ")
        if journal { return "<\(Self.priority(event.level))>\(label): \(text)\(fields)\n" }
        let time = date.formatted(.iso8601)
        return "\(time) \(event.level) \(label): \(text)\(fields)\n"
    }
}
