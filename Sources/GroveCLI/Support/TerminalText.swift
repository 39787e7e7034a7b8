/// Text on its way to a terminal with anything outside could have hidden in it made visible.
///
/// Intention and to-do text, timer and app names, content packs, a model's answers, another device's
/// synced rows and a server's error details all reach the terminal; an escape sequence among them
/// could retitle the window, move the cursor, rewrite earlier lines or plant a link. So every line
/// Grove writes for a person passes through here: control characters are shown in caret notation
/// (`^[`, `^H`, `^?`), C1 controls as U+FFFD, and only Grove's own colour codes (`ESC [ digits ; m`)
/// and line breaks and tabs go through. Data Grove writes on purpose (an export) is not text for a
/// person and does not pass through here.
enum TerminalText {
    static func neutralized(_ text: String) -> String {
        // The usual line has nothing to change: one scan, no copy.
        guard text.utf8.contains(where: { $0 < 0x20 && $0 != 0x0A && $0 != 0x09 || $0 == 0x7F || $0 == 0xC2 }) else { return text }
        let scalars = Array(text.unicodeScalars)
        var out = String.UnicodeScalarView()
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            let value = scalar.value
            if value == 0x1B, let end = colourCodeEnd(scalars, from: index) {
                out.append(contentsOf: scalars[index...end])
                index = end + 1
                continue
            }
            switch value {
            case 0x0A, 0x09: out.append(scalar)
            case 0..<0x20: out.append(contentsOf: "^\(Character(Unicode.Scalar(UInt8(value + 0x40))))".unicodeScalars)
            case 0x7F: out.append(contentsOf: "^?".unicodeScalars)
            case 0x80...0x9F: out.append("\u{FFFD}")
            default: out.append(scalar)
            }
            index += 1
        }
        return String(out)
    }

    /// The index of the `m` ending a colour code (`ESC [` digits and semicolons `m`) that starts at `start`.
    private static func colourCodeEnd(_ scalars: [Unicode.Scalar], from start: Int) -> Int? {
        guard start + 2 < scalars.count, scalars[start + 1] == "[" else { return nil }
        var index = start + 2
        while index < scalars.count, index - start < 24 {
            let scalar = scalars[index]
            if scalar == "m" { return index }
            guard ("0"..."9").contains(scalar) || scalar == ";" else { return nil }
            index += 1
        }
        return nil
    }
}
