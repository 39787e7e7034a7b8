import Foundation

/// Session ids as the store writes them, made and read without Foundation's `printf`/`scanf`.
extension SessionWriter {
    /// `id.uuidString` (upper-case hex, dashed), written into one buffer: Foundation formats it with
    /// `sprintf`, a fifth of binding a row.
    static func text(of id: UUID) -> String {
        let digits: StaticString = "0123456789ABCDEF"
        return withUnsafeBytes(of: id.uuid) { bytes in
            String(unsafeUninitializedCapacity: 36) { buffer in
                digits.withUTF8Buffer { hex in
                    var out = 0
                    for (index, byte) in bytes.enumerated() {
                        if index == 4 || index == 6 || index == 8 || index == 10 {
                            buffer[out] = UInt8(ascii: "-")
                            out += 1
                        }
                        buffer[out] = hex[Int(byte >> 4)]
                        buffer[out + 1] = hex[Int(byte & 0x0F)]
                        out += 2
                    }
                    return out
                }
            }
        }
    }

    /// `XXXXXXXX-XXXX-XXXX-XXXX-XXXXXXXXXXXX` in hex digits of either case, read without Foundation's
    /// `sscanf` (a tenth of reading an import's row back); anything else as `UUID(uuidString:)` reads it.
    static func uuid(fromText text: String) -> UUID? { hexUUID(text) ?? UUID(uuidString: text) }

    private static func hexUUID(_ text: String) -> UUID? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(16)
        var high: UInt8? = nil
        var count = 0
        for (offset, char) in text.utf8.enumerated() {
            count += 1
            if offset == 8 || offset == 13 || offset == 18 || offset == 23 {
                guard char == UInt8(ascii: "-") else { return nil }
                continue
            }
            let digit: UInt8
            switch char {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = char - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = char - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = char - UInt8(ascii: "A") + 10
            default: return nil
            }
            if let h = high { bytes.append(h << 4 | digit); high = nil } else { high = digit }
        }
        guard count == 36, bytes.count == 16 else { return nil }
        return UUID(
            uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
            ))
    }
}
