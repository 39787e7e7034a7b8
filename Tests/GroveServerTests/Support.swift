import Foundation
import GroveCore
import GroveStore
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import GroveServer

/// An in-process server over an in-memory store on a test clock.
struct TestServer {
    let database: AppDatabase
    let clock: TestClock
    let parts: GroveServerParts

    init(at start: String = "2025-05-14T09:00:00Z", configuration: ServerConfiguration = ServerConfiguration()) async throws {
        let f = ISO8601DateFormatter()
        clock = TestClock(f.date(from: start)!)
        database = try AppDatabase.inMemory(environment: .test(clock: clock))
        parts = try await buildRouter(database: database, configuration: configuration, monitor: ChangeMonitor(path: nil))
    }

    /// The server over `database` (a store on disk, say: sync keeps its token and key beside it), on
    /// the store's own clock.
    init(database: AppDatabase, configuration: ServerConfiguration = ServerConfiguration()) async throws {
        clock = TestClock(Date())
        self.database = database
        parts = try await buildRouter(database: database, configuration: configuration, monitor: ChangeMonitor(path: nil))
    }

    func test(_ body: @escaping @Sendable (Client) async throws -> Void) async throws {
        let app = Application(router: parts.router)
        try await app.test(.router) { client in try await body(Client(client: client)) }
    }

    /// `test`, handing back what `body` returns.
    func testReturning<Value: Sendable>(_ body: @escaping @Sendable (Client) async throws -> Value) async throws -> Value {
        let app = Application(router: parts.router)
        return try await app.test(.router) { client in try await body(Client(client: client)) }
    }
}

/// A thin JSON client over HummingbirdTesting's.
struct Client: Sendable {
    let client: any TestClientProtocol

    struct Reply: Sendable {
        var status: Int
        var contentType: String
        var body: Data
        /// The `Link` header (the next page of a list), if any.
        var link: String? = nil
        var text: String { String(decoding: body, as: UTF8.self) }
        var json: Any? { try? JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed]) }
        var object: [String: Any] { json as? [String: Any] ?? [:] }
        var array: [[String: Any]] { json as? [[String: Any]] ?? [] }
        /// The RFC 9457 problem, checking its media type.
        var problem: [String: Any] { contentType.hasPrefix("application/problem+json") ? object : [:] }
    }

    @discardableResult
    func request(_ method: HTTPRequest.Method, _ path: String, json: String? = nil, headers: HTTPFields = [:]) async throws -> Reply {
        var headers = headers
        if json != nil { headers[.contentType] = "application/json" }
        return try await client.execute(uri: path, method: method, headers: headers, body: json.map { ByteBuffer(string: $0) }) {
            response in
            Reply(
                status: Int(response.status.code), contentType: response.headers[.contentType] ?? "", body: Data(buffer: response.body),
                link: HTTPField.Name("Link").flatMap { response.headers[$0] })
        }
    }

    func get(_ path: String, headers: HTTPFields = [:]) async throws -> Reply { try await request(.get, path, headers: headers) }
    func post(_ path: String, _ json: String? = nil, headers: HTTPFields = [:]) async throws -> Reply {
        try await request(.post, path, json: json, headers: headers)
    }
    func put(_ path: String, _ json: String) async throws -> Reply { try await request(.put, path, json: json) }
    func patch(_ path: String, _ json: String) async throws -> Reply { try await request(.patch, path, json: json) }
    func delete(_ path: String) async throws -> Reply { try await request(.delete, path) }
}

/// Asserts an RFC 9457 problem with `status` naming `field`.
func expectProblem(
    _ reply: Client.Reply, _ status: Int, field: String? = nil, detail: String? = nil, sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(reply.status == status, "status \(reply.status): \(reply.text)", sourceLocation: sourceLocation)
    #expect(reply.contentType == "application/problem+json", sourceLocation: sourceLocation)
    #expect(reply.problem["status"] as? Int == status, sourceLocation: sourceLocation)
    #expect(reply.problem["title"] != nil && reply.problem["type"] != nil, sourceLocation: sourceLocation)
    if let field { #expect(reply.problem["field"] as? String == field, "field of \(reply.text)", sourceLocation: sourceLocation) }
    if let detail {
        #expect((reply.problem["detail"] as? String)?.contains(detail) == true, "detail of \(reply.text)", sourceLocation: sourceLocation)
    }
}
