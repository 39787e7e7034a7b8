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
        let data = try db.export(as: format) + (format == .json ? Data("\n".utf8) : Data())
        if let output {
            do { try data.write(to: URL(fileURLWithPath: CLIEnvironment.current.resolve(output)), options: .atomic) } catch {
                throw CLIError.usage("cannot write \(output): \(error.localizedDescription)")
            }
            Output.note("Wrote \(output)\n")
        } else {
            Output.write(data)
        }
    }
}
