import Foundation

/// An encrypted account's data key, wrapped twice — by a key derived from the passphrase and by one
/// derived from the recovery code — with what a device needs to derive them again. The server keeps
/// it as it is given (`GET`/`PUT /sync/v1/keys`) and reads only `keyId`: it can unwrap neither.
public struct KeyEnvelope: Codable, Sendable, Equatable {
    /// The memory-hard derivation of the passphrase (SYNC.md "Private sync": scrypt).
    public struct Derivation: Codable, Sendable, Equatable {
        public var name: String
        /// log2 of scrypt's N (its cost in memory and time), r and p.
        public var logN: Int
        public var r: Int
        public var p: Int
        /// Random, per account (base64).
        public var salt: String
        public init(name: String = "scrypt", logN: Int, r: Int, p: Int, salt: String) {
            self.name = name
            self.logN = logN
            self.r = r
            self.p = p
            self.salt = salt
        }
    }

    public var version: Int
    /// The data key's id: every sealed value names it.
    public var keyId: String
    public var derivation: Derivation
    /// The data key sealed under the passphrase's key (ChaChaPoly, base64 of nonce, box and tag).
    public var byPassphrase: String
    /// The data key sealed under the recovery code's key (salt and box, base64).
    public var recoverySalt: String
    public var byRecovery: String
    /// When the passphrase last changed, and on which device (the other devices say so once).
    public var changedAt: Date
    public var changedBy: String
    /// The account logs in with a secret derived from the passphrase (one secret for both): the
    /// server tells a logging-in device how to derive it (`POST /sync/v1/prelogin`).
    public var loginDerived: Bool?
    /// SHA-256 (hex) of the proof the recovery code derives: with it a device that lost the passphrase
    /// may set the login again (the server keeps only this digest of a 256-bit secret).
    public var recoveryCheck: String?
    /// When the sync server kept this envelope, by its own clock, set by the server and only ever
    /// later than the one it replaced. A device remembers the latest it saw: a server restored from a
    /// backup holds an older one, and with it the passphrase and recovery code replaced since.
    public var keptAt: Date?
    /// The keys this one replaced (`grove sync new-key`, after a device is lost), each sealed under
    /// this one: what was sealed before a replacement still opens, and nothing is sealed with them
    /// again — the server refuses a push under any key but `keyId`. Absent until a key is replaced.
    public var retired: [RetiredKey]?

    /// A replaced data key, sealed under the account's current one (ChaChaPoly, base64 of nonce, box
    /// and tag; its additional data names both keys). The server reads only `keyId`.
    public struct RetiredKey: Codable, Sendable, Equatable {
        public var keyId: String
        public var box: String
        public init(keyId: String, box: String) {
            self.keyId = keyId
            self.box = box
        }
    }

    /// How many keys an account may replace (each stays in the envelope, for what it sealed).
    public static let maxRetired = 64

    public init(
        version: Int = 1, keyId: String, derivation: Derivation, byPassphrase: String, recoverySalt: String, byRecovery: String,
        changedAt: Date, changedBy: String
    ) {
        self.version = version
        self.keyId = keyId
        self.derivation = derivation
        self.byPassphrase = byPassphrase
        self.recoverySalt = recoverySalt
        self.byRecovery = byRecovery
        self.changedAt = changedAt
        self.changedBy = changedBy
    }

    /// What the server checks before keeping an envelope (it cannot check the boxes).
    public func validate() throws(InvalidField) {
        guard version == 1 else { throw InvalidField("envelope.version", "Only version 1 envelopes are known") }
        guard keyId.utf8.count == SealedValue.keyIdLength, SealedValue.keyId(of: SealedValue.prefix + keyId + ":x") == keyId else {
            throw InvalidField("envelope.keyId", "A key id is 16 lowercase hex digits")
        }
        guard derivation.name == "scrypt", (14...22).contains(derivation.logN), (1...32).contains(derivation.r),
            (1...16).contains(derivation.p)
        else { throw InvalidField("envelope.derivation", "scrypt with log2 N 14…22, r 1…32, p 1…16") }
        for (name, value) in [
            ("derivation.salt", derivation.salt), ("byPassphrase", byPassphrase), ("recoverySalt", recoverySalt),
            ("byRecovery", byRecovery),
        ] {
            guard let data = Data(base64Encoded: value), (16...256).contains(data.count) else {
                throw InvalidField("envelope.\(name)", "\(name) is base64 of 16 to 256 bytes")
            }
        }
        guard (1...100).contains(changedBy.count) else { throw InvalidField("envelope.changedBy", "A device name has 1 to 100 characters") }
        if let recoveryCheck, recoveryCheck.utf8.count != 64 || Hex.data(recoveryCheck) == nil {
            throw InvalidField("envelope.recoveryCheck", "A recovery check is 64 hex digits")
        }
        guard let retired else { return }
        guard retired.count <= Self.maxRetired else {
            throw InvalidField("envelope.retired", "An account keeps at most \(Self.maxRetired) replaced keys")
        }
        var seen: Set<String> = [keyId]
        for old in retired {
            guard old.keyId.utf8.count == SealedValue.keyIdLength,
                SealedValue.keyId(of: SealedValue.prefix + old.keyId + ":x") == old.keyId,
                seen.insert(old.keyId).inserted
            else {
                throw InvalidField("envelope.retired", "A replaced key's id is 16 lowercase hex digits, named once, not the current key's")
            }
            guard let data = Data(base64Encoded: old.box), (16...256).contains(data.count) else {
                throw InvalidField("envelope.retired", "A replaced key's box is base64 of 16 to 256 bytes")
            }
        }
    }

    /// The ids of the keys this one replaced.
    public var retiredKeyIds: Set<String> { Set((retired ?? []).map(\.keyId)) }
}

/// `PUT /sync/v1/keys`: encrypt the account (no `expectedKeyId`), re-wrap its key after a passphrase
/// change (`expectedKeyId` is the key the account has, and the envelope keeps it), or replace the key
/// (`expectedKeyId` is the account's key, which the envelope names among its `retired`; with `proof`).
///
/// `login`, when given, becomes the account's password from now on (the secret the passphrase
/// derives); changing it on an encrypted account takes `proof`: the current login secret, or the
/// recovery code's proof.
public struct KeyEnvelopeChange: Codable, Sendable {
    public var envelope: KeyEnvelope
    public var expectedKeyId: String?
    public var login: String?
    public var proof: String?
    public init(envelope: KeyEnvelope, expectedKeyId: String?, login: String? = nil, proof: String? = nil) {
        self.envelope = envelope
        self.expectedKeyId = expectedKeyId
        self.login = login
        self.proof = proof
    }
}

/// `POST /sync/v1/prelogin`: how a device derives this account's login from the passphrase, before it
/// has a token. Absent for an account that logs in with its password (and for a name no account has).
public struct PreloginRequest: Codable, Sendable {
    public var user: String
    public init(user: String) { self.user = user }
}

public struct PreloginResponse: Codable, Sendable {
    public var derivation: KeyEnvelope.Derivation?
    public init(derivation: KeyEnvelope.Derivation?) { self.derivation = derivation }
}
