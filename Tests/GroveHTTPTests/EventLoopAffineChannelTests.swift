import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

@testable import GroveHTTP

@Suite("A connection is handled on the event loop that reads it")
struct EventLoopAffineChannelTests {
    /// A request's context that keeps its connection's channel.
    struct ChannelContext: RequestContext {
        var coreContext: CoreRequestContextStorage
        let channel: any Channel

        init(source: ApplicationRequestContextSource) {
            coreContext = .init(source: source)
            channel = source.channel
        }
    }

    /// Where a handler ran: on its connection's event loop, before and after awaiting work that
    /// finishes on a thread of its own (as the store's threads do).
    static func app() -> some ApplicationProtocol {
        let router = Router(context: ChannelContext.self)
        router.get("where") { _, context -> String in
            let before = context.channel.eventLoop.inEventLoop
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                Thread { done.resume() }.start()
            }
            let after = context.channel.eventLoop.inEventLoop
            return "\(before) \(after)"
        }
        return Application(router: router, server: .http1(configuration: .init(), tls: nil))
    }

    @Test("the handler runs on the loop, and comes back to it after work elsewhere")
    func onTheLoop() async throws {
        try await Self.app().test(.live) { client in
            for _ in 0..<3 {
                let answer = try await client.execute(uri: "/where", method: .get) { String(buffer: $0.body) }
                #expect(answer == "true true")
            }
        }
    }
}
