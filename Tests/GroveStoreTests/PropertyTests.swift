import Foundation
import GroveCore
import GroveTestSupport
import PropertyBased
import Testing

@testable import GroveStore

/// Validation and the schema are one set of rules: whatever passes validation is stored, and what the
/// schema would refuse is refused first by validation, with a message naming the field.
@Suite("Property checks: validation agrees with the schema; imports never trap", .heavy)
struct StorePropertyTests {
    /// Text from characters where counting differs: ASCII, combining marks, ZWJ emoji, spaces, NUL.
    static let alphabet: [Character] = ["a", "Z", " ", "\t", "\n", "é", "e\u{301}", "👨‍👩‍👧‍👦", "🏳️‍🌈", "\u{0}", "\u{3000}", "'", "\""]

    static func texts(_ length: ClosedRange<Int>) -> Generator<String, Generator<Int, Shrink.Integer<Int>>.ArrayShrink> {
        Gen.int(in: 0...(alphabet.count - 1)).array(of: length).map { String($0.map { alphabet[$0] }) }
    }

    /// The import's trim keeps Foundation's meaning of blanks around a CSV field (tabs, U+3000, no-break
    /// spaces) while it skips Foundation for the plain fields most rows hold.
    @Test func aCSVFieldIsTrimmedAsFoundationTrimsIt() async {
        await propertyCheck(count: 3000, input: Self.texts(0...8)) { text in
            for field in [text, "\u{A0}" + text, text + "\u{2003}", "x" + text + "y", " " + text + "!"] {
                #expect(CSVReader.trimmed(field) == field.trimmingCharacters(in: .whitespaces), "\(field.debugDescription)")
            }
        }
    }

    /// Runs `write`; it must either succeed or fail with a validation error, never reach SQLite's rules.
    static func expectValidatedFirst(_ label: String, _ text: String, _ write: () throws -> Void) {
        do {
            try write()
        } catch let violation as ConstraintViolation {
            Issue.record("\(label) \(text.debugDescription) passed validation but broke the schema: \(violation.message)")
        } catch is any GroveValidationError {
        } catch {
            Issue.record("\(label) \(text.debugDescription) failed with \(error)")
        }
    }

    @Test func everyTextFieldIsValidatedTheWayTheSchemaMeasuresIt() async throws {
        let (db, clock) = try makeStore()
        let timer = try db.timers.create(name: "Base", durationInSeconds: 60)
        await propertyCheck(count: 150, input: Self.texts(0...130)) { text in
            Self.expectValidatedFirst("timer name", text) { try db.timers.create(name: text, durationInSeconds: 60) }
            Self.expectValidatedFirst("timer notes", text) { try db.timers.update(id: timer.id, notes: String(repeating: text, count: 20)) }
            Self.expectValidatedFirst("to-do", text) { try db.timers.addTodo(timerID: timer.id, text: String(repeating: text, count: 5)) }
            Self.expectValidatedFirst("intention", text) { try db.intentions.set(String(repeating: text, count: 5), scope: .day) }
            Self.expectValidatedFirst("theme name", text) {
                try ThemeRepository(database: db).create(
                    IntentionTheme(id: UUID(), name: text, backgroundColor: "#000000", textColor: "#FFFFFF", createdAt: clock.now))
            }
            Self.expectValidatedFirst("app name", text) {
                try db.pause.addApp(SocialApp(id: "p\(UInt32.random(in: 0...UInt32.max))", displayName: text, urlScheme: "p://"))
            }
            Self.expectValidatedFirst("content", text) {
                try db.content.save([
                    MindfulnessContent(
                        id: "p-\(UInt32.random(in: 0...UInt32.max))", type: .prompt, text: String(repeating: text, count: 7),
                        category: .nature)
                ])
            }
        }
    }

    @Test func sessionNumbersOfAnySizeAreRefusedNotTrappedOn() async throws {
        let (db, _) = try makeStore()
        let extremes: [Double] = [.infinity, -.infinity, .nan, 1e300, -1e300, .greatestFiniteMagnitude, 9.3e15, -1]
        await propertyCheck(count: 200, input: Gen.double(in: -1e20...1e20), Gen.int(in: 0...(extremes.count))) { value, pick in
            let number = pick < extremes.count ? extremes[pick] : value
            for field in 0..<3 {
                var session = FocusSession(
                    id: UUID(), startTime: instant("2025-04-01T09:00:00Z"), endTime: instant("2025-04-01T09:25:00Z"),
                    state: .completed, duration: 1500, pausedDuration: 0, createdAt: instant("2025-04-01T09:25:00Z"),
                    plannedDuration: 1500, timeZoneIdentifier: "UTC", endDay: day("2025-04-01"))
                switch field {
                case 0: session.duration = number
                case 1: session.pausedDuration = number
                default: session.plannedDuration = number
                }
                do { try db.focus.insert([session]) } catch is any GroveValidationError {} catch {
                    Issue.record("\(number) in field \(field): \(error)")
                }
            }
        }
    }

    /// Random edits of a real export: every import either succeeds or is refused as a whole with a
    /// validation error; nothing traps, and a refused import leaves the store as it was.
    @Test func mutatedExportsAreImportedOrRefusedWhole() async throws {
        let (source, clock) = try makeStore(at: "2025-03-10T15:00:00Z", zone: "America/New_York")
        try source.focus.log(start: instant("2025-03-09T06:00:00Z"), end: instant("2025-03-09T06:25:00Z"))
        try source.timers.create(name: "Tea", durationInSeconds: 180, todos: ["Kettle"])
        let (g, _) = try source.pause.start(appId: "youtube", platform: "test")
        clock.advance(by: 20)
        try source.pause.finishSession(id: g.id, status: .completed, outcome: .proceedToApp)
        try source.intentions.set("Read", scope: .week)
        let original = Array(try source.transfer.exportJSON())
        let replacements: [[UInt8]] = [
            "1e300", "-1", "null", "\"\"", "0", "\"x\"", "[]", "{}", "true", "99999999999999999999", "\"2025-02-30\"",
        ].map { Array($0.utf8) }
        await propertyCheck(
            count: 150, input: Gen.int(in: 0...(original.count - 1)), Gen.int(in: 0...(replacements.count - 1)), Gen.int(in: 1...12)
        ) { at, pick, width in
            // Replace a few bytes somewhere with a hostile value.
            var bytes = original
            let end = min(bytes.count, at + width)
            bytes.replaceSubrange(at..<end, with: replacements[pick])
            guard let (target, _) = try? makeStore(at: "2025-03-10T15:00:00Z", zone: "America/New_York") else { return }
            let before = try snapshot(target)
            do {
                try target.transfer.importJSON(Data(bytes))
            } catch is any GroveValidationError {
                #expect(try snapshot(target) == before)
            } catch is StoreError {
                #expect(try snapshot(target) == before)
            } catch {
                Issue.record("import failed with \(error)")
            }
        }
    }
}
