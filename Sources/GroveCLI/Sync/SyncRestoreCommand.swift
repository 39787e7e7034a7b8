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
            try await rebuild(into: into, connection: connection, instant: instant)
        } else {
            try await goBack(connection: connection, instant: instant)
        }
    }

    /// A restore point rebuilt into a new store (`SyncConnection.rebuild`), said in words.
    private func rebuild(into: String, connection: SyncConnection, instant: Date) async throws {
        let path = CLIEnvironment.current.resolve(into)
        guard !FileManager.default.fileExists(atPath: path) else {
            throw CLIError.usage("--into names \(path), which exists: a restore point is rebuilt into a new file")
        }
        let summary = try await SyncErrors.translate(server: connection.device.serverURL) {
            try await connection.rebuild(asOf: instant, into: path)
        }
        if options.json { try Output.json(summary); return }
        print(
            "Rebuilt \(summary.rows) records as they stood at \(GroveExport.formatInstant(instant)) into \(path)"
                + (summary.refused > 0 ? " (\(summary.refused) set aside: see `grove --database \(path) sync status`)" : "")
                + ". Look at it with `grove --database \(path) …`.")
    }

    /// Going back (`SyncConnection.goBack`), said in words.
    private func goBack(connection: SyncConnection, instant: Date) async throws {
        let summary = try await SyncErrors.translate(server: connection.device.serverURL) {
            try await connection.goBack(to: instant, apply: yes)
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
}
