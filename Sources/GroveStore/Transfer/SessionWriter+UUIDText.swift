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

    /// Read from the string's own UTF-8 (no array made, no iterator: two of these a row of a shuffled
    /// import, where each allocation showed in the profile).
    private static func hexUUID(_ text: String) -> UUID? {
        var text = text
        return text.withUTF8 { utf8 -> UUID? in
            guard utf8.count == 36 else { return nil }
            @inline(__always) func digit(_ char: UInt8) -> UInt8? {
                switch char {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): char - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): char - UInt8(ascii: "a") + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): char - UInt8(ascii: "A") + 10
                default: nil
                }
            }
            var uuid: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
            let read = withUnsafeMutableBytes(of: &uuid) { out -> Bool in
                // Dashes at 8, 13, 18 and 23; every group has an even number of digits, read in pairs.
                var index = 0, byte = 0
                while index < 36 {
                    if index == 8 || index == 13 || index == 18 || index == 23 {
                        guard utf8[index] == UInt8(ascii: "-") else { return false }
                        index += 1
                        continue
                    }
                    guard let high = digit(utf8[index]), let low = digit(utf8[index + 1]) else { return false }
                    out[byte] = high << 4 | low
                    byte += 1
                    index += 2
                }
                return true
            }
            return read ? UUID(uuid: uuid) : nil
        }
    }
}
