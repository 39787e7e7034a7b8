import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import GroveHTTP

@Suite("A HEAD answer never carries a body")
struct HeadBodyMiddlewareTests {
    /// A problem body, as the servers' problem middlewares write for any error.
    struct Problems<Context: RequestContext>: RouterMiddleware {
        func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
            do { return try await next(request, context) } catch {
                return Response(
                    status: .notFound, headers: [.contentType: "application/problem+json"],
                    body: .init(byteBuffer: .init(string: #"{"status":404}"#)))
            }
        }
    }

    static func app(withMiddleware: Bool) -> some ApplicationProtocol {
        let router = Router(options: .autoGenerateHeadEndpoints)
        if withMiddleware { router.add(middleware: HeadBodyMiddleware()) }
        router.add(middleware: Problems())
        router.get("page") { _, _ in "a page" }
        return Application(router: router)
    }

    @Test("HEAD of a place with nothing: the GET's 404 and media type, no problem body")
    func notFound() async throws {
        try await Self.app(withMiddleware: true).test(.router) { client in
            let get = try await client.execute(uri: "/nowhere", method: .get) { $0 }
            let head = try await client.execute(uri: "/nowhere", method: .head) { $0 }
            #expect(get.body.readableBytes > 0)
            #expect(head.status == get.status)
            #expect(head.headers[.contentType] == get.headers[.contentType])
            #expect(head.body.readableBytes == 0)
            #expect(head.headers[.contentLength] == "\(get.body.readableBytes)")
        }
    }

    @Test("without it, the problem's body would be sent (the case it exists for)")
    func withoutIt() async throws {
        try await Self.app(withMiddleware: false).test(.router) { client in
            let head = try await client.execute(uri: "/nowhere", method: .head) { $0 }
            #expect(head.body.readableBytes > 0)
        }
    }

    @Test("GET answers keep their bodies; HEAD of a GET route has none")
    func others() async throws {
        try await Self.app(withMiddleware: true).test(.router) { client in
            let get = try await client.execute(uri: "/page", method: .get) { String(buffer: $0.body) }
            let head = try await client.execute(uri: "/page", method: .head) { ($0.body.readableBytes, $0.headers[.contentLength]) }
            #expect(get == "a page")
            #expect(head.0 == 0)
            #expect(head.1 == "6")
        }
    }
}
