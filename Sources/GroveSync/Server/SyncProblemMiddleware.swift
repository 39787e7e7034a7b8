import Foundation
import GroveCore
import GroveStore
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import ServiceLifecycle

/// Every error becomes an RFC 9457 problem; nothing internal leaks.
struct SyncProblemMiddleware: RouterMiddleware {
    typealias Context = SyncRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if let length = request.headers[.contentLength].flatMap(Int.init), length > SyncWire.maxPushBytes {
            return Self.response(SyncProblem(.tooLarge(limit: SyncWire.maxPushBytes)))
        }
        do {
            return try await next(request, context)
        } catch let error as SyncServerError {
            return Self.response(SyncProblem(error))
        } catch let error as HTTPError where error.status == .notFound {
            return Self.response(SyncProblem(.notFound("such route")))
        } catch let error as HTTPError {
            return Self.response(
                SyncProblem(
                    type: "about:blank", title: error.status.reasonPhrase, status: error.status.code,
                    detail: error.body ?? error.status.reasonPhrase))
        } catch let error as any StoreFailure where error.serverStatus != 500 {
            // The disk full or the store busy: said in words, and the client tries again later.
            context.logger.error("Sync request failed", metadata: ["path": "\(request.uri.path)", "error": "\(error)"])
            var problem = SyncProblem(
                type: "about:blank", title: error.serverStatus == 507 ? "Insufficient Storage" : "Service Unavailable",
                status: error.serverStatus, detail: "The sync server could not store this: " + error.summary)
            problem.retryAfter = 30
            return Self.response(problem)
        } catch {
            context.logger.error("Sync request failed", metadata: ["path": "\(request.uri.path)", "error": "\(error)"])
            return Self.response(
                SyncProblem(type: "about:blank", title: "Internal Server Error", status: 500, detail: "The server could not do this"))
        }
    }

    static func response(_ problem: SyncProblem) -> Response {
        let data = (try? SyncWire.encoder().encode(problem)) ?? Data()
        var headers: HTTPFields = [.contentType: "application/problem+json"]
        if let seconds = problem.retryAfter { headers[.retryAfter] = String(seconds) }
        return Response(status: .init(code: problem.status), headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}
