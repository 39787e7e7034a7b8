import Foundation
import GroveCore
import GroveStore
import Hummingbird
import HummingbirdTesting
import Testing

@testable import GroveServer

@Suite("API: timers, pause, intentions, themes, preferences, data")
struct RoomsAPITests {
    @Test func timersAndTodos() async throws {
        let server = try await TestServer()
        try await server.test { c in
            let created = try await c.post(
                "/api/v1/timers",
                ##"{"name": "Workout", "durationInSeconds": 1500, "colorHex": "#ff3b30", "todos": ["Warm up", "Push-ups"]}"##)
            #expect(created.status == 201)
            #expect(created.object["colorHex"] as? String == "#FF3B30")
            let id = try #require(created.object["id"] as? String)
            let todos = try #require(created.object["todoItems"] as? [[String: Any]])
            let first = try #require(todos.first?["id"] as? String), second = try #require(todos.last?["id"] as? String)
            expectProblem(
                try await c.post("/api/v1/timers", #"{"name": " ", "durationInSeconds": 60}"#), 422, field: "name",
                detail: "Timer name cannot be empty")
            expectProblem(
                try await c.post("/api/v1/timers", #"{"name": "x", "durationInSeconds": 86401}"#), 422, field: "durationInSeconds",
                detail: "Duration cannot exceed 24 hours")
            expectProblem(try await c.post("/api/v1/timers", #"{"name": "x"}"#), 400, field: "durationInSeconds")
            #expect(try await c.get("/api/v1/timers").array.count == 1)
            #expect(try await c.get("/api/v1/timers?sort=name&incomplete=true").array.count == 1)
            expectProblem(try await c.get("/api/v1/timers?sort=colour"), 400, field: "sort")
            #expect(try await c.get("/api/v1/timers/\(id)").object["name"] as? String == "Workout")
            expectProblem(try await c.get("/api/v1/timers/\(UUID().uuidString)"), 404)
            #expect(
                try await c.patch("/api/v1/timers/\(id)", #"{"name": "Morning workout"}"#).object["name"] as? String == "Morning workout")
            expectProblem(try await c.patch("/api/v1/timers/\(id)", #"{"colorHex": "red"}"#), 422, field: "colorHex")
            let added = try await c.post("/api/v1/timers/\(id)/todos", #"{"text": "Stretch"}"#)
            #expect(added.status == 201)
            #expect(added.object["sortOrder"] as? Int == 2)
            expectProblem(
                try await c.post("/api/v1/timers/\(id)/todos", #"{"text": ""}"#), 422, field: "text", detail: "To-do text cannot be empty")
            #expect(try await c.post("/api/v1/timers/\(id)/todos/\(second)/toggle").object["isCompleted"] as? Bool == true)
            #expect(
                try await c.patch("/api/v1/timers/\(id)/todos/\(first)", #"{"text": "Warm up well", "isCompleted": true}"#).object[
                    "isCompleted"] as? Bool == true)
            let moved = try await c.post("/api/v1/timers/\(id)/todos/\(second)/move", #"{"position": 0}"#)
            #expect((moved.object["todoItems"] as? [[String: Any]])?.first?["id"] as? String == second)
            expectProblem(try await c.post("/api/v1/timers/\(id)/todos/\(second)/move", #"{"position": 9}"#), 422, field: "sortOrder")
            #expect(try await c.delete("/api/v1/timers/\(id)/todos/\(first)").status == 204)
            expectProblem(try await c.delete("/api/v1/timers/\(id)/todos/\(first)"), 404)
            let sync = try await c.get("/api/v1/timers/sync")
            #expect((sync.object["timers"] as? [Any])?.count == 1)
            let quick = try await c.post(
                "/api/v1/timers/sync/quick-actions", #"{"action": "noteUpdated", "timerID": "\#(id)", "noteText": "Hydrate"}"#)
            #expect(quick.object["notes"] as? String == "Hydrate")
            expectProblem(try await c.post("/api/v1/timers/sync/quick-actions", #"{"action": "todoToggled", "timerID": "\#(id)"}"#), 400)
            let deleted = try await c.post("/api/v1/timers/sync/messages", #"{"type": "deleted", "timerID": "\#(id)"}"#)
            #expect((deleted.object["timers"] as? [Any])?.isEmpty == true)
            expectProblem(try await c.delete("/api/v1/timers/\(id)"), 404)
        }
    }

    @Test func pauseGatewayAndUsage() async throws {
        let server = try await TestServer()
        let clock = server.clock
        try await server.test { c in
            #expect(try await c.get("/api/v1/pause/apps").array.count == SocialApp.known.count)
            let app = try await c.post(
                "/api/v1/pause/apps",
                #"{"id": "hn", "displayName": "Hacker News", "urlScheme": "hn://", "webURL": "https://news.ycombinator.com/"}"#)
            #expect(app.status == 201)
            expectProblem(
                try await c.post("/api/v1/pause/apps", #"{"id": "Bad_Id", "displayName": "B", "urlScheme": "b://"}"#), 422, field: "appId")
            expectProblem(
                try await c.post("/api/v1/pause/apps", #"{"id": "hn", "displayName": "B", "urlScheme": "b://"}"#), 422, field: "id")
            #expect(try await c.get("/api/v1/pause/apps/hn").object["displayName"] as? String == "Hacker News")
            expectProblem(try await c.get("/api/v1/pause/apps/ghost"), 404, field: "appId")
            #expect(
                try await c.put("/api/v1/pause/apps/hn", #"{"id": "hn", "displayName": "HN", "urlScheme": "hn://", "isEnabled": true}"#)
                    .object["isEnabled"] as? Bool == true)
            #expect(try await c.get("/api/v1/pause/apps/hn/attempts").object["attemptsToday"] as? Int == 0)
            let started = try await c.post("/api/v1/pause/sessions", #"{"appId": "hn"}"#)
            #expect(started.status == 201)
            let session = try #require(started.object["session"] as? [String: Any])
            #expect(session["platform"] as? String == "web")
            #expect(started.object["attemptsToday"] as? Int == 0)
            #expect((started.object["content"] as? [String: Any])?["text"] != nil)
            let id = try #require(session["id"] as? String)
            expectProblem(
                try await c.post(
                    "/api/v1/pause/sessions/\(id)/finish", #"{"completionStatus": "completed", "actionOutcome": "proceed_to_app"}"#), 422,
                field: "actionOutcome", detail: "countdown")
            clock.advance(by: 16)
            let finished = try await c.post(
                "/api/v1/pause/sessions/\(id)/finish", #"{"completionStatus": "completed", "actionOutcome": "proceed_to_app"}"#)
            #expect(finished.object["timeSpent"] as? Int == 15)
            expectProblem(
                try await c.post(
                    "/api/v1/pause/sessions/\(id)/finish", #"{"completionStatus": "exited", "actionOutcome": "exit_to_home"}"#), 409)
            expectProblem(
                try await c.post("/api/v1/pause/sessions/\(id)/finish", #"{"completionStatus": "sleeping"}"#), 422,
                field: "completionStatus")
            expectProblem(try await c.post("/api/v1/pause/sessions", #"{"appId": "ghost"}"#), 404, field: "appId")
            #expect(try await c.get("/api/v1/pause/apps/hn/attempts").object["attemptsToday"] as? Int == 1)
            // A page closed mid-pause ends as timeout.
            let abandoned = try await c.post("/api/v1/pause/sessions", #"{"appId": "hn"}"#)
            let abandonedID = try #require((abandoned.object["session"] as? [String: Any])?["id"] as? String)
            clock.advance(by: 60)
            #expect(!abandonedID.isEmpty)
            #expect(try await c.get("/api/v1/pause/sessions?appId=hn").array.first?["completionStatus"] as? String == "timeout")
            // The person was only reading a little longer: their choice replaces the guessed timeout.
            let late = try await c.post(
                "/api/v1/pause/sessions/\(abandonedID)/finish", #"{"completionStatus": "completed", "actionOutcome": "proceed_to_app"}"#)
            #expect(
                late.status == 200 && late.object["completionStatus"] as? String == "completed" && late.object["timeSpent"] as? Int == 15)
            expectProblem(
                try await c.post(
                    "/api/v1/pause/sessions/\(abandonedID)/finish", #"{"completionStatus": "completed", "actionOutcome": "exit_to_home"}"#),
                409)
            // The content a pause showed, to show it again; an app whose gate is off is not paused.
            let contentID = try #require((abandoned.object["content"] as? [String: Any])?["id"] as? String)
            #expect(try await c.get("/api/v1/pause/content/\(contentID)").object["id"] as? String == contentID)
            expectProblem(try await c.get("/api/v1/pause/content/ghost"), 404, field: "contentId")
            expectProblem(try await c.post("/api/v1/pause/sessions", #"{"appId": "instagram"}"#), 409, field: "appId", detail: "not gated")
            expectProblem(try await c.get("/api/v1/pause/sessions/\(UUID().uuidString)"), 404)
            let usage = try await c.get("/api/v1/pause/usage?appId=hn")
            #expect(usage.array.first?["totalSessions"] as? Int == 2)
            #expect(usage.array.first?["completedSessions"] as? Int == 2)
            expectProblem(try await c.get("/api/v1/pause/usage?from=yesterday"), 400, field: "from")
            #expect(try await c.get("/api/v1/pause/content?category=stoicism").array.allSatisfy { $0["category"] as? String == "stoicism" })
            expectProblem(try await c.get("/api/v1/pause/content?category=poetry"), 400, field: "category")
            let text = "What are you hoping to find in there right now, and is it really there?"
            #expect(
                try await c.post(
                    "/api/v1/pause/content", #"{"id": "mine", "type": "prompt", "category": "mindfulness", "text": "\#(text)"}"#
                ).status == 201)
            expectProblem(
                try await c.post(
                    "/api/v1/pause/content", #"{"id": "short", "type": "prompt", "category": "mindfulness", "text": "too short"}"#), 422,
                field: "text")
            #expect(try await c.delete("/api/v1/pause/content/mine").status == 204)
            expectProblem(try await c.delete("/api/v1/pause/content/mine"), 404)
            var prefs = try await c.get("/api/v1/pause/preferences").object
            #expect(prefs["timerDuration"] as? Int == 15)
            prefs["timerDuration"] = 30
            let body = String(decoding: try JSONSerialization.data(withJSONObject: prefs), as: UTF8.self)
            #expect(try await c.put("/api/v1/pause/preferences", body).object["timerDuration"] as? Int == 30)
            expectProblem(
                try await c.put("/api/v1/pause/preferences", body.replacingOccurrences(of: "30", with: "50")), 422, field: "timerDuration"
            )
            // What a pause shows: the categories chosen (the settings page's checkboxes); none at all is refused.
            #expect(
                try await c.patch("/api/v1/pause/preferences", #"{"selectedCategories": ["nature", "stoicism"]}"#).object[
                    "selectedCategories"] as? [String] == ["nature", "stoicism"])
            expectProblem(try await c.patch("/api/v1/pause/preferences", #"{"selectedCategories": []}"#), 422, field: "selectedCategories")
            #expect(try await c.get("/api/v1/pause/preferences").object["selectedCategories"] as? [String] == ["nature", "stoicism"])
            #expect(try await c.delete("/api/v1/pause/apps/hn").status == 204)
            expectProblem(try await c.delete("/api/v1/pause/apps/hn"), 404)
        }
    }

    @Test func intentionsThemesPreferencesReminders() async throws {
        let server = try await TestServer()
        try await server.test { c in
            let week = try await c.post("/api/v1/intentions", #"{"text": "Finish the essay", "scope": "week"}"#)
            #expect(week.status == 201)
            let day = try await c.post("/api/v1/intentions", #"{"text": "One page before lunch", "scope": "day", "date": "2025-05-14"}"#)
            let id = try #require(day.object["id"] as? String)
            expectProblem(
                try await c.post("/api/v1/intentions", #"{"text": "", "scope": "day"}"#), 422, field: "text",
                detail: "Intention text cannot be empty")
            expectProblem(try await c.post("/api/v1/intentions", #"{"text": "x", "scope": "year"}"#), 422, field: "scope")
            // The words are read as every face reads them: any case.
            #expect(try await c.post("/api/v1/intentions", #"{"text": "Rest", "scope": "Week", "date": "2026-03-02"}"#).status == 201)
            expectProblem(
                try await c.post("/api/v1/intentions", #"{"text": "x", "scope": "day", "date": "2025-02-30"}"#), 400, field: "date")
            #expect(try await c.get("/api/v1/intentions/current").object["text"] as? String == "One page before lunch")
            #expect(try await c.get("/api/v1/intentions/current?date=2025-05-15").object["text"] as? String == "Finish the essay")
            #expect(try await c.get("/api/v1/intentions/current?date=2025-06-15").json is NSNull)
            #expect(try await c.get("/api/v1/intentions/search?q=ESSAY").array.count == 1)
            expectProblem(try await c.get("/api/v1/intentions/search"), 400, field: "q")
            #expect(try await c.get("/api/v1/intentions?scope=day").array.count == 1)
            #expect(try await c.get("/api/v1/intentions?from=2025-05-01&to=2025-05-31").array.count == 2)
            #expect(try await c.get("/api/v1/intentions?q=lunch").array.count == 1)
            expectProblem(try await c.get("/api/v1/intentions?scope=year"), 400, field: "scope")
            #expect(try await c.get("/api/v1/intentions/\(id)").object["scope"] as? String == "day")
            #expect(try await c.put("/api/v1/intentions/\(id)", #"{"text": "Two pages"}"#).object["text"] as? String == "Two pages")
            expectProblem(try await c.put("/api/v1/intentions/\(id)", #"{"text": " "}"#), 422, field: "text")
            let rephrased = try await c.post("/api/v1/intentions/\(id)/rephrase?apply=true")
            #expect((rephrased.object["intention"] as? [String: Any])?["aiRephrased"] as? Bool == true)
            #expect(try await c.delete("/api/v1/intentions/\(id)").status == 204)
            expectProblem(try await c.get("/api/v1/intentions/\(id)"), 404)
            // Themes
            #expect(
                try await c.get("/api/v1/themes?kind=preset").array.map { $0["name"] as? String } == [
                    "Serene", "Vibrant", "Minimal", "Sunset", "Ocean",
                ])
            expectProblem(try await c.get("/api/v1/themes?kind=neon"), 400, field: "kind")
            let theme = try await c.post("/api/v1/themes", ##"{"name": "Desert", "backgroundColor": "#edc9af", "textColor": "#3b2f2f"}"##)
            #expect(theme.status == 201)
            let themeID = try #require(theme.object["id"] as? String)
            expectProblem(
                try await c.post("/api/v1/themes", ##"{"name": "Bad", "backgroundColor": "sand", "textColor": "#000000"}"##), 422,
                field: "backgroundColor")
            expectProblem(try await c.post("/api/v1/themes/generate", #"{"prompt": "  "}"#), 422, field: "prompt")
            let generated = try await c.post("/api/v1/themes/generate", #"{"prompt": "calm ocean"}"#)
            #expect(generated.object["isAIGenerated"] as? Bool == true)
            #expect(try await c.get("/api/v1/themes/\(themeID)").object["name"] as? String == "Desert")
            #expect(
                try await c.put("/api/v1/themes/\(themeID)", ##"{"name": "Dune", "backgroundColor": "#EDC9AF", "textColor": "#3B2F2F"}"##)
                    .object["name"] as? String == "Dune")
            expectProblem(
                try await c.put(
                    "/api/v1/themes/\(PresetThemes.ocean.id.uuidString)",
                    ##"{"name": "Sea", "backgroundColor": "#000000", "textColor": "#FFFFFF"}"##), 422, field: "isPreset")
            expectProblem(try await c.delete("/api/v1/themes/\(PresetThemes.ocean.id.uuidString)"), 422, field: "isPreset")
            #expect(try await c.delete("/api/v1/themes/\(themeID)").status == 204)
            expectProblem(try await c.get("/api/v1/themes/\(themeID)"), 404)
            // Preferences and reminders
            var prefs = try await c.get("/api/v1/preferences").object
            prefs["defaultThemeId"] = PresetThemes.sunset.id.uuidString
            let saved = try await c.put(
                "/api/v1/preferences", String(decoding: try JSONSerialization.data(withJSONObject: prefs), as: UTF8.self))
            #expect(saved.object["defaultThemeId"] as? String == PresetThemes.sunset.id.uuidString)
            prefs["firstWeekday"] = 9
            expectProblem(
                try await c.put("/api/v1/preferences", String(decoding: try JSONSerialization.data(withJSONObject: prefs), as: UTF8.self)),
                422, field: "firstWeekday")
            let notifications =
                #"{"dailyEnabled": true, "dailyTime": "08:00", "weeklyEnabled": false, "weeklyDay": 0, "monthlyEnabled": true, "monthlyTime": "09:00", "monthlyDay": 31}"#
            #expect(try await c.put("/api/v1/preferences/notifications", notifications).object["monthlyDay"] as? Int == 31)
            expectProblem(
                try await c.put("/api/v1/preferences/notifications", notifications.replacingOccurrences(of: "31", with: "32")), 422,
                field: "monthlyDay")
            expectProblem(
                try await c.put("/api/v1/preferences/notifications", notifications.replacingOccurrences(of: "08:00", with: "8 am")), 400,
                field: "dailyTime")
            #expect(try await c.get("/api/v1/preferences/notifications").object["dailyEnabled"] as? Bool == true)
            let reminders = try await c.get("/api/v1/reminders").array
            #expect(reminders.map { $0["kind"] as? String } == ["daily", "monthly"])
            #expect(reminders.first?["at"] as? String == "2025-05-15T08:00:00.000Z")
        }
    }

    @Test func exportImportEventsOpenAPIAndLimits() async throws {
        let server = try await TestServer()
        try await server.test { c in
            _ = try await c.post("/api/v1/focus/log", #"{"start": "2025-05-13T08:00:00Z", "end": "2025-05-13T08:25:00Z"}"#)
            let export = try await c.get("/api/v1/export")
            #expect(export.object["format"] as? String == "grove-export")
            #expect(try await c.get("/api/v1/export?format=csv").contentType.hasPrefix("text/csv"))
            #expect(try await c.get("/api/v1/export?format=ics").text.hasPrefix("BEGIN:VCALENDAR"))
            expectProblem(try await c.get("/api/v1/export?format=pdf"), 400, field: "format")
            let imported = try await c.post("/api/v1/import", export.text)
            #expect(imported.object["focusSessions"] as? Int == 1)
            expectProblem(try await c.post("/api/v1/import", #"{"format": "grove-export"}"#), 400)
            let tooBig = String(repeating: "x", count: GroveRequestContext.maxBodySize + 10)
            // Imports stream to a file, so a body past the usual 1 MiB is read (and this one refused as
            // not an export); past the import limit it is refused up front.
            expectProblem(try await c.post("/api/v1/import", #"{"pad": "\#(tooBig)"}"#), 400)
            #expect(ProblemMiddleware.bodyLimit(.post, "/api/v1/import") == GroveRequestContext.maxImportSize)
            #expect(ProblemMiddleware.bodyLimit(.post, "/api/v1/timers") == GroveRequestContext.maxBodySize)
            expectProblem(try await c.post("/api/v1/timers", #"{"name": "\#(tooBig)", "durationInSeconds": 5}"#), 413)
            let yaml = try await c.get("/api/v1/openapi.yaml")
            #expect(yaml.contentType.hasPrefix("application/yaml"))
            #expect(yaml.text.hasPrefix("openapi: 3.1.0"))
            expectProblem(try await c.get("/api/v1/no-such-thing"), 404)
            expectProblem(try await c.post("/api/v1/focus/nap"), 404)
        }
    }

    @Test func crossOriginWritesAreRefused() async throws {
        let server = try await TestServer()
        try await server.test { c in
            var evil = HTTPFields()
            evil[.origin] = "https://evil.example"
            expectProblem(try await c.post("/api/v1/focus/start", headers: evil), 403)
            #expect(try await c.get("/api/v1/focus/current").object["session"] == nil, "nothing changed")
            #expect(try await c.get("/api/v1/focus/current", headers: evil).status == 200, "reads are fine")
        }
    }
}
