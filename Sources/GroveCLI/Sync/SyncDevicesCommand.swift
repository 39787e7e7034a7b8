import ArgumentParser
import Foundation
import GroveCore
import GroveStore
import GroveSync

/// `grove sync devices`.
struct SyncDevicesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "devices", abstract: "List the devices of your account.")

    @OptionGroup var options: GlobalOptions

    func run() async throws {
        let db = try options.open()
        let connection = try SyncConnection(database: db)
        let devices = try await SyncErrors.translate(server: connection.device.serverURL) { try await connection.transport().devices() }
        if options.json { try Output.json(devices); return }
        for device in devices {
            let this = device.deviceId == connection.device.deviceId ? " (this device)" : ""
            let seen = device.lastSeen.map { "last seen \(GroveExport.formatInstant($0))" } ?? "never seen"
            // A device taken back after a restore may be one revoked after the backup: the owner checks.
            let reclaimed = device.reclaimedAt.map { "  taken back after a server restore, \(GroveExport.formatInstant($0))" } ?? ""
            print("\(device.deviceId.uuidString)  \(device.name)\(this)  \(device.revoked ? "revoked" : seen)\(reclaimed)")
        }
    }
}
