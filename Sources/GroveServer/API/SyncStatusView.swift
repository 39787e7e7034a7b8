import Foundation
import GroveCore
import GroveStore
import GroveSync

/// What this Grove's sync looks like, as the web app and the API show it (`grove sync status` says
/// the same in words): the server, this device, what waits, what was set aside, and whether the
/// account is encrypted end to end.
struct SyncStatusView: Encodable, Sendable {
    /// One change either side refused, with the rule it broke.
    struct Refusal: Encodable, Sendable {
        var sentence: String
        var refusedAt: Date
    }

    var linked: Bool
    var server: String?
    var user: String?
    var deviceName: String?
    var deviceId: String?
    var lastSuccess: Date?
    var lastError: String?
    var pending: Int = 0
    var setAside: Int = 0
    /// `end-to-end` (this device holds the key), `replaced` (it holds a key the account replaced on
    /// another device: nothing is sent until it is unlocked again), `server-behind` (the server holds a
    /// key the account replaced — restored from a backup from before —: nothing is sent until a new
    /// key replaces it again), `locked` (encrypted on another
    /// device: nothing is sent until this one is unlocked), `awaiting-key` (a new account: nothing is
    /// sent until it is encrypted) or `plain`.
    var encryption: String?
    var keyId: String?
    /// Set when the sync server holds the account's keys as they were before this instant (the latest
    /// this device saw it keep): restored from a backup, it lets the passphrase and recovery code
    /// replaced since open the account again, until the passphrase is set again.
    var keysBehind: Date?
    var refusals: [Refusal] = []

    init(_ status: SyncStatus?) {
        guard let status else {
            linked = false
            return
        }
        linked = true
        server = status.device.serverURL
        user = status.device.user
        deviceName = status.device.deviceName
        deviceId = status.device.deviceId.uuidString
        lastSuccess = status.device.lastSuccess
        lastError = status.device.lastError
        pending = status.pendingMutations
        setAside = status.refusedChanges
        keyId = status.keyId
        keysBehind = status.device.keysBehind
        keysBehindText = keysBehind.map { GroveExport.formatInstant($0) }
        let state = status.encryption
        encryption = state.rawValue
        refusals = status.refusals.map { Refusal(sentence: $0.sentence, refusedAt: $0.refusedAt) }
        (endToEnd, locked, awaitingKey, plain, replaced) = (
            state == .endToEnd, state == .locked, state == .awaitingKey, state == .plain, state == .replaced
        )
        serverBehind = encryption == "server-behind"
        accountKeyId = replaced || serverBehind ? status.device.serverKeyId : nil
        offersNewKey = endToEnd || serverBehind
        // Locked, replaced and behind say it in their own words, with the form beside it.
        shownError = locked || replaced || serverBehind ? nil : lastError
        lastSuccessText = lastSuccess.map { GroveExport.formatInstant($0) } ?? "never"
        (hasPending, hasSetAside) = (pending > 0, setAside > 0)
    }

    // For the template (Mustache reads stored properties only).
    var endToEnd = false
    var locked = false
    var replaced = false
    var serverBehind = false
    var offersNewKey = false
    var accountKeyId: String?
    var shownError: String?
    var awaitingKey = false
    var plain = false
    var lastSuccessText = "never"
    var keysBehindText: String?
    var hasPending = false
    var hasSetAside = false

    private enum CodingKeys: String, CodingKey {
        case linked, server, user, deviceName, deviceId, lastSuccess, lastError, pending, setAside, encryption, keyId, keysBehind, refusals
    }
}
