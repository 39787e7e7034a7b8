import Foundation
import GroveCore

/// Everything the sync server refuses, each with the HTTP status and problem type it answers with.
public enum SyncServerError: Error, Equatable, Sendable {
    /// No token, a wrong or revoked token, or a disabled account.
    case unauthorized
    /// A well-formed token of a device this server has no record of: the server was restored from a
    /// backup older than the device. It logs in again (`grove sync login`), keeping everything it has.
    case unknownDevice
    /// User name or password wrong (one message for both: no account probing).
    case badCredentials
    /// `user add` for a name that exists.
    case userExists(String)
    /// A name or password outside the rules (422).
    case invalid(field: String, message: String)
    /// A body that cannot be read: not JSON, a field missing or of the wrong type, cut short (400, as
    /// `grove serve` answers the same fault).
    case malformed(field: String, message: String)
    /// A push refused as a whole (gap, drift, malformed mutation, schema version).
    case push(PushRefusal)
    /// A cursor older than the tombstone horizon: the device must bootstrap again.
    case cursorExpired(horizon: Int64)
    /// A cursor ahead of the server's head, or a history that differs from the device's: the server
    /// lost data (restored from a backup) and the device must push again what it has.
    case historyDiverged(head: Int64)
    /// The push body is over the size limit (the client splits it).
    case tooLarge(limit: Int)
    /// The device id is not this token's.
    case wrongDevice
    case notFound(String)
    /// Too many wrong passwords for this account or from this address: wait `retryAfter` seconds.
    case throttled(retryAfter: Int)
    /// The device has as many live forks as a device may have, or the account as many forked
    /// devices (or a fork's line of parents is as long) as an account may have.
    case tooManyForks(limit: Int)
    /// A password check from this address is under way already, or too many are waiting: wait
    /// `retryAfter` seconds (nothing was checked or counted).
    case loginsBusy(retryAfter: Int)
    /// A route this client may not use (`/metrics` from the network without its token).
    case forbidden(String)
    /// The device's token is right but its account is disabled by the server's operator.
    case accountDisabled
    /// The account is not encrypted (it has no key envelope).
    case notEncrypted
    /// The account's key is not the one the change expected (another device encrypted it, or changed
    /// its key, first).
    case keyConflict(current: String?)

    public var status: Int {
        switch self {
        case .unauthorized, .badCredentials, .unknownDevice: 401
        case .userExists: 409
        case .invalid: 422
        case .malformed: 400
        case .push(.gap): 409
        case .push(.clockDrift): 409
        case .push(.deviceCloned): 409
        case .push(.invalid), .push(.unsupportedSchema): 422
        case .push(.notSealed), .push(.wrongKey), .keyConflict: 409
        case .notEncrypted: 404
        case .cursorExpired: 410
        case .historyDiverged: 409
        case .tooLarge: 413
        case .wrongDevice, .forbidden, .accountDisabled: 403
        case .notFound: 404
        case .throttled, .tooManyForks, .loginsBusy: 429
        }
    }

    /// The problem's `type` slug (clients branch on it).
    public var slug: String {
        switch self {
        case .unauthorized: "unauthorized"
        case .unknownDevice: "unknown-device"
        case .badCredentials: "bad-credentials"
        case .userExists: "user-exists"
        case .invalid, .push(.invalid): "validation"
        case .malformed: "malformed"
        case .push(.gap): "mutation-gap"
        case .push(.clockDrift): "clock-drift"
        case .push(.unsupportedSchema): "unsupported-schema"
        case .push(.deviceCloned): "device-cloned"
        case .push(.notSealed): "not-sealed"
        case .push(.wrongKey): "wrong-key"
        case .notEncrypted: "not-encrypted"
        case .keyConflict: "key-conflict"
        case .cursorExpired: "cursor-expired"
        case .historyDiverged: "history-diverged"
        case .tooLarge: "too-large"
        case .wrongDevice: "wrong-device"
        case .notFound: "not-found"
        case .throttled, .loginsBusy: "too-many-attempts"
        case .forbidden: "forbidden"
        case .accountDisabled: "account-disabled"
        case .tooManyForks: "too-many-forks"
        }
    }

    public var detail: String {
        switch self {
        case .unauthorized: "A valid device token is required (Authorization: Bearer …); it may have been revoked"
        case .unknownDevice:
            "This server has no record of this device (was it restored from a backup?): log in again; nothing on the device is lost"
        case .badCredentials: "Unknown user or wrong password"
        case .userExists(let name): "A user named \(name) exists already"
        case .invalid(let field, let message), .malformed(let field, let message): "\(field): \(message)"
        case .push(.gap(let expected, let got, _)): "Mutation ids must follow on: expected \(expected), got \(got)"
        case .push(.clockDrift(let id, _)):
            "Mutation \(id) is stamped more than \(HLC.maxDrift / 60000) minutes ahead of the server's clock: re-stamp it"
        case .push(.invalid(let id, let field, let message)): "Mutation \(id): \(field): \(message)"
        case .push(.notSealed(let id, let field)):
            "Mutation \(id): \(field): this account is encrypted end to end: values travel sealed under its key, never plain"
        case .push(.wrongKey(let id, let keyId, let current)):
            "Mutation \(id): sealed under key \(keyId), but the account's key is \(current) (a key replaced, or another account's: it seals nothing here any more): unlock with the current passphrase"
        case .notEncrypted: "This account is not encrypted (grove sync encrypt)"
        case .keyConflict(let current):
            "The account's key is \(current ?? "none") now, not the one this change expected: unlock again and retry"
        case .push(.deviceCloned): "Another store pushed under this device's identity (a copied store?): register this one as a new device"
        case .push(.unsupportedSchema(let version)):
            "schemaVersion \(version) is not supported (this server speaks \(SyncWire.schemaVersion))"
        case .cursorExpired(let horizon): "This cursor is older than the server keeps deletions (\(horizon)): pull from 0"
        case .historyDiverged(let head):
            "The server's history differs from this device's (head \(head)): push everything again and pull from 0"
        case .tooLarge(let limit): "A push has at most \(limit) bytes and \(SyncWire.maxMutationsPerPush) mutations: split it"
        case .wrongDevice: "The deviceId is not this token's device"
        case .notFound(let what): "No \(what)"
        case .throttled(let seconds): "Too many wrong passwords for this account or from this address: try again in \(seconds) s"
        case .tooManyForks(let limit):
            "This device or account has \(limit) copies registered already: log in with the password instead (grove sync login)"
        case .loginsBusy(let seconds):
            "A login from this address is being checked already, or too many are waiting: try again in \(seconds) s"
        case .forbidden(let why): why
        case .accountDisabled:
            "This account is disabled on the sync server: its operator can enable it again (grove sync-server user enable); nothing on the device is lost"
        }
    }
}

/// The problem the sync server sends: Grove's one problem type (`GroveCore.Problem`), also `grove serve`'s.
public typealias SyncProblem = Problem

extension Problem {
    /// The problem for a refusal of the sync server, with the fields a client needs to recover.
    public init(_ error: SyncServerError) {
        self.init(
            type: "https://grove.invalid/problems/sync/" + error.slug,
            title: error.slug.replacingOccurrences(of: "-", with: " ").capitalized,
            status: error.status, detail: error.detail)
        switch error {
        case .invalid(let field, _), .malformed(let field, _): self.field = field
        case .push(.invalid(let id, let field, _)):
            self.field = field
            mutationId = id
        case .push(.gap(_, _, let last)), .push(.deviceCloned(let last)): lastMutationId = last
        case .push(.notSealed(_, let field)): self.field = field
        case .push(.clockDrift(_, let time)): serverTime = time
        case .throttled(let seconds), .loginsBusy(let seconds): retryAfter = seconds
        default: break
        }
    }
}
