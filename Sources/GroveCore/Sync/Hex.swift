import Foundation

/// Lowercase hexadecimal text of bytes (digests, tokens, ids).
public enum Hex {
    private static let digits = Array("0123456789abcdef".utf8)

    /// Two lowercase hex digits per byte, in order — what `String(format: "%02x")` joined gives, without
    /// a formatter call per byte (digests are taken on every sync request).
    public static func string(_ bytes: some Sequence<UInt8>) -> String {
        var utf8: [UInt8] = []
        utf8.reserveCapacity(bytes.underestimatedCount * 2)
        for byte in bytes {
            utf8.append(digits[Int(byte >> 4)])
            utf8.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: utf8, as: UTF8.self)
    }

    /// `count` random bytes as hex (from the system's secure generator).
    public static func random(bytes count: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        return string((0..<max(0, count)).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }

    /// The bytes of lowercase or uppercase hex text, or nil when it is not an even run of hex digits.
    public static func data(_ text: String) -> Data? {
        let utf8 = Array(text.utf8)
        guard utf8.count % 2 == 0 else { return nil }
        func value(_ c: UInt8) -> UInt8? {
            switch c {
            case 0x30...0x39: c - 0x30
            case 0x61...0x66: c - 0x61 + 10
            case 0x41...0x46: c - 0x41 + 10
            default: nil
            }
        }
        var bytes = Data(capacity: utf8.count / 2)
        for index in stride(from: 0, to: utf8.count, by: 2) {
            guard let high = value(utf8[index]), let low = value(utf8[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
        }
        return bytes
    }
}
