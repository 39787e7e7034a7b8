import ArgumentParser
import Foundation
import GroveCore
import GroveStore
import GroveSync

/// `grove sync` (`grove sync now`): push and pull until caught up.
struct SyncNowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "now", abstract: "Push local changes and pull the others' until caught up (the default).")

    @OptionGroup var options: GlobalOptions
    @Flag(name: .long, help: "Start over with the server: pull everything again and resend every local row (nothing local is lost).")
    var reset = false

    func run() async throws {
        let db = try options.open()
        let connection = try SyncConnection(database: db)
        let summary = try await SyncErrors.translate(server: connection.device.serverURL) { () async throws -> SyncSummary in
            var engine = try connection.engine()
            if reset {
                let status = try await engine.transport.status()
                try db.sync.restart(deviceId: connection.device.deviceId, lastMutationId: status.lastMutationId)
            }
            return try await engine.sync()
        }
        if options.json { try Output.json(summary); return }
        for note in summary.notes { Output.note("grove: \(note)\n") }
        print(
            "Synced with \(connection.device.serverURL): sent \(summary.pushed), received \(summary.pulled) (\(summary.applied) applied)"
                + (summary.pending > 0 ? ", \(summary.pending) still to send" : "")
                + (summary.parked > 0 ? ", \(summary.parked) waiting" : "") + ".")
    }
}
