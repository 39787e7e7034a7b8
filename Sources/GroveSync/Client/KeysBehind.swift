import Foundation
import GroveStore

/// The sync server holds the account's key envelope as it was before `seen` — the latest this device
/// saw it keep: the server was restored from a backup, and the passphrase and recovery code replaced
/// since open the account again. Nothing is lost (every box still opens with the key devices hold);
/// what came back is a way in the person had closed, and every face says so until it is closed again.
public struct KeysBehind: Sendable, Equatable, CustomStringConvertible {
    /// When the server kept the latest envelope this device saw.
    public var seen: Date

    public init(seen: Date) { self.seen = seen }

    public var description: String {
        "the sync server holds the account's keys as they were before \(GroveExport.formatInstant(seen)): it was restored from a"
            + " backup, and a passphrase or recovery code replaced since opens the account again — set the passphrase again"
            + " (`grove sync passphrase`, from the one of before; forgotten: `grove sync unlock --recovery-stdin`) and make a new"
            + " recovery code (`grove sync recovery-code`)"
    }
}
