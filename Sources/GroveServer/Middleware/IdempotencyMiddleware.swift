import Foundation
import GroveCore
import GroveStore
import HTTPTypes
import Hummingbird

/// Applies a write that carries an `Idempotency-Key` at most once: the web app sends one with every
/// change, so a request sent again — its reply lost on a train, the offline queue replayed — finds
/// it applied and changes nothing.
///
/// The key is kept by the store in the same transaction as the change (`AppliedRequest`): a crash
/// between the two cannot apply it twice, and a change a rule refused keeps no key (sent again, it
/// is judged again). A repeat is answered `200 {"replayed": true, "applied": …}` with
/// `Idempotency-Replayed: true`; a key reused for another request is a 422 naming the header.
/// Carried by the routes that call the store (`RouteGroups.store`); reads pass through.
struct IdempotencyMiddleware: RouterMiddleware {
    typealias Context = GroveRequestContext
    let database: AppDatabase

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard request.method != .get, request.method != .head, let key = request.headers[.idempotencyKey] else {
            return try await next(request, context)
        }
        let what = "\(request.method.rawValue) \(request.uri.path)"
        guard let once = AppliedRequest(key: key, request: what) else {
            throw APIError.badRequest(
                field: "Idempotency-Key", detail: "Idempotency-Key must be 8 to 100 letters, digits, '-' or '_' (a UUID, say)")
        }
        if let kept = try database.appliedRequest(key: key) { return try Self.replayed(kept, key: key, request: what) }
        do {
            return try await AppliedRequest.$current.withValue(once) { try await next(request, context) }
        } catch let error as AlreadyApplied {
            // The same key arrived twice at once: the other arrival applied it.
            guard let kept = try database.appliedRequest(key: key) else { throw error }
            return try Self.replayed(kept, key: key, request: what)
        }
    }

    /// The answer to a request applied before.
    static func replayed(_ kept: AppliedRequestRecord, key: String, request: String) throws -> Response {
        guard kept.request == request else {
            throw InvalidField("Idempotency-Key", "Idempotency-Key \(key.quotedForMessage) was used for another request (\(kept.request))")
        }
        struct Replay: Encodable { var replayed = true; var applied: Date }
        var response = JSON<Int>.encode(try GroveExport.makeEncoder(pretty: false).encode(Replay(applied: kept.applied)))
        response.headers[.idempotencyReplayed] = "true"
        return response
    }
}

extension HTTPField.Name {
    /// The client's key for a write it may send more than once (IETF httpapi-idempotency-key-header).
    static var idempotencyKey: Self { Self("Idempotency-Key") ?? .contentLocation }
    /// Set on the answer to a request whose key was applied before.
    static var idempotencyReplayed: Self { Self("Idempotency-Replayed") ?? .contentLocation }
}
