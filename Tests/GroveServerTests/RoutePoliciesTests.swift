import Foundation
import Testing

@testable import GroveServer

/// Caching and the thread a route runs on are declared where the route is registered; the middlewares
/// find them by the request's path.
@Suite struct RoutePoliciesTests {
    @Test func aPathFindsItsOwnRouteBeforeAParameterInItsPlace() {
        let policies = RoutePolicies()
        policies.register("api/v1/timers/:id", RoutePolicy(cache: .data))
        policies.register("api/v1/timers/sync", RoutePolicy())
        policies.register("/", RoutePolicy(cache: .second))
        policies.register("api/v1/focus/current", RoutePolicy(onEventLoop: true))
        #expect(policies.policy(for: "/api/v1/timers/9A4C2E1B-0000-4000-8000-000000000000")?.cache == .data)
        #expect(policies.policy(for: "/api/v1/timers/sync") == RoutePolicy())
        #expect(policies.policy(for: "/api/v1/timers/a/b") == nil)
        #expect(policies.policy(for: "/")?.cache == .second)
        #expect(policies.policy(for: "/api/v1/focus/current")?.onEventLoop == true)
        #expect(policies.policy(for: "/api/v1/focus/current/")?.onEventLoop == true)
        #expect(policies.policy(for: "/nowhere") == nil)
    }

    @Test func theServersRoutesDeclareHowTheyAreAnswered() async throws {
        let policies = try await TestServer().parts.policies
        #expect(policies.policy(for: "/timers")?.cache == .second)
        #expect(policies.policy(for: "/forest")?.cache == .day)
        #expect(policies.policy(for: "/settings")?.cache == .minute)
        #expect(policies.policy(for: "/api/v1/focus/stats")?.onEventLoop == true)
        #expect(policies.policy(for: "/api/v1/pause/usage")?.cache == .day)
        #expect(policies.policy(for: "/api/v1/timers/\(UUID().uuidString)")?.cache == .data)
        // Registered, never kept: an export is a stream, a gateway page counts an attempt.
        #expect(policies.policy(for: "/api/v1/export")?.cache == nil)
        #expect(policies.policy(for: "/pause/youtube")?.cache == nil)
    }
}
