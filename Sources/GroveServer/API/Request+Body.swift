import Foundation
import GroveCore
import GroveStore
import Hummingbird

/// The optional body of an action that may have been taken earlier than it arrives (the web app's
/// offline queue): `{"at": "<ISO 8601 instant>"}`, judged by `ActionInstant`.
struct ActionInstantInput: Decodable {
    var at: Date?
}

extension Request {
    /// When the action this request carries was taken: its body's `at`, or nil (now).
    func actionInstant(context: GroveRequestContext) async throws -> Date? {
        try await decodeIfPresent(ActionInstantInput.self, context: context)?.at
    }

    /// Decodes a JSON body if there is one (an empty body means "no input").
    func decodeIfPresent<T: Decodable>(_ type: T.Type, context: GroveRequestContext) async throws -> T? {
        if let length = headers[.contentLength].flatMap(Int.init), length == 0 { return nil }
        var copy = self
        let buffer = try await copy.collectBody(upTo: context.maxUploadSize)
        return buffer.readableBytes > 0 ? try GroveJSONDecoder.decode(T.self, from: buffer) : nil
    }
}
