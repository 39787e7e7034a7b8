import Foundation

/// Holds the desktop's notifications while a focus session grows, and gives them back after — even
/// after a crash, a kill or a reboot in between.
///
/// Each notification daemon that is present is asked, through its own command: GNOME's banners
/// (`gsettings … show-banners`), mako's do-not-disturb mode (`makoctl mode`), dunst's pause
/// (`dunstctl set-paused`). What each was set to before is written to a file beside the store
/// *before* anything is changed, so whoever looks next (the session's waiter, `grove serve` at login,
/// the next focus command) puts back exactly that, and only once: a person who turned banners off
/// themselves finds them off. Off with `GROVE_HOLD_NOTIFICATIONS=off`.
public struct NotificationHold: Sendable {
    /// What the daemons were set to before the hold; nil where one was not there to ask.
    struct Held: Codable, Equatable {
        /// GNOME's `show-banners` (`true`/`false`).
        var gnomeBanners: String?
        /// Whether mako was in do-not-disturb mode already (then it stays so).
        var makoWasQuiet: Bool?
        /// dunst's `is-paused` (`true`/`false`).
        var dunstPaused: String?
    }

    static let gnomeSchema = ["org.gnome.desktop.notifications", "show-banners"]
    static let makoMode = "do-not-disturb"

    /// The file that remembers a hold in place.
    public let marker: String
    private let environment: [String: String]

    /// A hold for the store at `storePath` (its file sits beside it, `<store>.notifications-held`).
    public init(storePath: String, environment: [String: String] = ProcessInfo.processInfo.environment) {
        marker = Self.marker(for: storePath)
        self.environment = environment
    }

    /// Whether a person turned the hold off.
    public var isEnabled: Bool { !["off", "0", "no", "false"].contains(environment["GROVE_HOLD_NOTIFICATIONS"]?.lowercased() ?? "") }

    /// Whether a hold is in place (its file exists).
    public var isHeld: Bool { FileManager.default.fileExists(atPath: marker) }

    /// Whether a hold is in place for the store at `storePath`, asked with one `access(2)` and nothing
    /// else: `grove now` asks on every prompt, where most of the time there is none.
    public static func isHeld(storePath: String) -> Bool { access(marker(for: storePath), F_OK) == 0 }

    /// The file beside the store that remembers a hold.
    static func marker(for storePath: String) -> String { storePath + ".notifications-held" }

    /// Quiets every daemon present, remembering each one's setting first; nothing if already held.
    public func engage() {
        guard isEnabled, !isHeld else { return }
        var held = Held()
        if let banners = ask("gsettings", ["get"] + Self.gnomeSchema), ["true", "false"].contains(banners) {
            held.gnomeBanners = banners
        }
        if let modes = ask("makoctl", ["mode"]) {
            held.makoWasQuiet = modes.split(whereSeparator: \.isWhitespace).contains { $0 == Self.makoMode }
        }
        if let paused = ask("dunstctl", ["is-paused"]), ["true", "false"].contains(paused) { held.dunstPaused = paused }
        guard held != Held(), let data = try? JSONEncoder().encode(held) else { return }
        // Written before any setting changes: a process killed after this line still has them restored.
        guard FileManager.default.createFile(atPath: marker, contents: data, attributes: [.posixPermissions: 0o600]) else { return }
        if held.gnomeBanners != nil { _ = ask("gsettings", ["set"] + Self.gnomeSchema + ["false"]) }
        if held.makoWasQuiet == false { _ = ask("makoctl", ["mode", "-a", Self.makoMode]) }
        if held.dunstPaused != nil { _ = ask("dunstctl", ["set-paused", "true"]) }
        // Released meanwhile (an abandon in another process read the file while this one was still
        // quieting): what was quieted after that read is given back from here.
        if !isHeld { restore(held) }
    }

    /// Puts back what `engage()` found, once; nothing if no hold is in place.
    public func release() {
        guard let data = FileManager.default.contents(atPath: marker) else { return }
        if let held = try? JSONDecoder().decode(Held.self, from: data) { restore(held) }
        try? FileManager.default.removeItem(atPath: marker)
    }

    private func restore(_ held: Held) {
        if let banners = held.gnomeBanners { _ = ask("gsettings", ["set"] + Self.gnomeSchema + [banners]) }
        if held.makoWasQuiet == false { _ = ask("makoctl", ["mode", "-r", Self.makoMode]) }
        if let paused = held.dunstPaused { _ = ask("dunstctl", ["set-paused", paused]) }
    }

    /// Runs a daemon's command when it is installed; its trimmed output when it succeeded.
    private func ask(_ name: String, _ arguments: [String]) -> String? {
        guard let path = Executable.find(name, environment: environment),
            let result = Executable.run(path, arguments, environment: environment, timeout: 10), result.status == 0
        else { return nil }
        return result.output.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
