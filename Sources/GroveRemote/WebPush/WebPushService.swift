import AsyncHTTPClient
import Foundation
import GroveCore
import GroveStore
import Logging
import NIOCore
import ServiceLifecycle

/// What a browser shows for a push: its title and text, and the page a click opens.
public struct PushNotice: Sendable, Codable, Equatable {
    public var title: String
    public var body: String
    /// The page a click opens (a path of this Grove).
    public var link: String
    /// Notices with the same tag replace each other on the phone (a timer's second "done").
    public var tag: String

    public init(title: String, body: String, link: String, tag: String) {
        self.title = title
        self.body = body
        self.link = link
        self.tag = tag
    }
}

/// Sends Web Push messages (RFC 8030) from this Grove to every subscribed browser: encrypted to each
/// (RFC 8291), signed as this Grove (RFC 8292), straight to the browser's push service.
///
/// `send` returns at once: each notice is delivered on a task of its own, each browser at once and
/// within `deadline`, so a push service that hangs or refuses delays no other browser, no other
/// notice and nothing the server does. A subscription its service says is gone (404, 410) is
/// dropped; one that keeps failing is dropped after `AppDatabase.pushFailureLimit` tries.
public final class WebPushService: Service, Sendable {
    /// What came of one message to one browser.
    public enum Delivery: Sendable, Equatable {
        case delivered(endpoint: String)
        /// The push service said the subscription is gone; it was dropped.
        case gone(endpoint: String)
        /// The push service refused it (an HTTP status), or could not be reached in time.
        case failed(endpoint: String, reason: String)
    }

    let database: AppDatabase
    let subject: String
    let client: HTTPClient
    let deadline: TimeAmount
    private let notices: AsyncStream<PushNotice>
    private let continuation: AsyncStream<PushNotice>.Continuation
    private let logger = Logger(label: "grove.push")

    /// `subject`: whom a push service may contact (VAPID's `sub`: `mailto:` or an https URL).
    public init(database: AppDatabase, subject: String, client: HTTPClient = WebPushService.client, deadline: Duration = .seconds(10)) {
        self.database = database
        self.subject = subject
        self.client = client
        self.deadline = TimeAmount(deadline)
        // A burst beyond this while deliveries run keeps the newest: an old notice is stale anyway.
        (notices, continuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(64))
    }

    /// The client pushes go out on: no redirects (a push service answers, it does not send you on),
    /// bounded connection and read times, the system's authorities (or `SSL_CERT_FILE`).
    public static let client: HTTPClient = {
        var configuration = HTTPClient.Configuration(
            redirectConfiguration: .disallow, timeout: .init(connect: .seconds(5), read: .seconds(10)))
        configuration.connectionPool.retryConnectionEstablishment = false
        configuration = (try? TrustedCertificates.clientConfiguration(configuration)) ?? configuration
        return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    }()

    /// Sends `notice` to every subscribed browser, in the background.
    public func send(_ notice: PushNotice) { continuation.yield(notice) }

    public func run() async throws {
        await cancelWhenGracefulShutdown { [self] in
            await withDiscardingTaskGroup { group in
                for await notice in notices { group.addTask { _ = await self.deliver(notice) } }
            }
        }
    }

    /// Delivers `notice` to every subscribed browser now, each at once, and says what came of each.
    public func deliver(_ notice: PushNotice) async -> [Delivery] {
        let found = try? await database.run { db in (try db.pushSubscriptions(), try db.vapidKey()) }
        guard let (subscriptions, key) = found, !subscriptions.isEmpty, let payload = try? JSONEncoder().encode(notice) else { return [] }
        let vapid = VAPID(key: key, subject: subject)
        return await withTaskGroup(of: Delivery.self) { group in
            for subscription in subscriptions { group.addTask { await self.deliver(payload, to: subscription, vapid: vapid) } }
            var outcomes: [Delivery] = []
            for await outcome in group { outcomes.append(outcome) }
            return outcomes
        }
    }

    private func deliver(_ payload: Data, to subscription: PushSubscription, vapid: VAPID) async -> Delivery {
        let endpoint = subscription.endpoint
        do {
            guard let url = URL(string: endpoint) else { throw WebPushEncryption.Failure.badSubscriptionKeys }
            let body = try WebPushEncryption.encrypt(payload, userAgentKey: subscription.p256dh, authSecret: subscription.auth)
            var request = HTTPClientRequest(url: endpoint)
            request.method = .POST
            request.headers.add(name: "Authorization", value: try vapid.authorization(for: url, now: database.environment.now()))
            request.headers.add(name: "Content-Encoding", value: "aes128gcm")
            request.headers.add(name: "Content-Type", value: "application/octet-stream")
            // A notice an hour late is no use: the push service may drop it after that.
            request.headers.add(name: "TTL", value: "3600")
            request.headers.add(name: "Urgency", value: "high")
            request.body = .bytes(ByteBuffer(data: body))
            let response = try await client.execute(request, timeout: deadline)
            _ = try? await response.body.collect(upTo: 16 * 1024)
            switch response.status.code {
            case 200..<300:
                _ = try? await database.run { try $0.notePushDelivery(endpoint: endpoint, succeeded: true) }
                return .delivered(endpoint: endpoint)
            case 404, 410:
                _ = try? await database.run { try $0.removePushSubscription(endpoint: endpoint) }
                logger.info("Push subscription gone", metadata: ["service": "\(subscription.service)"])
                return .gone(endpoint: endpoint)
            default:
                return await failed(subscription, reason: "HTTP \(response.status.code)")
            }
        } catch {
            return await failed(subscription, reason: "\(error)")
        }
    }

    private func failed(_ subscription: PushSubscription, reason: String) async -> Delivery {
        let dropped = (try? await database.run { try $0.notePushDelivery(endpoint: subscription.endpoint, succeeded: false) }) ?? false
        logger.warning("Push failed", metadata: ["service": "\(subscription.service)", "reason": "\(reason)", "dropped": "\(dropped)"])
        return .failed(endpoint: subscription.endpoint, reason: reason)
    }
}
