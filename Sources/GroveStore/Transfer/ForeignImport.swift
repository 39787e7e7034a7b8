import Crypto
import Foundation
import GRDB
import GroveCore

/// Where a file of focus sessions comes from (`grove import --from`).
public enum ImportFormat: String, CaseIterable, Sendable, Codable {
    /// Grove's own export: the JSON document (everything) or the CSV of sessions.
    case grove
    /// Any CSV of sessions, its columns named by a `ColumnMap`.
    case csv
    /// `timew export`: intervals with tags.
    case timewarrior
    /// The Forest app's CSV export (`Start Time,End Time,Tag,Note,Tree Type,Is Success`, instants as
    /// Java writes them: `Sat Jun 15 08:07:54 GMT+01:00 2019`): a `csv` import with `ColumnMap.forest`.
    case forest
}

/// Which columns of a CSV hold what (`--map start=Start,end=End,tag=Tag`). `start` is required, and
/// `end` or `duration` (seconds, or H:MM[:SS]).
public struct ColumnMap: Sendable, Equatable {
    public var start: String
    public var end: String?
    public var duration: String?
    public var tag: String?
    /// A column whose "false", "no", "0", "abandoned", "failed" marks a session that did not finish.
    public var completed: String?

    public static let keys = ["start", "end", "duration", "tag", "completed"]

    /// The Forest app's export, as its columns are known from public sources (no export made by the
    /// app itself was at hand): a withered tree (`Is Success` false) is an abandoned session.
    public static let forest = ColumnMap(start: "Start Time", end: "End Time", tag: "Tag", completed: "Is Success")

    public init(start: String, end: String? = nil, duration: String? = nil, tag: String? = nil, completed: String? = nil) {
        self.start = start
        self.end = end
        self.duration = duration
        self.tag = tag
        self.completed = completed
    }

    /// Reads `start=Start,end=End,tag=Tag` (column names as the file's header has them).
    public static func parse(_ text: String) throws -> ColumnMap {
        var pairs: [String: String] = [:]
        for part in text.split(separator: ",") {
            let kv = part.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard kv.count == 2, !kv[1].isEmpty, keys.contains(kv[0]), pairs[kv[0]] == nil else {
                throw InvalidField(
                    "map",
                    "map must be key=Column pairs separated by commas, keys among \(keys.joined(separator: ", ")), each once (got \(part.quotedForMessage))"
                )
            }
            pairs[kv[0]] = kv[1]
        }
        guard let start = pairs["start"], pairs["end"] != nil || pairs["duration"] != nil else {
            throw InvalidField("map", "map needs start= and end= or duration= (e.g. start=Start,end=End)")
        }
        return ColumnMap(start: start, end: pairs["end"], duration: pairs["duration"], tag: pairs["tag"], completed: pairs["completed"])
    }
}

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

extension AppDatabase {
    /// Imports `timew export` output, streamed: each closed interval becomes a completed session
    /// (same rules as `grove focus log`); an open interval, an overlap, an interval longer than a
    /// session may be is skipped with the reason. Ids come from the interval itself, so importing the
    /// same file again adds nothing. One transaction.
    public func importTimewarrior(streamingFrom read: @escaping () throws -> [UInt8]?) throws -> ForeignImportReport {
        var reader = JSONStreamReader(read: read)
        var index = 0
        return try importForeign(.timewarrior) { () throws -> ForeignSession?? in
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
                return .some(Self.interval(value, row: index))
            } catch let failure as JSONStreamReader.Failure {
                throw StoreError.unreadableExport("This is not `timew export` output: \(failure.description)")
            }
        }
    }

    /// A timewarrior interval: `{"id":1,"start":"20250101T090000Z","end":"…","tags":[…]}`; nil when
    /// it is not an object with a readable start.
    private static func interval(_ value: JSONStreamReader.Value, row: Int) -> ForeignSession? {
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

    /// Imports a CSV of sessions whose columns `map` names. Instants are ISO 8601 with a zone or
    /// offset, or `YYYY-MM-DD HH:MM[:SS]` on the wall clock of `zone` (the configured zone by default).
    public func importCSV(
        map: ColumnMap, zone: TimeZone? = nil, format: ImportFormat = .csv,
        streamingFrom read: @escaping () throws -> [UInt8]?
    ) throws -> ForeignImportReport {
        var reader = CSVReader(read: read)
        let given = zone.map { ZonedCalendar(timeZone: $0, firstWeekday: 1) }
        let calendar = try given ?? self.calendar()
        var columns: (start: Int, end: Int?, duration: Int?, tag: Int?, completed: Int?)?
        var row = 0
        return try importForeign(format, zone: given) { () throws -> ForeignSession?? in
            do {
                if columns == nil {
                    guard let header = try reader.next() else { return nil }
                    let names = header.map { $0.trimmingCharacters(in: .whitespaces) }
                    func column(_ name: String?) throws -> Int? {
                        guard let name else { return nil }
                        guard let i = names.firstIndex(of: name) else {
                            throw InvalidField(
                                "map", "The file has no column \"\(name)\" (its columns: \(names.prefix(20).joined(separator: ", ")))")
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
                    let text = fields[i].trimmingCharacters(in: .whitespaces)
                    return text.isEmpty ? nil : text
                }
                guard let start = field(c.start).flatMap({ Self.csvInstant($0, calendar: calendar) }) else { return .some(nil) }
                var end = field(c.end).flatMap { Self.csvInstant($0, calendar: calendar) }
                if end == nil, let duration = field(c.duration).flatMap(Self.csvDuration) { end = start.addingTimeInterval(duration) }
                guard let end else { return .some(nil) }
                let abandoned =
                    field(c.completed).map { ["false", "no", "0", "abandoned", "failed", "fail"].contains($0.lowercased()) } ?? false
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
        return try importForeign(.grove) { () throws -> ForeignSession?? in
            do {
                if !header {
                    guard let names = try reader.next() else { return nil }
                    // Exports from before tags lack the last column.
                    guard names == Self.groveCSVColumns || names == Array(Self.groveCSVColumns.dropLast()) else {
                        throw StoreError.unreadableExport(
                            "This is not Grove's CSV export: its header must be \(Self.groveCSVColumns.joined(separator: ","))")
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
        if let offset { return Date(timeIntervalSince1970: TimeInterval(day.dayNumber * 86_400 + seconds - offset)) }
        if let known = TimeZone(abbreviation: zone) {
            return ZonedCalendar(timeZone: known, firstWeekday: 1).instant(of: day, secondsIntoDay: seconds)
        }
        return calendar.instant(of: day, secondsIntoDay: seconds)
    }

    /// Seconds ("1500", "1500.5") or a clock length ("25:00", "1:05:00").
    static func csvDuration(_ text: String) -> TimeInterval? {
        if let seconds = Double(text), seconds.isFinite, seconds > 0, seconds < 366 * 86_400 { return seconds }
        let parts = text.split(separator: ":").map { Int($0) }
        guard (2...3).contains(parts.count), parts.allSatisfy({ $0 != nil && $0! >= 0 && $0! < 100_000 }) else { return nil }
        let numbers = parts.compactMap { $0 }
        return TimeInterval(numbers.reduce(0) { $0 * 60 + $1 })
    }

    /// The shared part: each row checked by the rules of `grove focus log`, given an id derived from
    /// the format and its instants (a re-import finds it), refused if it overlaps a session already
    /// recorded, and written. `next` returns nil at the end, `.some(nil)` for a row it could not read.
    ///
    /// Files from other tools are sorted by start, and usually fall before or after everything the
    /// store holds: such a row can only clash with rows of this same import, which the loop tracks
    /// itself (`ImportSpan`), so it costs no lookup at all. Anything else is checked against the store.
    private func importForeign(_ format: ImportFormat, zone: ZonedCalendar? = nil, _ next: @escaping () throws -> ForeignSession??) throws
        -> ForeignImportReport
    {
        var report = ForeignImportReport(format: format)
        try write { db in
            // Sessions are filed under the day they ended where they were lived: the CSV's zone if given.
            let calendar = try zone ?? calendar(db)
            let now = environment.now()
            // The file is read, and each row checked by the rules, on a thread of its own while this one
            // writes: what needs the store (is it there, does it overlap) stays here.
            var tagForms = TagForms()
            var row = 0
            let rows = Prefetcher<PreparedRow> {
                guard let item = try next() else { return nil }
                row += 1
                return Self.prepare(item, row: row, format: format, now: now, calendar: calendar, tagForms: &tagForms)
            }
            defer { rows.finish() }
            // Found by the id this Grove gives, or the one Grove gave before ids were ordered by time.
            let exists = try db.cachedStatement(sql: "SELECT 1 FROM focus_session WHERE id IN (?, ?)")
            var span = try ImportSpan(db)
            // Bound through SQLite's C API; past a few thousand rows the per-day totals are summed as the
            // rows go in instead of by a trigger per row.
            let sessions = try SessionWriter(db)
            // Rows that clash with nothing wait here to go in as one statement (`SessionWriter.insertNew(_:)`);
            // any row checked against the store sends them in first.
            var pending: [FocusSession] = []
            pending.reserveCapacity(SessionWriter.batchSize)
            func count(_ session: FocusSession, inserted: Bool) {
                // A stored id (Grove's CSV) may name a session that moved since: what is there stays.
                guard inserted else { report.alreadyThere += 1; return }
                report.imported += 1
                if !session.tags.isEmpty { report.tagged += 1 }
            }
            func flush() throws {
                guard !pending.isEmpty else { return }
                if report.imported + pending.count >= Self.bulkThreshold { try sessions.setTriggersAside(adding: true) }
                for (session, inserted) in zip(pending, try sessions.insertNew(pending)) { count(session, inserted: inserted) }
                pending.removeAll(keepingCapacity: true)
            }
            while let batch = try rows.next() {
                for prepared in batch {
                    guard case .interval(let item) = prepared else {
                        if case .skipped(let row, let reason) = prepared { report.skip(row, reason) }
                        continue
                    }
                    if span.isAlone(start: item.from, end: item.to), case .success(let session) = item.session {
                        // Counted as in at once: a later row that touches it is then checked against the store.
                        span.inserted(start: item.from, end: item.to)
                        pending.append(session)
                        if pending.count == SessionWriter.batchSize { try flush() }
                        continue
                    }
                    try flush()
                    let legacy = item.isStored ? "" : IntentionID.uuid5(namespace: Self.importNamespace, name: item.name).uuidString
                    if try Bool.fetchOne(exists, arguments: [item.id.uuidString, legacy]) == true {
                        report.alreadyThere += 1
                        continue
                    }
                    do {
                        let session = try item.session.get()
                        try checkNoOverlap(start: item.start, end: item.finish, db)
                        if report.imported >= Self.bulkThreshold { try sessions.setTriggersAside(adding: true) }
                        let inserted = try sessions.insertNew(session)
                        if inserted { span.inserted(start: item.from, end: item.to) }
                        count(session, inserted: inserted)
                    } catch let error as any GroveValidationError {
                        report.skip(item.row, error.message)
                    }
                }
            }
            try flush()
            try sessions.finish()
        }
        return report
    }

    /// One row of another tool's file as the import needs it: skipped with the reason, or an interval
    /// with its id and the session Grove's rules make of it (or the rule it breaks). Pure: it runs on
    /// the reading thread.
    private static func prepare(
        _ item: ForeignSession?, row: Int, format: ImportFormat, now: Date, calendar: ZonedCalendar,
        tagForms: inout TagForms
    ) -> PreparedRow {
        guard let foreign = item else {
            return .skipped(
                row: row,
                reason: format == .timewarrior
                    ? "not an interval with a readable start and end (\"start\": \"20250101T090000Z\")"
                    : "no readable start and end (ISO 8601, or YYYY-MM-DD HH:MM; a duration in seconds or H:MM:SS)")
        }
        guard let end = foreign.end, end != .distantFuture else {
            return .skipped(
                row: foreign.row,
                reason: format == .timewarrior
                    ? "an open interval (still running): stop it first (`timew stop`), then export again"
                    : "a session still running or paused: finish it where it runs, then export again")
        }
        let start = foreign.start.groveRoundedToMillis, finish = end.groveRoundedToMillis
        let (from, to) = (start.groveMillis, finish.groveMillis)
        let name = "\(format.rawValue):\(from):\(to)"
        let id = foreign.stored?.id ?? ImportID.make(start: from, name: name)
        // A rule the row breaks skips it (said by the writing thread); any other error ends the import.
        let session = Result<FocusSession, any Error> {
            // Tags as typed elsewhere ("Essay ", repeated) are put in Grove's form; a tag that
            // breaks a rule skips the row with the rule, like any other bad field.
            let tags = try tagForms.normalized(foreign.tags)
            var session: FocusSession
            if let stored = foreign.stored {
                session = stored
                session.tags = tags
                try session.validateAsStored()
            } else {
                session = try FocusSession.logged(
                    id: id, start: start, end: finish, abandoned: foreign.abandoned,
                    plannedDuration: foreign.abandoned
                        ? max(finish.timeIntervalSince(start), FocusSession.plannedDurationRange.lowerBound) : nil,
                    now: now, calendar: calendar)
                session.tags = tags
            }
            return session
        }
        return .interval(
            PreparedInterval(
                row: foreign.row, start: start, finish: finish, name: name, id: id,
                isStored: foreign.stored != nil, session: session))
    }

    /// The namespace of the ids imported sessions get from their instants.
    static let importNamespace =
        UUID(uuidString: "3b8f4a0e-5d2c-4e7b-9f1a-6c0d2e8b7a41") ?? UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
}

/// A row of another tool's file, read and checked on the reading thread (`AppDatabase.importForeign`).
enum PreparedRow: Sendable {
    /// Not imported, and why (the row has no readable instants, or is still running).
    case skipped(row: Int, reason: String)
    case interval(PreparedInterval)
}

/// A closed interval: its instants (to the millisecond), its id, and the session Grove's rules make
/// of it or the rule it breaks (said only if it is not already stored).
struct PreparedInterval: Sendable {
    var row: Int
    var start: Date
    var finish: Date
    /// What its id is derived from (`format:from:to`).
    var name: String
    var id: UUID
    /// A session from Grove's own CSV, with the id it had.
    var isStored: Bool
    var session: Result<FocusSession, any Error>

    /// Its instants in stored milliseconds.
    var from: Int64 { start.groveMillis }
    var to: Int64 { finish.groveMillis }
}

/// What an import knows without asking the store: the span of the sessions stored before it began,
/// and the rows it has written so far (while they come sorted by start).
struct ImportSpan {
    /// The first start and the last end stored before the import (nil: nothing stored).
    private let stored: (first: Int64, last: Int64)?
    private var lastStart = Int64.min
    private var lastEnd = Int64.min
    private var sorted = true

    init(_ db: Database) throws {
        // Each by an index: the first start, the last end of a finished session, any open session.
        let first = try Int64.fetchOne(db, sql: "SELECT start_time FROM focus_session ORDER BY start_time LIMIT 1")
        let ends = try [SessionState.completed, .abandoned].compactMap { state in
            try Int64.fetchOne(db, sql: "SELECT max(end_time) FROM focus_session WHERE state = ?", arguments: [state.rawValue])
        }
        let open = try Bool.fetchOne(db, sql: "SELECT 1 FROM focus_session WHERE state IN ('active', 'paused')") == true
        stored = first.map { ($0, open ? Int64.max : ends.max() ?? Int64.max) }
    }

    /// Whether a row `start…end` can clash with nothing but this import's rows, and with none of
    /// them: it lies wholly before or after the stored span, and after every row written so far.
    func isAlone(start: Int64, end: Int64) -> Bool {
        guard sorted, start >= lastStart, start >= lastEnd else { return false }
        guard let stored else { return true }
        return end <= stored.first || start >= stored.last
    }

    /// A row was written.
    mutating func inserted(start: Int64, end: Int64) {
        if start < lastStart { sorted = false }
        lastStart = max(lastStart, start)
        lastEnd = max(lastEnd, end)
    }
}

/// The ids imported sessions get: the start (milliseconds, 48 bits, as in a UUIDv7) then a digest of
/// the format and both instants — the same row always gets the same id (a re-import finds it), and
/// ids follow time, so a history of any size goes into the id index in order rather than at random.
enum ImportID {
    static func make(start: Int64, name: String) -> UUID {
        let digest = Array(Insecure.SHA1.hash(data: Array(name.utf8)))
        // Offset by 2^47 so that instants before 1970 sort before those after.
        let key = UInt64(bitPattern: start &+ (1 << 47)) & 0xFFFF_FFFF_FFFF
        return UUID(
            uuid: (
                UInt8(truncatingIfNeeded: key >> 40), UInt8(truncatingIfNeeded: key >> 32), UInt8(truncatingIfNeeded: key >> 24),
                UInt8(truncatingIfNeeded: key >> 16), UInt8(truncatingIfNeeded: key >> 8), UInt8(truncatingIfNeeded: key),
                0x80 | (digest[0] & 0x0F), digest[1], 0x80 | (digest[2] & 0x3F), digest[3], digest[4], digest[5], digest[6], digest[7],
                digest[8], digest[9]
            ))
    }
}

/// Tags in Grove's form, remembered: an export repeats the same few tag lists on every row.
struct TagForms {
    private var known: [[String]: [String]] = [:]

    mutating func normalized(_ tags: [String]) throws -> [String] {
        if tags.isEmpty { return [] }
        if let form = known[tags] { return form }
        let form = try FocusTags.normalized(tags)
        if known.count < 1_000 { known[tags] = form }
        return form
    }
}
