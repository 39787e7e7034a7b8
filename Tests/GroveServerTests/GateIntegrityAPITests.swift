import Foundation
import GroveCore
import GroveStore
import HTTPTypes
import Testing

@testable import GroveServer

/// The visit after Proceed and the gate's integrity through the API and the web: the extension's
/// report is the one write let in from an extension's origin, and only with the gate key; a web page
/// cannot make it; the figures reach `/pause/weeks`, the Pause page and the review; the gateway's
/// "let it wither" opens the pause and withers the tree in one step.
@Suite("The gate's integrity through the API and the web")
struct GateIntegrityAPITests {
    static let key = "0123456789abcdef0123456789abcdef"

    func headers(origin: String, key: String?) -> HTTPFields {
        var fields = HTTPFields()
        fields[.origin] = origin
        if let key, let name = HTTPField.Name("Grove-Gate-Key") { fields[name] = key }
        return fields
    }

    @Test func visitReportFromTheExtension() async throws {
        var configuration = ServerConfiguration()
        configuration.gateKey = Self.key
        let server = try await TestServer(configuration: configuration)
        let database = server.database, clock = server.clock
        try database.pause.setAppEnabled(id: "youtube", true)
        let (pause, _, _) = try database.pause.open(appId: "youtube", platform: "web")
        clock.advance(by: 15)
        try database.pause.finishSession(id: pause.id, status: .completed, outcome: .proceedToApp)
        clock.advance(by: 20 * 60)
        let path = "/api/v1/pause/sessions/\(pause.id.uuidString)/visit"
        let body = #"{"seconds":1200,"graceVisits":1}"#
        try await server.test { client in
            // A web page (or an extension without the key) cannot write it.
            for (origin, key) in [
                ("https://evil.example", Self.key), ("chrome-extension://abcdefgh", nil), ("chrome-extension://abcdefgh", "wrong"),
            ] {
                let refused = try await client.request(.put, path, json: body, headers: headers(origin: origin, key: key))
                #expect(refused.status == 403, "\(origin) \(key ?? "no key"): \(refused.text)")
            }
            // The key opens this one route only.
            let other = try await client.request(
                .put, "/api/v1/pause/apps/youtube/enabled", json: #"{"isEnabled":false}"#,
                headers: headers(origin: "chrome-extension://abcdefgh", key: Self.key))
            #expect(other.status == 403, "\(other.text)")
            #expect(try database.pause.session(id: pause.id)?.visitSeconds == nil)
            let reported = try await client.request(
                .put, path, json: body, headers: headers(origin: "chrome-extension://abcdefgh", key: Self.key))
            #expect(reported.status == 200 && reported.object["visitSeconds"] as? Int == 1200, "\(reported.text)")
            // Bounds, by name.
            let tooLong = try await client.put(path, #"{"seconds":5000}"#)
            #expect(tooLong.status == 422 && tooLong.object["field"] as? String == "seconds", "\(tooLong.text)")
            let bad = try await client.put(path, #"{"seconds":"ten"}"#)
            #expect(bad.status == 400 || bad.status == 422, "\(bad.text)")
            // Figures: the week's minutes on the site, and time saved now counts 20 minutes a visit kept away.
            let weeks = try await client.get("/api/v1/pause/weeks").array
            let week = try #require(weeks.first { $0["appId"] as? String == "youtube" && $0["current"] as? Bool == true })
            #expect(week["visitSeconds"] as? Int == 1200 && week["graceVisits"] as? Int == 1 && week["savedPerVisit"] as? Double == 1200)
            let page = try await client.get("/pause").text
            #expect(
                page.contains("20 min over 1 visit") && page.contains("1 grace visit")
                    && page.contains("20 min a visit, measured over 1 visit"))
            let review = try await client.get("/review").text
            #expect(review.contains("data-testid=\"review-integrity\">1 grace visit<"))
        }
    }

    @Test func letTheTreeWitherFromTheGateway() async throws {
        let server = try await TestServer()
        let database = server.database
        try database.pause.setAppEnabled(id: "youtube", true)
        _ = try database.focus.start(plannedDuration: 1500, tags: [])
        try await server.test { client in
            var sameOrigin = HTTPFields()
            if let name = HTTPField.Name("Sec-Fetch-Site") { sameOrigin[name] = "same-origin" }
            // Only the page's own link asks for it; a link from elsewhere still shows the growing tree.
            #expect(try await client.get("/pause/youtube?wither=1").text.contains("data-testid=\"growing\""))
            let page = try await client.get("/pause/youtube?wither=1", headers: sameOrigin).text
            #expect(page.contains("data-wither=\"yes\"") && !page.contains("data-testid=\"growing\""))
            #expect(try database.focus.current()?.state == .active, "showing the page withers nothing")
            let opened = try await client.post("/api/v1/pause/sessions", #"{"appId":"youtube","letTreeWither":true}"#)
            #expect(
                opened.status == 201 && (opened.object["session"] as? [String: Any])?["witheredTree"] as? Bool == true, "\(opened.text)")
            #expect(try database.focus.current() == nil)
            let weeks = try await client.get("/api/v1/pause/weeks").array
            #expect(weeks.first?["witheredTrees"] as? Int == 1 && weeks.first?["integrityText"] == nil)
        }
    }
}
