import Foundation
import GroveCore
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import ServiceLifecycle

/// Request bodies in the wire's coding; a malformed body is a 400 naming the field (as on `grove serve`).
public struct SyncJSONDecoder: RequestDecoder {
    /// `mutations[0].fields.name`: where in the body a value is.
    static func path(_ keys: [any CodingKey]) -> String {
        keys.reduce(into: "") { text, key in
            if let index = key.intValue { text += "[\(index)]" } else { text += (text.isEmpty ? "" : ".") + key.stringValue }
        }
    }

    /// The longest a request body may take to arrive (a body sent a byte at a time holds nothing longer).
    static let bodyTimeout: Duration = .seconds(30)

    public func decode<T: Decodable>(_ type: T.Type, from request: Request, context: some RequestContext) async throws -> T {
        let buffer: ByteBuffer
        let limit = context.maxUploadSize
        do {
            buffer = try await withThrowingTaskGroup(of: ByteBuffer?.self) { group in
                group.addTask { try await request.body.collect(upTo: limit) }
                group.addTask {
                    try await Task.sleep(for: Self.bodyTimeout); return nil
                }
                defer { group.cancelAll() }
                guard let first = try await group.next(), let body = first else {
                    throw SyncServerError.malformed(
                        field: "body", message: "The body did not arrive within \(Self.bodyTimeout.components.seconds) s")
                }
                return body
            }
        } catch let error as SyncServerError {
            throw error
        } catch is CancellationError {
            throw SyncServerError.malformed(field: "body", message: "The body did not arrive")
        } catch let error where "\(error)".contains("tooLarge") {
            throw SyncServerError.tooLarge(limit: SyncWire.maxPushBytes)
        } catch {
            // The HTTP parser's own complaint (a broken chunk, a body cut short): the client's fault.
            throw SyncServerError.malformed(field: "body", message: "The body could not be read: \(String("\(error)".prefix(120)))")
        }
        do {
            return try SyncWire.decoder().decode(T.self, from: Data(buffer.readableBytesView))
        } catch let DecodingError.keyNotFound(key, context) {
            throw SyncServerError.malformed(field: Self.path(context.codingPath + [key]), message: "is required")
        } catch let DecodingError.typeMismatch(_, context), let DecodingError.valueNotFound(_, context), let DecodingError.dataCorrupted(
            context)
        {
            let field = Self.path(context.codingPath)
            throw SyncServerError.malformed(field: field.isEmpty ? "body" : field, message: String(context.debugDescription.prefix(200)))
        } catch {
            throw SyncServerError.malformed(field: "body", message: "Not valid JSON")
        }
    }
}

public struct SyncJSONEncoder: ResponseEncoder {
    public func encode(_ value: some Encodable, from request: Request, context: some RequestContext) throws -> Response {
        let data = try SyncWire.encoder().encode(value)
        return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}
