import Foundation
import GroveStore
import GroveSystem

#if canImport(Glibc)
    import Glibc
#endif

/// A `grove` process left behind to ring a session or a timer at its due instant when nobody else
/// is watching (no live terminal, no server, no page): `grove focus watch ID` and `grove timer watch
/// ID`. Whoever notices first claims the notice in the store, so a waiter never rings twice with the
/// server, a page or the terminal.
enum DetachedWaiter {
    /// Starts `grove ARGUMENTS` on its own, its streams closed. Nothing is started when the clock is
    /// frozen (`GROVE_NOW`: a frozen clock never reaches an instant), when `GROVE_NO_WAITER` is set, or
    /// without `notify-send` (nothing to ring: a page or the server announces instead).
    static func live(variables: [String: String]) -> @Sendable ([String]) -> Void {
        { arguments in
            // Looked at only when a waiter is wanted: every other command starts without the PATH search.
            guard variables["GROVE_NOW"] == nil, variables["GROVE_NO_WAITER"] == nil, DesktopNotifier(environment: variables).isAvailable,
                let executable = Self.executable()
            else { return }
            // A group of its own: the terminal's Ctrl-C ends the command that started it, not the waiter.
            _ = try? ChildProcess.spawn(executable.path, arguments, ownGroup: true)
        }
    }

    /// This very binary (not whatever `grove` is first on PATH).
    private static func executable() -> URL? {
        #if os(Linux)
            if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") { return URL(fileURLWithPath: path) }
        #endif
        return Bundle.main.executableURL
    }

    /// The longest nap between two looks at the store: how soon a pause, a stop or an abandon made
    /// elsewhere is seen, and a deleted store noticed.
    static let longestNap: TimeInterval = 30

    /// What a waiter does after a look at the store.
    enum Step { case done, wait(TimeInterval) }

    /// Looks at the store until `look` is done, napping as long as it asks (at most `longestNap`); a
    /// store deleted meanwhile (a test's, a reset) ends the wait.
    static func wait(on db: AppDatabase, sleep: (TimeInterval) -> Void, look: () throws -> Step) rethrows {
        while db.path.map({ FileManager.default.fileExists(atPath: $0) }) ?? true {
            guard case .wait(let seconds) = try look() else { return }
            sleep(min(longestNap, max(0.05, seconds)))
        }
    }

    /// Leaves `grove ROOM watch ID` behind for this store (see `live`).
    static func arm(_ room: String, id: UUID, db: AppDatabase) {
        CLIEnvironment.current.detach([room, "watch", id.uuidString] + (db.path.map { ["--database", $0] } ?? []))
    }

    /// Called first by a waiter: its own session, deaf to the hang-up of the terminal that started it.
    static func detachFromTerminal() {
        signal(SIGHUP, SIG_IGN)
        _ = setsid()
    }
}
