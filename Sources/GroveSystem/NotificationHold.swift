import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Holds the desktop's notifications while a focus session grows, and gives them back after — even
/// after a crash, a kill or a reboot in between.
///
/// Each notification daemon that is present is asked, through its own command: GNOME's banners
/// (`gsettings … show-banners`), mako's do-not-disturb mode (`makoctl mode`), dunst's pause
/// (`dunstctl set-paused`). What each was set to before is written down *before* anything is
/// changed, so whoever looks next (the session's waiter, `grove serve` at login, the next focus
/// command) puts back exactly that: a person who turned banners off themselves finds them off.
///
/// The desktop is one, the stores may be several: one record per person
/// (`$XDG_STATE_HOME/grove/notifications-held`) lists the stores holding, and only the last of them
/// to let go gives the settings back — two stores holding at once never leave banners off. A setting
/// whose command fails when given back stays in the record and is tried again by the next look.
/// Everything is read and written under a lock on the record. Off with `GROVE_HOLD_NOTIFICATIONS=off`.
public struct NotificationHold: Sendable {
    /// What the daemons were set to before the hold; nil where one was not there to ask (or, after a
    /// release, where it has its setting back).
    struct Held: Codable, Equatable {
        /// GNOME's `show-banners` (`true`/`false`).
        var gnomeBanners: String?
        /// Whether mako was in do-not-disturb mode already (then it stays so).
        var makoWasQuiet: Bool?
        /// dunst's `is-paused` (`true`/`false`).
        var dunstPaused: String?
    }

    /// The shared record: what to give back, and the stores holding (none: a release is still owed).
    struct Record: Codable, Equatable {
        var held: Held
        var holders: [String]
    }

    static let gnomeSchema = ["org.gnome.desktop.notifications", "show-banners"]
    static let makoMode = "do-not-disturb"

    /// The record of the person's hold (shared by every store).
    public let marker: String
    /// The file an older Grove wrote beside the store: given back like the record.
    let legacyMarker: String
    /// This store (a holder in the record).
    let holder: String
    private let environment: [String: String]
    /// How long a daemon's command may take before it is killed and counted as failed.
    let commandTimeout: TimeInterval

    /// A hold for the store at `storePath`.
    public init(
        storePath: String, environment: [String: String] = ProcessInfo.processInfo.environment, commandTimeout: TimeInterval = 10
    ) {
        holder = storePath
        self.commandTimeout = commandTimeout
        legacyMarker = storePath + ".notifications-held"
        marker = Self.recordPath(environment) ?? legacyMarker
        self.environment = environment
    }

    /// `$XDG_STATE_HOME/grove/notifications-held`, else `~/.local/state/grove/…`; nil without either.
    static func recordPath(_ environment: [String: String]) -> String? {
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") { return state + "/grove/notifications-held" }
        if let home = environment["HOME"], home.hasPrefix("/") { return home + "/.local/state/grove/notifications-held" }
        return nil
    }

    /// Whether a person turned the hold off.
    public var isEnabled: Bool { !["off", "0", "no", "false"].contains(environment["GROVE_HOLD_NOTIFICATIONS"]?.lowercased() ?? "") }

    /// Whether this store holds, or a release is owed (a setting not given back yet). Costs one
    /// `access(2)` when there is no hold: `grove now` asks on every prompt.
    public var isHeld: Bool {
        if legacyMarker != marker, access(legacyMarker, F_OK) == 0 { return true }
        guard access(marker, F_OK) == 0, let record = Self.read(marker) else { return false }
        // Stores that are gone hold nothing (as `release()` counts them): when every holder is gone —
        // a store deleted while it held — a release is owed, or the settings would stay off for good.
        let holders = record.holders.filter { $0 == holder || access($0, F_OK) == 0 }
        return holders.isEmpty || holders.contains(holder)
    }

    /// Quiets every daemon present, remembering each one's setting first; when another store holds
    /// already, only joins it (what it found is what will be given back).
    public func engage() {
        guard isEnabled else { return }
        withRecord { record in
            if var shared = record {
                if !shared.holders.contains(holder) { shared.holders.append(holder) }
                // A release still owed (holders gone, a setting not given back): quiet is what it is now.
                record = shared
                return
            }
            var held = Held()
            if let banners = ask("gsettings", ["get"] + Self.gnomeSchema), ["true", "false"].contains(banners) {
                held.gnomeBanners = banners
            }
            if let modes = ask("makoctl", ["mode"]) {
                held.makoWasQuiet = modes.split(whereSeparator: \.isWhitespace).contains { $0 == Self.makoMode }
            }
            if let paused = ask("dunstctl", ["is-paused"]), ["true", "false"].contains(paused) { held.dunstPaused = paused }
            guard held != Held() else { return }
            // Written before any setting changes: a process killed after this still has them restored.
            guard Self.write(Record(held: held, holders: [holder]), to: marker) else { return }
            if held.gnomeBanners != nil { _ = ask("gsettings", ["set"] + Self.gnomeSchema + ["false"]) }
            if held.makoWasQuiet == false { _ = ask("makoctl", ["mode", "-a", Self.makoMode]) }
            if held.dunstPaused != nil { _ = ask("dunstctl", ["set-paused", "true"]) }
        }
    }

    /// Lets go for this store; the last holder puts back what `engage()` found. A setting whose
    /// command fails stays in the record, for the next look to try again.
    public func release() {
        if legacyMarker != marker, let data = FileManager.default.contents(atPath: legacyMarker),
            let held = try? JSONDecoder().decode(Held.self, from: data)
        {
            let left = restore(held)
            if left == Held() { try? FileManager.default.removeItem(atPath: legacyMarker) } else { _ = Self.write(left, to: legacyMarker) }
        }
        withRecord { record in
            guard var shared = record else { return }
            // Stores that are gone hold nothing.
            shared.holders.removeAll { $0 == holder || access($0, F_OK) != 0 }
            if shared.holders.isEmpty { shared.held = restore(shared.held) }
            record = shared.holders.isEmpty && shared.held == Held() ? nil : shared
        }
    }

    /// Gives each setting back; returns those whose command failed.
    private func restore(_ held: Held) -> Held {
        var left = Held()
        if let banners = held.gnomeBanners, ask("gsettings", ["set"] + Self.gnomeSchema + [banners]) == nil { left.gnomeBanners = banners }
        if held.makoWasQuiet == false, ask("makoctl", ["mode", "-r", Self.makoMode]) == nil { left.makoWasQuiet = false }
        if let paused = held.dunstPaused, ask("dunstctl", ["set-paused", paused]) == nil { left.dunstPaused = paused }
        return left
    }

    /// Runs a daemon's command when it is installed; its trimmed output when it succeeded (nil: not
    /// installed, failed, or past `commandTimeout` and killed).
    private func ask(_ name: String, _ arguments: [String]) -> String? {
        guard let path = Executable.find(name, environment: environment),
            let result = Executable.run(path, arguments, environment: environment, timeout: commandTimeout), result.status == 0
        else { return nil }
        return result.output.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
