import Crypto
import Foundation
import GroveCore

/// Device tokens a restored server can still check: `gsy_<prefix>_<secret>`, where the secret is an
/// HMAC, under a key kept in the server's database, of the prefix, the device's id and its account's
/// id and creation time. A server restored from a backup older than a device has no row for it, but
/// it has the key: the device shows its token and is taken back without a password (`reclaim`).
extension SyncService {
    /// Registers a new device of `user` and returns its credentials (shown once, stored as a digest).
    func newDevice(user: SyncUser, name: String, parent: UUID? = nil) async throws -> DeviceCredentials {
        let id = newID()
        let prefix = Hex.random(bytes: 6)
        let token = "gsy_\(prefix)_\(try await secret(prefix: prefix, device: id, user: user))"
        try await store.registerDevice(
            id: id, userId: user.id, name: name, tokenPrefix: prefix, tokenHash: Self.digest(token), parent: parent, now: now())
        return DeviceCredentials(deviceId: id, token: token)
    }

    /// Takes back a device this server has no record of — it was restored from a backup older than
    /// the device — when its token is one this server's key made for that device and account. The
    /// account must still be the one the token was made for (same id, same creation time), so an
    /// account made again under the same name after a restore never receives another's device. Tokens
    /// older than keyed tokens, or from another server, are refused as unknown: they log in again.
    ///
    /// A device revoked after the backup comes back this way, as every device the backup held comes
    /// back unrevoked: `grove sync devices` marks the devices taken back, to be revoked again.
    public func reclaim(token: String, _ request: DeviceReclaim) async throws {
        guard let prefix = Self.prefix(of: token), let secret = token.split(separator: "_").last else {
            throw SyncServerError.unauthorized
        }
        if let (device, _) = try await store.device(tokenPrefix: prefix) {
            // Already here (taken back by an earlier request whose answer was lost): nothing to do.
            guard Self.constantTimeEqual(device.tokenHash, Self.digest(token)), device.id == request.deviceId, !device.revoked else {
                throw SyncServerError.unauthorized
            }
            return
        }
        guard request.user.utf8.count <= 64, let user = try await user(named: request.user) else { throw SyncServerError.unknownDevice }
        let expected = try await self.secret(prefix: prefix, device: request.deviceId, user: user)
        guard Self.constantTimeEqual(String(secret), expected) else { throw SyncServerError.unknownDevice }
        guard !user.disabled else { throw SyncServerError.accountDisabled }
        let trimmed = request.deviceName.trimmingCharacters(in: .whitespacesAndNewlines)
        let name = trimmed.isEmpty ? "device taken back after a restore" : String(trimmed.prefix(100))
        guard
            try await store.reclaimDevice(
                id: request.deviceId, userId: user.id, name: name, tokenPrefix: prefix, tokenHash: Self.digest(token), now: now())
        else {
            // Its id or prefix was taken meanwhile: the same device, unless the row says otherwise.
            guard let (device, _) = try await store.device(tokenPrefix: prefix), device.id == request.deviceId,
                Self.constantTimeEqual(device.tokenHash, Self.digest(token))
            else { throw SyncServerError.unknownDevice }
            return
        }
        metrics.reclaimed()
    }

    /// The secret half of a device's token: 64 hex digits of HMAC-SHA256 under the server's key.
    func secret(prefix: String, device: UUID, user: SyncUser) async throws -> String {
        let key = SymmetricKey(data: try await store.serverSecret(candidate: SymmetricKey(size: .bits256).withUnsafeBytes { Data($0) }))
        let message = "grove-sync-device-token-v1\u{0}\(prefix)\u{0}\(device.uuidString)\u{0}\(user.id)\u{0}\(user.createdAt.groveMillis)"
        return Hex.string(HMAC<SHA256>.authenticationCode(for: Data(message.utf8), using: key))
    }
}
