import Foundation
import GroveCore
import GroveStore
import Testing

@testable import GroveServer

/// The rules that once lived in one face only, asked through the API (the CLI's side of each is in
/// `GroveCLITests/FacesAgreeCLITests.swift`): each is a store operation now, with the core's words.
@Suite("Faces agree: the API keeps the rules the CLI keeps")
struct FacesAgreeAPITests {
    @Test func anIntentionsDateMovesOnlyWithinItsPeriodSoNoSetDeletesAnother() async throws {
        let server = try await TestServer(at: "2025-05-14T09:00:00Z")
        try await server.test { c in
            let today = try await c.post("/api/v1/intentions", #"{"text": "Write", "scope": "day", "date": "2025-05-14"}"#)
            let id = try #require(today.object["id"] as? String)
            // Another day is another period: refused, naming the field, and nothing changes.
            expectProblem(
                try await c.put("/api/v1/intentions/\(id)", #"{"date": "2025-05-15"}"#), 422, field: "date",
                detail: "date must stay within this intention's day")
            expectProblem(try await c.put("/api/v1/intentions/\(id)", #"{"text": "Read", "date": "2025-05-15"}"#), 422, field: "date")
            #expect(try await c.get("/api/v1/intentions/\(id)").object["text"] as? String == "Write")
            // Both days' intentions are kept when each is set.
            #expect(try await c.post("/api/v1/intentions", #"{"text": "Rest", "scope": "day", "date": "2025-05-15"}"#).status == 201)
            #expect(try await c.post("/api/v1/intentions", #"{"text": "Write more", "scope": "day", "date": "2025-05-14"}"#).status == 201)
            #expect(try await c.get("/api/v1/intentions").array.count == 2)
            // A week's intention may move within its week; a changed text drops a stale quote.
            let week = try await c.post("/api/v1/intentions", #"{"text": "Ship", "scope": "week", "date": "2025-05-14", "quote": "Go"}"#)
            let weekID = try #require(week.object["id"] as? String)
            let moved = try await c.put("/api/v1/intentions/\(weekID)", #"{"date": "2025-05-16", "text": "Ship it"}"#)
            #expect(moved.status == 200)
            #expect(moved.object["date"] as? String == "2025-05-16")
            #expect(moved.object["quote"] == nil)
            expectProblem(try await c.put("/api/v1/intentions/\(weekID)", #"{"date": "2025-05-30"}"#), 422, field: "date")
        }
    }

    @Test func aRunningSessionIsAbandonedNotDeleted() async throws {
        let server = try await TestServer()
        let database = server.database
        try await server.test { c in
            let started = try await c.post("/api/v1/focus/start", "{}")
            let id = try #require((started.object["session"] as? [String: Any])?["id"] as? String)
            expectProblem(try await c.delete("/api/v1/focus/sessions/\(id)"), 409, field: "state", detail: "abandon it")
            #expect(try database.focus.current()?.id.uuidString == id)
            #expect(try await c.post("/api/v1/focus/abandon").status == 200)
            #expect(try await c.delete("/api/v1/focus/sessions/\(id)").status == 204)
        }
    }

    @Test("a tree costs a minute of focus, through the API as through the CLI")
    func aTreeCostsAMinute() async throws {
        let server = try await TestServer()
        let clock = server.clock
        try await server.test { c in
            expectProblem(
                try await c.post("/api/v1/focus/start", #"{"plannedDuration": 30}"#), 422, field: "plannedDuration",
                detail: "a tree costs at least a minute of focus")
            expectProblem(try await c.patch("/api/v1/focus/preferences", #"{"focusDuration": 30}"#), 422, field: "plannedDuration")
            #expect(try await c.post("/api/v1/focus/start", #"{"openEnded": true}"#).status == 201)
            clock.advance(by: 0.139)
            let stopped = try await c.post("/api/v1/focus/stop")
            let session = try #require(stopped.object["session"] as? [String: Any])
            #expect(session["state"] as? String == "abandoned")
            #expect(stopped.object["treeStage"] as? Int != 5)
            #expect(try await c.get("/api/v1/focus/stats").object["todaysTrees"] as? Int == 0)
        }
    }

    @Test("content is added without inventing an id, never replaces another item, and a bundled one is removed for good")
    func contentAddAndRemoveAsTheCLIDoes() async throws {
        let server = try await TestServer()
        let database = server.database
        let text = String(repeating: "A calm sentence to sit with. ", count: 3)
        let bundled = try #require(BundledContent.all.first)
        try await server.test { c in
            let added = try await c.post("/api/v1/pause/content", #"{"type": "prompt", "category": "nature", "text": "\#(text)"}"#)
            #expect(added.status == 201 && (added.object["id"] as? String)?.hasPrefix("user-") == true, "\(added.text)")
            // An id in use is refused by name, and the bundled item keeps its words.
            expectProblem(
                try await c.post(
                    "/api/v1/pause/content", #"{"id": "\#(bundled.id)", "type": "prompt", "category": "nature", "text": "\#(text)"}"#),
                422, field: "id", detail: "already exists")
            #expect(try database.content.item(id: bundled.id)?.text == bundled.text)
            // Removing a bundled item retires it (a later bundled pack must not bring it back).
            #expect(try await c.delete("/api/v1/pause/content/\(bundled.id)").status == 204)
            #expect(try database.content.item(id: bundled.id) != nil)
            #expect(try database.content.all().allSatisfy { $0.id != bundled.id })
            let page = try await c.get("/content").text
            #expect(!page.contains(#"name="id""#) && page.contains(#"data-action="delete-content" data-id="\#(BundledContent.all[1].id)""#))
        }
    }

    @Test func categoriesAndTypesReadAsTheCLIReadsThem() async throws {
        let server = try await TestServer()
        let database = server.database
        try await server.test { c in
            let stoic = try await c.get("/api/v1/pause/content?category=Stoicism")
            #expect(stoic.status == 200)
            #expect(!stoic.array.isEmpty)
            let message = #"category must be one of stoicism, productivity, mindfulness, gratitude, nature, philosophy (got "Nonsense")"#
            expectProblem(try await c.get("/api/v1/pause/content?category=Nonsense"), 400, field: "category", detail: message)
            let text = String(repeating: "A calm sentence to sit with. ", count: 3)
            let added = try await c.post(
                "/api/v1/pause/content", #"{"id": "mine-1", "type": "Quote", "category": "Stoicism", "text": "\#(text)"}"#)
            #expect(added.status == 201, "\(added.text)")
            #expect(added.object["category"] as? String == "stoicism")
            expectProblem(
                try await c.post(
                    "/api/v1/pause/content", #"{"id": "mine-2", "type": "quote", "category": "Nonsense", "text": "\#(text)"}"#), 422,
                field: "category", detail: message)
            // The web page reads the same parameter by the same rule.
            #expect(try await c.get("/content?category=STOICISM").status == 200)
            expectProblem(
                try await c.get("/api/v1/intentions/current?date=May"), 400, field: "date",
                detail: #"date must be a date like 2025-03-09 (got "May")"#)
        }
    }

    /// The API and the web take a timer's icon by the CLI's rule, draw it from Grove's own set, and keep
    /// an icon synced from another device when an edit sends it back unchanged.
    @Test func aTimersIconIsGrovesOrAnySymbolsNameAndDrawnWithoutAnEmojiFont() async throws {
        let server = try await TestServer()
        let database = server.database
        let synced = NamedTimer(id: UUID(), name: "Phone timer", durationInSeconds: 300, icon: "moon.stars", createdAt: Date())
        try database.timers.save(synced)
        try await server.test { c in
            expectProblem(
                try await c.post("/api/v1/timers", #"{"name": "Tea", "durationInSeconds": 240, "icon": "a star!"}"#), 422, field: "icon",
                detail:
                    #"icon must be one of timer, running, book, coffee, sparkles, leaf, cooking, laptop, weights, rest or a symbol's name"#)
            let alarm = try await c.post("/api/v1/timers", #"{"name": "Wake", "durationInSeconds": 240, "icon": "alarm.fill"}"#)
            #expect(alarm.status == 201 && alarm.object["icon"] as? String == "alarm.fill", "any symbol's name is kept")
            let added = try await c.post("/api/v1/timers", #"{"name": "Read", "durationInSeconds": 1200, "icon": "book"}"#)
            #expect(added.status == 201 && added.object["icon"] as? String == "book.fill", "\(added.text)")
            // An edit that sends the synced icon back changes the name and keeps the icon.
            let edited = try await c.request(
                .patch, "/api/v1/timers/\(synced.id.uuidString)", json: #"{"name": "Evening", "icon": "moon.stars"}"#)
            #expect(edited.status == 200 && edited.object["icon"] as? String == "moon.stars", "\(edited.text)")
            expectProblem(
                try await c.request(.patch, "/api/v1/timers/\(synced.id.uuidString)", json: #"{"icon": "moon phase"}"#), 422, field: "icon")
            let page = try await c.get("/timers")
            #expect(page.text.contains(#"<use href="/static/icons.svg#icon-book"/>"#))
            #expect(
                page.text.contains(#"aria-label="Timer"><use href="/static/icons.svg#icon-timer"/>"#), "an unknown icon draws the timer")
            #expect(!page.text.contains("📖") && !page.text.contains("⏱"))
            // The API's document lists the same names.
            let yaml = try await c.get("/api/v1/openapi.yaml").text
            let names = TimerIcon.choices.map(\.name).joined(separator: ", ")
            #expect(yaml.contains("      examples: [\(names)]"))
            let sprite = try await c.get("/static/icons.svg")
            #expect(sprite.status == 200)
            for choice in TimerIcon.choices { #expect(sprite.text.contains(#"<symbol id="\#(choice.symbol)""#), "\(choice.symbol)") }
        }
    }

    /// "Why are you opening it?" on the second pause of a day: today's intention is the first answer.
    @Test func theIntentionIsTheFirstAnswerToWhy() async throws {
        let server = try await TestServer()
        let database = server.database
        try database.pause.setAppEnabled(id: "youtube", true)
        _ = try database.pause.start(appId: "youtube", platform: "web")
        _ = try database.intentions.set("Write the chapter on roots", scope: .day)
        try await server.test { c in
            let page = try await c.get("/pause/youtube").text
            let first = #"data-reply="\#(PauseReason.intention.reply)">For: Write the chapter on roots</button>"#
            #expect(page.contains(first), "\(page)")
            #expect(
                page.firstRange(of: "For: Write")?.lowerBound ?? page.endIndex < page.firstRange(of: "Something specific")?.lowerBound
                    ?? page.startIndex)
        }
    }

    /// The gateway during a focus session shows the growing tree first and counts nothing; a reload of a
    /// pause already running goes on with it.
    @Test func theGatewayDuringFocusShowsTheGrowingTreeFirst() async throws {
        let server = try await TestServer()
        let database = server.database
        try database.pause.setAppEnabled(id: "instagram", true)
        let (running, _) = try database.pause.start(appId: "instagram", platform: "web")
        _ = try database.intentions.set("Write the chapter on roots", scope: .week)
        _ = try database.focus.start(plannedDuration: 1500, tags: ["essay"])
        try await server.test { c in
            let page = try await c.get("/pause/instagram")
            #expect(page.text.contains(#"data-growing="yes""#) && page.text.contains("Your tree is growing"))
            // What the person meant to do, above the choice: the week's intention, the tree's tag.
            #expect(
                page.text.contains("Today&#39;s intention: Write the chapter on roots")
                    || page.text.contains("Today's intention: Write the chapter on roots"))
            #expect(page.text.contains("Your tree grows for: essay"))
            #expect(page.text.contains("25:00 left in your focus session. Opening Instagram now lets the tree wither."))
            #expect(!page.text.contains("gateway-countdown"), "no pause behind it until the person chooses")
            let reload = try await c.get("/pause/instagram?session=\(running.id.uuidString)")
            #expect(reload.text.contains(#"data-growing="no""#) && reload.text.contains("gateway-countdown"))
            #expect(reload.text.contains("Write the chapter on roots"), "the pause itself shows it too")
        }
        #expect(try database.pause.attemptsToday(appId: "instagram") == 1, "only the pause started before the session")
    }

    @Test func plantingATreeInsteadIsOneOperation() async throws {
        let server = try await TestServer()
        let database = server.database
        try database.pause.setAppEnabled(id: "youtube", true)
        try await server.test { c in
            let started = try await c.post("/api/v1/pause/sessions", #"{"appId": "youtube"}"#)
            let session = try #require((started.object["session"] as? [String: Any])?["id"] as? String, "\(started.text)")
            let finished = try await c.post(
                "/api/v1/pause/sessions/\(session)/finish", #"{"completionStatus": "exited", "actionOutcome": "deepen_pause"}"#)
            #expect(finished.status == 200, "\(finished.text)")
            // The finish started the focus session itself: no second request, no second transaction.
            let open = try #require(try database.focus.current())
            #expect(open.plannedDuration == (try database.focus.preferences()).focusDuration)
            // While it grows, the gated app waits behind it in the API too, as on the web and at a
            // terminal: 409, and nothing is counted.
            let again = try await c.post("/api/v1/pause/sessions", #"{"appId": "youtube"}"#)
            #expect(again.status == 409 && again.object["field"] as? String == "appId", "\(again.text)")
            #expect((again.object["detail"] as? String)?.hasPrefix("A tree is growing: YouTube waits") == true)
            #expect(try database.pause.attemptsToday(appId: "youtube") == 1)
            #expect(try database.focus.current()?.id == open.id)
        }
    }

    @Test func everyExitToFocusCountsAndDeletingShownContentKeepsThePast() async throws {
        let server = try await TestServer()
        let database = server.database
        try database.pause.setAppEnabled(id: "youtube", true)
        let clock = server.clock
        try await server.test { c in
            #expect(try await c.patch("/api/v1/pause/preferences", #"{"selectedCategories": ["stoicism"]}"#).status == 200)
            var shown: [String] = []
            // One exit during the countdown, one after it: two "Exit to Focus" (the seed's exitedSessions).
            for afterCountdown in [false, true] {
                let started = try await c.post("/api/v1/pause/sessions", #"{"appId": "youtube"}"#)
                let session = try #require(started.object["session"] as? [String: Any])
                shown.append(try #require(session["contentId"] as? String))
                if afterCountdown { clock.advance(by: 46) }
                let status = afterCountdown ? "completed" : "exited"
                #expect(
                    try await c.post(
                        "/api/v1/pause/sessions/\(try #require(session["id"] as? String))/finish",
                        #"{"completionStatus": "\#(status)", "actionOutcome": "exit_to_home"}"#
                    ).status == 200)
            }
            let before = try await c.get("/api/v1/pause/usage?appId=youtube")
            #expect(before.array.first?["exitedSessions"] as? Int == 2)
            #expect(before.array.first?["totalSessions"] as? Int == 2)
            // Deleting a shown item retires it: the pauses and the day's statistics stay as they were.
            for id in Set(shown) { #expect(try await c.delete("/api/v1/pause/content/\(id)").status == 204) }
            #expect(try await c.get("/api/v1/pause/usage?appId=youtube").text == before.text)
            expectProblem(try await c.delete("/api/v1/pause/content/\(shown[0])"), 404)
            // With every item of the chosen categories gone, a pause still shows something.
            for item in try await c.get("/api/v1/pause/content?category=stoicism").array {
                _ = try await c.delete("/api/v1/pause/content/\(try #require(item["id"] as? String))")
            }
            let third = try await c.post("/api/v1/pause/sessions", #"{"appId": "youtube"}"#)
            #expect(third.status == 201, "\(third.text)")
            #expect((third.object["content"] as? [String: Any])?["category"] as? String != "stoicism")
        }
    }

    @Test func theReviewPagePrintsEachDaysTagsAndTheWeekItNames() async throws {
        let server = try await TestServer(at: "2025-05-14T09:00:00Z")
        let database = server.database
        _ = try database.intentions.changePreferences { $0.firstWeekday = 0 }
        let f = ISO8601DateFormatter()
        try database.focus.log(
            start: try #require(f.date(from: "2025-05-12T08:00:00Z")), end: try #require(f.date(from: "2025-05-12T08:25:00Z")),
            tags: ["essay"])
        try await server.test { c in
            let page = try await c.get("/review")
            #expect(page.status == 200)
            // Days without tags show an empty cell, never the week's tag list as Swift sees it.
            #expect(!page.text.contains("ReviewPage") && !page.text.contains("Tag("))
            #expect(page.text.contains("essay 25m"))
            // Sunday 11 – Saturday 17 May is 2025-W20, and that name selects it.
            #expect(page.text.contains("<h1>Week 2025-W20</h1>"))
            #expect(try await c.get("/review?week=2025-W20").text.contains("2025-05-11 to 2025-05-17"))
            expectProblem(try await c.get("/api/v1/review?week=someday"), 400, field: "week", detail: #"(got "someday")"#)
        }
    }

    @Test func importOptionsAreReadByTheCLIsRule() async throws {
        let server = try await TestServer()
        try await server.test { c in
            expectProblem(try await c.post("/api/v1/import/sessions?from=csv", "start\n"), 400, field: "map", detail: "from csv needs map")
            expectProblem(
                try await c.post("/api/v1/import/sessions?from=timewarrior&map=start=S", "[]"), 400, field: "map",
                detail: "map is for from csv")
            expectProblem(try await c.post("/api/v1/import/sessions?from=notes", "x"), 400, field: "from", detail: #"(got "notes")"#)
            expectProblem(try await c.post("/api/v1/import/sessions?from=forest&zone=Mars/Olympus", "x"), 400, field: "zone")
        }
    }

    @Test func removingAnAppYouPausedInFrontOfKeepsItsHistory() async throws {
        let server = try await TestServer()
        let database = server.database
        try database.pause.setAppEnabled(id: "youtube", true)
        try await server.test { c in
            let started = try await c.post("/api/v1/pause/sessions", #"{"appId": "youtube"}"#)
            let id = try #require((started.object["session"] as? [String: Any])?["id"] as? String)
            _ = try await c.post("/api/v1/pause/sessions/\(id)/finish", #"{"completionStatus": "exited", "actionOutcome": "exit_to_home"}"#)
            let before = try await c.get("/api/v1/pause/usage?appId=youtube").text
            #expect(try await c.delete("/api/v1/pause/apps/youtube").status == 204)
            // Gone from the list and the gate; its pause and the day's figures stay.
            #expect(try await c.get("/api/v1/pause/apps").array.allSatisfy { $0["id"] as? String != "youtube" })
            expectProblem(try await c.post("/api/v1/pause/sessions", #"{"appId": "youtube"}"#), 404, field: "appId")
            #expect(try await c.get("/api/v1/pause/usage?appId=youtube").text == before)
            #expect(try await c.get("/api/v1/pause/sessions/\(id)").status == 200)
            #expect(try await c.get("/pause").text.contains("YouTube"))
            // Its id added again brings it back, history and all.
            let again = try await c.post(
                "/api/v1/pause/apps", #"{"id": "youtube", "displayName": "YouTube", "webURL": "https://www.youtube.com/"}"#)
            #expect(again.status == 201)
            #expect(try await c.get("/api/v1/pause/apps/youtube/attempts").object["attemptsToday"] as? Int == 1)
            // An app never paused in front of is deleted outright.
            #expect(try await c.delete("/api/v1/pause/apps/tiktok").status == 204)
            #expect(try database.pause.appNames()["tiktok"] == nil)
        }
    }
}
