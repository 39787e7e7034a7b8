import Foundation
import HTTPTypes
import Testing

@testable import GroveServer

/// Each page loads only the modules it uses (each imports `grove.js`, what every page shares), not
/// the whole app: the forest does not parse the timers' code.
@Suite("Pages load their own scripts")
struct PageScriptsTests {
    static func scripts(_ html: String) -> [String] {
        html.components(separatedBy: #"<script type="module" src="/static/"#).dropFirst().compactMap {
            $0.split(separator: "\"").first.map(String.init)
        }
    }

    @Test func eachPageNamesOnlyItsModules() async throws {
        let server = try await TestServer()
        let expected: [String: [String]] = [
            "/": ["focus.js", "timers.js", "rooms.js"], "/focus": ["focus.js"], "/forest": ["rooms.js"], "/stats": ["grove.js"],
            "/review": ["grove.js"], "/timers": ["timers.js"], "/intentions": ["rooms.js"], "/themes": ["rooms.js"],
            "/settings": ["rooms.js"], "/pause": ["rooms.js"], "/pause/youtube": ["pause.js"], "/setup": ["rooms.js"],
            "/offline": ["grove.js"], "/no-such-page": ["grove.js"],
        ]
        try await server.test { c in
            for (path, modules) in expected {
                let page = try await c.get(path, headers: [.accept: "text/html"])
                #expect(Self.scripts(page.text) == modules, "\(path)")
                for module in modules { #expect(try await c.get("/static/\(module)").status == 200, "\(module)") }
            }
        }
    }
}
