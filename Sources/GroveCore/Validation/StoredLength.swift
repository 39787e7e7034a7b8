import Foundation

extension String {
    /// The length of this text as Grove's rules and the store both measure it: Unicode scalars, which
    /// is what SQLite's `length()` counts in the schema's `CHECK`s. Counting grapheme clusters in Swift
    /// and code points in SQL let text pass validation and then fail in the database (an emoji with
    /// modifiers is one Character but several scalars), so both sides count scalars.
    public var storedLength: Int { unicodeScalars.count }

    /// Whether the text has a NUL character (SQLite's `length()` stops at one; such text is refused).
    public var containsNUL: Bool { unicodeScalars.contains("\u{0}") }
}
