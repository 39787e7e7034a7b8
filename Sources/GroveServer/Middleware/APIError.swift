import Foundation
import GroveCore
import GroveStore
import GroveSync
import Hummingbird

/// Errors the API answers with, as RFC 9457 problem details.
public enum APIError: Error, Sendable {
    /// 400: the body or a parameter could not be read.
    case badRequest(field: String, detail: String)
    /// 401: a token is needed.
    case unauthorized
    /// 403: a request that changes data from another origin.
    case forbiddenOrigin
    /// 403: on loopback, a `Host` that is not a loopback name (a DNS-rebinding page).
    case forbiddenHost(String)
    /// 404: no such route or row.
    case notFound(String)
    /// 413: body over 1 MiB.
    case tooLarge
}

extension APIError {
    /// Runs a read whose only input is a query parameter: a refusal of that input by the core's rule is
    /// a 400 (a parameter, not a body), in the same words as every other face.
    static func parameter<Value>(_ read: () throws -> Value) throws -> Value {
        do {
            return try read()
        } catch let error as any GroveValidationError {
            throw APIError.badRequest(field: error.field, detail: error.message)
        }
    }
}

extension Problem {
    /// A problem of `grove serve`'s API: its type names the status.
    init(status: HTTPResponse.Status, detail: String, field: String? = nil, type: String? = nil) {
        self.init(
            type: type ?? "https://grove.invalid/problems/\(status.code)", title: status.reasonPhrase, status: status.code,
            detail: detail, field: field)
    }

    /// The problem for any error: bad input is a 4xx, never a 500.
    public static func from(_ error: any Error) -> Problem {
        switch error {
        case let e as APIError:
            switch e {
            case .badRequest(let field, let detail): return Problem(status: .badRequest, detail: detail, field: field)
            case .unauthorized:
                return Problem(
                    status: .unauthorized, detail: "This Grove server needs its token: Authorization: Bearer <token>, or log in at /login")
            case .forbiddenOrigin:
                return Problem(status: .forbidden, detail: "Requests that change data must come from this server's own pages")
            case .forbiddenHost:
                return Problem(status: .forbidden, detail: "This Grove server answers only to localhost, 127.0.0.1 or [::1]", field: "Host")
            case .notFound(let what): return Problem(status: .notFound, detail: what)
            case .tooLarge: return Problem(status: .contentTooLarge, detail: "Request bodies are limited to 1 MiB")
            }
        case let e as NotFoundError: return Problem(status: .notFound, detail: e.message, field: e.field)
        case is AlreadyApplied:
            return Problem(
                status: .conflict, detail: "This request is being applied already (its Idempotency-Key)", field: "Idempotency-Key")
        case let e as FocusError
        where e == .sessionAlreadyOpen || e == .noOpenSession || e == .deleteRunning || e == .notOpenEnded || e == .noBreak:
            return Problem(status: .conflict, detail: e.message, field: e.field)
        case let e as FocusError:
            if case .illegalTransition = e { return Problem(status: .conflict, detail: e.message, field: e.field) }
            return Problem(status: .unprocessableContent, detail: e.message, field: e.field)
        case let e as TimerRunError: return Problem(status: .conflict, detail: e.message, field: e.field)
        case let e as PauseValidationError:
            switch e {
            case .unknownApp, .unknownContent, .unknownContentSource: return Problem(status: .notFound, detail: e.message, field: e.field)
            case .sessionAlreadyFinished, .appNotGated, .treeGrowing, .duplicateContentSource, .blocked, .emergencyPassUsed, .strictBlock,
                .notProceeded:
                return Problem(status: .conflict, detail: e.message, field: e.field)
            default: return Problem(status: .unprocessableContent, detail: e.message, field: e.field)
            }
        case let e as SyncFailure:
            // The sync server's own refusal or silence is a bad gateway; this device's state a conflict.
            let status: HTTPResponse.Status =
                switch e.kind {
                case .input, .wrongSecret: .unprocessableContent
                case .state, .conflict: .conflict
                case .server: .badGateway
                }
            return Problem(status: status, detail: e.message, field: e.field)
        case let e as ReversedRange: return Problem(status: .badRequest, detail: e.message, field: e.field)
        case let e as any GroveValidationError: return Problem(status: .unprocessableContent, detail: e.message, field: e.field)
        case let e as StoreError where e.isBadInput:
            return Problem(status: .unprocessableContent, detail: e.localizedDescription, field: "body")
        case let e as StoreError: return Problem(status: .serviceUnavailable, detail: e.localizedDescription)
        case let e as any StoreFailure where e.serverStatus != 500:
            // The disk full or the store busy: said in words (no SQL), nothing was saved.
            return Problem(status: .init(code: e.serverStatus), detail: e.summary)
        case let e as HTTPError:
            return Problem(status: e.status, detail: e.body ?? e.status.reasonPhrase)
        case let e as any HTTPResponseError:
            return Problem(status: e.status, detail: e.status.reasonPhrase)
        default:
            // The error itself is logged, never sent: it may carry SQL or paths.
            return Problem(status: .internalServerError, detail: "Something went wrong on the server; the details are in its log")
        }
    }

    public func response() -> Response {
        JSON<Int>.encode(
            (try? GroveExport.makeEncoder(pretty: false).encode(self)) ?? Data(), status: .init(code: status),
            contentType: "application/problem+json")
    }
}
