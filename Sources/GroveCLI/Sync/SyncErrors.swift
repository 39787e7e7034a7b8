import Foundation
import GroveCore
import GroveStore
import GroveSync

/// Sync failures as one `grove:` line, in the words every face uses (`SyncFailure`): a refusal from
/// the server in its own words, an unreachable server named with its address. Invalid input (a
/// malformed URL or name, a weak passphrase) and a request the account's state does not allow exit 64,
/// the rest 1.
enum SyncErrors {
    static func translate<T>(server: String? = nil, _ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as CLIError {
            throw error
        } catch {
            guard let failure = SyncFailure.explain(error, server: server) else { throw error }
            throw CLIError(message: failure.message, exitCode: failure.kind == .input || failure.kind == .state ? 64 : 1)
        }
    }

    /// One line of standard input for `flag` (a passphrase, a recovery code), or a usage error naming it.
    static func secretFromInput(_ flag: String, what: String) throws -> String {
        guard let line = CLIEnvironment.current.readInputLine(), !line.isEmpty else {
            throw CLIError.usage("\(flag): give the \(what) on standard input (for example `printf '%s' \"$SECRET\" | grove …`)")
        }
        return line
    }

    /// The password from standard input (`--password-stdin`), or a usage error.
    static func passwordFromInput() throws -> String {
        guard let password = CLIEnvironment.current.readInputLine(), !password.isEmpty else {
            throw CLIError.usage("--password-stdin: give the password on standard input (for example `printf '%s' \"$PASS\" | grove …`)")
        }
        return password
    }
}
