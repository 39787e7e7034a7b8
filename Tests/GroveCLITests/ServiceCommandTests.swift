import Foundation
import GroveSystem
import Testing

/// `grove service`: the real binary writing into a private config folder. The PATH is the test's:
/// nothing here can reach the machine's own user manager.
@Suite("Grove starts with the session: a user unit, or an autostart entry")
struct ServiceCommandTests {
    /// A folder for PATH holding only `systemctl`, a stand-in that logs its arguments (the machine's
    /// user manager must not be touched by a test); nil: no systemctl at all.
    static func path(_ g: Grove, systemctl: Bool) throws -> (path: String, log: String) {
        let bin = g.home + "-bin", log = g.home + "-systemctl.log"
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        if systemctl {
            let script = "#!/bin/sh\necho \"$*\" >> '\(log)'\n[ \"$2\" = is-active ] && echo active\nexit 0\n"
            try Data(script.utf8).write(to: URL(fileURLWithPath: bin + "/systemctl"))
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: bin + "/systemctl")
        }
        return (bin, log)
    }

    @Test("without a user manager: an autostart entry naming this grove and this store; status; uninstall")
    func autostart() throws {
        let g = Grove()
        let (bin, _) = try Self.path(g, systemctl: false)
        let environment = ["XDG_CONFIG_HOME": g.home + "-config", "PATH": bin]
        let install = try g.runBinary(["service", "install", "--port", "4801"], environment: environment)
        #expect(install.status == 0, "\(install.err)")
        #expect(install.out.contains("No systemd user session here"))
        let file = g.home + "-config/autostart/grove.desktop"
        let text = try String(contentsOfFile: file, encoding: .utf8)
        try Grove.check("desktop-file-validate", [file])
        let exec = try #require(text.split(separator: "\n").first { $0.hasPrefix("Exec=") }).dropFirst(5).split(separator: " ").map(
            String.init)
        #expect(URL(fileURLWithPath: exec[0]).resolvingSymlinksInPath() == (try Grove.binary()).resolvingSymlinksInPath())
        #expect(Array(exec.dropFirst()) == ["serve", "--port", "4801", "--database", g.home + "/grove.sqlite"])
        let status = try g.runBinary(["service", "status", "--json"], environment: environment)
        let report = try status.object()
        #expect(report["kind"] as? String == "autostart" && report["address"] as? String == "http://127.0.0.1:4801/")
        #expect(try g.runBinary(["service", "uninstall"], environment: environment).status == 0)
        #expect(!FileManager.default.fileExists(atPath: file))
        let again = try g.runBinary(["service", "uninstall"], environment: environment)
        #expect(again.status == 1 && again.err.contains("not installed"))
    }

    @Test("with a user manager: a unit systemd-analyze verifies, enabled and started; uninstall stops it first")
    func systemdUnit() throws {
        let g = Grove()
        let (bin, log) = try Self.path(g, systemctl: true)
        let environment = ["XDG_CONFIG_HOME": g.home + "-config", "PATH": bin]
        let install = try g.runBinary(["service", "install", "--sync"], environment: environment)
        #expect(install.status == 0, "\(install.err)")
        let unit = g.home + "-config/systemd/user/grove.service"
        let text = try String(contentsOfFile: unit, encoding: .utf8)
        #expect(text.contains("serve --port 4768 --database \(g.home)/grove.sqlite --sync"))
        let runtime = g.home + "-runtime"
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try Grove.check("systemd-analyze", ["--user", "verify", unit], environment: ["XDG_RUNTIME_DIR": runtime])
        let calls = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
        #expect(
            calls == ["--user show-environment", "--user daemon-reload", "--user enable grove.service", "--user restart grove.service"])
        let status = try g.runBinary(["service", "status"], environment: environment)
        #expect(status.out.contains("Installed as a systemd user unit: \(unit) (active)"))
        #expect(try g.runBinary(["service", "uninstall"], environment: environment).status == 0)
        #expect(!FileManager.default.fileExists(atPath: unit))
        let after = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").suffix(3)
        #expect(Array(after) == ["--user show-environment", "--user disable --now grove.service", "--user daemon-reload"])
    }

    @Test("a packaged unit: printed, not installed; each user's own store unless one is named")
    func printedUnit() throws {
        let g = Grove()
        let environment = ["XDG_CONFIG_HOME": g.home + "-config"]
        let packaged = try g.runBinary(["service", "unit", "--executable", "/usr/bin/grove"], environment: environment)
        #expect(packaged.status == 0, "\(packaged.err)")
        #expect(packaged.out.contains("ExecStart=/usr/bin/grove serve --port 4768\n") && !packaged.out.contains("--database"))
        #expect(!FileManager.default.fileExists(atPath: g.home + "-config/systemd/user/grove.service"), "nothing installed")
        let named = try g.runBinary(["service", "unit", "--database", "/srv/grove.sqlite", "--port", "4800", "--sync"])
        #expect(named.out.contains("serve --port 4800 --database /srv/grove.sqlite --sync"))
        let relative = try g.runBinary("service", "unit", "--executable", "bin/grove")
        #expect(relative.status == 64 && relative.err.contains("executable must be an absolute path"))
        let file = g.home + "-unit/grove.service"
        try FileManager.default.createDirectory(atPath: g.home + "-unit", withIntermediateDirectories: true)
        try packaged.out.replacingOccurrences(of: "/usr/bin/grove", with: try Grove.binary().path).write(
            toFile: file, atomically: true, encoding: .utf8)
        let runtime = g.home + "-runtime"
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try Grove.check("systemd-analyze", ["--user", "verify", file], environment: ["XDG_RUNTIME_DIR": runtime])
    }
}
