import Foundation
import Testing

@testable import GroveCore

/// Free text is bounded where it is kept: theme names, fonts, an app's names and URLs, an author, a
/// timer's icon. Each rule names its field, and a refused value is quoted, not repeated.
@Suite("Text bounds: every kept free-text field has a limit and a reason")
struct TextBoundsTests {
    static let theme = IntentionTheme(
        id: UUID(), name: "Dusk", backgroundColor: "#000000", textColor: "#FFFFFF", createdAt: Date(timeIntervalSince1970: 0))

    @Test func fontNamesAreAStackOrAPlainFamilyName() {
        for good in ["", "  ", "serif", "MONO", "Comic Neue", "Noto Sans-JP", "Źródło 2", String(repeating: "a", count: 60)] {
            #expect(FontStack.isStorable(good), "\(good)")
        }
        for bad in [
            "x; background:url(evil)", "Sans\u{0}serif", "'Quoted'", "a,b", "</style>", String(repeating: "a", count: 61),
            "e\u{301}" + String(repeating: "a", count: 59),
        ] {
            #expect(!FontStack.isStorable(bad), "\(bad)")
            #expect(FontStack.css(for: bad) == nil, "\(bad)")
        }
    }

    @Test func aThemeNameHasAtMost100CharactersAndItsFontFollowsTheRule() throws {
        var theme = Self.theme
        theme.name = String(repeating: "n", count: 100)
        try theme.validate()
        theme.name += "n"
        #expect(throws: IntentionValidationError.themeNameTooLong(101)) { try theme.validate() }
        #expect(IntentionValidationError.themeNameTooLong(101).field == "name")
        theme = Self.theme
        theme.fontName = "Serif"
        try theme.validate()
        theme.fontName = "x; color:red"
        #expect(throws: IntentionValidationError.invalidFont(field: "fontName")) { try theme.validate() }
    }

    @Test func anIntentionsFontAndThePreferredFontFollowTheRule() throws {
        var intention = Intention(
            id: UUID(), text: "Walk", scope: .day, date: try #require(LocalDay(year: 2025, month: 5, day: 1)),
            createdAt: Date(timeIntervalSince1970: 0), customFont: "rounded")
        try intention.validate()
        intention.customFont = String(repeating: "f", count: 5_000)
        #expect(throws: IntentionValidationError.invalidFont(field: "customFont")) { try intention.validate() }
        var preferences = UserPreferences()
        preferences.defaultFont = "a\u{0}b"
        #expect(throws: IntentionValidationError.invalidFont(field: "defaultFont")) { try preferences.validate() }
        let message = IntentionValidationError.invalidFont(field: "defaultFont").message
        #expect(
            message
                == "defaultFont must be one of system, serif, sans, rounded, mono, handwritten or a font's name (letters, digits, spaces, hyphens; at most 60)"
        )
    }

    @Test func anAppsNamesAndURLsAndAnAuthorAreBounded() throws {
        let app = SocialApp(
            id: "sweep", displayName: "Sweep", urlScheme: "sweep://", iconAssetName: "sweep", webURL: "https://example.com/")
        try app.validate()
        for (field, edit) in [
            ("displayName", { (a: inout SocialApp) in a.displayName = String(repeating: "d", count: 101) }),
            ("iconAssetName", { $0.iconAssetName = String(repeating: "i", count: 101) }),
            ("urlScheme", { $0.urlScheme = String(repeating: "s", count: 98) + "://" }),
            ("webURL", { $0.webURL = "https://example.com/" + String(repeating: "p", count: 2_100) }),
        ] {
            var changed = app
            edit(&changed)
            #expect(throws: PauseValidationError.self) { try changed.validate() }
            do { try changed.validate() } catch { #expect(error.field == field) }
        }
        var content = MindfulnessContent(
            id: "c-1", type: .quote, text: String(repeating: "Breathe. ", count: 8), category: .mindfulness, author: "Someone")
        try content.validate()
        content.author = String(repeating: "a", count: 201)
        #expect(throws: PauseValidationError.textTooLong(field: "author", limit: 200, length: 201)) { try content.validate() }
    }

    @Test func aTimersIconIsBounded() throws {
        var timer = NamedTimer(id: UUID(), name: "Tea", durationInSeconds: 180, createdAt: Date(timeIntervalSince1970: 0))
        timer.icon = String(repeating: "☕", count: 100)
        try timer.validate()
        timer.icon += "☕"
        #expect(throws: TimerValidationError.iconTooLong) { try timer.validate() }
    }

    @Test func aRefusedValueIsQuotedNotRepeated() {
        #expect("abc".quotedForMessage == "\"abc\"")
        let long = String(repeating: "x", count: 5_000)
        #expect(long.quotedForMessage == "\"" + String(repeating: "x", count: 80) + "…\"")
        #expect(PauseValidationError.invalidWebURL(long).message.count < 200)
        #expect(IntentionValidationError.invalidColor(field: "textColor", value: long).message.count < 200)
    }
}
