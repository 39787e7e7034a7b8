import AsyncHTTPClient
import Foundation
import GroveCore
import GroveRemote
import GroveStore
import GroveSync
import NIOCore

/// Sync failures as one `grove:` line: a refusal from the server in its own words, an unreachable
/// server named with its address. Invalid input (a malformed URL or name) exits 64, the rest 1.
enum SyncErrors {
    static func translate<T>(server: String? = nil, _ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let problem as SyncProblem {
            let message =
                switch (problem.status, problem.slug) {
                case (401, "unauthorized"): "the sync server refused this device's token (revoked?): run `grove sync login` again"
                case (403, "account-disabled"):
                    "this account is disabled on the sync server: syncing waits until its operator enables it again; everything here is kept"
                case (401, "unknown-device"):
                    "the sync server has no record of this device, and could not take it back on its token (a token from another server, or from before Grove kept keyed tokens): run `grove sync login` again; every change here is kept and sent"
                default: problem.detail
                }
            throw CLIError(message: message, exitCode: problem.status == 422 ? 64 : 1)
        } catch let error as AccountEncryptionError {
            throw CLIError.usage(error.description)
        } catch let error as AccountKeyError {
            if case .weakPassphrase = error { throw CLIError.usage(error.description) }
            throw CLIError.failure(error.description)
        } catch let error as SyncStoreError {
            throw CLIError.failure(error.description)
        } catch let error as SyncConnectionError {
            throw CLIError.failure(error.description)
        } catch let error as TrustError {
            throw CLIError.usage(error.description)
        } catch let error as HTTPClientError where TrustedCertificates.explain(error, server: server ?? "the sync server") == nil {
            throw CLIError.failure("cannot reach the sync server\(server.map { " at \($0)" } ?? ""): \(why(error))")
        } catch let error where error is ChannelError || error is IOError {
            // The connection closed or reset under a request (the transport has tried once more).
            throw CLIError.failure("cannot reach the sync server\(server.map { " at \($0)" } ?? ""): \(why(error))")
        } catch let error as GroveValidationError {
            throw error
        } catch let error as CLIError {
            throw error
        } catch let error as DecodingError {
            throw CLIError.failure("the sync server sent an answer Grove cannot read: \(error)")
        } catch {
            // A TLS handshake refused (an unknown authority, another name): said as what to do.
            if let sentence = TrustedCertificates.explain(error, server: server ?? "the sync server") {
                throw CLIError.failure(sentence)
            }
            let text = "\(error)"
            if text.contains("connect") || text.contains("NIOConnectionError") || text.contains("refused") {
                throw CLIError.failure("cannot reach the sync server\(server.map { " at \($0)" } ?? ""): \(why(error))")
            }
            throw error
        }
    }

    /// Why a connection failed, in words: NIO's own (`connection reset (error set): Connection refused
    /// (errno: 111)`) say it twice and backwards.
    static func why(_ error: any Error) -> String {
        let text = "\(error)"
        if text.contains("errno: 111") || text.localizedCaseInsensitiveContains("connection refused") {
            return "nothing answers at that address and port (connection refused): is the server running there?"
        }
        if text.contains("errno: 113") || text.contains("errno: 101") || text.localizedCaseInsensitiveContains("unreachable") {
            return "the network cannot reach that address (no route to host)"
        }
        if text.localizedCaseInsensitiveContains("resol") || text.contains("NXDOMAIN") || text.contains("unknown host") {
            return "the server's name does not resolve to an address (is it spelled right?)"
        }
        if text.localizedCaseInsensitiveContains("timeout") || text.localizedCaseInsensitiveContains("timed out") {
            return "the server did not answer in time"
        }
        if text.localizedCaseInsensitiveContains("closed") || text.localizedCaseInsensitiveContains("reset") {
            return "the connection was cut before an answer came (a proxy in between, or the server stopped)"
        }
        return String(text.prefix(200))
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
