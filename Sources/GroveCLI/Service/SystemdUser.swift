import Foundation
import GroveSystem

/// The person's systemd user manager, through `systemctl --user`.
struct SystemdUser {
    let systemctl: String
    let environment: [String: String]

    /// The user manager, when `systemctl` is on the PATH and a user manager answers it (a desktop
    /// session, a lingering user); nil otherwise (a container, a desktop without systemd).
    static func current(_ variables: [String: String]) -> SystemdUser? {
        guard let path = Executable.find("systemctl", environment: variables) else { return nil }
        let manager = SystemdUser(systemctl: path, environment: variables)
        return manager.run(["show-environment"])?.status == 0 ? manager : nil
    }

    /// `systemctl --user ARGUMENTS`: its status and output, nil when it cannot be run.
    @discardableResult
    func run(_ arguments: [String]) -> (status: Int32, output: String)? {
        Executable.run(systemctl, ["--user"] + arguments, environment: environment)
    }

    /// Runs `systemctl --user ARGUMENTS`; a failure is an error naming the command.
    func require(_ arguments: [String]) throws {
        guard let result = run(arguments), result.status == 0 else {
            throw CLIError.failure(
                "systemctl --user \(arguments.joined(separator: " ")) failed; see `systemctl --user status \(UserService.unitName)`")
        }
    }

    /// `active`, `inactive`, `failed`, … as `systemctl --user is-active` says.
    func state() -> String {
        run(["is-active", UserService.unitName])?.output.trimmingCharacters(in: .whitespacesAndNewlines) ?? "unknown"
    }
}
