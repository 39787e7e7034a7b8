import Foundation
import Hummingbird

/// How a GET route is answered, declared where the route is registered (`APIRouter.get(_:cache:onEventLoop:use:)`,
/// `WebController`) and read by the middlewares that act on it, so that no list of paths lives apart from
/// the routes themselves.
struct RoutePolicy: Sendable, Equatable {
    /// How long an answer stays true while the data is unchanged (`ResponseCacheMiddleware`); nil: never kept.
    var cache: ResponseCacheMiddleware.Freshness?
    /// The handler answers from memory itself and hops to the store's threads only on a miss: the hop
    /// there and back would cost more than its whole answer (`StoreExecutorMiddleware`).
    var onEventLoop = false
}

/// Every GET route's policy, by its registered path (`/api/v1/timers/:id`): a concrete path matches a
/// route of its own before a route with a parameter in that place.
final class RoutePolicies: @unchecked Sendable {
    private let lock = NSLock()
    private var exact: [String: RoutePolicy] = [:]
    private var patterns: [(segments: [Substring], policy: RoutePolicy)] = []

    /// Records the policy of `GET path` (a path under the router's root, `:name` for a parameter).
    func register(_ path: String, _ policy: RoutePolicy) {
        let full = "/" + path.split(separator: "/").joined(separator: "/")
        lock.withLock {
            if full.contains("/:") {
                patterns.append((full.split(separator: "/"), policy))
            } else {
                exact[full] = policy
            }
        }
    }

    /// The policy of a request's path; nil for a path no GET route answers.
    func policy(for path: String) -> RoutePolicy? {
        let trimmed = path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
        return lock.withLock {
            if let policy = exact[trimmed] { return policy }
            let segments = trimmed.split(separator: "/")
            return patterns.first { pattern in
                pattern.segments.count == segments.count
                    && zip(pattern.segments, segments).allSatisfy { $0.hasPrefix(":") ? !$1.isEmpty : $0 == $1 }
            }?.policy
        }
    }
}
