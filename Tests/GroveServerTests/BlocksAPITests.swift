import Foundation
import GroveCore
import GroveStore
import Testing

@testable import GroveServer

/// Scheduled blocks through the API, the gateway page and Settings: set and refused by name, a pause
/// refused during the block with its end in words, the week's emergency pass used once and shown,
/// and a strict block holding the gate.
@Suite("Scheduled blocks through the API and the web")
struct BlocksAPITests {
    @Test func blockPassAndStrict() async throws {
        // Wednesday 2025-05-14, 09:00 UTC.
        let server = try await TestServer()
        let database = server.database, clock = server.clock
        try database.pause.setAppEnabled(id: "youtube", true)
        try await server.test { client in
            let set = try await client.put("/api/v1/pause/apps/youtube/block", #"{"schedule":"Wed 08:00-10:00","strict":true}"#)
            #expect(set.status == 200 && set.object["blockSchedule"] as? String == "wed 08:00-10:00", "\(set.text)")
            #expect(set.object["blockStrict"] as? Bool == true)
            for bad in [#"{"schedule":"wed 8-10"}"#, #"{"schedule":"someday 08:00-10:00"}"#, #"{"schedule":""}"#] {
                let refused = try await client.put("/api/v1/pause/apps/reddit/block", bad)
                #expect(refused.status == 422 && refused.object["field"] as? String == "block", "\(bad): \(refused.text)")
            }
            #expect(try await client.put("/api/v1/pause/apps/nope/block", #"{"schedule":null}"#).status == 404)
            // The gate refuses while the block holds, and says until when.
            let refused = try await client.post("/api/v1/pause/sessions", #"{"appId":"youtube"}"#)
            #expect(refused.status == 409 && refused.object["field"] as? String == "appId", "\(refused.text)")
            #expect((refused.object["detail"] as? String)?.contains("until 10:00") == true, "\(refused.text)")
            // Strict: the gate and the schedule stay.
            #expect(try await client.put("/api/v1/pause/apps/youtube/enabled", #"{"isEnabled":false}"#).status == 409)
            #expect(try await client.put("/api/v1/pause/apps/youtube/block", #"{"schedule":null}"#).status == 409)
            // The gateway shows the block, nothing counted, and the pass.
            let page = try await client.get("/pause/youtube?to=https://www.youtube.com/watch?v=1").text
            #expect(page.contains("data-testid=\"blocked\"") && page.contains("blocked until 10:00") && page.contains("emergency=1"))
            let passPage = try await client.get("/pause/youtube?emergency=1").text
            #expect(passPage.contains("data-emergency=\"yes\"") && passPage.contains("data-blocked=\"no\""))
            #expect(try database.pause.attemptsToday(appId: "youtube") == 0, "looking at a block counts nothing")
            // The pass: one pause, marked, then no more this week.
            let pass = try await client.post("/api/v1/pause/sessions", #"{"appId":"youtube","emergency":true}"#)
            #expect(pass.status == 201, "\(pass.text)")
            #expect((pass.object["session"] as? [String: Any])?["emergencyPass"] as? Bool == true)
            let status = try await client.get("/api/v1/pause/emergency-pass").object
            #expect(status["available"] as? Bool == false && (status["usedBy"] as? [String: Any])?["appId"] as? String == "youtube")
            let again = try await client.post("/api/v1/pause/sessions", #"{"appId":"youtube","emergency":true}"#)
            #expect(again.status == 409 && again.object["field"] as? String == "emergency", "\(again.text)")
            #expect(try await client.get("/pause/youtube").text.contains("data-testid=\"pass-used\""))
            // Settings shows the schedule; after the block, it is the person's to change.
            #expect(try await client.get("/settings").text.contains("Blocked wed 08:00-10:00, strictly"))
            clock.advance(by: 3600)
            let cleared = try await client.put("/api/v1/pause/apps/youtube/block", #"{}"#)
            #expect(cleared.status == 200 && cleared.object["blockSchedule"] == nil, "\(cleared.text)")
            #expect(try await client.post("/api/v1/pause/sessions", #"{"appId":"youtube"}"#).status == 201)
        }
    }
}

/// The focus allowlist through the API and the gateway page.
@Suite("The focus allowlist through the API and the web")
struct FocusAllowlistAPITests {
    @Test func allowedAppSkipsTheGrowingTree() async throws {
        let server = try await TestServer()
        let database = server.database
        try database.pause.setAppEnabled(id: "youtube", true)
        _ = try database.focus.start(plannedDuration: 1500, tags: ["lecture"])
        try await server.test { client in
            #expect(try await client.get("/pause/youtube").text.contains("data-testid=\"growing\""))
            #expect(try await client.post("/api/v1/pause/sessions", #"{"appId":"youtube"}"#).status == 409)
            let set = try await client.put("/api/v1/pause/apps/youtube/focus", #"{"tags":["Lecture"]}"#)
            #expect(set.status == 200 && set.object["focusAllowed"] as? [String] == ["Lecture"], "\(set.text)")
            let page = try await client.get("/pause/youtube").text
            #expect(!page.contains("data-testid=\"growing\"") && page.contains("A pause before YouTube"))
            #expect(try await client.post("/api/v1/pause/sessions", #"{"appId":"youtube"}"#).status == 201)
            #expect(try database.focus.current()?.state == .active)
            let bad = try await client.put("/api/v1/pause/apps/youtube/focus", #"{"tags":[""]}"#)
            #expect(bad.status == 422 && bad.object["field"] as? String == "tags", "\(bad.text)")
            #expect(try await client.get("/settings").text.contains("During focus: allowed with Lecture"))
            let always = try await client.put("/api/v1/pause/apps/youtube/focus", #"{"always":true}"#)
            #expect(always.object["focusAllowed"] as? [String] == ["*"])
        }
    }
}
