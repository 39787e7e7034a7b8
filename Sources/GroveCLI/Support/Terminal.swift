import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What the terminal can do, read once from the environment and the tty.
public struct TerminalTraits: Sendable {
    /// Colours allowed (a tty, `NO_COLOR` unset, `TERM` not "dumb").
    public var color: Bool
    /// 24-bit colour (`COLORTERM=truecolor` or `24bit`).
    public var trueColor: Bool
    /// Columns available.
    public var width: Int
    /// Whether standard output is a terminal.
    public var isTTY: Bool

    public init(color: Bool, trueColor: Bool, width: Int, isTTY: Bool) {
        self.color = color
        self.trueColor = trueColor
        self.width = width
        self.isTTY = isTTY
    }

    /// Plain text, 80 columns: for tests and pipes.
    /// The widths Grove lays text out for.
    public static let widthRange = 20...1000

    public static let plain = TerminalTraits(color: false, trueColor: false, width: 80, isTTY: false)

    public static func current(environment: [String: String] = ProcessInfo.processInfo.environment) -> TerminalTraits {
        let tty = isatty(STDOUT_FILENO) == 1
        let noColor = environment["NO_COLOR"].map { !$0.isEmpty } ?? false
        let dumb = environment["TERM"] == "dumb"
        var size = winsize()
        var width = 80
        if tty, ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { width = Int(size.ws_col) }
        else if let columns = environment["COLUMNS"].flatMap(Int.init), columns > 0 { width = columns }
        // Every layout assumes a sane width: a 3-column window or COLUMNS=99999999999 renders as the
        // nearest one Grove can draw.
        width = min(max(width, Self.widthRange.lowerBound), Self.widthRange.upperBound)
        let trueColor = ["truecolor", "24bit"].contains(environment["COLORTERM"]?.lowercased() ?? "")
        return TerminalTraits(color: tty && !noColor && !dumb, trueColor: trueColor, width: width, isTTY: tty)
    }
}

/// ANSI styling that disappears when colour is off.
public struct Style: Sendable {
    public let traits: TerminalTraits
    public init(_ traits: TerminalTraits) { self.traits = traits }

    private func sgr(_ code: String, _ text: String) -> String { traits.color ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text }
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
        return "\u{1B}[\(codes.joined(separator: ";"))m\(text)\u{1B}[0m"
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

/// The terminal bell.
public enum TerminalBell {
    public static func ring() { FileHandle.standardOutput.write(Data("\u{07}".utf8)) }
}

/// Puts the terminal in cbreak mode (keys arrive one at a time, no echo) and restores it.
public final class RawTerminal {
    private var original = termios()
    private var active = false

    public init?() {
        guard isatty(STDIN_FILENO) == 1, tcgetattr(STDIN_FILENO, &original) == 0 else { return nil }
        var raw = original
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 0
            cc[Int(VTIME)] = 0
        }
        guard tcsetattr(STDIN_FILENO, TCSANOW, &raw) == 0 else { return nil }
        active = true
    }

    /// A key pressed within `timeout` seconds, if any.
    public func readKey(timeout: TimeInterval) -> Character? {
        var fds = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
        guard poll(&fds, 1, Int32(max(0, timeout) * 1000)) > 0 else { return nil }
        var byte: UInt8 = 0
        guard read(STDIN_FILENO, &byte, 1) == 1 else { return nil }
        return Character(UnicodeScalar(byte))
    }

    public func restore() {
        guard active else { return }
        tcsetattr(STDIN_FILENO, TCSANOW, &original)
        active = false
    }

    deinit { restore() }
}
