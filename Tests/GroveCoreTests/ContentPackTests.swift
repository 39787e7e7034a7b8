import Foundation
import Testing

@testable import GroveCore

@Suite("Content packs: read whole, items checked one by one")
struct ContentPackTests {
    static let text = "Between stimulus and response there is a space; in that space is our power to choose a response."

    static func item(_ id: String, text: String = text, category: String = "mindfulness", extra: String = "") -> String {
        #"{"id":"\#(id)","type":"quote","text":"\#(text)","category":"\#(category)"\#(extra)}"#
    }

    func parse(_ json: String) throws(ContentPackError) -> ContentPack { try ContentPack.parse(Data(json.utf8)) }

    @Test func anObjectWithItemsAndABareArrayAreBothPacks() throws {
        let object = try parse(
            #"{"format":1,"name":"Calm","items":[\#(Self.item("a")),\#(Self.item("b", extra: #","priority":9,"author":"Anon""#))]}"#)
        #expect(object.name == "Calm")
        #expect(object.items.map(\.id) == ["a", "b"])
        #expect(object.items[1].priority == 9 && object.items[1].author == "Anon")
        #expect(object.items[0].priority == MindfulnessContent.defaultPriority)
        #expect(object.items[0].length == MindfulnessContent.readingLength(of: Self.text))
        let array = try parse("[\(Self.item("a"))]")
        #expect(array.items.map(\.id) == ["a"] && array.skipped.isEmpty)
    }

    @Test func aPackCannotClaimCountersOrBundling() throws {
        let pack = try parse("[\(Self.item("a", extra: #","isBundled":true,"timesShown":99,"lastUsed":"2025-01-01T00:00:00Z""#))]")
        #expect(pack.items[0].isBundled == false && pack.items[0].timesShown == 0 && pack.items[0].lastUsed == nil)
    }

    @Test func badItemsAreSkippedWithTheFieldAndTheRule() throws {
        let json =
            "["
            + [
                Self.item("good"),
                Self.item("short", text: "Too short."),
                Self.item("cat", category: "cooking"),
                #"{"id":"noText","type":"quote","category":"nature"}"#,
                #"{"id":"prio","type":"quote","text":"\#(Self.text)","category":"nature","priority":11}"#,
                #"{"id":"typ","type":"quote","text":"\#(Self.text)","category":"nature","priority":"high"}"#,
                #""just a string""#,
                Self.item("bad id!"),
                Self.item("good"),
            ].joined(separator: ",") + "]"
        let pack = try parse(json)
        #expect(pack.items.map(\.id) == ["good"])
        let reasons = Dictionary(uniqueKeysWithValues: pack.skipped.map { ($0.index, $0.reason) })
        #expect(reasons[1]?.hasPrefix("text: Content text must be 50-750 characters") == true)
        #expect(reasons[2]?.hasPrefix("category: must be one of stoicism") == true)
        #expect(reasons[3] == "text: missing")
        #expect(reasons[4] == "priority: Priority must be 1-10 (got 11)")
        #expect(reasons[5] == "priority: must be a whole number")
        #expect(reasons[6]?.contains("must be an object") == true)
        #expect(reasons[7]?.hasPrefix("contentId:") == true)
        #expect(reasons[8] == "id: an earlier item has the same id")
        #expect(pack.skipped.map(\.id) == ["short", "cat", "noText", "prio", "typ", nil, "bad id!", "good"])
    }

    @Test func whatIsNotAPackIsRefusedWhole() {
        #expect(throws: ContentPackError.self) { try parse("{not json") }
        #expect { try parse("{not json") } throws: {
            ($0 as? ContentPackError).map { if case .notJSON = $0 { true } else { false } } ?? false
        }
        #expect(throws: ContentPackError.notAPack) { try parse(#"{"name":"x"}"#) }
        #expect(throws: ContentPackError.notAPack) { try parse(#"{"items":{"a":1}}"#) }
        #expect(throws: ContentPackError.notAPack) { try parse(#""text""#) }
        #expect(throws: ContentPackError.unsupportedFormat(2)) { try parse(#"{"format":2,"items":[\#(Self.item("a"))]}"#) }
        #expect(throws: ContentPackError.unsupportedFormat(nil)) { try parse(#"{"format":"1","items":[\#(Self.item("a"))]}"#) }
        #expect(throws: ContentPackError.noUsableItems(skipped: [])) { try parse("[]") }
        #expect { try parse("[\(Self.item("x", text: "short"))]") } throws: { error in
            guard case .noUsableItems(let skipped) = error as? ContentPackError else { return false }
            return skipped.count == 1 && (error as? ContentPackError)?.message.contains("item 0 (x): text:") == true
        }
        #expect(throws: ContentPackError.tooLarge(bytes: ContentPack.maxBytes + 1)) {
            try ContentPack.parse(Data(repeating: 0x20, count: ContentPack.maxBytes + 1))
        }
        let many = "[" + Array(repeating: "{}", count: ContentPack.maxItems + 1).joined(separator: ",") + "]"
        #expect(throws: ContentPackError.tooManyItems(ContentPack.maxItems + 1)) { try parse(many) }
    }

    @Test func sourceURLsAreCheckedAndFreshnessFollowsTheDay() throws {
        #expect(try ContentSource.normalizedURL("  https://example.org/pack.json ") == "https://example.org/pack.json")
        #expect(try ContentSource.normalizedURL("http://127.0.0.1:8000/p?x=1") == "http://127.0.0.1:8000/p?x=1")
        for bad in [
            "", "example.org/pack.json", "ftp://example.org/p", "file:///etc/passwd", "https://", "https://u:p@example.org/p",
            "https://example.org/p#x", "https://exa mple.org/p", "https://example.org/\u{0}",
            "https://example.org/" + String(repeating: "a", count: 2_100),
        ] {
            #expect(throws: PauseValidationError.self, "\(bad)") { try ContentSource.normalizedURL(bad) }
        }
        let t0 = Date(timeIntervalSince1970: 1_000_000)
        var source = ContentSource(url: "https://example.org/p", addedAt: t0)
        #expect(source.isDue(at: t0))
        source.lastFetched = t0
        source.lastChecked = t0
        #expect(!source.isDue(at: t0.addingTimeInterval(86_399)))
        #expect(source.isDue(at: t0.addingTimeInterval(86_400)))
        source.lastError = "offline"
        #expect(!source.isDue(at: t0.addingTimeInterval(3_599)))
        #expect(source.isDue(at: t0.addingTimeInterval(3_600)))
    }
}
