import Foundation
import GroveCore

/// An account's key envelope (SYNC.md "Private sync"): the server keeps it for the account's devices
/// and reads only its key id — to refuse boxes under another key and plain values once it is set.
extension SyncService {
    /// The account's envelope; `notEncrypted` for a plain account.
    public func keys(_ caller: Caller) async throws -> KeyEnvelope {
        guard let (_, text) = try await store.keyEnvelope(userId: caller.user.id) else { throw SyncServerError.notEncrypted }
        return try SyncWire.decoder().decode(KeyEnvelope.self, from: Data(text.utf8))
    }

    /// Encrypts a plain account (`expectedKeyId` nil) or keeps a re-wrapped envelope of its key (a
    /// passphrase change: `expectedKeyId` and the envelope's key are the account's). Anything else is a
    /// `keyConflict` naming the account's key.
    public func setKeys(_ caller: Caller, _ change: KeyEnvelopeChange) async throws {
        do { try change.envelope.validate() } catch { throw SyncServerError.invalid(field: error.field, message: error.message) }
        let text = String(decoding: try SyncWire.encoder().encode(change.envelope), as: UTF8.self)
        let kept = try await store.setKeyEnvelope(
            userId: caller.user.id, keyId: change.envelope.keyId, envelope: text, expected: change.expectedKeyId)
        guard kept == change.envelope.keyId else { throw SyncServerError.keyConflict(current: kept) }
        // Every device looks again (a plain one stops pushing; the others learn of the new wrap).
        await pokes.poke(user: caller.user.id, head: try await store.head(userId: caller.user.id).head)
    }
}
