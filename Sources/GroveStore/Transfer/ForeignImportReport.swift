import Foundation
import GRDB
import GroveCore

/// What an import of another tool's file (or Grove's CSV) did: every row is imported, found already
/// there (a re-import), or skipped with the reason.
public struct ForeignImportReport: Sendable, Codable, Equatable {
    public struct Skipped: Sendable, Codable, Equatable {
        /// The row (1 is the first row after a CSV's header; the interval's position for timewarrior).
        public var row: Int
        public var reason: String
    }

    public var format: ImportFormat
    public var imported = 0
    public var alreadyThere = 0
    public var skippedCount = 0
    /// The first 100 skipped rows and why (the count has them all).
    public var skipped: [Skipped] = []
    /// Imported sessions that carry tags.
    public var tagged = 0

    public init(format: ImportFormat) {
        self.format = format
    }

    mutating func skip(_ row: Int, _ reason: String) {
        skippedCount += 1
        if skipped.count < 100 { skipped.append(Skipped(row: row, reason: reason)) }
    }

    /// "Imported 120 sessions; 3 were already there; 2 skipped: row 7: …".
    public var sentence: String {
        var parts = ["Imported \(imported) session\(imported == 1 ? "" : "s")"]
        if alreadyThere > 0 { parts.append("\(alreadyThere) \(alreadyThere == 1 ? "was" : "were") already there") }
        if skippedCount > 0 { parts.append("\(skippedCount) skipped") }
        var text = parts.joined(separator: "; ") + "."
        for s in skipped { text += "\n  row \(s.row): \(s.reason)" }
        if skippedCount > skipped.count { text += "\n  … and \(skippedCount - skipped.count) more" }
        if tagged > 0 { text += "\n\(tagged) of the imported sessions carry tags (grove stats --tag NAME)." }
        return text
    }
}

/// One session as another tool wrote it, before Grove's rules.
struct ForeignSession {
    var row: Int
    var start: Date
    var end: Date?
    var abandoned = false
    /// Its tags as the file had them (checked by Grove's rules when imported).
    var tags: [String] = []
    /// A session Grove itself wrote (its CSV export): kept as it was, id included.
    var stored: FocusSession?
}
