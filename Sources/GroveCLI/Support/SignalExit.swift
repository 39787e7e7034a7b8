import Foundation
import GroveSignals

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// While alive, SIGINT, SIGTERM and SIGHUP (Ctrl-C, `kill`, a closed terminal) do not kill the
/// process outright — that would end it with nothing recorded. They are caught into a flag; the code
/// that waits calls `check()` between short waits, which records what was going on (`cleanup`),
/// gives the terminal its settings back and exits with 128 + the signal, as the shell expects.
/// `cancel()` restores the default actions before a program is run next.
final class SignalExit {
    private let cleanup: (Int32) -> Void
    private let terminal = TerminalSettings()
    private var active = true

    init(cleanup: @escaping (Int32) -> Void) {
        self.cleanup = cleanup
        grove_catch_signals()
    }

    /// Ends the process if a signal came; otherwise returns at once.
    func check() {
        let number = grove_caught_signal()
        guard active, number != 0 else { return }
        cleanup(number)
        terminal?.restore()
        print("")
        exit(128 + number)
    }

    func cancel() {
        guard active else { return }
        active = false
        grove_default_signals()
    }

    deinit { cancel() }
}

/// The terminal's settings as they were before a raw mode, to put back on the way out.
private struct TerminalSettings {
    private var saved = termios()

    init?() {
        guard isatty(STDIN_FILENO) == 1, tcgetattr(STDIN_FILENO, &saved) == 0 else { return nil }
    }

    func restore() {
        var settings = saved
        tcsetattr(STDIN_FILENO, TCSANOW, &settings)
    }
}
