import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// ANSI styling that disappears when colour is off. Its codes are marked as Grove's own
/// (`TerminalText.own`): the line they are in is printed through `TerminalText.neutralized`, which
/// turns the marks into escapes and every escape from stored text into visible characters.
public struct Style: Sendable {
    public let traits: TerminalTraits
    public init(_ traits: TerminalTraits) { self.traits = traits }

    private func sgr(_ code: String, _ text: String) -> String {
        traits.color ? TerminalText.own("[\(code)m") + text + TerminalText.own("[0m") : text
    }
    public func bold(_ t: String) -> String { sgr("1", t) }
    public func dim(_ t: String) -> String { sgr("2", t) }
    public func green(_ t: String) -> String { sgr("32", t) }
    public func yellow(_ t: String) -> String { sgr("33", t) }
    public func red(_ t: String) -> String { sgr("31", t) }
    public func cyan(_ t: String) -> String { sgr("36", t) }

    /// Text in `foreground` on `background` (`#RRGGBB`), 24-bit where supported, else the nearest of 256.
    public func colors(_ text: String, foreground: String, background: String?) -> String {
        guard traits.color, let fg = Self.rgb(foreground) else { return text }
        var codes = [code(fg, background: false)]
        if let background, let bg = Self.rgb(background) { codes.append(code(bg, background: true)) }
        return TerminalText.own("[\(codes.joined(separator: ";"))m") + text + TerminalText.own("[0m")
    }

    private func code(_ c: (Int, Int, Int), background: Bool) -> String {
        if traits.trueColor { return "\(background ? 48 : 38);2;\(c.0);\(c.1);\(c.2)" }
        func level(_ v: Int) -> Int { v < 48 ? 0 : v < 115 ? 1 : (v - 35) / 40 }
        return "\(background ? 48 : 38);5;\(16 + 36 * level(c.0) + 6 * level(c.1) + level(c.2))"
    }

    static func rgb(_ hex: String) -> (Int, Int, Int)? {
        guard hex.count == 7, hex.hasPrefix("#"), let n = Int(hex.dropFirst(), radix: 16) else { return nil }
        return ((n >> 16) & 0xFF, (n >> 8) & 0xFF, n & 0xFF)
    }
}
