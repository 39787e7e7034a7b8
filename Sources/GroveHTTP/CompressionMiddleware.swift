import CompressNIO
import HTTPTypes
import Hummingbird
import NIOCore

/// gzip for answers worth it, when the client says it reads gzip: a page, a JSON document, the
/// OpenAPI document, a stylesheet (`/stats` is 45 KB of HTML, the OpenAPI document 80 KB, both
/// mostly repetition). Left alone: small answers, images that are already compressed, anything
/// already encoded, and bodies of unknown length (a streamed export, the event stream), which are
/// sent as they are made.
public struct CompressionMiddleware<Context: RequestContext>: RouterMiddleware {
    /// Below this many bytes gzip saves less than a packet.
    let minimumSize: Int

    public init(minimumSize: Int = 1024) { self.minimumSize = minimumSize }

    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response = try await next(request, context)
        guard Self.compressible(response.headers[.contentType]), response.headers[.contentEncoding] == nil else { return response }
        // The answer depends on the request's Accept-Encoding, compressed or not: caches must know.
        response.headers[.vary] =
            response.headers[.vary].map { $0.contains("Accept-Encoding") ? $0 : $0 + ", Accept-Encoding" } ?? "Accept-Encoding"
        guard request.method != .head, Self.acceptsGzip(request.headers[.acceptEncoding]),
            let length = response.body.contentLength, length >= minimumSize
        else { return response }
        var body = try await response.body.collected()
        let compressed = try body.compress(with: .gzip())
        response.headers[.contentEncoding] = "gzip"
        // Weak from here on: the bytes differ from the uncompressed answer's.
        if let tag = response.headers[.eTag], !tag.hasPrefix("W/") { response.headers[.eTag] = "W/" + tag }
        response.body = ResponseBody(byteBuffer: compressed)
        return response
    }

    /// Text and JSON in any of their forms; not images other than SVG, not the event stream.
    static func compressible(_ contentType: String?) -> Bool {
        guard let contentType else { return false }
        let type = token(contentType.utf8.prefix { $0 != UInt8(ascii: ";") })
        if type == "text/event-stream" { return false }
        return type.hasPrefix("text/") || type.hasSuffix("json") || type.hasSuffix("+xml") || type.hasSuffix("yaml")
            || type == "application/javascript" || type == "application/xml"
    }

    /// Whether `Accept-Encoding` allows gzip (RFC 9110 §12.5.3): named, or `*`, with a q-value above 0.
    static func acceptsGzip(_ header: String?) -> Bool {
        guard let header else { return false }
        var gzip: Double?
        var any: Double?
        for item in header.utf8.split(separator: UInt8(ascii: ",")) {
            let parts = item.split(separator: UInt8(ascii: ";"), omittingEmptySubsequences: false).map(token)
            guard let coding = parts.first else { continue }
            let q = parts.dropFirst().first { $0.hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) } ?? 1
            if coding == "gzip" || coding == "x-gzip" { gzip = q } else if coding == "*" { any = q }
        }
        return (gzip ?? any ?? 0) > 0
    }

    /// A header's token: spaces and tabs trimmed, ASCII lower-cased (tokens are ASCII, RFC 9110
    /// §5.6.2). Bytes rather than Foundation's trimming and Unicode case mapping: every response
    /// asks, and those cost more than the rest of this middleware.
    static func token(_ bytes: some Collection<UInt8>) -> String {
        let isSpace = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        var token = Array(bytes.drop(while: isSpace))
        while let last = token.last, isSpace(last) { token.removeLast() }
        for index in token.indices where (0x41...0x5A).contains(token[index]) { token[index] |= 0x20 }
        return String(decoding: token, as: UTF8.self)
    }
}
