import ArgumentParser
import Foundation
import GroveServer
import GroveSystem

#if canImport(Glibc)
    import Glibc
#endif

/// `grove service status`: how Grove is started, whether it runs, and whether it answers.
struct ServiceStatus: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "status", abstract: "Say how Grove starts and whether it answers.")

    @OptionGroup var options: GlobalOptions

    /// What `--json` prints.
    struct Report: Encodable {
        /// `systemd`, `autostart` or nil (not installed).
        var kind: String?
        var path: String?
        /// systemd's word for the unit (`active`, `failed`…), when there is a user manager.
        var state: String?
        var address: String
        var answering: Bool
    }

    func run() throws {
        let variables = CLIEnvironment.current.variables
        let report = Self.report(variables)
        if options.json { return try Output.json(report) }
        switch report.kind {
        case "systemd": print("Installed as a systemd user unit: \(report.path ?? "")\(report.state.map { " (\($0))" } ?? "")")
        case "autostart": print("Installed as an autostart entry: \(report.path ?? "") (starts with your desktop session)")
        default: print("Not installed: `grove service install` starts Grove with your session.")
        }
        print(report.answering ? "Grove answers at \(report.address)" : "Nothing answers at \(report.address)")
    }

    static func report(_ variables: [String: String]) -> Report {
        let unit = UserService.unitFile(environment: variables), autostart = UserService.autostartFile(environment: variables)
        let installed = [("systemd", unit), ("autostart", autostart)].first { FileManager.default.fileExists(atPath: $0.1.path) }
        let text = installed.flatMap { try? String(contentsOf: $0.1, encoding: .utf8) } ?? ""
        let port = text.firstMatch(of: /--port (\d+)/).flatMap { Int($0.1) } ?? ServerConfiguration.defaultPort
        let state = installed?.0 == "systemd" ? SystemdUser.current(variables)?.state() : nil
        return Report(
            kind: installed?.0, path: installed?.1.path, state: state, address: "http://127.0.0.1:\(port)/", answering: answers(port))
    }

    /// Whether something accepts connections on the loopback port.
    static func answers(_ port: Int) -> Bool {
        guard let port = UInt16(exactly: port) else { return false }
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }
}
