import Foundation
import Logging
import Testing

@testable import GroveSystem

@Suite("Log lines the journal can rank")
struct JournalLogHandlerTests {
    static func event(_ level: Logger.Level, _ message: Logger.Message, _ metadata: Logger.Metadata? = nil) -> LogEvent {
        LogEvent(level: level, message: message, metadata: metadata, source: "test", file: #fileID, function: #function, line: #line)
    }

    @Test(
        "under systemd: the priority first, no time, metadata sorted",
        arguments: [
            (Logger.Level.debug, 7), (.info, 6), (.notice, 5), (.warning, 4), (.error, 3), (.critical, 2),
        ])
    func journalLine(level: Logger.Level, priority: Int) {
        let handler = JournalLogHandler(label: "grove.server", journal: true) { _ in }
        let line = handler.line(
            Self.event(level, "GET / 200 0.4 ms", ["status": "200", "method": "GET"]), at: Date(timeIntervalSince1970: 0))
        #expect(line == "<\(priority)>grove.server: GET / 200 0.4 ms method=GET status=200\n")
    }

    @Test("one event is one line: a newline in a message cannot start an unranked line")
    func oneLine() {
        let handler = JournalLogHandler(label: "grove.sync", journal: true) { _ in }
        #expect(handler.line(Self.event(.warning, "first\nsecond"), at: Date()) == "<4>grove.sync: first second\n")
    }

    @Test("in a terminal: the time and the level in words")
    func terminalLine() {
        let handler = JournalLogHandler(label: "grove.server", journal: false) { _ in }
        let line = handler.line(Self.event(.warning, "disk full"), at: Date(timeIntervalSince1970: 0))
        #expect(line == "1970-01-01T00:00:00Z warning grove.server: disk full\n")
    }

    @Test("JOURNAL_STREAM counts only when it names this process's standard error")
    func journalStream() throws {
        #expect(!JournalLogHandler.isJournal(nil))
        #expect(!JournalLogHandler.isJournal("garbage"))
        #expect(!JournalLogHandler.isJournal("1:2"))
        var status = stat()
        try #require(fstat(STDERR_FILENO, &status) == 0)
        #expect(JournalLogHandler.isJournal("\(status.st_dev):\(status.st_ino)"))
    }
}
