import Foundation
import GroveCore
import GroveTestSupport
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOConcurrencyHelpers
import Testing

@testable import GroveSync

@Suite("What the sync client tells a server about itself")
struct TransportHeadersTests {
    @Test("every request names Grove and its version in User-Agent")
    func userAgent() async throws {
        let agents = NIOLockedValueBox([String?]())
        let router = Router()
        router.get("sync/v1/status") { request, _ -> Response in
            agents.withLockedValue { $0.append(request.headers[.userAgent]) }
            return Response(status: .unauthorized)
        }
        try await withLiveServer(router) { client in
            let transport = HTTPSyncTransport(
                baseURL: "http://127.0.0.1:\(client.port)", token: "t", client: try HTTPSyncTransport.sharedClient)
            _ = try? await transport.status()
        }
        #expect(agents.withLockedValue { $0 } == [GroveVersion.userAgent])
    }
}
