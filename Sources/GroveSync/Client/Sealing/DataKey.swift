import Crypto
import Foundation
import GroveCore

/// An account's data key on a device: what seals and opens every value, and keys its ids.
public struct DataKey: Sendable, Equatable {
    public let keyId: String
    let bytes: SymmetricKey
    /// The key that makes meaningful ids opaque (HMAC), the same on every device of the account:
    /// derived from the account's first data key and carried by every key that replaces it, so that
    /// a replaced key renames nothing.
    let ids: SymmetricKey
    /// Whether `ids` is carried (a replacement) rather than derived from `bytes`.
    private let carriesIDKey: Bool
    /// The keys this one replaced, newest first: they open what was sealed before, and seal nothing.
    public internal(set) var retired: [DataKey] = []

    public static func == (a: DataKey, b: DataKey) -> Bool { a.keyId == b.keyId && a.raw == b.raw }

    init(bytes: SymmetricKey, ids: SymmetricKey? = nil) {
        self.bytes = bytes
        let mac = HMAC<SHA256>.authenticationCode(for: Data("grove-key-id".utf8), using: bytes)
        keyId = Hex.string(Data(mac).prefix(8))
        carriesIDKey = ids != nil
        self.ids = ids ?? HKDF<SHA256>.deriveKey(inputKeyMaterial: bytes, info: Data("grove-id-v1".utf8), outputByteCount: 32)
    }

    /// A new random key.
    public static func random() -> DataKey { DataKey(bytes: SymmetricKey(size: .bits256)) }

    /// A new random key to replace `old`: it keeps the account's id key, and `old` (with the keys it
    /// replaced) opens what was sealed before.
    public static func replacing(_ old: DataKey) throws -> DataKey {
        guard old.retired.count < KeyEnvelope.maxRetired else {
            throw InvalidField("key", "An account's key is replaced at most \(KeyEnvelope.maxRetired) times")
        }
        var key = DataKey(bytes: SymmetricKey(size: .bits256), ids: old.ids)
        var previous = old
        previous.retired = []
        key.retired = [previous] + old.retired
        return key
    }

    /// The key from its bytes (the device's key file, a wrapped key): 32, or 64 for a replacement —
    /// its own 32 and the account's id key.
    public init?(raw: Data) {
        switch raw.count {
        case 32: self.init(bytes: SymmetricKey(data: raw))
        case 64: self.init(bytes: SymmetricKey(data: raw.prefix(32)), ids: SymmetricKey(data: raw.suffix(32)))
        default: return nil
        }
    }

    /// The key's bytes, and the id key it carries (the key file keeps `retired` on lines of their own).
    public var raw: Data {
        var data = bytes.withUnsafeBytes { Data($0) }
        if carriesIDKey { data.append(idKeyBytes) }
        return data
    }

    /// The key that seals field groups (never the data key itself).
    var sealing: SymmetricKey { derived("grove-seal-v1") }
    /// The key that seals the keys this one replaced, in the envelope.
    var keyring: SymmetricKey { derived("grove-keyring-v1") }

    /// The id key's bytes, for the store (`SyncRoom.adoptIDKey`): never the data key itself.
    public var idKeyBytes: Data { ids.withUnsafeBytes { Data($0) } }

    /// The key named `keyId`: this one, or one it replaced.
    func opening(_ keyId: String) -> DataKey? {
        keyId == self.keyId ? self : retired.first { $0.keyId == keyId }
    }

    private func derived(_ info: String) -> SymmetricKey {
        HKDF<SHA256>.deriveKey(inputKeyMaterial: bytes, info: Data(info.utf8), outputByteCount: 32)
    }
}
