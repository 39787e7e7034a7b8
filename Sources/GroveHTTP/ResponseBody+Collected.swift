import Hummingbird
import NIOCore

extension ResponseBody {
    /// The whole body in one buffer: for answers already in memory (a page, a JSON document), which
    /// a cache keeps or a compressor rewrites. Never for a streamed export.
    public func collected() async throws -> ByteBuffer {
        let box = CollectedBody()
        try await write(CollectingWriter(box: box))
        return box.buffer
    }
}

private final class CollectedBody: @unchecked Sendable {
    var buffer = ByteBuffer()
}

private struct CollectingWriter: ResponseBodyWriter {
    let box: CollectedBody
    mutating func write(_ buffer: ByteBuffer) async throws {
        var buffer = buffer
        box.buffer.writeBuffer(&buffer)
    }
    consuming func finish(_ trailingHeaders: HTTPFields?) async throws {}
}
