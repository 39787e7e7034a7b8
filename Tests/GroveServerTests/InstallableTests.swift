import Foundation
import GroveCore
import Hummingbird
import HummingbirdTesting
import Testing

@testable import GroveServer

@Suite("Installable: the manifest, its icons, the service worker and the offline page")
struct InstallableTests {
    @Test func theWorkerIsServedAtTheRootWithThisBuildsVersionAndAskedForAfresh() async throws {
        let server = try await TestServer()
        try await server.test { c in
            let worker = try await c.client.execute(uri: "/sw.js", method: .get) { $0 }
            #expect(worker.status == .ok && worker.headers[.cacheControl] == "no-cache")
            #expect(worker.headers[.contentType] == "text/javascript; charset=utf-8")
            let source = String(buffer: worker.body)
            #expect(!source.contains("__GROVE_SHELL_VERSION__") && source.contains("const VERSION = \""))
            // Every file it keeps exists, or its install would fail and nothing would work offline.
            let listed = try #require(source.range(of: "const FILES = [")).upperBound
            let files = source[listed...].prefix { $0 != "]" }.split(separator: "\"").filter { $0.hasPrefix("/") }
            #expect(files.count >= 10)
            for file in files {
                let status = try await c.get(String(file)).status
                #expect(status == 200, "\(file)")
            }
            // Not under /static/: its scope would be /static/ alone.
            #expect(try await c.get("/static/sw.js").status == 404)
            let manifest = try await c.get("/static/manifest.webmanifest")
            #expect(manifest.status == 200 && manifest.contentType == "application/manifest+json")
            let icons = try #require(manifest.object["icons"] as? [[String: Any]])
            for icon in icons {
                let png = try await c.get(try #require(icon["src"] as? String))
                #expect(png.contentType == "image/png" && png.body.prefix(4) == Data([0x89, 0x50, 0x4E, 0x47]))
            }
            let offline = try await c.get("/offline")
            #expect(offline.status == 200 && offline.text.contains("What works offline"))
        }
    }

    @Test func aNewBuildOfTheFilesIsANewWorker() async throws {
        let templates = try await WebTemplates.load()
        let version = { (worker: StaticFile) in
            String(decoding: worker.data, as: UTF8.self).split(separator: "\"").dropFirst().first.map(String.init)
        }
        let before = version(templates.serviceWorker)
        var changed = templates.staticFiles
        changed["app.css"] = StaticFile(data: Data("body{}".utf8), type: "text/css", modified: Date())
        #expect(WebTemplates.version(of: changed) != WebTemplates.version(of: templates.staticFiles))
        #expect(before == WebTemplates.version(of: templates.staticFiles))
    }

    @Test func withALoginTheWorkerAndTheOfflinePageNeedNoneAndHoldNoData() async throws {
        let token = "0123456789abcdef0123456789abcdef"
        let server = try await TestServer(configuration: ServerConfiguration(host: "0.0.0.0", port: 8080, token: token))
        try await server.test { c in
            for open in ["/sw.js", "/offline", "/static/manifest.webmanifest", "/static/icon-192.png"] {
                let status = try await c.get(open).status
                #expect(status == 200, "\(open)")
            }
            #expect(try await c.get("/api/v1/timers").status == 401)
        }
    }
}
