import Foundation
import GroveCore
import GroveStore
import HTTPTypes
import Hummingbird
import ServiceLifecycle

/// `/api/v1/export`, `/api/v1/import`, `/api/v1/events`, `/api/v1/openapi.yaml`
struct DataController {
    let database: AppDatabase
    let monitor: ChangeMonitor

    func addRoutes(to api: APIRouter) {
        // Not kept: streamed from the store in constant memory, whatever its size.
        api.get("export", cache: nil, use: export)
        api.post("import", use: importData)
        api.post("import/sessions", use: importSessions)
        // Not kept: a stream of events that never ends.
        api.get("events", cache: nil, use: events)
        api.get("openapi.yaml", cache: .data, use: openAPI)
    }

    /// `GET /export?format=json|csv|ics&tag=`
    @Sendable func export(_ request: Request, context: GroveRequestContext) throws -> Response {
        // The core's vocabulary, as `grove export --format` reads it (CSV and csv alike).
        let format = try APIError.parameter { try ExportFormat(validating: request.queryString("format") ?? "json") }
        // Written to an unlinked temporary file as it is read, then streamed from it: the server holds
        // one chunk of an export of any size, and the store's read ends before the client is slow.
        let file = try ExportFile(format: format, tag: try request.tagFilter(), database: database)
        return Response(
            status: .ok, headers: [.contentType: format.contentType, .contentLength: String(file.size)],
            body: ResponseBody { writer in
                defer { file.close() }
                while let chunk = try file.next() { try await writer.write(ByteBuffer(bytes: chunk)) }
                try await writer.finish(nil)
            })
    }

    /// `POST /import`: a Grove JSON export, merged by id, all or nothing. The body goes to an unlinked
    /// temporary file as it arrives and is imported from there a chunk at a time: an export of a
    /// million sessions costs the server a chunk of memory, not the document.
    @Sendable func importData(_ request: Request, context: GroveRequestContext) async throws -> JSON<ImportSummary> {
        let file = try await Self.spool(request)
        defer { file.close() }
        do {
            return JSON(try database.transfer.importJSON(streamingFrom: try file.reader()))
        } catch StoreError.unreadableExport(let why) {
            throw APIError.badRequest(field: "body", detail: "Cannot read the export: \(why)")
        }
    }

    /// The body in an unlinked temporary file, refused past the import limit (413) as it arrives.
    private static func spool(_ request: Request) async throws -> SpooledBody {
        let file = try SpooledBody()
        do {
            var received = 0
            for try await chunk in request.body {
                received += chunk.readableBytes
                guard received <= GroveRequestContext.maxImportSize else { throw APIError.tooLarge }
                try file.append(chunk)
            }
            return file
        } catch {
            file.close()
            throw error
        }
    }

    /// `POST /import/sessions?from=grove|csv|timewarrior|forest[&map=start=Start,end=End][&zone=Z]`: focus
    /// sessions from Grove's CSV export, another tool's CSV or `timew export`, spooled like `/import`.
    /// Each row is checked like a logged session; what breaks a rule is skipped and listed.
    @Sendable func importSessions(_ request: Request, context: GroveRequestContext) async throws -> JSON<ForeignImportReport> {
        let query = request.uri.queryParameters
        let options = try APIError.parameter {
            try SessionImportOptions(
                validating: query["from"].map(String.init), map: query["map"].map(String.init), zone: query["zone"].map(String.init))
        }
        let file = try await Self.spool(request)
        defer { file.close() }
        do {
            return JSON(try database.transfer.importSessions(options, streamingFrom: try file.reader()))
        } catch StoreError.unreadableExport(let why) {
            throw APIError.badRequest(field: "body", detail: why)
        }
    }

    /// `GET /events`: server-sent events until the page leaves or the server shuts down.
    @Sendable func events(_ request: Request, context: GroveRequestContext) throws -> Response {
        let (id, events) = monitor.subscription()
        let generation = monitor.generation
        return Response(
            status: .ok,
            headers: [.contentType: "text/event-stream", .cacheControl: "no-cache", HTTPField.Name.xAccelBuffering: "no"],
            body: ResponseBody { [monitor] writer in
                // Open streams must not hold a graceful shutdown: end them when it starts.
                try await withGracefulShutdownHandler {
                    try await writer.write(ByteBuffer(string: "retry: 1000\nevent: hello\ndata: {\"generation\":\(generation)}\n\n"))
                    for await event in events { try await writer.write(ByteBuffer(string: event.frame)) }
                } onGracefulShutdown: {
                    monitor.unsubscribe(id)
                }
                monitor.unsubscribe(id)
                try await writer.finish(nil)
            })
    }

    /// `GET /openapi.yaml`: this API's OpenAPI 3.1 document.
    @Sendable func openAPI(_ request: Request, context: GroveRequestContext) throws -> Response {
        JSON<Int>.encode(Data(try OpenAPIDocument.yaml().utf8), contentType: "application/yaml; charset=utf-8")
    }
}

extension HTTPField.Name {
    /// Tells a proxy (nginx) not to buffer an event stream.
    static var xAccelBuffering: Self { Self("X-Accel-Buffering") ?? .cacheControl }
    /// RFC 8288 links (the next page of a list).
    static var link: Self { Self("Link") ?? .contentLocation }
}
