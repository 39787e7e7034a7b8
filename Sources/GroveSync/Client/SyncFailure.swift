import AsyncHTTPClient
import Foundation
import GroveCore
import GroveRemote
import GroveStore
import NIOCore

/// A sync failure said in words, the same in every face: `grove sync …` prints it (its kind chooses
/// the exit status), the web app's API answers it as a problem (its kind chooses the HTTP status).
public struct SyncFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of failure it is, which each face turns into its own status.
    public enum Kind: Sendable, Equatable {
        /// A value given is not acceptable (a weak passphrase, a malformed address, a value the server
        /// refused as invalid): exit 64, or 422.
        case input
        /// Asked of an account in the wrong state (encrypted already, not encrypted, no key here): exit
        /// 64, or 409.
        case state
        /// The passphrase or recovery code does not open the account's key: exit 1, or 422.
        case wrongSecret
        /// This device cannot sync as it stands (locked, no token, not linked): exit 1, or 409.
        case conflict
        /// The sync server cannot be reached, refused the request or answered what Grove cannot read:
        /// exit 1, or 502.
        case server
    }

    public var kind: Kind
    public var message: String
    /// The field at fault, when the sync server named one (a restore point's `asOf`, say): the API's
    /// problem names it too.
    public var field: String?

    public init(_ kind: Kind, _ message: String, field: String? = nil) {
        self.kind = kind
        self.message = message
        self.field = field
    }

    public var description: String { message }

    /// `error` in words, or nil for an error that is not a sync failure (a validation error, say,
    /// which every face already says).
    public static func explain(_ error: any Error, server: String? = nil) -> SyncFailure? {
        let at = server.map { " at \($0)" } ?? ""
        switch error {
        case let failure as SyncFailure: return failure
        case let problem as SyncProblem:
            let message =
                switch (problem.status, problem.slug) {
                case (401, "unauthorized"): "the sync server refused this device's token (revoked?): run `grove sync login` again"
                case (403, "account-disabled"):
                    "this account is disabled on the sync server: syncing waits until its operator enables it again; everything here is kept"
                case (401, "unknown-device"):
                    "the sync server has no record of this device, and could not take it back on its token (a token from another server, or from before Grove kept keyed tokens): run `grove sync login` again; every change here is kept and sent"
                default: problem.detail
                }
            return problem.status == 422 ? SyncFailure(.input, message, field: problem.field) : SyncFailure(.server, message)
        case let error as AccountEncryptionError: return SyncFailure(.state, error.description)
        case let error as AccountKeyError:
            switch error {
            case .weakPassphrase: return SyncFailure(.input, error.description)
            case .wrongPassphrase, .wrongRecoveryCode: return SyncFailure(.wrongSecret, error.description)
            default: return SyncFailure(.conflict, error.description)
            }
        case let error as SyncStoreError: return SyncFailure(.conflict, error.description)
        case let error as SyncConnectionError: return SyncFailure(.conflict, error.description)
        case let error as TrustError: return SyncFailure(.input, error.description)
        case let error as HTTPClientError where TrustedCertificates.explain(error, server: server ?? "the sync server") == nil:
            return SyncFailure(.server, "cannot reach the sync server\(at): \(why(error))")
        case let error where error is ChannelError || error is IOError:
            // The connection closed or reset under a request (the transport has tried once more).
            return SyncFailure(.server, "cannot reach the sync server\(at): \(why(error))")
        case let error as DecodingError: return SyncFailure(.server, "the sync server sent an answer Grove cannot read: \(error)")
        case is any GroveValidationError: return nil
        default:
            // A TLS handshake refused (an unknown authority, another name): said as what to do.
            if let sentence = TrustedCertificates.explain(error, server: server ?? "the sync server") {
                return SyncFailure(.server, sentence)
            }
            let text = "\(error)"
            if text.contains("connect") || text.contains("NIOConnectionError") || text.contains("refused") {
                return SyncFailure(.server, "cannot reach the sync server\(at): \(why(error))")
            }
            return nil
        }
    }

    /// Why a connection failed, in words: NIO's own (`connection reset (error set): Connection refused
    /// (errno: 111)`) say it twice and backwards.
    public static func why(_ error: any Error) -> String {
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
}
