import Foundation
import GroveCore
import GroveStore
import Hummingbird

/// Pre-encoded JSON.
struct RawJSON: ResponseGenerator {
    var data: Data
    func response(from request: Request, context: some RequestContext) throws -> Response { JSON<Int>.encode(data) }
}
