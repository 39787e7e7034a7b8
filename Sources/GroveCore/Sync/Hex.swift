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
}
