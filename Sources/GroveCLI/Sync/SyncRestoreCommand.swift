import ArgumentParser
import Foundation
import GroveCore
import GroveStore
import GroveSync

/// `grove sync restore --as-of T (--into PATH | --apply [--yes])`: the account as it stood at an
/// instant, from the sync server's restore points — rebuilt into a new store to look at, or made the
/// account's current state on every device.
struct SyncRestoreCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "restore",
        abstract: "Rebuild your account as it stood at an instant (the server keeps 30 days of changes), or go back to it.",
        discussion: """
            --into PATH rebuilds it into a new store and changes nothing else. --apply says what going back \
            would change; with --yes it makes that the account's current state: sent as new changes, so \
            the server's history stays whole, every device takes it at its next sync, and what a device \
            had not sent yet goes on top of it. Sessions, pauses and gate changes made since are kept.
            """)

    @OptionGroup var options: GlobalOptions
    @Option(
        name: .long, help: ArgumentHelp("The instant: 2026-11-24 09:00 (local), or ISO 8601 with an offset.", valueName: "instant"))
    var asOf: String
    @Option(name: .long, help: ArgumentHelp("The new store's file (it must not exist yet).", valueName: "path"), completion: .file())
    var into: String?
    @Flag(name: .long, help: "Make it the account's current state (with --yes; without, say what would change).")
    var apply = false
    @Flag(name: .long, help: "Confirm --apply.") var yes = false

    func run() async throws {
        guard into == nil || !apply else { throw CLIError.usage("Give --into PATH (a copy to look at) or --apply (go back), not both") }
        guard into != nil || apply else { throw CLIError.usage("Give --into PATH (a copy to look at) or --apply (go back)") }
        guard !yes || apply else { throw CLIError.usage("--yes confirms --apply") }
        let db = try options.open()
        let instant = try TimeParsing.instant(asOf, field: "as-of", now: db.environment.now(), calendar: try db.calendar())
        let connection = try SyncConnection(database: db)
        if let into {
            try await rebuild(into: into, db: db, connection: connection, instant: instant)
        } else {
            try await goBack(db: db, connection: connection, instant: instant)
        }
    }

    private func rebuild(into: String, db: AppDatabase, connection: SyncConnection, instant: Date) async throws {
        let path = CLIEnvironment.current.resolve(into)
        guard !FileManager.default.fileExists(atPath: path) else {
            throw CLIError.usage("--into names \(path), which exists: a restore point is rebuilt into a new file")
        }
        let summary = try await Self.rebuilt(at: path, db: db, connection: connection, instant: instant)
        if options.json { try Output.json(summary); return }
        print(
            "Rebuilt \(summary.rows) records as they stood at \(GroveExport.formatInstant(instant)) into \(path)"
                + (summary.refused > 0 ? " (\(summary.refused) set aside: see `grove --database \(path) sync status`)" : "")
                + ". Look at it with `grove --database \(path) …`.")
    }

    /// Synced first (nothing of this device's is left unsent), rebuilt beside the store, compared,
    /// and — confirmed — written as this device's edits, then synced.
    private func goBack(db: AppDatabase, connection: SyncConnection, instant: Date) async throws {
        guard let storePath = db.path else { throw SyncConnectionError.noStoreFile }
        let server = connection.device.serverURL
        var engine = try connection.engine()
        _ = try await SyncErrors.translate(server: server) { try await engine.sync() }
        let scratch = storePath + ".restore-\(UUID().uuidString.prefix(8)).sqlite"
        defer { Self.remove(scratch) }
        _ = try await Self.rebuilt(at: scratch, db: db, connection: connection, instant: instant)
        let summary = try db.sync.makeCurrent(
            restoredFrom: scratch, asOf: instant, deviceName: connection.device.deviceName, apply: yes)
        if yes {
            var after = try connection.engine()
            _ = try await SyncErrors.translate(server: server) { try await after.sync() }
        }
        if options.json { try Output.json(summary); return }
        let when = GroveExport.formatInstant(instant)
        let counts =
            "\(summary.added) back, \(summary.changed) as they were, \(summary.removed) made since removed"
        guard yes else {
            print(
                summary.total == 0
                    ? "The account is as it stood at \(when) already: nothing to change."
                    : "Going back to \(when) changes \(summary.total) records (\(counts)); sessions and pauses made since stay. Add --yes to do it."
            )
            return
        }
        print(
            "The account is as it stood at \(when) (\(counts)), sent as new changes: the server's history keeps everything before it. Your other devices take it at their next sync."
        )
    }

    /// The restore point rebuilt into a new store at `path` (removed again if that fails).
    static func rebuilt(at path: String, db: AppDatabase, connection: SyncConnection, instant: Date) async throws -> RestoreSummary {
        let target = try AppDatabase.open(path: path, environment: db.environment, createDirectory: false)
        do {
            return try await SyncErrors.translate(server: connection.device.serverURL) {
                try await RestorePoint.rebuild(from: try connection.syncTransport(), asOf: instant, into: target)
            }
        } catch {
            // Nothing half-built is left behind under the name the person gave.
            remove(path)
            throw error
        }
    }

    static func remove(_ path: String) {
        for suffix in ["", "-wal", "-shm", ".lock"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }
}
