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
        return UUID(sixteen: digest)
    }
}

extension UUID {
    /// The UUID of the first 16 bytes of `bytes` (zeros where fewer are given).
    init(sixteen bytes: [UInt8]) {
        let b = bytes + Array(repeating: 0, count: max(0, 16 - bytes.count))
        self.init(uuid: (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]))
    }
}
