import ArgumentParser
import Foundation
import GroveCore
import GroveStore
import GroveSync

/// `grove sync restore --as-of T --into PATH`: the account as it stood at an instant, from the sync
/// server's restore points, rebuilt into a new store to look at, export or start again from.
struct SyncRestoreCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "restore",
        abstract: "Rebuild your account as it stood at an instant into a new store (the server keeps 30 days of changes).")

    @OptionGroup var options: GlobalOptions
    @Option(
        name: .long, help: ArgumentHelp("The instant: 2026-11-24 09:00 (local), or ISO 8601 with an offset.", valueName: "instant"))
    var asOf: String
    @Option(name: .long, help: ArgumentHelp("The new store's file (it must not exist yet).", valueName: "path"), completion: .file())
    var into: String

    func run() async throws {
        let db = try options.open()
        let instant = try TimeParsing.instant(asOf, field: "as-of", now: db.environment.now(), calendar: try db.calendar())
        let path = CLIEnvironment.current.resolve(into)
        guard !FileManager.default.fileExists(atPath: path) else {
            throw CLIError.usage("--into names \(path), which exists: a restore point is rebuilt into a new file")
        }
        let connection = try SyncConnection(database: db)
        let target = try AppDatabase.open(path: path, environment: db.environment, createDirectory: false)
        let summary: RestoreSummary
        do {
            summary = try await SyncErrors.translate(server: connection.device.serverURL) {
                try await RestorePoint.rebuild(from: try connection.syncTransport(), asOf: instant, into: target)
            }
        } catch {
            // Nothing half-built is left behind under the name the person gave.
            for suffix in ["", "-wal", "-shm", ".lock"] { try? FileManager.default.removeItem(atPath: path + suffix) }
            throw error
        }
        if options.json { try Output.json(summary); return }
        print(
            "Rebuilt \(summary.rows) records as they stood at \(GroveExport.formatInstant(instant)) into \(path)"
                + (summary.refused > 0 ? " (\(summary.refused) set aside: see `grove --database \(path) sync status`)" : "")
                + ". Look at it with `grove --database \(path) …`.")
    }
}
