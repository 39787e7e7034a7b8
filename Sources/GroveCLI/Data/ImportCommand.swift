import ArgumentParser
import Foundation
import GroveCore
import GroveStore

/// `grove import [--from grove|csv|timewarrior] FILE`
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import", abstract: "Import Grove's export (JSON or CSV), timewarrior's, or any CSV of sessions.",
        discussion: """
              grove import grove-backup.json                  # Grove's JSON export: merged by id, all or nothing
              grove import sessions.csv                       # Grove's CSV export (the round trip)
              timew export > timew.json && grove import --from timewarrior timew.json
              grove import --from csv --map start=Start,end=End,tag=Tag other-app.csv [--zone Europe/Berlin]
            From other tools, each row is checked like `grove focus log`; rows that break a rule (still
            running, overlapping a session you have, longer than a session may be) are skipped and
            listed. Importing the same file again adds nothing.
            """)
    @OptionGroup var options: GlobalOptions
    @Option(name: .long, help: "grove (default; JSON or CSV), csv, timewarrior or forest (the Forest app's CSV export).") var from:
        ImportFormat = .grove
    @Option(
        name: .long, help: ArgumentHelp("For --from csv: key=Column pairs (start, end or duration, tag, completed).", valueName: "pairs"))
    var map: String?
    @Option(
        name: .long,
        help: ArgumentHelp("For --from csv and forest: the zone of times without an offset (default: configured).", valueName: "zone"))
    var zone: String?
    @Argument(help: "The file.") var file: String

    func validate() throws {
        // The store's rule, the API's too: refused here before the file is opened (exit 64 with usage).
        do {
            _ = try SessionImportOptions(validating: from.rawValue, map: map, zone: zone)
        } catch let error as InvalidField {
            throw ValidationError("--" + error.message)
        }
    }

    func run() throws {
        let path = try InputFile.regularFile(file)
        // A file with nothing in it imports nothing: say so rather than report a success.
        let first = try Self.firstSignificantByte(path)
        guard first != nil else { throw CLIError.usage("file: \(file) is empty: there is nothing to import") }
        let importing = try SessionImportOptions(validating: from.rawValue, map: map, zone: zone)
        let db = try options.open()
        guard let handle = FileHandle(forReadingAtPath: path) else { throw CLIError.usage("cannot read \(path)") }
        defer { try? handle.close() }
        // Streamed: a file of any size is read a chunk at a time, in one transaction.
        let progress = Self.progress(for: file, path: path)
        defer { progress?.finish() }
        let plain = { try handle.read(upToCount: 1 << 16).map(Array.init) }
        let read = progress?.counting(plain) ?? plain
        let report: ForeignImportReport
        switch from {
        case .grove where first == UInt8(ascii: "{"):
            // Grove's JSON export: everything it holds, not only sessions.
            let summary = try db.transfer.importJSON(streamingFrom: read)
            progress?.finish()
            if options.json { return try Output.json(summary) }
            return print(summary.sentence)
        default: report = try db.transfer.importSessions(importing, streamingFrom: read)
        }
        progress?.finish()
        if options.json { return try Output.json(report) }
        print(report.sentence)
    }

    /// The progress line for importing `path` (`name` as given), when standard error is a terminal.
    static func progress(for name: String, path: String) -> ImportProgress? {
        let environment = CLIEnvironment.current
        guard environment.terminal.errorIsTTY else { return nil }
        let size = ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.int64Value ?? 0
        let standardError = environment.output.standardError
        return ImportProgress(
            name: (name as NSString).lastPathComponent, total: size, uptime: environment.io.uptime,
            write: { standardError(Data(utf8: $0)) })
    }

    /// The file's first byte that is not white space, nil for a blank file (nothing to import). Grove's
    /// JSON export starts with `{`; its CSV with the header. Reads on only while the file stays blank.
    static func firstSignificantByte(_ path: String) throws -> UInt8? {
        guard let handle = FileHandle(forReadingAtPath: path) else { throw CLIError.usage("cannot read \(path)") }
        defer { try? handle.close() }
        while let chunk = try handle.read(upToCount: 4096), !chunk.isEmpty {
            if let byte = chunk.first(where: { !($0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09) }) { return byte }
        }
        return nil
    }
}

extension ImportFormat: ExpressibleByArgument {}
