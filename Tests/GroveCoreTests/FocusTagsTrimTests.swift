import Foundation
import Testing

@testable import GroveCore

/// `FocusTags.trimmed` skips Foundation when nothing needs trimming: it must trim exactly as
/// Foundation's `.whitespacesAndNewlines` does. `check` and `folded` read ASCII tags on their bytes:
/// the same verdicts and forms as the rules on code points.
@Suite struct FocusTagsTrimTests {
    @Test(arguments: [
        "essay", " essay", "essay ", "\tdeep work\n", "\u{00A0}nbsp\u{00A0}", "\u{3000}ideographic", "line\u{2028}",
        "\u{0085}next", "\u{200B}zero-width", "é", "", " ", "👨‍👩‍👧‍👦", "mid dle", "\r\n", "\u{FEFF}bom", "x\u{1680}",
    ])
    func trimsAsFoundationDoes(text: String) {
        #expect(FocusTags.trimmed(text) == text.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    @Test func everyScalarAtEitherEndIsTrimmedAsFoundationTrimsIt() {
        // Every scalar of the Basic Multilingual Plane, at the start and at the end of a word.
        for value in UInt32(0)...0xFFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            for text in [String(scalar) + "a", "a" + String(scalar)] {
                let expected = text.trimmingCharacters(in: .whitespacesAndNewlines)
                if FocusTags.trimmed(text) != expected { Issue.record("U+\(String(value, radix: 16))") }
            }
        }
    }

    /// The rules on code points, as `check` said them before reading ASCII on its bytes.
    static func refusedByScalars(_ tag: String) -> Bool {
        tag.isEmpty || tag.unicodeScalars.count > FocusTags.maxLength || tag.unicodeScalars.contains(",")
            || tag.unicodeScalars.contains { $0.properties.generalCategory == .control }
    }

    @Test func everyScalarOfTheFirstPlanesIsCheckedAsByItsProperties() {
        for value in UInt32(0)...0x2FFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            for tag in ["a" + String(scalar) + "b", String(repeating: "x", count: 39) + String(scalar)] {
                let refused = (try? FocusTags.check(tag)) == nil
                if refused != Self.refusedByScalars(tag) { Issue.record("U+\(String(value, radix: 16)) in \(tag.debugDescription)") }
            }
        }
        #expect((try? FocusTags.check(String(repeating: "x", count: 41))) == nil)
        #expect((try? FocusTags.check(String(repeating: "é", count: 40))) != nil)
    }

    @Test(arguments: ["essay", "Essay", "DEEP work", "éÉ", "Ünïcode Z", "a-Z_0", "", "👨‍👩‍👧‍👦X"])
    func foldsAsItFoldedEveryScalar(tag: String) {
        let expected = String(
            String.UnicodeScalarView(tag.unicodeScalars.map { ("A"..."Z").contains($0) ? Unicode.Scalar($0.value + 32) ?? $0 : $0 }))
        #expect(FocusTags.folded(tag) == expected)
    }
}
