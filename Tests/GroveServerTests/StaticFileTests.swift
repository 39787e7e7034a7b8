import Foundation
import HTTPTypes
import Testing

@testable import GroveServer

@Suite("Static files: validators, and a 304 for a copy the browser has")
struct StaticFileTests {
    @Test("ETag and Last-Modified; If-None-Match (weak or strong) or the same If-Modified-Since answer 304")
    func revalidation() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let first = try await client.client.execute(uri: "/static/app.css", method: .get) { $0 }
            let etag = try #require(first.headers[.eTag])
            let modified = try #require(first.headers[.lastModified])
            #expect(etag.wholeMatch(of: /"[0-9a-f]+"/) != nil)
            #expect(modified.wholeMatch(of: /\w{3}, \d{2} \w{3} \d{4} \d{2}:\d{2}:\d{2} GMT/) != nil)
            for headers: HTTPFields in [
                [.ifNoneMatch: etag], [.ifNoneMatch: "W/" + etag], [.ifNoneMatch: "\"other\", " + etag], [.ifModifiedSince: modified],
            ] {
                let again = try await client.client.execute(uri: "/static/app.css", method: .get, headers: headers) { $0 }
                #expect(again.status == .notModified && again.body.readableBytes == 0, "\(headers)")
                #expect(again.headers[.eTag] == etag)
            }
            let changed = try await client.client.execute(uri: "/static/app.css", method: .get, headers: [.ifNoneMatch: "\"other\""]) { $0 }
            #expect(changed.status == .ok && changed.body.readableBytes > 0)
        }
    }

    @Test("the tag follows the bytes")
    func tagFollowsBytes() {
        let a = StaticFile(data: Data("a".utf8), type: "text/css", modified: Date()),
            b = StaticFile(data: Data("b".utf8), type: "text/css", modified: Date())
        #expect(a.etag != b.etag)
        #expect(a.etag == StaticFile(data: Data("a".utf8), type: "text/css", modified: .distantPast).etag)
    }
}
