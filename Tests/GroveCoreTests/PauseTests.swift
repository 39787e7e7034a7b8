import Foundation
import Testing

@testable import GroveCore

@Suite("Pause: apps, content, rotation, gateway sessions, usage")
struct PauseTests {
    let now = instant("2025-05-01T09:00:00Z")

    @Test(arguments: ["instagram", "tik-tok", "app2"]) func validAppIDs(id: String) {
        #expect(SocialApp.isValidID(id))
    }

    @Test(arguments: ["Instagram", "tik_tok", "-x", "x-", "a--b", "", "inst agram"]) func invalidAppIDs(id: String) {
        let app = SocialApp(id: id, displayName: "X", urlScheme: "x://")
        #expect(throws: PauseValidationError.invalidAppID(id)) { try app.validate() }
    }

    @Test func urlSchemesNeedColonSlashSlash() throws {
        try SocialApp(id: "x", displayName: "X", urlScheme: "twitter://").validate()
        for bad in ["twitter", "twitter:", "://", "1ab://", "tw itter://", "twitter://path"] {
            #expect(throws: PauseValidationError.invalidURLScheme(bad)) {
                try SocialApp(id: "x", displayName: "X", urlScheme: bad).validate()
            }
        }
        #expect(throws: PauseValidationError.invalidWebURL("ftp://x.com")) {
            try SocialApp(id: "x", displayName: "X", urlScheme: "x://", webURL: "ftp://x.com").validate()
        }
        #expect(SocialApp(id: "x", displayName: "X", urlScheme: "x://").isEnabled == false, "new apps start disabled")
        #expect(SocialApp.known.allSatisfy { (try? $0.validate()) != nil })
    }

    func content(_ id: String, priority: Int = 5, category: MindfulnessContent.ContentCategory = .mindfulness, text: String? = nil)
        -> MindfulnessContent
    {
        MindfulnessContent(
            id: id, type: .prompt, text: text ?? String(repeating: "breathe ", count: 10), category: category, priority: priority)
    }

    @Test func contentRules() throws {
        try content("a").validate()
        #expect(throws: PauseValidationError.contentTextLength(49)) { try content("a", text: String(repeating: "x", count: 49)).validate() }
        #expect(throws: PauseValidationError.contentTextLength(751)) {
            try content("a", text: String(repeating: "x", count: 751)).validate()
        }
        #expect(throws: PauseValidationError.contentPriority(11)) { try content("a", priority: 11).validate() }
        #expect(throws: PauseValidationError.contentPriority(0)) { try content("a", priority: 0).validate() }
        var c = content("a")
        c.length = 9
        #expect(throws: PauseValidationError.contentReadingLength(9)) { try c.validate() }
        c.length = 61
        #expect(throws: PauseValidationError.contentReadingLength(61)) { try c.validate() }
        #expect(MindfulnessContent.defaultPriority == 5)
        #expect(PauseValidationError.contentTextLength(1).message == "Content text must be 50-750 characters (got 1)")
    }

    @Test func rotationIsFairByPriorityAndNeverStarves() {
        var library = [
            content("a", priority: 1), content("b", priority: 2), content("c", priority: 5), content("d", priority: 2, category: .stoicism),
        ]
        var shown: [String: Int] = [:]
        var previous: String?
        var repeatsWhileEqualWaits = 0
        for i in 0..<1000 {
            guard let next = ContentRotation.next(from: library, categories: [.mindfulness]) else { Issue.record("nothing picked"); return }
            shown[next.id, default: 0] += 1
            if next.id == previous && next.priority <= 2 { repeatsWhileEqualWaits += 1 }
            previous = next.id
            let index = library.firstIndex { $0.id == next.id }!
            ContentRotation.markShown(&library[index], at: now + TimeInterval(i))
        }
        #expect(shown["d"] == nil, "disabled categories are never shown")
        // Proportional to priority 1 : 2 : 5 over 1000 picks = 125 : 250 : 625, within one pick.
        #expect(abs(shown["a", default: 0] - 125) <= 1)
        #expect(abs(shown["b", default: 0] - 250) <= 1)
        #expect(abs(shown["c", default: 0] - 625) <= 1)
        #expect(repeatsWhileEqualWaits == 0)
    }

    @Test func rotationPrefersNeverShownThenLeastRecentlyUsed() {
        var a = content("a"), b = content("b"), c = content("c")
        a.timesShown = 1; a.lastUsed = now
        b.timesShown = 1; b.lastUsed = now - 60
        #expect(ContentRotation.next(from: [a, b, c], categories: [.mindfulness])?.id == "c")
        c.timesShown = 1; c.lastUsed = now - 30
        #expect(ContentRotation.next(from: [a, b, c], categories: [.mindfulness])?.id == "b")
        #expect(ContentRotation.next(from: [a, b, c], categories: [.nature]) == nil)
    }

    func session(
        status: GatewaySession.CompletionType? = nil, spent: Int = 0, outcome: GatewaySession.ActionType? = nil, duration: Int = 15
    ) -> GatewaySession {
        GatewaySession(
            id: uuid(1), appId: "instagram", contentId: "p-why-now", startTimestamp: now, durationSetting: duration,
            completionStatus: status, timeSpent: spent, actionOutcome: outcome, platform: "test", calendar: utc,
            endTimestamp: status == nil ? nil : now + TimeInterval(spent))
    }

    @Test func gatewaySessionRules() throws {
        let exists: (String) -> Bool = { _ in true }
        try session(status: .completed, spent: 20, outcome: .proceedToApp).validate(appExists: exists, contentExists: exists)
        #expect(throws: PauseValidationError.timeSpentTooLong(timeSpent: 21, limit: 20)) {
            try session(status: .completed, spent: 21, outcome: .proceedToApp).validate(appExists: exists, contentExists: exists)
        }
        #expect(throws: PauseValidationError.durationSetting(14)) {
            try session(duration: 14).validate(appExists: exists, contentExists: exists)
        }
        #expect(throws: PauseValidationError.durationSetting(46)) {
            try session(duration: 46).validate(appExists: exists, contentExists: exists)
        }
        #expect(throws: PauseValidationError.unknownApp("instagram")) {
            try session().validate(appExists: { _ in false }, contentExists: exists)
        }
        #expect(throws: PauseValidationError.unknownContent("p-why-now")) {
            try session().validate(appExists: exists, contentExists: { _ in false })
        }
        #expect(throws: PauseValidationError.self) {
            try session(status: .exited, outcome: .proceedToApp).validate(appExists: exists, contentExists: exists)
        }
        #expect(throws: PauseValidationError.self) {
            try session(status: .timeout, outcome: .exitToHome).validate(appExists: exists, contentExists: exists)
        }
        // Fields that must agree with each other, as the store's CHECKs say.
        var noEnd = session(status: .completed, spent: 15, outcome: .proceedToApp)
        noEnd.endTimestamp = nil
        #expect(
            throws: PauseValidationError.inconsistentRecord(
                field: "endTimestamp", rule: "A pause has an endTimestamp exactly when it has a completionStatus")
        ) {
            try noEnd.validate(appExists: exists, contentExists: exists)
        }
        var wrongDay = session()
        wrongDay.localDay = wrongDay.localDay.adding(days: 1)
        #expect(throws: PauseValidationError.self) { try wrongDay.validate(appExists: exists, contentExists: exists) }
        var unknownZone = session()
        unknownZone.timeZoneIdentifier = "../../dev/zero"
        #expect(throws: PauseValidationError.inconsistentRecord(field: "timeZoneIdentifier", rule: "Unknown time zone \"../../dev/zero\""))
        {
            try unknownZone.validate(appExists: exists, contentExists: exists)
        }
        #expect(GatewaySession.CompletionType.forceQuit.rawValue == "force_quit")
        #expect(GatewaySession.ActionType.proceedToApp.rawValue == "proceed_to_app")
    }

    @Test func finishingMeasuresTimeSpentAndOnlyOnce() throws {
        var s = session()
        #expect(throws: PauseValidationError.self) { try s.finish(.completed, outcome: .proceedToApp, at: now + 5) }
        #expect(s.isOpen, "a refused finish changes nothing")
        try s.finish(.completed, outcome: .proceedToApp, at: now + 17)
        #expect(s.timeSpent == 15)
        #expect(s.completionStatus == .completed)
        #expect(throws: PauseValidationError.sessionAlreadyFinished) { try s.finish(.exited, outcome: .exitToHome, at: now + 18) }
        var exited = session()
        try exited.finish(.exited, outcome: .exitToHome, at: now + 4)
        #expect(exited.timeSpent == 4)
    }

    @Test func anOpenSessionPastItsDurationAndGraceTimesOut() {
        var s = session(duration: 30)
        let early = s.recoverIfAbandoned(at: now + 35)
        #expect(!early, "still within the grace period")
        let recovered = s.recoverIfAbandoned(at: now + 36)
        #expect(recovered)
        #expect(s.completionStatus == .timeout)
        #expect(s.actionOutcome == nil)
        #expect(s.endTimestamp == now + 35)
        #expect(s.timeSpent == 30)
    }

    @Test func preferencesDefaultsAndLimits() {
        let p = PausePreferences.default
        #expect(p.timerDuration == 15)
        #expect(p.selectedCategories == Set(MindfulnessContent.ContentCategory.allCases))
        #expect(p.analyticsOptIn == false)
        #expect(p.id == "user_preferences")
        var bad = p
        bad.timerDuration = 46
        #expect(throws: PauseValidationError.timerDuration(46)) { try bad.validate() }
        bad = p
        bad.enabledApps = Set((0..<11).map { "app\($0)" })
        #expect(throws: PauseValidationError.tooManyEnabledApps(11)) { try bad.validate() }
        bad = p
        bad.selectedCategories = []
        #expect(throws: PauseValidationError.noCategories) { try bad.validate() }
    }

    @Test func usageStatisticsPerAppPerLocalDayWithStreaks() throws {
        func s(_ n: Int, _ at: String, app: String = "instagram", _ status: GatewaySession.CompletionType?, spent: Int) -> GatewaySession {
            GatewaySession(
                id: uuid(n), appId: app, contentId: "c", startTimestamp: instant(at), durationSetting: 15, completionStatus: status,
                timeSpent: spent, actionOutcome: status == .completed ? .proceedToApp : status == .exited ? .exitToHome : nil,
                platform: "t", calendar: newYork)
        }
        let sessions = [
            s(1, "2025-03-08T15:00:00Z", .completed, spent: 15),
            s(2, "2025-03-09T15:00:00Z", .completed, spent: 15),
            s(3, "2025-03-09T16:00:00Z", .exited, spent: 5),
            s(4, "2025-03-09T17:00:00Z", .completed, spent: 15),
            s(5, "2025-03-09T18:00:00Z", nil, spent: 0),
            s(6, "2025-03-10T03:30:00Z", .exited, spent: 3),  // 23:30 EDT on the 9th
            s(7, "2025-03-09T15:00:00Z", app: "x", .exited, spent: 2),
        ]
        let stats = UsageStatistics.derive(from: sessions, calendar: newYork)
        let day9 = try #require(stats.first { $0.appId == "instagram" && $0.date == day("2025-03-09") })
        #expect(day9.id == "2025-03-09_instagram")
        #expect(day9.totalSessions == 5)
        #expect(day9.completedSessions == 2)
        #expect(day9.exitedSessions == 2)
        #expect(day9.notOpenedSessions == 2, "the two exits; the open pause has not ended, the others went on")
        #expect(day9.avgTimeSpent == Double(15 + 5 + 15 + 3) / 4)
        #expect(day9.streakCount == 2)
        #expect(day9.completionRate == 0.4)
        #expect(!day9.meetsTarget)
        let day8 = try #require(stats.first { $0.date == day("2025-03-08") })
        #expect(day8.meetsTarget)
        #expect(day8.streakCount == 1)
        #expect(stats.first { $0.appId == "x" }?.streakCount == 0)
        #expect(stats.first?.date == day("2025-03-09"), "newest first")
        #expect(UsageStatistics.retentionStart(today: day("2025-03-31")) == day("2025-03-02"))
    }
}

@Suite("Adaptive friction: a weekly step within your length…45 s")
struct AdaptiveFrictionTests {
    let today = LocalDay("2025-06-16")!
    typealias W = AdaptiveFriction.Window

    @Test func theLengthFollowsTheExitRateOneStepAWeek() {
        let start = AdaptiveFriction(appId: "x", duration: 20)
        // Exits fell from 80% to 20%: the pause is working less, so it lengthens.
        let longer = start.reviewed(today: today, base: 20, recent: W(finished: 10, exits: 2), earlier: W(finished: 10, exits: 8))
        #expect(longer.duration == 25 && longer.lastChange == 5 && longer.reviewedDay == today)
        #expect(longer.recentExitRate == 0.2 && longer.earlierExitRate == 0.8)
        // Exits rose: it relaxes, never below the length you set.
        let relaxed = longer.reviewed(
            today: today.adding(days: 7), base: 20, recent: W(finished: 10, exits: 9), earlier: W(finished: 10, exits: 2))
        #expect(relaxed.duration == 20 && relaxed.lastChange == -5)
        let floor = relaxed.reviewed(
            today: today.adding(days: 14), base: 20, recent: W(finished: 10, exits: 10), earlier: W(finished: 10, exits: 1))
        #expect(floor.duration == 20 && floor.lastChange == 0)
        // Never past 45 s.
        let top = AdaptiveFriction(appId: "x", duration: 45).reviewed(
            today: today, base: 15, recent: W(finished: 9, exits: 0), earlier: W(finished: 9, exits: 9))
        #expect(top.duration == 45 && top.lastChange == 0)
    }

    @Test func tooFewPausesOrASmallDifferenceChangeNothing() {
        let start = AdaptiveFriction(appId: "x", duration: 30)
        #expect(
            start.reviewed(today: today, base: 15, recent: W(finished: 4, exits: 0), earlier: W(finished: 10, exits: 10)).duration == 30)
        #expect(
            start.reviewed(today: today, base: 15, recent: W(finished: 10, exits: 5), earlier: W(finished: 100, exits: 54)).duration == 30)
        #expect(
            start.reviewed(today: today, base: 15, recent: W(finished: 40, exits: 19), earlier: W(finished: 40, exits: 20)).lastChange == 0)
        // A length set above the adapted one wins at once.
        #expect(start.effectiveDuration(base: 40) == 40)
        #expect(start.reviewed(today: today, base: 40, recent: W(finished: 0, exits: 0), earlier: W(finished: 0, exits: 0)).duration == 40)
    }

    @Test func aReviewIsDueOnceAWeek() {
        var f = AdaptiveFriction(appId: "x", duration: 15)
        #expect(f.isDue(today: today))
        f.reviewedDay = today
        #expect(!f.isDue(today: today.adding(days: 6)))
        #expect(f.isDue(today: today.adding(days: 7)))
        let (recent, earlier) = AdaptiveFriction.windows(today: today)
        #expect(recent == LocalDay("2025-06-09")!...LocalDay("2025-06-15")!)
        #expect(earlier == LocalDay("2025-06-02")!...LocalDay("2025-06-08")!)
    }
}
