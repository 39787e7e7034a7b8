import Foundation
import GroveCore
import GroveStore
import Testing

@testable import GroveServer

@Suite("Adaptive friction through the API and the usage page")
struct FrictionAPITests {
    @Test func switchedOnAndOffPerAppAndExplainedOnTheUsagePage() async throws {
        let server = try await TestServer()
        try server.database.pause.setAppEnabled(id: "youtube", true)
        try await server.test { client in
            #expect(try await client.get("/api/v1/pause/friction").array.isEmpty)
            let page = try await client.get("/pause")
            #expect(page.text.contains("Adaptive friction") && page.text.contains("data-action=\"toggle-friction\" data-id=\"youtube\" >"))
            let on = try await client.put("/api/v1/pause/apps/youtube/adaptive", #"{"isEnabled":true}"#)
            #expect(on.status == 200 && on.object["isEnabled"] as? Bool == true)
            #expect((on.object["friction"] as? [String: Any])?["duration"] as? Int == 15)
            #expect(try await client.get("/api/v1/pause/friction").array.map { $0["appId"] as? String } == ["youtube"])
            #expect(try await client.get("/pause").text.contains("data-id=\"youtube\" checked> YouTube"))
            let started = try await client.post("/api/v1/pause/sessions", #"{"appId":"youtube"}"#)
            #expect((started.object["session"] as? [String: Any])?["durationSetting"] as? Int == 15)
            #expect(try await client.get("/pause").text.contains("not reviewed yet") == false, "opening the gate made the first review")
            let off = try await client.put("/api/v1/pause/apps/youtube/adaptive", #"{"isEnabled":false}"#)
            #expect(off.object["isEnabled"] as? Bool == false && off.object["friction"] == nil)
            #expect(try await client.put("/api/v1/pause/apps/nope/adaptive", #"{"isEnabled":true}"#).status == 404)
            #expect(try await client.put("/api/v1/pause/apps/youtube/adaptive", #"{"isEnabled":"yes"}"#).status == 400)
        }
    }
}
