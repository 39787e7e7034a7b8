import Foundation
import GroveSystem

/// What the live screens (`grove focus`, `timer run`, the pause countdown) need from the world: keys
/// as they are pressed, a monotonic clock, a way to wait, and desktop notifications.
///
/// The `grove` binary uses the real terminal and clock (`LiveIO.live`); tests pass a scripted one whose
/// time is a test clock that moves only when the screen waits, so a 25-minute session, a 15-second
/// pause or a timer runs in-process in microseconds and exactly the same way every time.
public struct LiveIO: Sendable {
    /// Puts the terminal in key-at-a-time mode; nil when standard input is not a terminal.
    public var openTerminal: @Sendable () -> (any KeyReader)?
    /// Seconds on a monotonic clock (never jumps with the wall clock).
    public var uptime: @Sendable () -> TimeInterval
    /// Waits `seconds` with no terminal to read keys from.
    public var sleep: @Sendable (TimeInterval) -> Void
    /// Sends a desktop notification; false when none could be sent.
    public var notify: @Sendable (_ title: String, _ body: String) -> Bool

    public init(
        openTerminal: @escaping @Sendable () -> (any KeyReader)?, uptime: @escaping @Sendable () -> TimeInterval,
        sleep: @escaping @Sendable (TimeInterval) -> Void, notify: @escaping @Sendable (_ title: String, _ body: String) -> Bool
    ) {
        self.openTerminal = openTerminal
        self.uptime = uptime
        self.sleep = sleep
        self.notify = notify
    }

    /// The real terminal, `ContinuousClock`, `Thread.sleep` and `notify-send`.
    public static let live: LiveIO = {
        let start = ContinuousClock.now
        return LiveIO(
            openTerminal: { RawTerminal() },
            uptime: {
                let d = start.duration(to: .now)
                return Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
            },
            sleep: { Thread.sleep(forTimeInterval: $0) },
            // Found on PATH when a notification is sent, not by every command that starts.
            notify: { DesktopNotifier().send(title: $0, body: $1) })
    }()
}

/// Keys pressed in a terminal in key-at-a-time mode.
public protocol KeyReader: AnyObject {
    /// A key pressed within `timeout` seconds, if any; returns as soon as one is.
    func readKey(timeout: TimeInterval) -> Character?
    /// Puts the terminal back as it was.
    func restore()
}

extension RawTerminal: KeyReader {}
