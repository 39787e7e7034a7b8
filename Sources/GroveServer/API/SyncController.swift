import Foundation
import GroveCore
import GroveHTTP
import GroveStore
import GroveSync
import Hummingbird

/// `/api/v1/sync`: this device's sync, its account's encryption and its restore points from any
/// browser — a phone included — as `grove sync encrypt`, `unlock`, `passphrase` and `restore --apply`
/// do it (the same `SyncConnection` operations; linking stays the CLI's).
struct SyncController {
    let database: AppDatabase
    /// Wrong passphrases and recovery codes, per address and for the one account: the passphrase is
    /// also the sync account's login, and this is a way to try it that the sync server does not see.
    let throttle = LoginThrottle()
    /// The throttle's one account.
    static let account = "sync-passphrase"

    func addRoutes(to api: APIRouter) {
        // Sync writes its state into the store like any change: kept until the data changes.
        api.get("sync", cache: .data, use: status)
        api.post("sync/encrypt", use: encrypt)
        api.post("sync/unlock", use: unlock)
        api.post("sync/passphrase", use: changePassphrase)
        api.post("sync/recovery-code", use: newRecoveryCode)
        api.post("sync/new-key", use: newKey)
        api.post("sync/restore", use: restore)
    }

    /// `GET /sync`: linked or not; the server, this device, what waits and what was set aside.
    @Sendable func status(_ request: Request, context: GroveRequestContext) throws -> JSON<SyncStatusView> {
        JSON(SyncStatusView(try database.sync.status()))
    }

    struct EncryptInput: Decodable {
        var passphrase: String
    }

    /// What `POST /sync/encrypt` (or `/sync/recovery-code`, which sends nothing) did: the recovery code
    /// is shown this once and kept nowhere.
    struct Encrypted: Encodable, Sendable {
        var keyId: String
        var recoveryCode: String
        var sent: Int
        /// The key a new one replaced (`POST /sync/new-key`).
        var replaced: String?
    }

    /// `POST /sync/encrypt` `{passphrase}`: encrypts the account end to end, in place.
    @Sendable func encrypt(_ request: Request, context: GroveRequestContext) async throws -> Response {
        let input = try await request.decode(as: EncryptInput.self, context: context)
        let connection = try linked()
        let done = try await explained(connection, passphraseField: "passphrase") {
            try await connection.encrypt(passphrase: input.passphrase)
        }
        return try JSON(Encrypted(keyId: done.key.keyId, recoveryCode: done.recovery.description, sent: done.sync.pushed))
            .response(from: request, context: context)
    }

    struct UnlockInput: Decodable {
        var passphrase: String?
        var recoveryCode: String?
        var newPassphrase: String?
    }

    /// What `POST /sync/unlock` and `POST /sync/passphrase` did.
    struct Unlocked: Encodable, Sendable {
        var keyId: String
        /// Values received and sent by the sync that followed; nil when it could not run (`syncError`).
        var applied: Int?
        var sent: Int?
        var syncError: String?
    }

    /// `POST /sync/unlock` `{passphrase}`, or `{recoveryCode, newPassphrase}` when the passphrase is
    /// forgotten: takes the account's key on this device, then syncs once (this device may have no
    /// other way to sync now: a phone has no `grove sync`).
    @Sendable func unlock(_ request: Request, context: GroveRequestContext) async throws -> Response {
        let input = try await request.decode(as: UnlockInput.self, context: context)
        let recovery: RecoveryCode?
        switch (input.passphrase, input.recoveryCode, input.newPassphrase) {
        case (.some(let passphrase), nil, nil):
            guard !passphrase.isEmpty else { throw InvalidField("passphrase", "Give the account's passphrase") }
            recovery = nil
        case (nil, .some(let words), .some):
            do { recovery = try RecoveryCode(words: words) } catch { throw InvalidField("recoveryCode", error.message) }
        case (nil, .some, nil): throw InvalidField("newPassphrase", "With a recovery code, give the new passphrase that will wrap the key")
        default:
            throw InvalidField("passphrase", "Give the passphrase, or a recovery code and a new passphrase (not both)")
        }
        let connection = try linked()
        if let refused = try throttled(request, context: context) { return refused }
        let field = recovery == nil ? "passphrase" : "recoveryCode"
        let key = try await explained(connection, passphraseField: "newPassphrase", secret: (field, request, context)) {
            try await connection.unlock(passphrase: input.passphrase, recovery: recovery, newPassphrase: input.newPassphrase)
        }
        return try JSON(await syncedOnce(connection, key: key)).response(from: request, context: context)
    }

    struct PassphraseInput: Decodable {
        var currentPassphrase: String
        var newPassphrase: String
    }

    /// `POST /sync/passphrase` `{currentPassphrase, newPassphrase}`: wraps the key again; nothing is
    /// sealed again, and the other devices keep syncing.
    @Sendable func changePassphrase(_ request: Request, context: GroveRequestContext) async throws -> Response {
        let input = try await request.decode(as: PassphraseInput.self, context: context)
        let connection = try linked()
        if let refused = try throttled(request, context: context) { return refused }
        let key = try await explained(connection, passphraseField: "newPassphrase", secret: ("currentPassphrase", request, context)) {
            try await connection.changePassphrase(from: input.currentPassphrase, to: input.newPassphrase)
        }
        return try JSON(Unlocked(keyId: key.keyId)).response(from: request, context: context)
    }

    /// `POST /sync/recovery-code` `{passphrase}`: a new recovery code, shown this once; the old one
    /// opens nothing from now on.
    @Sendable func newRecoveryCode(_ request: Request, context: GroveRequestContext) async throws -> Response {
        let input = try await request.decode(as: EncryptInput.self, context: context)
        let connection = try linked()
        if let refused = try throttled(request, context: context) { return refused }
        let made = try await explained(connection, passphraseField: "passphrase", secret: ("passphrase", request, context)) {
            try await connection.newRecoveryCode(passphrase: input.passphrase)
        }
        return try JSON(Encrypted(keyId: made.key.keyId, recoveryCode: made.recovery.description, sent: 0))
            .response(from: request, context: context)
    }

    /// `POST /sync/new-key` `{passphrase}`: replaces the account's key (after a device is lost) and
    /// makes a new recovery code, shown this once; the other devices ask for the passphrase once.
    @Sendable func newKey(_ request: Request, context: GroveRequestContext) async throws -> Response {
        let input = try await request.decode(as: EncryptInput.self, context: context)
        let connection = try linked()
        if let refused = try throttled(request, context: context) { return refused }
        let made = try await explained(connection, passphraseField: "passphrase", secret: ("passphrase", request, context)) {
            try await connection.replaceKey(passphrase: input.passphrase)
        }
        return try JSON(
            Encrypted(keyId: made.key.keyId, recoveryCode: made.recovery.description, sent: 0, replaced: made.key.retired.first?.keyId)
        ).response(from: request, context: context)
    }

    struct RestoreInput: Decodable {
        var asOf: Date
        var apply: Bool?
    }

    /// `POST /sync/restore` `{asOf, apply}`: what going back to the account as it stood at `asOf`
    /// would change (nothing written), or — `apply: true` — going back: sent as new changes that every
    /// device takes at its next sync, the server's history kept whole, history made since kept.
    @Sendable func restore(_ request: Request, context: GroveRequestContext) async throws -> Response {
        let input = try await request.decode(as: RestoreInput.self, context: context)
        let connection = try linked()
        let summary = try await explained(connection) {
            try await connection.goBack(to: input.asOf, apply: input.apply ?? false)
        }
        return try JSON(summary).response(from: request, context: context)
    }

    /// This store's connection to its sync server, or a 409 saying how to link it.
    private func linked() throws -> SyncConnection {
        guard try database.sync.device() != nil else {
            throw SyncFailure(
                .conflict,
                "This Grove is not linked to a sync server: link it with `grove sync login URL --user NAME --password-stdin --passphrase-stdin`"
            )
        }
        do { return try SyncConnection(database: database) } catch { throw SyncFailure.explain(error) ?? error }
    }

    /// A 429 with `Retry-After` while this address (or every address) has guessed wrong too often.
    private func throttled(_ request: Request, context: GroveRequestContext) throws -> Response? {
        let address = AuthMiddleware.clientAddress(request, context: context)
        guard let wait = throttle.wait(user: Self.account, address: address, now: database.environment.now()) else { return nil }
        var response = Problem(status: .tooManyRequests, detail: "Too many wrong passphrases: wait \(wait) seconds, then try again")
            .response()
        response.headers[.retryAfter] = "\(wait)"
        return response
    }

    /// Runs an operation of the account's keys: its failures said as every face says them, a wrong
    /// secret named by its field and counted by the throttle, a weak passphrase by `passphraseField`.
    private func explained<T>(
        _ connection: SyncConnection, passphraseField: String = "passphrase", secret: (field: String, Request, GroveRequestContext)? = nil,
        _ body: () async throws -> T
    ) async throws -> T {
        let address = secret.map { AuthMiddleware.clientAddress($0.1, context: $0.2) }
        do {
            let value = try await body()
            if let address { throttle.succeeded(user: Self.account, address: address, now: database.environment.now()) }
            return value
        } catch {
            guard let failure = SyncFailure.explain(error, server: connection.device.serverURL) else { throw error }
            switch failure.kind {
            case .wrongSecret:
                if let address { throttle.failed(user: Self.account, address: address, now: database.environment.now()) }
                throw InvalidField(secret?.field ?? "passphrase", failure.message)
            case .input where error is AccountKeyError:
                // "passphrase: A passphrase has at least …": the field is named apart here.
                throw InvalidField(passphraseField, String(failure.message.trimmingPrefix("passphrase: ")))
            default: throw failure
            }
        }
    }

    /// One sync right after the key is taken, so that the page shows the account as it is; its failure
    /// does not undo the unlock, and is said.
    private func syncedOnce(_ connection: SyncConnection, key: DataKey) async -> Unlocked {
        do {
            // On the store's threads already (the route's group): the engine's SQLite work may block them.
            var engine = try connection.engine()
            let summary = try await engine.sync()
            return Unlocked(keyId: key.keyId, applied: summary.applied, sent: summary.pushed)
        } catch {
            // Anything else may carry SQL or paths: `grove sync` on the machine says it in full.
            let said =
                SyncFailure.explain(error, server: connection.device.serverURL)?.message
                ?? "the sync did not complete; the next one tries again (`grove sync` says why)"
            return Unlocked(keyId: key.keyId, syncError: said)
        }
    }
}
