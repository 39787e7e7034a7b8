import Foundation

/// `grove serve` started with the person's session, so reminders ring and the extension gates
/// without a terminal kept open: a systemd *user* unit, or an XDG autostart entry (Desktop
/// Application Autostart Specification) where there is no systemd user session.
public struct UserService: Equatable, Sendable {
    /// The `grove` executable (absolute: a service manager does not search the shell's PATH).
    public var grove: String
    /// `grove`'s arguments: `serve` and its options, the store named explicitly.
    public var arguments: [String]

    public init(grove: String, arguments: [String]) {
        self.grove = grove
        self.arguments = arguments
    }

    /// The unit's name, for `systemctl --user`.
    public static let unitName = "grove.service"
    /// The autostart entry's file name.
    public static let autostartName = "grove.desktop"

    /// `$XDG_CONFIG_HOME` (default `~/.config`), where both files go.
    static func configDirectory(_ environment: [String: String]) -> URL {
        XDGDirectory.resolve("XDG_CONFIG_HOME", default: ".config", environment: environment)
    }

    /// `~/.config/systemd/user/grove.service`.
    public static func unitFile(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        configDirectory(environment).appendingPathComponent("systemd/user").appendingPathComponent(unitName)
    }

    /// `~/.config/autostart/grove.desktop`.
    public static func autostartFile(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        configDirectory(environment).appendingPathComponent("autostart").appendingPathComponent(autostartName)
    }

    /// The user unit (systemd.service(5)). Restarted when it fails, not when it was stopped; the
    /// sandboxing a user manager can apply without privileges. Skipped, not failed, once `grove` is
    /// gone (`apt remove` cannot reach a file in a home directory).
    public var unitText: String {
        let exec = ([grove] + arguments).map(Self.systemdQuote).joined(separator: " ")
        return """
            [Unit]
            Description=Grove: focus sessions, timers, mindful pauses and intentions (grove serve)
            ConditionFileIsExecutable=\(grove.replacingOccurrences(of: "%", with: "%%"))

            [Service]
            Type=exec
            ExecStart=\(exec)
            Restart=on-failure
            RestartSec=5
            NoNewPrivileges=yes
            LockPersonality=yes
            RestrictRealtime=yes
            RestrictSUIDSGID=yes
            SystemCallArchitectures=native

            [Install]
            WantedBy=default.target

            """
    }

    /// The autostart entry (Desktop Entry Specification 1.4): started with the desktop, hidden from
    /// menus, and ignored once `grove` is gone (`TryExec`: a removed package leaves nothing that fails).
    public var autostartText: String {
        let exec = ([grove] + arguments).map(DesktopLauncher.quote).joined(separator: " ")
        return """
            [Desktop Entry]
            Type=Application
            Version=1.4
            Name=Grove
            Comment=Grove's web app and reminders (grove serve)
            TryExec=\(DesktopLauncher.escape(grove))
            Exec=\(DesktopLauncher.escape(exec))
            Terminal=false
            NoDisplay=true
            X-GNOME-Autostart-enabled=true

            """
    }

    /// One word of `ExecStart=` (systemd.syntax(7)): in double quotes when it holds a space, a quote,
    /// a backslash or nothing; `%` doubled (specifiers are not meant) and `$` doubled (no variables).
    static func systemdQuote(_ word: String) -> String {
        let escaped = word.replacingOccurrences(of: "%", with: "%%").replacingOccurrences(of: "$", with: "$$")
        guard escaped.isEmpty || escaped.contains(where: { " \t\n\"'\\;".contains($0) }) else { return escaped }
        var quoted = "\""
        for character in escaped {
            switch character {
            case "\\": quoted += "\\\\"
            case "\"": quoted += "\\\""
            case "\n": quoted += "\\n"
            case "\t": quoted += "\\t"
            default: quoted.append(character)
            }
        }
        return quoted + "\""
    }
}
