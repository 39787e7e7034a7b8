import Foundation
import GroveCore
import GroveStore

/// Why an account's encryption could not be changed as asked.
public enum AccountEncryptionError: Error, Equatable, CustomStringConvertible {
    /// The account is encrypted already (with `keyId`); `held` when this device holds that key.
    case alreadyEncrypted(keyId: String, held: Bool)
    /// The account is not encrypted: nothing to unlock.
    case notEncrypted
    /// This device holds no key (a passphrase change needs one).
    case noKeyHere

    public var description: String {
        switch self {
        case .alreadyEncrypted(let keyId, true): "This account is encrypted already, with the key this device holds (\(keyId))"
        case .alreadyEncrypted(let keyId, false): "This account was encrypted already (key \(keyId)): run `grove sync unlock` here"
        case .notEncrypted: "This account is not encrypted: nothing to unlock (`grove sync encrypt` encrypts it)"
        case .noKeyHere: "This device holds no key: run `grove sync unlock` first (or `grove sync encrypt` for a plain account)"
        }
    }
}

/// What `grove sync encrypt` did.
public struct EncryptionSummary: Sendable {
    public var key: DataKey
    /// Shown once: it opens the key without the passphrase.
    public var recovery: RecoveryCode
    /// The sync that sent every row again, sealed.
    public var sync: SyncSummary
}

/// An account's encryption, as every face asks for it (SYNC.md "Private sync").
extension SyncConnection {
    /// Encrypts the account in place: syncs, makes the key (or wraps the one this device holds again,
    /// for a server restored from before the encryption), keeps its envelope on the server, keys this
    /// store's meaningful ids and sends every row again, sealed.
    public func encrypt(passphrase: String, logN: Int = AccountKeys.defaultLogN) async throws -> EncryptionSummary {
        try AccountKeys.checkStrength(passphrase)
        let http = try transport()
        let held = key
        if let envelope = try await http.keys() {
            throw AccountEncryptionError.alreadyEncrypted(keyId: envelope.keyId, held: held?.keyId == envelope.keyId)
        }
        let key: DataKey, envelope: KeyEnvelope, recovery: RecoveryCode
        let now = database.environment.now()
        if let held {
            key = held
            (envelope, recovery) = try AccountKeys.envelope(
                for: held, passphrase: passphrase, device: device.deviceName, now: now, logN: logN)
        } else {
            // Everything the others sent first: what goes out sealed is the whole account. A new
            // account has nothing to fetch, and this device sends nothing in plain to it.
            if try await http.status().head > 0 {
                var plain = try engine()
                _ = try await plain.sync()
            }
            (key, envelope, recovery) = try AccountKeys.create(passphrase: passphrase, device: device.deviceName, now: now, logN: logN)
        }
        // From now on the account logs in with the passphrase (a secret derived from it): one secret.
        let login = try AccountKeys.loginSecret(passphrase: passphrase, envelope.derivation)
        try await http.setKeys(KeyEnvelopeChange(envelope: envelope, expectedKeyId: nil, login: login))
        try hold(key)
        var sealed = try engine()
        return EncryptionSummary(key: key, recovery: recovery, sync: try await sealed.sync())
    }

    /// Takes the account's key on this device, opened with the passphrase — or with the recovery code,
    /// then wrapped with `newPassphrase` for every device — keys this store's meaningful ids as the
    /// others did, and queues every row to go out sealed (a row this device sent in plain before the
    /// encryption leaves no plain copy on the server).
    public func unlock(passphrase: String? = nil, recovery: RecoveryCode? = nil, newPassphrase: String? = nil) async throws -> DataKey {
        if let newPassphrase { try AccountKeys.checkStrength(newPassphrase) }
        let http = try transport()
        guard let envelope = try await http.keys() else { throw AccountEncryptionError.notEncrypted }
        // The server went back to a key this account replaced (a backup from before the new key): the
        // lost device's key is not taken back; a new key replaces it again.
        if let held = key, held.keyId != envelope.keyId, held.opening(envelope.keyId) != nil {
            throw AccountKeyError.retiredKeyOnServer(named: envelope.keyId)
        }
        let key =
            if let recovery {
                try AccountKeys.unlock(envelope, recovery: recovery)
            } else {
                try AccountKeys.unlock(envelope, passphrase: passphrase ?? "")
            }
        if let newPassphrase, let recovery {
            // The passphrase forgotten: the recovery code proves the right to set the login again.
            try await rewrap(envelope, key: key, to: newPassphrase, proof: try AccountKeys.recoveryProof(recovery, envelope), http)
        }
        try hold(key, resending: try await http.plainRows())
        return key
    }

    /// Wraps the key this device holds with a new passphrase, which is also the login from now on:
    /// nothing is sealed again, and the other devices keep syncing with the key and tokens they hold.
    /// The current passphrase proves the change (a device token alone does not change the login).
    public func changePassphrase(from current: String, to passphrase: String) async throws -> DataKey {
        try AccountKeys.checkStrength(passphrase)
        let (key, envelope, http) = try await heldKey(openedBy: current)
        try await rewrap(
            envelope, key: key, to: passphrase, proof: try AccountKeys.loginSecret(passphrase: current, envelope.derivation), http)
        return key
    }

    /// A new recovery code for the account, shown once — for a code lost, or seen by someone else: the
    /// old one opens nothing from then on. The current passphrase proves the change; its wrap and the
    /// login are made again with it (a fresh salt), so no device is asked anything.
    public func newRecoveryCode(passphrase: String) async throws -> (key: DataKey, recovery: RecoveryCode) {
        let (key, envelope, http) = try await heldKey(openedBy: passphrase)
        let (fresh, recovery) = try AccountKeys.envelope(
            for: key, passphrase: passphrase, device: device.deviceName, now: database.environment.now(), logN: envelope.derivation.logN)
        try await http.setKeys(
            KeyEnvelopeChange(
                envelope: fresh, expectedKeyId: envelope.keyId,
                login: try AccountKeys.loginSecret(passphrase: passphrase, fresh.derivation),
                proof: try AccountKeys.loginSecret(passphrase: passphrase, envelope.derivation)))
        return (key, recovery)
    }

    /// Replaces the account's data key — after a device is lost, or its key file seen — with a new one
    /// this device holds from now on: what the old key holds opens nothing sealed from then on, and
    /// the server refuses pushes under it. What it sealed still opens (the envelope keeps it, sealed
    /// under the new key); nothing is sent again and no id changes. The other devices stop before
    /// their next push and ask for the passphrase once; the recovery code is new (shown once).
    /// Revoke the lost device too (`grove sync revoke`): the key is what it could read, its token
    /// what it could fetch.
    ///
    /// On a server restored from a backup older than a new key (it holds a key this one replaced), the
    /// new key replaces the one this device holds, and the server's is among those it replaced.
    public func replaceKey(passphrase: String) async throws -> (key: DataKey, recovery: RecoveryCode) {
        let (key, envelope, http) = try await heldKey(openedBy: passphrase, orReplaced: true)
        let made = try AccountKeys.replace(
            key, passphrase: passphrase, device: device.deviceName, now: database.environment.now(), logN: envelope.derivation.logN)
        try await http.setKeys(
            KeyEnvelopeChange(
                envelope: made.envelope, expectedKeyId: envelope.keyId,
                login: try AccountKeys.loginSecret(passphrase: passphrase, made.envelope.derivation),
                proof: try AccountKeys.loginSecret(passphrase: passphrase, envelope.derivation)))
        try DeviceKey.write(made.key, forStore: storePath)
        try database.sync.noteHeldKey(made.key.keyId)
        try database.sync.noteServerKeyId(made.key.keyId)
        return (made.key, made.recovery)
    }

    /// The key this device holds — as the account's envelope on the server opens it, with the keys it
    /// replaced — the envelope and the transport, once `passphrase` is shown to open that envelope to
    /// that key (what proves a change of it).
    ///
    /// `orReplaced`: a server holding a key this one replaced is accepted too (the passphrase shown to
    /// open that key); the key returned is still the one this device holds.
    private func heldKey(openedBy passphrase: String, orReplaced: Bool = false) async throws -> (DataKey, KeyEnvelope, HTTPSyncTransport) {
        guard let key else { throw AccountEncryptionError.noKeyHere }
        let http = try transport()
        guard let envelope = try await http.keys() else { throw AccountKeyError.serverNotEncrypted }
        if orReplaced, envelope.keyId != key.keyId, let retired = key.opening(envelope.keyId) {
            guard try AccountKeys.unlock(envelope, passphrase: passphrase) == retired else { throw AccountKeyError.wrongPassphrase }
            return (key, envelope, http)
        }
        guard envelope.keyId == key.keyId else { throw AccountKeyError.otherKey(held: key.keyId, named: envelope.keyId) }
        let opened = try AccountKeys.unlock(envelope, passphrase: passphrase)
        guard opened == key else { throw AccountKeyError.wrongPassphrase }
        return (opened, envelope, http)
    }

    /// The envelope with `key` wrapped under `passphrase`, kept on the server with the login it derives
    /// (`proof` shows the right to change the login).
    private func rewrap(_ envelope: KeyEnvelope, key: DataKey, to passphrase: String, proof: String, _ http: HTTPSyncTransport) async throws
    {
        var rewrapped = try AccountKeys.rewrap(
            envelope, key: key, passphrase: passphrase, device: device.deviceName, now: database.environment.now())
        rewrapped.loginDerived = true
        try await http.setKeys(
            KeyEnvelopeChange(
                envelope: rewrapped, expectedKeyId: envelope.keyId,
                login: try AccountKeys.loginSecret(passphrase: passphrase, rewrapped.derivation), proof: proof))
    }

    /// Keeps `key` on this device, keys this store's meaningful ids with it and queues rows to go out
    /// sealed: those of `plain` (the rows the server still keeps in plain, on an unlock), or every row
    /// (an encryption, or a server that cannot say which).
    private func hold(_ key: DataKey, resending plain: PlainRows? = nil) throws {
        try DeviceKey.write(key, forStore: storePath)
        try database.sync.adoptIDKey(key.idKeyBytes, keyId: key.keyId)
        try database.sync.noteServerKeyId(key.keyId)
        if let plain, plain.complete {
            try database.sync.resend(plain.rows)
        } else {
            try database.sync.resendEverything()
        }
        try database.sync.awaitKey(false)
    }
}
