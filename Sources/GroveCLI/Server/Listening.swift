import Foundation
import Hummingbird
import NIOCore

/// Starting a server from the command line: its address is announced only once the socket is
/// bound, and a port that is taken or forbidden is said in words, with the option that changes it,
/// instead of a line saying it listens followed by a socket error.
enum Listening {
    /// The line `announce` says, written when the server is bound (standard output, unbuffered: a
    /// service manager's journal or a script reading the pipe sees it at once).
    static func announcer(_ announce: String) -> @Sendable (any Channel) async -> Void {
        let output = CLIEnvironment.current.output
        return { _ in output.standardOutput(Data(utf8: announce + "\n")) }
    }

    /// Runs `app` until it stops; a bind that fails becomes a `CLIError` naming the port or address.
    static func run(_ app: some ApplicationProtocol, host: String, port: Int) async throws {
        do {
            try await app.runService()
        } catch let error as IOError {
            throw failure(error, host: host, port: port) ?? error
        }
    }

    /// What a person can do about a failed bind, or nil for another socket error.
    static func failure(_ error: IOError, host: String, port: Int) -> CLIError? {
        switch error.errnoCode {
        case EADDRINUSE:
            let next = port < 65535 ? port + 1 : port - 1
            return .failure(
                "port \(port) on \(host) is already in use by another program: choose another with --port (for example --port \(next))")
        case EACCES:
            return .failure("port \(port) needs privileges on this machine: choose one above 1023 with --port")
        case EADDRNOTAVAIL:
            return .failure("host \(host) is not an address of this machine: choose another with --host (127.0.0.1 for this machine only)")
        default:
            return nil
        }
    }
}
