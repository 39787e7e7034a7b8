import Crypto
import Foundation
import GroveCore
import HummingbirdBcrypt

/// An account's key envelope (SYNC.md "Private sync"): the server keeps it for the account's devices
/// and reads only its key id — to refuse boxes under another key and plain values once it is set —
/// and, when the account logs in with a secret derived from the passphrase, how to derive it.
extension SyncService {
    /// The account's envelope; `notEncrypted` for a plain account.
    public func keys(_ caller: Caller) async throws -> KeyEnvelope {
        guard let (_, text) = try await store.keyEnvelope(userId: caller.user.id) else { throw SyncServerError.notEncrypted }
        return try SyncWire.decoder().decode(KeyEnvelope.self, from: Data(text.utf8))
    }

    /// The rows of an encrypted account whose current state is plain, at most `limit`: read a page of
    /// the current states at a time (O(rows) on the server, once per unlock, instead of every row
    /// pushed again by every device that unlocks).
    public func plainRows(_ caller: Caller, limit: Int = PlainRows.limit) async throws -> PlainRows {
        guard try await store.keyEnvelope(userId: caller.user.id) != nil else { throw SyncServerError.notEncrypted }
        let asOf = now(), page = SnapshotPage.maxLimit
        var rows: [EntityKey] = [], after: EntityKey?
        while true {
            let changes = try await store.snapshot(userId: caller.user.id, asOf: asOf, after: after, limit: page)
            for change in changes where change.state.fields.keys.contains(where: { SealedValue.group(ofField: $0) == nil }) {
                guard rows.count < limit else { return PlainRows(rows: rows, complete: false) }
                rows.append(EntityKey(entity: change.entity, id: change.entityId))
            }
            guard changes.count == page, let last = changes.last else { return PlainRows(rows: rows, complete: true) }
            after = EntityKey(entity: last.entity, id: last.entityId)
        }
    }

    /// Encrypts a plain account (`expectedKeyId` nil), keeps a re-wrapped envelope of its key (a
    /// passphrase change: `expectedKeyId` and the envelope's key are the account's) or replaces the key
    /// (`expectedKeyId` is the account's key, named among the envelope's `retired`; with `proof`):
    /// from then on a push under the replaced key is refused. Anything else is a `keyConflict` naming
    /// the account's key. A new `login` becomes the account's password; on an encrypted account only
    /// with `proof` — the current login, or the recovery code's proof. An envelope never drops a
    /// replaced key the account's envelope keeps: what it sealed would open on no device.
    public func setKeys(_ caller: Caller, _ change: KeyEnvelopeChange) async throws {
        do { try change.envelope.validate() } catch { throw SyncServerError.invalid(field: error.field, message: error.message) }
        let stored = try await store.keyEnvelope(userId: caller.user.id)
        let previous = stored.flatMap { try? SyncWire.decoder().decode(KeyEnvelope.self, from: Data($0.envelope.utf8)) }
        let replacing = change.expectedKeyId.map { $0 != change.envelope.keyId } ?? false
        if let expected = change.expectedKeyId, stored?.keyId == expected {
            let keeps = previous?.retiredKeyIds ?? []
            let named = change.envelope.retiredKeyIds
            guard keeps.isSubset(of: named), !replacing || named.contains(expected) else {
                throw SyncServerError.invalid(
                    field: "envelope.retired",
                    message: "An envelope keeps every key the account replaced, and a new key names the key it replaces")
            }
        }
        if let login = change.login, !(20...72).contains(login.utf8.count) {
            throw SyncServerError.invalid(field: "login", message: "A login secret has 20 to 72 bytes")
        }
        // A new key, like a new login, takes the current passphrase's login or the recovery code's proof.
        if change.expectedKeyId != nil, change.login != nil || replacing { try await checkProof(caller, change.proof) }
        let passwordHash = change.login.map { Bcrypt.hash($0, cost: bcryptCost) }
        // Stamped by the server's clock, always later than the envelope it replaces: devices remember
        // the latest, and a server restored from a backup is caught holding an older one.
        var envelope = change.envelope
        let previousKeptAt = stored.flatMap { Self.keptAt($0.envelope) }
        envelope.keptAt = max(now(), previousKeptAt.map { $0.addingTimeInterval(0.001) } ?? .distantPast)
        let text = String(decoding: try SyncWire.encoder().encode(envelope), as: UTF8.self)
        let kept = try await store.setKeyEnvelope(
            userId: caller.user.id, keyId: change.envelope.keyId, envelope: text, expected: change.expectedKeyId, passwordHash: passwordHash
        )
        guard kept == change.envelope.keyId else { throw SyncServerError.keyConflict(current: kept) }
        // Every device looks again (a plain one stops pushing; the others learn of the new wrap).
        await pokes.poke(user: caller.user.id, head: try await store.head(userId: caller.user.id).head)
    }

    /// When the server kept an envelope's text (nil for one kept before servers stamped them).
    static func keptAt(_ envelope: String) -> Date? {
        struct Stamp: Decodable { var keptAt: Date? }
        return (try? SyncWire.decoder().decode(Stamp.self, from: Data(envelope.utf8)))?.keptAt
    }

    /// A device token alone does not change how the account logs in: the current login secret, or the
    /// proof only the recovery code derives, must come with it.
    private func checkProof(_ caller: Caller, _ proof: String?) async throws {
        guard let proof, !proof.isEmpty, proof.utf8.count <= 72 else {
            throw SyncServerError.forbidden("Changing the login takes the current passphrase or the recovery code")
        }
        // Wrong proofs count as wrong passwords do: a stolen token is no way to guess the passphrase.
        try throttle.check(user: caller.user.name, address: nil, now: now())
        let stored = try await keys(caller)
        if let check = stored.recoveryCheck, Self.constantTimeEqual(check, Hex.string(SHA256.hash(data: Data(proof.utf8)))) { return }
        guard let user = try await store.user(named: caller.user.name), Bcrypt.verify(proof, hash: user.passwordHash) else {
            throttle.failed(user: caller.user.name, address: nil, now: now())
            throw SyncServerError.forbidden("That is not the current passphrase, nor the recovery code: the login stays as it was")
        }
        throttle.succeeded(user: caller.user.name, address: nil, now: now())
    }

    /// How `user` derives its login from the passphrase, when it does (an encrypted account whose
    /// login was set from it); nil for an account with a password, and for a name no account has.
    public func prelogin(_ request: PreloginRequest) async throws -> PreloginResponse {
        guard request.user.utf8.count <= 64, let user = try await user(named: request.user),
            let (_, text) = try await store.keyEnvelope(userId: user.id),
            let envelope = try? SyncWire.decoder().decode(KeyEnvelope.self, from: Data(text.utf8)), envelope.loginDerived == true
        else { return PreloginResponse(derivation: nil) }
        return PreloginResponse(derivation: envelope.derivation)
    }
}
