import Crypto
import Foundation
import GroveCore

/// Name-based ids (RFC 9562 UUIDv5) for the intention of a period.
public enum IntentionID {
    /// Grove's namespace for intention ids.
    static let namespace =
        UUID(uuidString: "6f1d3a52-8c1e-4f5e-9a0b-2b7c4e9d1f30") ?? UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))

    /// The id of the intention for the `scope` period starting on `start`: the same on every device.
    public static func forPeriod(scope: IntentionScope, start: LocalDay) -> UUID {
        uuid5(namespace: namespace, name: "intention:\(scope.rawValue):\(start.description)")
    }

    static func uuid5(namespace: UUID, name: String) -> UUID {
        var bytes = withUnsafeBytes(of: namespace.uuid) { Array($0) }
        bytes += Array(name.utf8)
        var digest = Array(Insecure.SHA1.hash(data: bytes).prefix(16))
        digest[6] = (digest[6] & 0x0F) | 0x50
        digest[8] = (digest[8] & 0x3F) | 0x80
        return UUID(
            uuid: (
                digest[0], digest[1], digest[2], digest[3], digest[4], digest[5], digest[6], digest[7],
                digest[8], digest[9], digest[10], digest[11], digest[12], digest[13], digest[14], digest[15]
            ))
    }
}
