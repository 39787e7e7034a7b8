import Foundation

/// An RFC 9457 problem (`application/problem+json`): what both of Grove's servers answer a refusal with,
/// `grove serve`'s API and the sync server alike.
///
/// The same class of fault gets the same status on both: a body or parameter that cannot be read is a
/// 400, a value that breaks a rule a 422, a missing thing a 404, a state that forbids it a 409. `field`
/// names the field at fault as the seeds name it; the sync server adds what a device needs to recover.
public struct Problem: Codable, Sendable, Equatable, Error {
    /// A URI naming the kind of problem (clients branch on it, never on `detail`).
    public var type: String
    public var title: String
    public var status: Int
    /// What went wrong, for a person: names the field and the rule.
    public var detail: String
    /// The field at fault, named as in the seeds (or the path into a sync body).
    public var field: String?
    /// Sync: the last mutation the server holds from this device (a gap, a cloned store).
    public var lastMutationId: Int64?
    /// Sync: the server's clock (a device stamped too far ahead re-stamps against it).
    public var serverTime: Date?
    /// Seconds to wait before asking again (429; also sent as `Retry-After`).
    public var retryAfter: Int?
    /// Sync: the one mutation a refused push was refused for (the device sets it aside and goes on).
    public var mutationId: Int64?

    public init(type: String, title: String, status: Int, detail: String, field: String? = nil) {
        self.type = type
        self.title = title
        self.status = status
        self.detail = detail
        self.field = field
    }

    /// The slug at the end of `type`.
    public var slug: String { String(type.split(separator: "/").last ?? "") }
}
