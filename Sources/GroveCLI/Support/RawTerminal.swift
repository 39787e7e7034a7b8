import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

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
