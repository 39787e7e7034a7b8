import Foundation
import GroveStore
import HTTPTypes
import Hummingbird
import ServiceLifecycle

/// `/api/v1/export`, `/api/v1/import`, `/api/v1/events`, `/api/v1/openapi.yaml`
struct DataController {
    let database: AppDatabase
    let monitor: ChangeMonitor

    struct ImportResult: Encodable, Sendable { var focusSessions: Int; var timers: Int; var intentions: Int; var gatewaySessions: Int; var themes: Int }

    func addRoutes(to api: APIRouter) {
        api.get("export", use: export)
        api.post("import", use: importData)
        api.get("events", use: events)
        api.get("openapi.yaml", use: openAPI)
    }

    /// `GET /export?format=json|csv|ics`
    @Sendable func export(_ request: Request, context: GroveRequestContext) throws -> Response {
        switch request.queryString("format") ?? "json" {
        case "json": return JSON<Int>.encode(try database.exportJSON())
        case "csv": return JSON<Int>.encode(Data(try database.exportFocusSessionsCSV().utf8), contentType: "text/csv; charset=utf-8")
        case "ics": return JSON<Int>.encode(Data(try database.exportFocusSessionsICS().utf8), contentType: "text/calendar; charset=utf-8")
        default: throw APIError.badRequest(field: "format", detail: "format must be json, csv or ics")
        }
    }

    /// `POST /import`: a Grove JSON export, merged by id, all or nothing.
    @Sendable func importData(_ request: Request, context: GroveRequestContext) async throws -> JSON<ImportResult> {
        let export = try await request.decode(as: GroveExport.self, context: context)
        try database.importExport(export)
        return JSON(ImportResult(focusSessions: export.focusSessions.count, timers: export.timers.count, intentions: export.intentions.count,
                                 gatewaySessions: export.gatewaySessions.count, themes: export.themes.count))
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
}
