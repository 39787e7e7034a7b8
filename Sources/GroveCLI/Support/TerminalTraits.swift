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
    /// Whether standard error is a terminal: where a long command shows how far it has got (a line
    /// redrawn in place, which a log file or a pipe must never receive).
    public var errorIsTTY: Bool

    public init(color: Bool, trueColor: Bool, width: Int, isTTY: Bool, errorIsTTY: Bool = false) {
        self.color = color
        self.trueColor = trueColor
        self.width = width
        self.isTTY = isTTY
        self.errorIsTTY = errorIsTTY
    }

    /// The widths Grove lays text out for.
    public static let widthRange = 20...1000

    /// Plain text, 80 columns: for tests and pipes.
    public static let plain = TerminalTraits(color: false, trueColor: false, width: 80, isTTY: false)

    /// The traits of the command running now (its environment's terminal).
    public static func current() -> TerminalTraits { CLIEnvironment.current.terminal }

    /// Reads the real terminal: whether standard output is one, its width, colour support.
    public static func detect(environment: [String: String] = ProcessInfo.processInfo.environment) -> TerminalTraits {
        let tty = isatty(STDOUT_FILENO) == 1
        let noColor = environment["NO_COLOR"].map { !$0.isEmpty } ?? false
        let dumb = environment["TERM"] == "dumb"
        var size = winsize()
        var width = 80
        if tty, ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 {
            width = Int(size.ws_col)
        } else if let columns = environment["COLUMNS"].flatMap(Int.init), columns > 0 {
            width = columns
        }
        // Every layout assumes a sane width: a 3-column window or COLUMNS=99999999999 renders as the
        // nearest one Grove can draw.
        width = min(max(width, Self.widthRange.lowerBound), Self.widthRange.upperBound)
        let trueColor = ["truecolor", "24bit"].contains(environment["COLORTERM"]?.lowercased() ?? "")
        return TerminalTraits(
            color: tty && !noColor && !dumb, trueColor: trueColor, width: width, isTTY: tty,
            errorIsTTY: isatty(STDERR_FILENO) == 1 && !dumb)
    }
}
