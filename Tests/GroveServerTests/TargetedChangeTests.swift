import Foundation
import GroveCore
import GroveStore
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import GroveServer

@Suite("Targeted changes: one field at a time, never a stale copy of the rest")
struct TargetedChangeTests {
    @Test func changesToDifferentFieldsFromTwoPagesAreBothKept() async throws {
        let server = try await TestServer()
        try await server.test { c in
            // Two pages change two different settings; neither undoes the other.
            #expect(try await c.patch("/api/v1/focus/preferences", #"{"focusDuration": 3000}"#).status == 200)
            #expect(try await c.patch("/api/v1/focus/preferences", #"{"longBreakInterval": 3}"#).status == 200)
            let focus = try await c.get("/api/v1/focus/preferences").object
            #expect(focus["focusDuration"] as? Double == 3000 && focus["longBreakInterval"] as? Int == 3)
            expectProblem(try await c.patch("/api/v1/focus/preferences", #"{"focusDuration": 1e300}"#), 422, field: "plannedDuration")

            #expect(try await c.patch("/api/v1/pause/preferences", #"{"timerDuration": 30}"#).status == 200)
            #expect(try await c.put("/api/v1/pause/apps/youtube/enabled", #"{"isEnabled": true}"#).status == 200)
            let pause = try await c.get("/api/v1/pause/preferences").object
            #expect(pause["timerDuration"] as? Int == 30)
            #expect((pause["enabledApps"] as? [String])?.contains("youtube") == true)
            expectProblem(try await c.put("/api/v1/pause/apps/nowhere/enabled", #"{"isEnabled": true}"#), 404)

            #expect(try await c.patch("/api/v1/preferences/notifications", #"{"dailyEnabled": true, "dailyTime": "07:30"}"#).status == 200)
            #expect(try await c.patch("/api/v1/preferences/notifications", #"{"monthlyDay": 31}"#).status == 200)
            let n = try await c.get("/api/v1/preferences/notifications").object
            #expect(n["dailyEnabled"] as? Bool == true && n["monthlyDay"] as? Int == 31)
            expectProblem(try await c.patch("/api/v1/preferences/notifications", #"{"weeklyDay": 9}"#), 422, field: "weeklyDay")

            let theme = PresetThemes.ocean.id.uuidString
            #expect(
                try await c.put("/api/v1/preferences/default-theme", #"{"themeId": "\#(theme)"}"#).object["defaultThemeId"] as? String
                    == theme)
            expectProblem(
                try await c.put("/api/v1/preferences/default-theme", #"{"themeId": "\#(UUID().uuidString)"}"#), 422, field: "themeId")
            #expect(try await c.put("/api/v1/preferences/default-theme", #"{"themeId": null}"#).object["defaultThemeId"] == nil)
        }
    }
}
