import ArgumentParser
import Foundation
import GroveCore
import GroveStore
import GroveSync

/// `grove sync revoke ID`.
struct SyncRevokeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "revoke", abstract: "Revoke a device's token (a lost laptop).")

    @OptionGroup var options: GlobalOptions
    @Argument(help: "The device's id (see grove sync devices).") var id: String

    func run() async throws {
        guard let device = UUID(uuidString: id) else {
            throw CLIError.usage("id must be a device id (see grove sync devices), got \(id.prefix(60))")
        }
        let db = try options.open()
        let connection = try SyncConnection(database: db)
        try await SyncErrors.translate(server: connection.device.serverURL) { try await connection.transport().revoke(device) }
        print("Revoked \(device.uuidString): it can no longer sync.")
    }
}
