import Foundation
import GRDB
import GroveCore

extension AppDatabase {

    static let groveCSVColumns = [
        "id", "startTime", "endTime", "state", "duration", "pausedDuration", "plannedDuration", "timeZone", "endDay", "tags",
    ]

    /// ISO 8601 (`2025-03-09T07:00:00Z`, `…+01:00`, with or without fractions) or a wall-clock
    /// `YYYY-MM-DD HH:MM[:SS]` / `YYYY-MM-DDTHH:MM[:SS]` in `calendar`'s zone.
    static func csvInstant(_ text: String, calendar: ZonedCalendar) -> Date? {
        if let instant = GroveExport.parseInstant(text) { return instant }
        if let instant = javaInstant(text, calendar: calendar) { return instant }
        for options: ISO8601DateFormatter.Options in [[.withInternetDateTime], [.withInternetDateTime, .withFractionalSeconds]] {
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = options
            if let instant = formatter.date(from: text) { return instant }
        }
        let parts = text.split(whereSeparator: { $0 == " " || $0 == "T" })
        guard parts.count == 2, let day = LocalDay(parts[0]) else { return nil }
        let clock = parts[1].split(separator: ":").map { Int($0) }
        guard (2...3).contains(clock.count), clock.allSatisfy({ $0 != nil }), let h = clock[0], let m = clock[1], (0..<24).contains(h),
            (0..<60).contains(m)
        else { return nil }
        let s = clock.count == 3 ? clock[2] ?? 0 : 0
        guard (0..<60).contains(s) else { return nil }
        return calendar.instant(of: day, secondsIntoDay: h * 3600 + m * 60 + s)
    }

    /// `Sat Jun 15 08:07:54 GMT+01:00 2019` (Java's `Date.toString()`, which the Forest app's export
    /// uses): the zone is `GMT`/`UTC` with an optional offset, or an abbreviation Foundation knows;
    /// an unknown one reads the time on `calendar`'s wall clock.
    static func javaInstant(_ text: String, calendar: ZonedCalendar) -> Date? {
        let parts = text.split(separator: " ")
        guard parts.count == 6, parts[5].count == 4, let year = Int(parts[5]), let dayOfMonth = Int(parts[2]) else { return nil }
        let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
        guard let month = months.firstIndex(of: parts[1].lowercased()).map({ $0 + 1 }),
            let day = LocalDay(year: year, month: month, day: dayOfMonth)
        else { return nil }
        let clock = parts[3].split(separator: ":").map { Int($0) }
        guard clock.count == 3, let h = clock[0], let m = clock[1], let s = clock[2], (0..<24).contains(h), (0..<60).contains(m),
            (0..<60).contains(s)
        else { return nil }
        let seconds = h * 3600 + m * 60 + s
        let zone = String(parts[4])
        var offset: Int?
        if zone == "GMT" || zone == "UTC" || zone == "Z" {
            offset = 0
        } else if (zone.hasPrefix("GMT") || zone.hasPrefix("UTC")), zone.count == 9 {
            // GMT+01:00
            let rest = Array(zone.utf8.dropFirst(3))
            if (rest[0] == UInt8(ascii: "+") || rest[0] == UInt8(ascii: "-")), rest[3] == UInt8(ascii: ":"),
                let hh = Int(String(decoding: rest[1...2], as: UTF8.self)), let mm = Int(String(decoding: rest[4...5], as: UTF8.self)),
                hh < 24, mm < 60
            {
                offset = (hh * 3600 + mm * 60) * (rest[0] == UInt8(ascii: "-") ? -1 : 1)
            } else {
                return nil
            }
        }
        let local = day.dayNumber * 86_400 + seconds
        if let offset { return Date(timeIntervalSince1970: TimeInterval(local - offset)) }
        if let known = TimeZone(abbreviation: zone) {
            return abbreviatedInstant(local: local, zone: known, daylight: daylightNames.contains(zone))
        }
        return calendar.instant(of: day, secondsIntoDay: seconds)
    }

    /// Abbreviations that name a zone's summer time; the rest name its standard time.
    static let daylightNames: Set<String> = [
        "EDT", "CDT", "MDT", "PDT", "AKDT", "HDT", "ADT", "NDT", "BST", "CEST", "MEST", "EEST", "WEST", "AEDT", "ACDT", "NZDT",
        "IDT", "MSD",
    ]

    /// `local` (seconds since 1970 on the wall clock) in the zone an abbreviation names. The
    /// abbreviation is an offset, not only a place: `01:30 EDT` and `01:30 EST` on a fall-back night
    /// are an hour apart, and reading both on the zone's first pass would put the second session an
    /// hour early, on top of the first. So the offset is the zone's standard one, plus its daylight
    /// saving for a summer name.
    static func abbreviatedInstant(local: Int, zone: TimeZone, daylight: Bool) -> Date {
        let guess = Date(timeIntervalSince1970: TimeInterval(local - zone.secondsFromGMT()))
        let standard = zone.secondsFromGMT(for: guess) - Int(zone.daylightSavingTimeOffset(for: guess))
        // The zone's daylight saving (an hour nearly everywhere) in the year of `local`; none where it has none.
        let shift =
            [0, 91, 182, 273].lazy.map { zone.daylightSavingTimeOffset(for: guess.addingTimeInterval(Double($0) * 86_400)) }
            .first { $0 > 0 }.map(Int.init) ?? 0
        return Date(timeIntervalSince1970: TimeInterval(local - standard - (daylight ? shift : 0)))
    }

    /// Seconds ("1500", "1500.5") or a clock length ("25:00", "1:05:00").
    static func csvDuration(_ text: String) -> TimeInterval? {
        if let seconds = Double(text), seconds.isFinite, seconds > 0, seconds < 366 * 86_400 { return seconds }
        let parts = text.split(separator: ":").map { Int($0) }
        guard (2...3).contains(parts.count), parts.allSatisfy({ $0 != nil && $0! >= 0 && $0! < 100_000 }) else { return nil }
        let numbers = parts.compactMap { $0 }
        return TimeInterval(numbers.reduce(0) { $0 * 60 + $1 })
    }
}

extension TransferRoom {
    /// Imports a CSV of sessions whose columns `map` names. Instants are ISO 8601 with a zone or
    /// offset, or `YYYY-MM-DD HH:MM[:SS]` on the wall clock of `zone` (the configured zone by default).
    public func importCSV(
        map: ColumnMap, zone: TimeZone? = nil, format: ImportFormat = .csv,
        streamingFrom read: @escaping () throws -> [UInt8]?
    ) throws -> ForeignImportReport {
        var reader = CSVReader(read: read)
        let given = zone.map { ZonedCalendar(timeZone: $0, firstWeekday: 1) }
        let calendar = try given ?? database.calendar()
        var columns: (start: Int, end: Int?, duration: Int?, tag: Int?, completed: Int?)?
        var row = 0
        return try database.importForeign(format, zone: given) { () throws -> ForeignSession?? in
            do {
                if columns == nil {
                    guard let header = try reader.next() else { return nil }
                    // A byte-order mark (spreadsheets write one) is not part of the first column's name.
                    var names = header.map { $0.trimmingCharacters(in: .whitespaces) }
                    if let first = names.first, first.hasPrefix("\u{FEFF}") { names[0] = String(first.dropFirst()) }
                    func column(_ name: String?) throws -> Int? {
                        guard let name else { return nil }
                        guard let i = names.firstIndex(of: name) else {
                            throw InvalidField(
                                "map", "The file has no column \"\(name)\" (its columns: \(names.prefix(20).joined(separator: ", ")))")
                        }
                        // Two columns of one name: which one holds the value cannot be known.
                        guard names.lastIndex(of: name) == i else {
                            throw InvalidField("map", "The file has two columns named \"\(name)\": rename one, or map another")
                        }
                        return i
                    }
                    columns = (
                        try column(map.start) ?? 0, try column(map.end), try column(map.duration), try column(map.tag),
                        try column(map.completed)
                    )
                }
                guard let fields = try reader.next(), let c = columns else { return nil }
                row += 1
                func field(_ i: Int?) -> String? {
                    guard let i, i < fields.count else { return nil }
                    let text = CSVReader.trimmed(fields[i])
                    return text.isEmpty ? nil : text
                }
                guard let start = field(c.start).flatMap({ AppDatabase.csvInstant($0, calendar: calendar) }) else { return .some(nil) }
                var end = field(c.end).flatMap { AppDatabase.csvInstant($0, calendar: calendar) }
                if end == nil, let duration = field(c.duration).flatMap(AppDatabase.csvDuration) {
                    end = start.addingTimeInterval(duration)
                }
                guard let end else { return .some(nil) }
                let abandoned =
                    try field(c.completed).map { value -> Bool in
                        guard let finished = ColumnMap.finished(value) else {
                            throw InvalidField(
                                "completed",
                                "Row \(row): column \"\(map.completed ?? "")\" must say whether the session finished: true or false, yes or no, 1 or 0 (got \(value.quotedForMessage))"
                            )
                        }
                        return !finished
                    } ?? false
                // A tag column may list several, comma-separated (as Grove's CSV writes them).
                let tags = field(c.tag).map { $0.split(separator: ",").map(String.init) } ?? []
                return .some(ForeignSession(row: row, start: start, end: end, abandoned: abandoned, tags: tags))
            } catch let failure as CSVReader.Failure {
                throw StoreError.unreadableExport("This is not a CSV file Grove can read: \(failure.description)")
            }
        }
    }

    /// Imports the CSV `grove export --format csv` writes (the round trip): each session keeps its
    /// id, so a re-import finds them all already there; sessions still running are not in a CSV's
    /// reach (no pause instant) and are skipped.
    public func importGroveCSV(streamingFrom read: @escaping () throws -> [UInt8]?) throws -> ForeignImportReport {
        var reader = CSVReader(read: read)
        var header = false
        var columnCount = 0
        var row = 0
        return try database.importForeign(.grove) { () throws -> ForeignSession?? in
            do {
                if !header {
                    guard let names = try reader.next() else { return nil }
                    // Exports from before tags lack the last column.
                    guard names == AppDatabase.groveCSVColumns || names == Array(AppDatabase.groveCSVColumns.dropLast()) else {
                        throw StoreError.unreadableExport(
                            "This is not Grove's CSV export: its header must be \(AppDatabase.groveCSVColumns.joined(separator: ","))")
                    }
                    columnCount = names.count
                    header = true
                }
                guard let f = try reader.next() else { return nil }
                row += 1
                guard f.count == columnCount, let id = UUID(uuidString: f[0]), let start = GroveExport.parseInstant(f[1]),
                    let state = SessionState(rawValue: f[3]), let duration = Double(f[4]), let paused = Double(f[5]),
                    let planned = Double(f[6])
                else { return .some(nil) }
                let end = f[2].isEmpty ? nil : GroveExport.parseInstant(f[2])
                guard !state.isOpen, let end else {
                    return .some(ForeignSession(row: row, start: start, end: .distantFuture))
                }
                let tags = f.count > 9 && !f[9].isEmpty ? f[9].split(separator: ",", omittingEmptySubsequences: false).map(String.init) : []
                let session = FocusSession(
                    id: id, startTime: start, endTime: end, state: state, duration: duration, pausedDuration: paused,
                    plannedDuration: planned, timeZoneIdentifier: f[7], endDay: LocalDay(f[8]), tags: tags)
                return .some(ForeignSession(row: row, start: start, end: end, abandoned: state == .abandoned, tags: tags, stored: session))
            } catch let failure as CSVReader.Failure {
                throw StoreError.unreadableExport("This is not a CSV file Grove can read: \(failure.description)")
            }
        }
    }
}
