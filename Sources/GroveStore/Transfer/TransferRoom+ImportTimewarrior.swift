import Foundation
import GRDB
import GroveCore

extension AppDatabase {

    /// A timewarrior interval: `{"id":1,"start":"20250101T090000Z","end":"…","tags":[…]}`; nil when
    /// it is not an object with a readable start.
    static func interval(_ value: JSONStreamReader.Value, row: Int) -> ForeignSession? {
        guard case .object(let members) = value else { return nil }
        var start: Date?, end: Date?, tags: [String] = []
        for (key, member) in members {
            switch (key, member) {
            case ("start", .string(let text)): start = timewarriorInstant(text)
            case ("end", .string(let text)):
                // An end that is there but unreadable is a broken row, not a running interval.
                guard let instant = timewarriorInstant(text) else { return nil }
                end = instant
            case ("tags", .array(let items)):
                // A tag that is not a string cannot be a Grove tag: kept as text so that the rule names it.
                tags = items.map { item in if case .string(let tag) = item { tag } else { "" } }
            default: break
            }
        }
        guard let start else { return nil }
        return ForeignSession(row: row, start: start, end: end, tags: tags)
    }

    /// `20250101T090000Z`, timewarrior's UTC instants.
    static func timewarriorInstant(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        guard bytes.count == 16, bytes[8] == UInt8(ascii: "T"), bytes[15] == UInt8(ascii: "Z") else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var n = 0
            for i in range {
                let d = Int(bytes[i]) - 48
                guard (0...9).contains(d) else { return nil }
                n = n * 10 + d
            }
            return n
        }
        guard let y = number(0..<4), let mo = number(4..<6), let d = number(6..<8), let h = number(9..<11), let mi = number(11..<13),
            let s = number(13..<15),
            let day = LocalDay(year: y, month: mo, day: d), h < 24, mi < 60, s < 60
        else { return nil }
        return Date(timeIntervalSince1970: TimeInterval(day.dayNumber * 86_400 + h * 3600 + mi * 60 + s))
    }
}

extension TransferRoom {
    /// Imports `timew export` output, streamed: each closed interval becomes a completed session
    /// (same rules as `grove focus log`); an open interval, an overlap, an interval longer than a
    /// session may be is skipped with the reason. Ids come from the interval itself, so importing the
    /// same file again adds nothing. One transaction.
    public func importTimewarrior(streamingFrom read: @escaping () throws -> [UInt8]?) throws -> ForeignImportReport {
        var reader = JSONStreamReader(read: read)
        var index = 0
        return try database.importForeign(.timewarrior) { () throws -> ForeignSession?? in
            do {
                if index == 0 {
                    try reader.expect(UInt8(ascii: "["))
                    if try reader.take(UInt8(ascii: "]")) { return nil }
                } else {
                    guard try reader.take(UInt8(ascii: ",")) else {
                        try reader.expect(UInt8(ascii: "]"))
                        guard try reader.isAtEnd() else { throw reader.failure("more after the document") }
                        return nil
                    }
                }
                index += 1
                let value = try reader.value()
                return .some(AppDatabase.interval(value, row: index))
            } catch let failure as JSONStreamReader.Failure {
                throw StoreError.unreadableExport("This is not `timew export` output: \(failure.description)")
            }
        }
    }
}
