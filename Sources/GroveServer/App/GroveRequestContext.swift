import Foundation
import GroveStore
import Hummingbird

/// The request context of every route: 1 MiB bodies, Grove's JSON coding (ISO 8601 instants).
public struct GroveRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// Bodies over 1 MiB are refused with 413.
    public static let maxBodySize = 1 << 20
    /// `POST /api/v1/import` takes exports up to 1 GiB (streamed to a file, never held in memory).
    public static let maxImportSize = 1 << 30

    /// The address of whoever opened the connection (a proxy's, behind one); nil in tests without a socket.
    public var remoteAddress: String?

    public init(source: Source) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress?.ipAddress
    }

    public var maxUploadSize: Int { Self.maxBodySize }
    public var requestDecoder: GroveJSONDecoder { GroveJSONDecoder() }
}

/// Decodes request bodies with Grove's decoder; a malformed body is a 400 naming the field.
public struct GroveJSONDecoder: RequestDecoder {
    public func decode<T: Decodable>(_ type: T.Type, from request: Request, context: some RequestContext) async throws -> T {
        try Self.decode(T.self, from: try await request.body.collect(upTo: context.maxUploadSize))
    }

    /// Decodes a collected body; a malformed one is a 400 naming the field.
    static func decode<T: Decodable>(_ type: T.Type, from buffer: ByteBuffer) throws -> T {
        do {
            let value = try GroveExport.makeDecoder().decode(T.self, from: Data(buffer.readableBytesView))
            if let refusal = JSONBodyCheck.refusal(in: Array(buffer.readableBytesView)) {
                throw APIError.badRequest(field: refusal.field, detail: refusal.message)
            }
            return value
        } catch let error as DecodingError {
            throw APIError.badRequest(field: field(error), detail: TransferRoom.describe(error))
        }
    }

    static func field(_ error: DecodingError) -> String {
        let path: [CodingKey]
        switch error {
        case .keyNotFound(let key, let c): path = c.codingPath + [key]
        case .typeMismatch(_, let c), .valueNotFound(_, let c), .dataCorrupted(let c): path = c.codingPath
        @unknown default: path = []
        }
        return path.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".").nilIfEmpty ?? "body"
    }
}

extension String {
    var nilIfEmpty: String? { isEmpty ? nil : self }
}
