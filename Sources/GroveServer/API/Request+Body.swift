import Foundation
import GroveCore
import GroveStore
import Hummingbird

extension Request {
    /// Decodes a JSON body if there is one (an empty body means "no input").
    func decodeIfPresent<T: Decodable>(_ type: T.Type, context: GroveRequestContext) async throws -> T? {
        if let length = headers[.contentLength].flatMap(Int.init), length == 0 { return nil }
        var copy = self
        let buffer = try await copy.collectBody(upTo: context.maxUploadSize)
        return buffer.readableBytes > 0 ? try GroveJSONDecoder.decode(T.self, from: buffer) : nil
    }
}
