import ArgumentParser
import Foundation
import GroveCore
import GroveStore
import GroveSync

/// `grove sync`: this device and the others of the account, through a sync server.
struct SyncCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync", abstract: "Sync this store with your other devices.",
        discussion: """
            Link once, then sync whenever you like (or run `grove serve --sync`, which syncs by itself):
              grove sync login http://127.0.0.1:8090 --user ada --password-stdin
              grove sync
              grove sync status
            Offline edits are kept and sent the next time; conflicts merge field by field by a hybrid \
            logical clock, so nothing asks "keep mine or theirs?".
            """,
        subcommands: [
            SyncNowCommand.self, SyncLoginCommand.self, SyncStatusCommand.self, SyncDevicesCommand.self, SyncRevokeCommand.self,
            SyncLogoutCommand.self, SyncRestoreCommand.self, SyncEncryptCommand.self, SyncUnlockCommand.self, SyncPassphraseCommand.self,
            SyncRecoveryCodeCommand.self, SyncNewKeyCommand.self,
        ],
        defaultSubcommand: SyncNowCommand.self)
}
