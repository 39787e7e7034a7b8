import Foundation

/// The rows of an encrypted account whose current state is still plain (`GET /sync/v1/plain`): sent
/// before the encryption and sealed by no device since. A device that unlocks seals those of them it
/// holds, instead of sending again every row it has — which would rewrite the whole account on the
/// server, and its history, once per device (SYNC.md "Private sync").
public struct PlainRows: Codable, Sendable, Equatable {
    /// Each row by entity and id.
    public var rows: [EntityKey]
    /// False when the account holds more plain rows than one answer lists (`limit`): the device then
    /// sends everything again, as before the server could say which.
    public var complete: Bool

    public init(rows: [EntityKey], complete: Bool) {
        self.rows = rows
        self.complete = complete
    }

    /// The most rows one answer lists.
    public static let limit = 10_000
}
