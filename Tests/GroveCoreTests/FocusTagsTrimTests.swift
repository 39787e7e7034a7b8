import Foundation
import Testing

@testable import GroveCore

/// `FocusTags.trimmed` skips Foundation when nothing needs trimming: it must trim exactly as
/// Foundation's `.whitespacesAndNewlines` does.
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
}
