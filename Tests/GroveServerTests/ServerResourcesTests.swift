import Foundation
import Testing

@testable import GroveServer

/// The web app's files are found where a build, a test run and an installed package put them, and
/// their absence is a sentence, not a crash.
@Suite("Where the web app's files are found")
struct ServerResourcesTests {
    @Test("GROVE_RESOURCES first, then the bundle beside the executable, then ../share/grove/resources")
    func order() {
        let places = ServerResources.candidates(
            environment: ["GROVE_RESOURCES": "/opt/grove-web"], executable: URL(fileURLWithPath: "/usr/bin/grove")
        ).map(\.path)
        #expect(places.first == "/opt/grove-web")
        #expect(places.contains("/usr/bin/Grove_GroveServer.resources/Resources"))
        #expect(places.last == "/usr/share/grove/resources", "the Debian package's place")
        #expect(Set(places).count == places.count, "each place once")
    }

    @Test("this build's files are found, and hold what the server serves")
    func found() throws {
        let directory = try #require(ServerResources.directory)
        for name in ["templates/layout.mustache", "static/app.css", "openapi.yaml"] {
            #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent(name).path), "\(name)")
        }
    }
}
