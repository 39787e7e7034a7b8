import Crypto
import Foundation
import GroveCore
import _CryptoExtras

/// Why an account's key could not be made, opened or used.
public enum AccountKeyError: Error, Equatable, CustomStringConvertible {
    /// The passphrase does not open this account's key.
    case wrongPassphrase
    /// The recovery code does not open this account's key.
    case wrongRecoveryCode
    /// The passphrase is too short to stand up to guessing.
    case weakPassphrase(minimum: Int)
    /// A sealed value names another key than the one this device holds.
    case otherKey(held: String, named: String)
    /// A sealed value did not open: changed, or moved from another record, group or clock.
    case tampered(entity: String, id: String, group: String)
    /// A pulled value was not sealed: sent before the account was encrypted (its device sends it again
    /// sealed once unlocked), or planted by the server. Set aside, never applied.
    case unsealed(entity: String, id: String)
    /// The account is encrypted and this device holds no key yet.
    case locked
    /// This device holds a key, but the server says the account is not encrypted (a server restored
    /// from a backup older than the encryption, or another server): nothing is sent to it in plain.
    case serverNotEncrypted
    /// A new account, linked without a passphrase: Grove encrypts new accounts before anything is sent.
    case newAccount
    /// A pulled deletion without a sealed mark that opens: no device of the account made it (or it
    /// predates sealed deletions). Set aside: the record stays.
    case unsealedDeletion(entity: String, id: String)
    /// A replaced key in the account's envelope did not open with the current one: the envelope was
    /// changed on the server. Nothing was changed here.
    case keyring(keyId: String)
    /// The sync server holds a key this account replaced (restored from a backup older than the new
    /// key): nothing is sealed with it again, nor is it taken back by an unlock — a new key replaces it.
    case retiredKeyOnServer(named: String)

    public var description: String {
        switch self {
        case .wrongPassphrase: "That passphrase does not open this account's key (nothing was changed)"
        case .wrongRecoveryCode: "That recovery code does not open this account's key (nothing was changed)"
        case .weakPassphrase(let minimum): "passphrase: A passphrase has at least \(minimum) characters"
        case .otherKey(let held, let named):
            "This device holds key \(held), but the account's values are sealed with key \(named): run `grove sync unlock`"
        case .tampered(let entity, let id, let group):
            "A sealed \(entity) (\(id.prefix(12))…, \(group)) did not open: it was changed or moved on the way, and was set aside"
        case .unsealed(let entity, let id):
            "A \(entity) (\(id.prefix(12))…) came unsealed on an encrypted account: set aside until its device sends it sealed"
        case .locked:
            "This account is encrypted and this device has no key yet: run `grove sync unlock` (it asks the passphrase once); nothing was sent"
        case .serverNotEncrypted:
            "This device holds the account's key, but the server does not know the account is encrypted: nothing was sent (run `grove sync encrypt` to seal it again)"
        case .unsealedDeletion(let entity, let id):
            "A deletion of a \(entity) (\(id.prefix(12))…) came without a sealed mark that opens: no device of yours made it, so the \(entity) stays"
        case .keyring(let keyId):
            "The account's envelope lists replaced key \(keyId), which does not open with the current key: it was changed on the sync server (nothing was changed here)"
        case .retiredKeyOnServer(let named):
            "The sync server holds key \(named), which this account replaced: it was restored from a backup older than the new key. Nothing was sent; make a new key again with `grove sync new-key --passphrase-stdin` (or Settings → Sync → A new key)"
        case .newAccount:
            "This account is new, and Grove encrypts new accounts end to end before anything is sent: run `grove sync encrypt --passphrase-stdin` (or log in again with --plain to sync unencrypted); nothing was sent"
        }
    }
}

/// The passphrase's part (SYNC.md "Private sync"): one passphrase, a memory-hard derivation (scrypt,
/// from swift-crypto's `_CryptoExtras` — BoringSSL's implementation, no C library to install), a key
/// that wraps a random data key, and a recovery code that wraps it too. A passphrase change re-wraps
/// the one data key and re-seals nothing.
public enum AccountKeys {
    /// scrypt's cost: N = 2^15, r = 8, p = 1 — 32 MiB and about a tenth of a second here, once per
    /// unlock (never per sync). Tests pass a cheaper one.
    public static let defaultLogN = 15
    public static let minimumPassphrase = 10

    /// A new data key, its envelope for `passphrase`, and the recovery code shown once.
    public static func create(
        passphrase: String, device: String, now: Date, logN: Int = defaultLogN
    ) throws -> (key: DataKey, envelope: KeyEnvelope, recovery: RecoveryCode) {
        let key = DataKey.random()
        let (envelope, recovery) = try self.envelope(for: key, passphrase: passphrase, device: device, now: now, logN: logN)
        return (key, envelope, recovery)
    }

    /// A new envelope (and recovery code) for a key this device holds: a server restored from a backup
    /// older than the account's encryption gets the same key back, and nothing sealed changes.
    public static func envelope(
        for key: DataKey, passphrase: String, device: String, now: Date, logN: Int = defaultLogN
    ) throws -> (envelope: KeyEnvelope, recovery: RecoveryCode) {
        try checkStrength(passphrase)
        let recovery = RecoveryCode.random()
        let derivation = KeyEnvelope.Derivation(logN: logN, r: 8, p: 1, salt: randomBase64(16))
        let recoverySalt = randomBase64(16)
        var envelope = KeyEnvelope(
            keyId: key.keyId, derivation: derivation,
            byPassphrase: try wrap(key, under: passphraseKey(passphrase, derivation), keyId: key.keyId, purpose: "passphrase"),
            recoverySalt: recoverySalt,
            byRecovery: try wrap(key, under: recoveryKey(recovery, salt: recoverySalt), keyId: key.keyId, purpose: "recovery"),
            changedAt: now, changedBy: device)
        envelope.loginDerived = true
        envelope.recoveryCheck = Hex.string(SHA256.hash(data: Data(try recoveryProof(recovery, envelope).utf8)))
        envelope.retired = try key.retired.isEmpty ? nil : key.retired.map { try sealRetired($0, under: key) }
        return (envelope, recovery)
    }

    /// A new data key replacing `key` (after a device is lost: what it holds opens nothing sealed from
    /// then on), its envelope for `passphrase` — the replaced keys sealed in it, so that what they
    /// sealed still opens — and a new recovery code, shown once (the old one wrapped the old key).
    /// The account's id key stays: no id changes, nothing is sent again.
    public static func replace(
        _ key: DataKey, passphrase: String, device: String, now: Date, logN: Int = defaultLogN
    ) throws -> (key: DataKey, envelope: KeyEnvelope, recovery: RecoveryCode) {
        try checkStrength(passphrase)
        let fresh = try DataKey.replacing(key)
        let (envelope, recovery) = try self.envelope(for: fresh, passphrase: passphrase, device: device, now: now, logN: logN)
        return (fresh, envelope, recovery)
    }

    /// The account's login secret for `passphrase` (what a device sends as its password once the account
    /// logs in with it): from the same scrypt as the key-encryption key, by another HKDF label, so the
    /// server that checks it learns nothing that unwraps the key.
    public static func loginSecret(passphrase: String, _ derivation: KeyEnvelope.Derivation) throws -> String {
        let master = try self.master(passphrase, derivation)
        let secret = HKDF<SHA256>.deriveKey(inputKeyMaterial: master, info: Data("grove-login-v1".utf8), outputByteCount: 32)
        return "gl1_" + secret.withUnsafeBytes { Hex.string($0) }
    }

    /// What the recovery code proves to the server to set the login again (its digest is in the envelope).
    public static func recoveryProof(_ code: RecoveryCode, _ envelope: KeyEnvelope) throws -> String {
        let key = try recoveryKey(code, salt: envelope.recoverySalt)
        let proof = HKDF<SHA256>.deriveKey(inputKeyMaterial: key, info: Data("grove-recovery-login-v1".utf8), outputByteCount: 32)
        return "gr1_" + proof.withUnsafeBytes { Hex.string($0) }
    }

    /// The data key, opened with the passphrase, with the keys it replaced.
    public static func unlock(_ envelope: KeyEnvelope, passphrase: String) throws -> DataKey {
        guard
            let key = try? unwrap(
                envelope.byPassphrase, under: passphraseKey(passphrase, envelope.derivation), keyId: envelope.keyId, purpose: "passphrase")
        else { throw AccountKeyError.wrongPassphrase }
        return try withRetired(key, envelope)
    }

    /// The data key, opened with the recovery code, with the keys it replaced.
    public static func unlock(_ envelope: KeyEnvelope, recovery: RecoveryCode) throws -> DataKey {
        guard
            let key = try? unwrap(
                envelope.byRecovery, under: recoveryKey(recovery, salt: envelope.recoverySalt), keyId: envelope.keyId, purpose: "recovery")
        else { throw AccountKeyError.wrongRecoveryCode }
        return try withRetired(key, envelope)
    }

    /// `key` with the replaced keys the envelope seals under it, opened.
    static func withRetired(_ key: DataKey, _ envelope: KeyEnvelope) throws -> DataKey {
        var key = key
        key.retired = try (envelope.retired ?? []).map { old in
            guard let data = Data(base64Encoded: old.box), let box = try? ChaChaPoly.SealedBox(combined: data),
                let raw = try? ChaChaPoly.open(box, using: key.keyring, authenticating: retiredData(old.keyId, under: key.keyId)),
                let opened = DataKey(raw: raw), opened.keyId == old.keyId
            else { throw AccountKeyError.keyring(keyId: old.keyId) }
            return opened
        }
        return key
    }

    static func sealRetired(_ old: DataKey, under key: DataKey) throws -> KeyEnvelope.RetiredKey {
        let box = try ChaChaPoly.seal(old.raw, using: key.keyring, authenticating: retiredData(old.keyId, under: key.keyId))
        return KeyEnvelope.RetiredKey(keyId: old.keyId, box: box.combined.base64EncodedString())
    }

    /// Binds a replaced key's box to both keys: it cannot be moved into another account's envelope.
    private static func retiredData(_ old: String, under current: String) -> Data {
        Data("grove-keyring-v1\u{0}\(old)\u{0}\(current)".utf8)
    }

    /// The envelope with `key` wrapped under a new passphrase (fresh salt); the recovery code's wrap stays.
    public static func rewrap(
        _ envelope: KeyEnvelope, key: DataKey, passphrase: String, device: String, now: Date, logN: Int = defaultLogN
    ) throws -> KeyEnvelope {
        try checkStrength(passphrase)
        var result = envelope
        result.derivation = KeyEnvelope.Derivation(logN: logN, r: 8, p: 1, salt: randomBase64(16))
        result.byPassphrase = try wrap(key, under: passphraseKey(passphrase, result.derivation), keyId: key.keyId, purpose: "passphrase")
        result.changedAt = now
        result.changedBy = device
        return result
    }

    /// Refuses a passphrase shorter than `minimumPassphrase` (before any key work or network).
    public static func checkStrength(_ passphrase: String) throws {
        guard passphrase.count >= minimumPassphrase else { throw AccountKeyError.weakPassphrase(minimum: minimumPassphrase) }
    }

    /// scrypt of the passphrase: the one slow step, shared by the key-encryption key and the login.
    static func master(_ passphrase: String, _ derivation: KeyEnvelope.Derivation) throws -> SymmetricKey {
        guard let salt = Data(base64Encoded: derivation.salt), (14...22).contains(derivation.logN), (1...32).contains(derivation.r),
            (1...16).contains(derivation.p)
        else { throw AccountKeyError.wrongPassphrase }
        return try KDF.Scrypt.deriveKey(
            from: Data(passphrase.precomposedStringWithCanonicalMapping.utf8), salt: salt, outputByteCount: 32,
            rounds: 1 << derivation.logN, blockSize: derivation.r, parallelism: derivation.p)
    }

    static func passphraseKey(_ passphrase: String, _ derivation: KeyEnvelope.Derivation) throws -> SymmetricKey {
        HKDF<SHA256>.deriveKey(
            inputKeyMaterial: try master(passphrase, derivation), info: Data("grove-key-encryption-v1".utf8), outputByteCount: 32)
    }

    static func recoveryKey(_ code: RecoveryCode, salt: String) throws -> SymmetricKey {
        // 128 random bits need no stretching: HKDF binds them to the account's salt.
        guard let salt = Data(base64Encoded: salt) else { throw AccountKeyError.wrongRecoveryCode }
        return HKDF<SHA256>.deriveKey(
            inputKeyMaterial: SymmetricKey(data: code.bytes), salt: salt, info: Data("grove-recovery-v1".utf8), outputByteCount: 32)
    }

    static func wrap(_ key: DataKey, under wrapping: SymmetricKey, keyId: String, purpose: String) throws -> String {
        let box = try ChaChaPoly.seal(key.raw, using: wrapping, authenticating: Data("grove-wrap-v1\u{0}\(purpose)\u{0}\(keyId)".utf8))
        return box.combined.base64EncodedString()
    }

    static func unwrap(_ text: String, under wrapping: SymmetricKey, keyId: String, purpose: String) throws -> DataKey {
        guard let data = Data(base64Encoded: text) else { throw AccountKeyError.wrongPassphrase }
        let raw = try ChaChaPoly.open(
            ChaChaPoly.SealedBox(combined: data), using: wrapping, authenticating: Data("grove-wrap-v1\u{0}\(purpose)\u{0}\(keyId)".utf8))
        guard let key = DataKey(raw: raw), key.keyId == keyId else { throw AccountKeyError.wrongPassphrase }
        return key
    }

    static func randomBase64(_ count: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        return Data((0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }).base64EncodedString()
    }
}
