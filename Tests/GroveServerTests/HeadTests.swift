import Foundation
import GroveCore
import HTTPTypes
import Testing

@testable import GroveServer

@Suite("HEAD on every GET route answers as the GET does, without a body")
struct HeadTests {
    /// Every GET route of the API without a path parameter (the event stream never ends: not here),
    /// the pages, a static file and places with nothing.
    static func paths(_ server: TestServer) -> [String] {
        let api = server.parts.routes.routes.compactMap { route -> String? in
            guard route.hasPrefix("GET "), !route.contains("{"), !route.hasSuffix("/events") else { return nil }
            return String(route.dropFirst(4))
        }
        let pages = [
            "/", "/focus", "/forest", "/stats", "/timers", "/intentions", "/themes", "/settings", "/pause", "/pause-usage", "/review",
        ]
        return api + pages + ["/static/app.css", "/nowhere", "/api/v1/nowhere", "/api/v1/focus/sessions/not-an-id"]
    }

    @Test("status, media type and cache rules of the GET; an empty body")
    func headMatchesGet() async throws {
        let server = try await TestServer()
        let paths = Self.paths(server)
        #expect(paths.count > 40)
        try await server.test { client in
            for path in paths {
                let get = try await client.get(path)
                let head = try await client.request(.head, path)
                #expect(head.status == get.status, "HEAD \(path)")
                #expect(head.contentType == get.contentType, "HEAD \(path)")
                #expect(head.body.isEmpty, "HEAD \(path)")
            }
        }
    }
}
