import Foundation
import GroveCore
import Hummingbird
import Logging
import NIOHTTP1

/// Turns every error into a problem response (API) or a plain error page (web), and refuses
/// oversized bodies up front with 413.
struct ProblemMiddleware: RouterMiddleware {
    typealias Context = GroveRequestContext
    /// The web app's templates, for the error page people see.
    let templates: WebTemplates

    /// The largest body a route takes: an import (streamed to a file) up to 1 GiB, anything else 1 MiB.
    static func bodyLimit(_ method: HTTPRequest.Method, _ path: String) -> Int {
        method == .post && path == "/api/v1/import" ? GroveRequestContext.maxImportSize : GroveRequestContext.maxBodySize
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if let length = request.headers[.contentLength].flatMap(Int.init), length > Self.bodyLimit(request.method, request.uri.path) {
            return Problem.from(APIError.tooLarge).response()
        }
        do {
            return try await next(request, context)
        } catch {
            var problem = Problem.from(error)
            // Collecting a body past the limit surfaces as NIO's "too large".
            if "\(error)".contains("tooLarge") || "\(error)".contains("contentTooLarge") { problem = Problem.from(APIError.tooLarge) }
            // A body the HTTP parser could not read (a broken chunk, a body cut short) is the client's.
            if error is HTTPParserError {
                problem = Problem.from(APIError.badRequest(field: "body", detail: "The request body could not be read: \(error)"))
            }
            if problem.status >= 500 && problem.status != 503 {
                context.logger.error("Request failed", metadata: ["path": "\(request.uri.path)", "error": "\(error)"])
            }
            if !request.uri.path.hasPrefix("/api/"), request.method == .get, problem.status == 401 {
                let next = LoginRedirect.safe(request.uri.path).addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "/"
                return Response(status: .seeOther, headers: [.location: "/login?next=\(next)"])
            }
            if ErrorPage.wanted(by: request), let page = ErrorPage.response(problem, templates: templates) { return page }
            return problem.response()
        }
    }
}
