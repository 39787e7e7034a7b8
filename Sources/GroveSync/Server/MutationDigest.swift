import Crypto
import Foundation
import GroveCore

/// The digest of a device's last accepted mutation: a replay of it (a lost response, retried) has the
/// same digest; the same id with other content means two stores share one device identity.
public enum MutationDigest {
    public static func of(_ mutation: SyncMutation?) -> String? {
        guard let mutation, let data = try? SyncWire.encoder().encode(mutation) else { return nil }
        return Hex.string(SHA256.hash(data: data).prefix(16))
    }

    /// Throws `deviceCloned` when the batch carries the last accepted id with other content.
    public static func checkReplay(_ mutations: [SyncMutation], lastMutationId: Int64, lastDigest: String) throws {
        guard !lastDigest.isEmpty, let replay = mutations.first(where: { $0.id == lastMutationId }) else { return }
        if of(replay) != lastDigest { throw PushRefusal.deviceCloned(lastMutationId: lastMutationId) }
    }
}
