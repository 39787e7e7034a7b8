import Foundation

/// The answer to `GET /sync/v1/status` (the device's view of the server: head, device and its last id).
public struct ServerStatus: Codable, Sendable {
    public var head: Int64
    public var lastMutationId: Int64
    public var epoch: String
    public var serverTime: Date
    /// The account's key id when it is encrypted (absent from servers before encryption: plain).
    public var keyId: String?
    /// When the server kept the account's key envelope (`KeyEnvelope.keptAt`), on an encrypted account.
    public var keysKeptAt: Date?
    public init(head: Int64, lastMutationId: Int64, epoch: String, serverTime: Date, keyId: String? = nil, keysKeptAt: Date? = nil) {
        self.keyId = keyId
        self.keysKeptAt = keysKeptAt
        self.head = head
        self.lastMutationId = lastMutationId
        self.epoch = epoch
        self.serverTime = serverTime
    }
}
