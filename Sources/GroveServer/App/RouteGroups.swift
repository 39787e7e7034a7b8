import Foundation
import GroveStore
import Hummingbird

/// The groups a route joins by how it is answered; each group carries its middleware, so a route's
/// policy is where it is registered and nothing matches paths a second time.
///
/// - `store`: the handler calls the store, on the store's own threads (`StoreExecutorMiddleware`); a
///   write with an `Idempotency-Key` is applied once (`IdempotencyMiddleware`).
/// - `kept(_:)`: a GET whose answers are kept in memory for a freshness (`ResponseCacheMiddleware`),
///   which goes to the store's threads itself, once, on a miss.
/// - `eventLoop`: the handler answers from memory and goes to the store's threads itself on a miss.
/// - `plain`: no store at all (static files, the login form).
struct RouteGroups {
    let plain: RouterGroup<GroveRequestContext>
    let store: RouterGroup<GroveRequestContext>
    let eventLoop: RouterGroup<GroveRequestContext>
    private let keptGroups: [ResponseCacheMiddleware.Freshness: RouterGroup<GroveRequestContext>]

    /// The groups under `parent`, the kept ones sharing one bounded `responses` store.
    init(under parent: RouterGroup<GroveRequestContext>, monitor: ChangeMonitor, database: AppDatabase, responses: ResponseStore) {
        plain = parent.group()
        store = parent.group().add(middleware: StoreExecutorMiddleware()).add(middleware: IdempotencyMiddleware(database: database))
        eventLoop = parent.group()
        var kept: [ResponseCacheMiddleware.Freshness: RouterGroup<GroveRequestContext>] = [:]
        for freshness in ResponseCacheMiddleware.Freshness.allCases {
            kept[freshness] = parent.group().add(
                middleware: ResponseCacheMiddleware(freshness: freshness, monitor: monitor, database: database, store: responses))
        }
        keptGroups = kept
    }

    /// The group whose GET answers are kept for `freshness`; the store group when nil.
    func kept(_ freshness: ResponseCacheMiddleware.Freshness?) -> RouterGroup<GroveRequestContext> {
        freshness.flatMap { keptGroups[$0] } ?? store
    }
}
