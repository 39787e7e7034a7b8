import CompressNIO
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import GroveHTTP

@Suite("gzip for answers worth it, when the client reads gzip")
struct CompressionMiddlewareTests {
    static let page = String(repeating: "<p>A tree grows in the forest.</p>\n", count: 200)

    static func app() -> some ApplicationProtocol {
        let router = Router(options: .autoGenerateHeadEndpoints)
        router.add(middleware: CompressionMiddleware())
        router.get("page") { _, _ in
            Response(status: .ok, headers: [.contentType: "text/html; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(string: page)))
        }
        router.get("small") { _, _ in
            Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: "{}")))
        }
        router.get("image") { _, _ in
            Response(status: .ok, headers: [.contentType: "image/png"], body: .init(byteBuffer: ByteBuffer(string: page)))
        }
        router.get("stream") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "text/csv"],
                body: ResponseBody { writer in
                    try await writer.write(ByteBuffer(string: page))
                    try await writer.finish(nil)
                })
        }
        return Application(router: router)
    }

    @Test("a page for a client that reads gzip: gzip, and the same bytes once inflated")
    func compresses() async throws {
        try await Self.app().test(.router) { client in
            try await client.execute(uri: "/page", method: .get, headers: [.acceptEncoding: "gzip, deflate, br"]) { response in
                #expect(response.headers[.contentEncoding] == "gzip")
                #expect(response.headers[.vary] == "Accept-Encoding")
                #expect(response.body.readableBytes < Self.page.utf8.count / 10)
                var body = response.body
                let inflated = try body.decompress(with: .gzip())
                #expect(String(buffer: inflated) == Self.page)
            }
        }
    }

    @Test("left alone: no gzip asked (or q=0), small, already compressed images, bodies streamed as made")
    func leftAlone() async throws {
        try await Self.app().test(.router) { client in
            for (path, accept) in [
                ("/page", nil), ("/page", "gzip;q=0"), ("/page", "identity"), ("/small", "gzip"), ("/image", "gzip"), ("/stream", "gzip"),
            ] {
                var headers = HTTPFields()
                if let accept { headers[.acceptEncoding] = accept }
                try await client.execute(uri: path, method: .get, headers: headers) { response in
                    #expect(response.headers[.contentEncoding] == nil, "\(path) \(accept ?? "-")")
                }
            }
            // Text answers say they vary even when sent plain; an image does not.
            try await client.execute(uri: "/page", method: .get) { #expect($0.headers[.vary] == "Accept-Encoding") }
            try await client.execute(uri: "/image", method: .get) { #expect($0.headers[.vary] == nil) }
        }
    }

    @Test(
        "Accept-Encoding read as RFC 9110 says",
        arguments: [
            ("gzip", true), ("GZIP", true), ("deflate, gzip;q=0.5", true), ("*", true), ("br, *;q=0.1", true), ("x-gzip", true),
            ("gzip;q=0", false), ("*;q=0", false), ("gzip;q=0, *", false), ("br", false), ("", false), ("identity", false),
            (" GZip ;\tq=0.5 ", true), ("br,\tx-GZIP", true), ("gzip ; q=0 , br", false), ("gzipx", false), ("ǵzip", false),
        ])
    func acceptEncoding(header: String, accepted: Bool) {
        #expect(CompressionMiddleware<BasicRequestContext>.acceptsGzip(header) == accepted)
    }

    @Test(
        "Content-Type read as RFC 9110 says: its media type, any case, parameters and spaces aside",
        arguments: [
            ("text/html; charset=utf-8", true), ("Application/JSON", true), (" application/problem+json ;charset=utf-8", true),
            ("image/svg+xml", true), ("\tTEXT/CSS", true), ("application/javascript", true), ("application/yaml", true),
            ("text/event-stream", false), ("Text/Event-Stream; charset=utf-8", false), ("image/png", false), ("", false),
            ("application/octet-stream", false), ("téxt/html", false),
        ])
    func contentType(header: String, compressible: Bool) {
        #expect(CompressionMiddleware<BasicRequestContext>.compressible(header) == compressible)
    }
}
