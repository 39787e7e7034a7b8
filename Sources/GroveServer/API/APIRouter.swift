import Foundation
import GroveCore
import GroveStore
import Hummingbird

/// Every API route as registered: the OpenAPI document is checked against this list.
public final class RouteTable: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [String] = []

    public init() {}

    func add(_ method: String, _ path: String) {
        // Hummingbird's ":id" is OpenAPI's "{id}".
        let openAPIPath = path.split(separator: "/").map { $0.hasPrefix(":") ? "{\($0.dropFirst())}" : String($0) }.joined(separator: "/")
        lock.withLock { entries.append("\(method) /api/v1/\(openAPIPath)") }
    }

    /// "GET /api/v1/focus/current", …
    public var routes: [String] { lock.withLock { entries } }
}

/// Registers a route in the API's route groups (`RouteGroups`: the group carries how it is answered)
/// and in the route table at once.
struct APIRouter {
    typealias Handler<Output> = @Sendable (Request, GroveRequestContext) async throws -> Output
    let groups: RouteGroups
    let table: RouteTable

    /// A GET route; `cache`: its answers are kept in memory for that long (`ResponseCacheMiddleware`),
    /// or nil, said at the route with why (a stream, an answer that carries the instant it was made);
    /// every GET route declares it. `onEventLoop`: it answers from memory itself and hops to the store's
    /// threads only on a miss.
    func get<O: ResponseGenerator>(
        _ path: String, cache: ResponseCacheMiddleware.Freshness?, onEventLoop: Bool = false, use handler: @escaping Handler<O>
    ) {
        add(onEventLoop ? groups.eventLoop : groups.kept(cache), .get, path, handler)
    }
    func post<O: ResponseGenerator>(_ path: String, use handler: @escaping Handler<O>) { add(groups.store, .post, path, handler) }
    func put<O: ResponseGenerator>(_ path: String, use handler: @escaping Handler<O>) { add(groups.store, .put, path, handler) }
    func patch<O: ResponseGenerator>(_ path: String, use handler: @escaping Handler<O>) { add(groups.store, .patch, path, handler) }
    func delete<O: ResponseGenerator>(_ path: String, use handler: @escaping Handler<O>) { add(groups.store, .delete, path, handler) }

    private func add<O: ResponseGenerator>(
        _ group: RouterGroup<GroveRequestContext>, _ method: HTTPRequest.Method, _ path: String, _ handler: @escaping Handler<O>
    ) {
        group.on(RouterPath(path), method: method, use: handler)
        table.add(method.rawValue, path)
    }
}

/// A JSON response with Grove's encoding and a chosen status.
struct JSON<Value: Encodable & Sendable>: ResponseGenerator {
    var value: Value
    var status: HTTPResponse.Status = .ok

    init(_ value: Value, status: HTTPResponse.Status = .ok) {
        self.value = value
        self.status = status
    }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        JSON.encode(try GroveExport.makeEncoder(pretty: false).encode(value), status: status)
    }

    static func encode(_ data: Data, status: HTTPResponse.Status = .ok, contentType: String = "application/json; charset=utf-8") -> Response
    {
        var buffer = ByteBuffer()
        buffer.writeBytes(data)
        return Response(status: status, headers: [.contentType: contentType], body: .init(byteBuffer: buffer))
    }
}

/// One page of a list: the items as a JSON array and, when the page is full, a `Link` header
/// (RFC 8288) naming the next page, so that a client walks any history without guessing.
struct Page<Item: Encodable & Sendable>: ResponseGenerator {
    var items: [Item]
    var limit: Int
    var offset: Int
    /// Where the next page starts (a cursor's token), for lists that page by cursor (O(page) at any
    /// depth); nil: by offset.
    var next: String? = nil

    func response(from request: Request, context: some RequestContext) throws -> Response {
        var response = try JSON(items).response(from: request, context: context)
        guard items.count == limit else { return response }
        // The same query with the next cursor, or the next offset (other parameters kept as sent).
        let others = (request.uri.query ?? "").split(separator: "&").filter {
            !$0.hasPrefix("offset=") && !$0.hasPrefix("limit=") && !$0.hasPrefix("after=")
        }
        let position = next.map { "after=\($0)" } ?? "offset=\(offset + limit)"
        let query = (others.map(String.init) + ["limit=\(limit)", position]).joined(separator: "&")
        response.headers[.link] = "<\(request.uri.path)?\(query)>; rel=\"next\""
        return response
    }
}

/// 204 No Content.
struct NoContent: ResponseGenerator {
    func response(from request: Request, context: some RequestContext) throws -> Response { Response(status: .noContent) }
}

extension Request {
    func queryString(_ name: String) -> String? { uri.queryParameters[name[...]].map(String.init) }

    /// A query parameter read by the core's own rule (`LocalDay.init(validating:field:)`,
    /// `ContentCategory.init(validating:field:)`…): its refusal is a 400 naming the parameter, in the
    /// same words the CLI prints. nil when the parameter is absent.
    func query<Value>(_ name: String, _ read: (String, String) throws -> Value) throws -> Value? {
        guard let raw = queryString(name) else { return nil }
        return try APIError.parameter { try read(raw, name) }
    }

    /// A whole-number query parameter within `range`, or a 400 naming it and the range: numbers from
    /// outside are checked where they are read, before anything uses them.
    func query(_ name: String, in range: ClosedRange<Int>) throws -> Int? {
        guard let raw = queryString(name) else { return nil }
        guard let value = Int(raw), range.contains(value) else {
            throw APIError.badRequest(
                field: name,
                detail: "\(name) must be a whole number from \(range.lowerBound) to \(range.upperBound) (got \"\(raw.prefix(40))\")")
        }
        return value
    }

    /// `limit` (1…1000, default 100) and `offset` (0…), for lists that page in SQL.
    func page(defaultLimit: Int = 100) throws -> (limit: Int, offset: Int) {
        (try query("limit", in: 1...FocusRoom.maxPageSize) ?? defaultLimit, try query("offset", in: 0...Int(Int32.max)) ?? 0)
    }

    /// `?tag=`: one tag's sessions, trimmed and checked by the tag rules (a 400 naming `tag`); nil for all.
    func tagFilter() throws -> String? {
        guard let raw = queryString("tag") else { return nil }
        do { return try FocusTags.filter(raw) } catch let error as InvalidField {
            throw APIError.badRequest(field: "tag", detail: error.message)
        }
    }

    /// A boolean query parameter: `true` or `false`, or a 400.
    func flag(_ name: String) throws -> Bool {
        switch queryString(name) {
        case nil, "false": return false
        case "true": return true
        case let other?: throw APIError.badRequest(field: name, detail: "\(name) must be true or false (got \"\(other.prefix(40))\")")
        }
    }
}

extension GroveRequestContext {
    /// A path parameter as a UUID, or a 404 (an id that cannot exist names nothing).
    func uuid(_ name: String) throws -> UUID {
        guard let raw = parameters.get(name), let id = UUID(uuidString: raw) else {
            throw APIError.notFound("No item with id \(parameters.get(name) ?? "")")
        }
        return id
    }

    func string(_ name: String) throws -> String {
        guard let raw = parameters.get(name) else { throw APIError.notFound("Missing \(name)") }
        return raw.removingPercentEncoding ?? raw
    }
}
