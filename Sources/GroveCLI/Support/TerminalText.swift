/// Text on its way to a terminal with anything outside could have hidden in it made visible.
///
/// Intention and to-do text, timer and app names, content packs, a model's answers, another device's
/// synced rows and a server's error details all reach the terminal; an escape sequence among them
/// could retitle the window, move the cursor, rewrite earlier lines or plant a link. So every line
/// Grove writes for a person passes through here: control characters are shown in caret notation
/// (`^[`, `^H`, `^?`), C1 controls and Unicode noncharacters as U+FFFD, and only line breaks, tabs
/// and Grove's own escape sequences go through. Data Grove writes on purpose (an export) is not text
/// for a person and does not pass through here.
///
/// Grove's own sequences (`Style`'s colours, a live screen's cursor moves) cannot be told from the same
/// bytes in a stored name once they share a line, so they travel marked instead (`own`): a
/// private-use character (U+E000), this process's random nonce, the sequence, U+E001. Only a marked
/// sequence becomes an escape here; stored text cannot carry the mark, whose nonce it never saw (and a
/// private-use character of its own, an icon font's, goes through as it is).
enum TerminalText {
    /// Marks `sequence` (what follows ESC: `[1m`, `[2K`) as Grove's own, for `neutralized` to emit.
    static func own(_ sequence: String) -> String { "\u{E000}" + nonce + sequence + "\u{E001}" }

    /// Chosen once per process; unknown to any text stored before it.
    static let nonce: String = {
        var generator = SystemRandomNumberGenerator()
        return String(generator.next(), radix: 36)
    }()
    private static let nonceScalars = Array(nonce.unicodeScalars)

    static func neutralized(_ text: String) -> String {
        // The usual line has nothing to change: one scan, no copy. (0xEE leads U+E000…U+EFFF, where the
        // marks are; 0xEF U+F000…U+FFFF, where the noncharacters are.)
        guard text.utf8.contains(where: { $0 < 0x20 && $0 != 0x0A && $0 != 0x09 || $0 == 0x7F || $0 == 0xC2 || $0 >= 0xEE && $0 <= 0xEF })
        else {
            return text
        }
        let scalars = Array(text.unicodeScalars)
        var out = String.UnicodeScalarView()
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            let value = scalar.value
            if value == 0xE000, let (sequence, end) = ownSequence(scalars, from: index) {
                out.append("\u{1B}")
                out.append(contentsOf: sequence)
                index = end + 1
                continue
            }
            switch value {
            case 0x0A, 0x09: out.append(scalar)
            case 0..<0x20: out.append(contentsOf: "^\(Character(Unicode.Scalar(UInt8(value + 0x40))))".unicodeScalars)
            case 0x7F: out.append(contentsOf: "^?".unicodeScalars)
            case 0x80...0x9F, 0xFDD0...0xFDEF, 0xFFFE, 0xFFFF: out.append("\u{FFFD}")
            default: out.append(scalar)
            }
            index += 1
        }
        return String(out)
    }

    /// The sequence a mark starting at `start` carries (`[`, digits, `;`, one final letter), and the
    /// index of the mark's end; nil when it is not this process's mark.
    private static func ownSequence(_ scalars: [Unicode.Scalar], from start: Int) -> ([Unicode.Scalar], Int)? {
        let bodyStart = start + 1 + nonceScalars.count
        guard bodyStart < scalars.count, Array(scalars[(start + 1)..<bodyStart]) == nonceScalars, scalars[bodyStart] == "[" else {
            return nil
        }
        var index = bodyStart + 1
        while index < scalars.count, index - bodyStart <= 32 {
            let scalar = scalars[index]
            if scalar.value == 0xE001 {
                let body = Array(scalars[bodyStart..<index])
                guard let last = body.last, last.properties.isAlphabetic, body.count >= 2 else { return nil }
                return (body, index)
            }
            guard ("0"..."9").contains(scalar) || scalar == ";" || ("A"..."Z").contains(scalar) || ("a"..."z").contains(scalar) else {
                return nil
            }
            index += 1
        }
        return nil
    }
}
