import ArgumentParser
import Foundation
import GroveCore
import GroveStore
import GroveSync

/// `grove sync logout`.
struct SyncLogoutCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "logout", abstract: "Unlink this store from the sync server (your data stays).")

    @OptionGroup var options: GlobalOptions

    func run() throws {
        let db = try options.open()
        let device = try db.sync.device()
        let pending = try device.map { _ in try db.sync.pendingCount() } ?? 0
        try db.sync.end()
        if let path = db.path {
            DeviceToken.remove(forStore: path)
            DeviceCA.remove(forStore: path)
            // The account's key goes with the link: a store unlinked holds nothing that opens its values.
            DeviceKey.remove(forStore: path)
        }
        guard let device else { print("This store was not linked to a sync server."); return }
        print("Unlinked from \(device.serverURL)." + (pending > 0 ? " \(pending) change\(pending == 1 ? " was" : "s were") not sent." : ""))
    }
}
