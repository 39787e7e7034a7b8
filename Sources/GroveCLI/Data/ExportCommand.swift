import ArgumentParser
import Foundation
import GroveCore
import GroveStore

/// `grove export`
struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export", abstract: "Export your data: everything as JSON, or focus sessions as CSV or iCalendar.",
        discussion: """
              grove export > grove-backup.json
              grove export --format csv --output sessions.csv
              grove export --format ics --output focus.ics     # import into any calendar
              grove export --format csv --tag essay            # one tag's sessions
            """)
    @OptionGroup var options: GlobalOptions
    @Option(name: .long, help: "json, csv or ics.", completion: Completions.exportFormats) var format: String = "json"
    @Option(name: .long, help: "Write to this file instead of standard output.") var output: String?
    @OptionGroup var filter: TagFilter

    func run() throws {
        let format = try ExportFormat(validating: format)
        let tag = try filter.checked()
        guard let output else { return try Self.run(options.plain, format: format, tag: tag) }
        let db = try options.open()
        // What the path names decides how it is written: a device or a pipe (/dev/null, a FIFO) is
        // written straight into, never replaced; a regular file (or a new one) gets the export in a
        // file beside it, renamed over it once complete, so that a failed export never leaves half
        // a backup where the last good one was.
        let target = URL(fileURLWithPath: CLIEnvironment.current.resolve(output)).resolvingSymlinksInPath()
        var info = stat()
        let exists = lstat(target.path, &info) == 0
        let kind = info.st_mode & S_IFMT
        if exists && kind == S_IFDIR { throw CLIError.usage("output must be a file (got the directory \(output))") }
        if exists && kind != S_IFREG {
            let descriptor = open(target.path, O_WRONLY | O_NOCTTY)
            guard descriptor >= 0 else { throw CLIError.usage("cannot write \(output): \(String(cString: strerror(errno)))") }
            let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
            try db.transfer.export(as: format, tag: tag) { try handle.write(contentsOf: $0) }
            return Output.note("Wrote \(output)\n")
        }
        let partial = target.deletingLastPathComponent().appendingPathComponent(".\(target.lastPathComponent).partial-\(getpid())")
        do {
            // Owner-only, like the store it comes from: an export is the person's whole history.
            let descriptor = open(partial.path, O_WRONLY | O_CREAT | O_EXCL | O_NOCTTY, 0o600)
            guard descriptor >= 0 else { throw CocoaError(.fileWriteNoPermission) }
            let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
            try db.transfer.export(as: format, tag: tag) { try handle.write(contentsOf: $0) }
            try handle.synchronize()
            try handle.close()
            guard rename(partial.path, target.path) == 0 else { throw CocoaError(.fileWriteUnknown) }
        } catch  where error is any StoreFailure || error is StoreError {
            // The store's own failure, said as such.
            try? FileManager.default.removeItem(at: partial)
            throw error
        } catch {
            try? FileManager.default.removeItem(at: partial)
            throw CLIError.usage("cannot write \(output): \(error.localizedDescription)")
        }
        Output.note("Wrote \(output)\n")
    }

    /// The export to standard output, for whichever parse made the command (`EverydayParse.immediate`:
    /// `grove export [--format F]`): straight out as it is read, in constant memory at any history size.
    static func run(_ options: PlainOptions, format: ExportFormat, tag: String? = nil) throws {
        let db = try options.open()
        try db.transfer.export(as: format, tag: tag) { Output.write($0) }
    }
}
