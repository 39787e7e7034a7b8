import Foundation
import GroveCore
import GroveRemote
import GroveStore
import Hummingbird

/// `/api/v1/push/…`: Web Push from this Grove to the browsers that ask for it (Settings → "Notify
/// this device"): the key they subscribe with, their subscriptions, and a test message.
struct PushController {
    let database: AppDatabase
    let push: WebPushService

    /// `PushSubscription.toJSON()` as a browser gives it.
    struct SubscribeInput: Decodable {
        struct Keys: Decodable { var p256dh: String; var auth: String }
        var endpoint: String
        var keys: Keys
    }
    /// A subscribed browser as a list shows it.
    struct SubscriptionJSON: Encodable, Sendable {
        var endpoint: String
        var service: String
        var userAgent: String
        var created: Date
        init(_ subscription: PushSubscription) {
            endpoint = subscription.endpoint
            service = subscription.service
            userAgent = subscription.userAgent
            created = subscription.created
        }
    }
    struct KeyJSON: Encodable, Sendable { var publicKey: String }
    struct TestJSON: Encodable, Sendable { var sent: Int; var delivered: Int; var failed: [String] }

    func addRoutes(to api: APIRouter) {
        api.get("push/key", cache: .data, use: key)
        api.get("push/subscriptions", cache: .data, use: list)
        api.post("push/subscriptions", use: subscribe)
        api.delete("push/subscriptions", use: unsubscribe)
        api.post("push/test", use: test)
    }

    /// `GET /push/key`: the VAPID public key a browser subscribes with (`applicationServerKey`).
    @Sendable func key(_ request: Request, context: GroveRequestContext) throws -> JSON<KeyJSON> {
        JSON(KeyJSON(publicKey: VAPID(key: try database.vapidKey(), subject: "").publicKey))
    }

    /// `GET /push/subscriptions`: the browsers notified, oldest first.
    @Sendable func list(_ request: Request, context: GroveRequestContext) throws -> JSON<[SubscriptionJSON]> {
        JSON(try database.pushSubscriptions().map(SubscriptionJSON.init))
    }

    /// `POST /push/subscriptions {endpoint, keys: {p256dh, auth}}`: this browser is notified from now on.
    @Sendable func subscribe(_ request: Request, context: GroveRequestContext) async throws -> JSON<SubscriptionJSON> {
        let input = try await request.decode(as: SubscribeInput.self, context: context)
        let saved = try database.savePushSubscription(
            endpoint: input.endpoint, p256dh: input.keys.p256dh, auth: input.keys.auth, userAgent: request.headers[.userAgent] ?? "")
        return JSON(SubscriptionJSON(saved), status: .created)
    }

    /// `DELETE /push/subscriptions?endpoint=`: that browser is notified no more (none: the same result).
    @Sendable func unsubscribe(_ request: Request, context: GroveRequestContext) throws -> NoContent {
        guard let endpoint = request.queryString("endpoint"), !endpoint.isEmpty else {
            throw APIError.badRequest(field: "endpoint", detail: "endpoint is required: the subscription to end")
        }
        try database.removePushSubscription(endpoint: endpoint)
        return NoContent()
    }

    /// `POST /push/test`: a notice to every subscribed browser now, and what came of each.
    @Sendable func test(_ request: Request, context: GroveRequestContext) async throws -> JSON<TestJSON> {
        let outcomes = await push.deliver(
            PushNotice(title: "Grove", body: "Notifications reach this device.", link: "/settings", tag: "test"))
        var delivered = 0
        var failed: [String] = []
        for outcome in outcomes {
            switch outcome {
            case .delivered: delivered += 1
            case .gone(let endpoint): failed.append("\(endpoint): the push service says this browser unsubscribed (removed)")
            case .failed(let endpoint, let reason): failed.append("\(endpoint): \(reason)")
            }
        }
        return JSON(TestJSON(sent: outcomes.count, delivered: delivered, failed: failed))
    }
}
