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
            """)
    @OptionGroup var options: GlobalOptions
    @Option(name: .long, help: "json, csv or ics.") var format: String = "json"
    @Option(name: .long, help: "Write to this file instead of standard output.") var output: String?

    func run() throws {
        let db = try options.open()
        let format = try ExportFormat(validating: format)
        guard let output else {
            // Straight to standard output as it is read: constant memory at any history size.
            return try db.export(as: format) { Output.write($0) }
        }
        // Into a file beside the target, renamed over it once complete: a failed export never leaves
        // half a backup where the last good one was.
        let target = URL(fileURLWithPath: CLIEnvironment.current.resolve(output))
        let partial = target.deletingLastPathComponent().appendingPathComponent(".\(target.lastPathComponent).partial-\(getpid())")
        do {
            guard FileManager.default.createFile(atPath: partial.path, contents: nil) else { throw CocoaError(.fileWriteNoPermission) }
            let handle = try FileHandle(forWritingTo: partial)
            defer { try? handle.close() }
            try db.export(as: format) { try handle.write(contentsOf: $0) }
            try handle.synchronize()
            guard rename(partial.path, target.path) == 0 else { throw CocoaError(.fileWriteUnknown) }
        } catch where error is any StoreFailure || error is StoreError {
            // The store's own failure, said as such.
            try? FileManager.default.removeItem(at: partial)
            throw error
        } catch {
            try? FileManager.default.removeItem(at: partial)
            throw CLIError.usage("cannot write \(output): \(error.localizedDescription)")
        }
        Output.note("Wrote \(output)\n")
    }
}
