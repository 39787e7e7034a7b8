import ArgumentParser

/// `grove service …`: `grove serve` started with the session, so reminders ring and the browser
/// extension gates without a terminal kept open.
struct ServiceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "service", abstract: "Start Grove's web app and reminders with your session (systemd user unit or autostart).",
        discussion: """
            With a systemd user session, `install` writes ~/.config/systemd/user/grove.service, enables \
            it and starts it now; elsewhere it writes an autostart entry (~/.config/autostart/grove.desktop) \
            that starts Grove with your next desktop session.
              grove service install
              grove service install --port 4800 --sync
              grove service status
              grove service uninstall
            """,
        subcommands: [ServiceInstall.self, ServiceStatus.self, ServiceUninstall.self, ServiceUnit.self],
        defaultSubcommand: ServiceStatus.self)
}
