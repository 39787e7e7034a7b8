import Crypto
import Foundation
import GRDB
import GroveCore

extension AppDatabase {
    /// The shared part: each row checked by the rules of `grove focus log`, given an id derived from
    /// the format and its instants (a re-import finds it), refused if it overlaps a session already
    /// recorded, and written. `next` returns nil at the end, `.some(nil)` for a row it could not read.
    ///
    /// Files from other tools are sorted by start, and usually fall before or after everything the
    /// store holds: such a row can only clash with rows of this same import, which the loop tracks
    /// itself (`ImportSpan`), so it costs no lookup at all. Anything else is checked against the store.
    func importForeign(_ format: ImportFormat, zone: ZonedCalendar? = nil, _ next: @escaping () throws -> ForeignSession??) throws
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
            // An encrypted account's sessions get keyed ids (their start stays out of the id).
            let idKey = try KeyedID.key(db)
            let rows = Prefetcher<PreparedRow> {
                guard let item = try next() else { return nil }
                row += 1
                return Self.prepare(item, row: row, format: format, now: now, calendar: calendar, tagForms: &tagForms, idKey: idKey)
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
            func process(_ item: PreparedInterval) throws {
                if span.isAlone(start: item.from, end: item.to), case .success(let session) = item.session {
                    // Counted as in at once: a later row that touches it is then checked against the store.
                    span.inserted(start: item.from, end: item.to)
                    pending.append(session)
                    if pending.count == SessionWriter.batchSize { try flush() }
                    return
                }
                try flush()
                try checkAgainstStore(item)
                // The sorted rows that follow need no lookup until the next stored session.
                if span.sorted { try span.learnGap(at: max(item.to, span.lastEnd), db) }
            }
            func checkAgainstStore(_ item: PreparedInterval) throws {
                let legacy = item.isStored ? "" : IntentionID.uuid5(namespace: Self.importNamespace, name: item.name).uuidString
                if try Bool.fetchOne(exists, arguments: [item.id.uuidString, legacy]) == true {
                    report.alreadyThere += 1
                    return
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
            // From the first row out of time order on, rows wait in a spool and go in sorted at the end.
            var spool: ImportSpool?
            while let batch = try rows.next() {
                for prepared in batch {
                    guard case .interval(let item) = prepared else {
                        if case .skipped(let row, let reason) = prepared { report.skip(row, reason) }
                        continue
                    }
                    if spool == nil, item.from < span.lastStart { spool = try ImportSpool() }
                    if let spool {
                        try spool.add(item)
                    } else {
                        try process(item)
                    }
                }
            }
            if let spool {
                try flush()
                // What went in before the first row out of order is now part of the store's span.
                span = try ImportSpan(db)
                // Sorted and decoded on the spool's thread while this one writes.
                let sorted = try spool.sorted()
                defer { sorted.finish() }
                while let batch = try sorted.next() {
                    for item in batch { try process(item) }
                }
            }
            try flush()
            try sessions.finish()
        }
        // Rows that waited in the spool were judged after later ones: told in file order all the same.
        report.skipped.sort { $0.row < $1.row }
        return report
    }

    /// One row of another tool's file as the import needs it: skipped with the reason, or an interval
    /// with its id and the session Grove's rules make of it (or the rule it breaks). Pure: it runs on
    /// the reading thread.
    static func prepare(
        _ item: ForeignSession?, row: Int, format: ImportFormat, now: Date, calendar: ZonedCalendar,
        tagForms: inout TagForms, idKey: SymmetricKey? = nil
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
        let made = ImportID.make(start: from, name: name)
        let id = foreign.stored?.id ?? idKey.map { KeyedID.keyed(made, key: $0) } ?? made
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
                    now: now, calendar: calendar, shortest: FocusSession.plannedDurationRange.lowerBound)
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
    let stored: (first: Int64, last: Int64)?
    var lastStart = Int64.min
    var lastEnd = Int64.min
    var sorted = true

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
    /// them: it lies after every row written so far, and wholly before or after the stored span, or
    /// inside the free stretch between two stored sessions found last (`learnGap`).
    func isAlone(start: Int64, end: Int64) -> Bool {
        guard sorted, start >= lastStart, start >= lastEnd else { return false }
        guard let stored else { return true }
        if end <= stored.first || start >= stored.last { return true }
        guard let gap else { return false }
        return start >= gap.from && end <= gap.to
    }

    /// The free stretch known between stored sessions: none of them starts in `from..<to`, and every
    /// one that starts before ends by `from`. Found at a row the store had to check, so that the
    /// sorted rows after it (an import into the middle of a history, or a file read back sorted)
    /// need no lookup until they reach the next stored session.
    var gap: (from: Int64, to: Int64)?

    /// Finds the free stretch that begins at `position` (or where the stored session that spans it ends).
    mutating func learnGap(at position: Int64, _ db: Database) throws {
        // Stored sessions never overlap: the one that starts last before `position` ends last.
        let previous = try Row.fetchOne(
            db.cachedStatement(sql: "SELECT end_time FROM focus_session WHERE start_time < ? ORDER BY start_time DESC LIMIT 1"),
            arguments: [position])
        let from = previous.map { max(position, ($0[0] as Int64?) ?? Int64.max) } ?? position
        guard from < Int64.max else { gap = nil; return }
        let next = try Int64.fetchOne(
            db.cachedStatement(sql: "SELECT start_time FROM focus_session WHERE start_time >= ? ORDER BY start_time LIMIT 1"),
            arguments: [from])
        gap = (from, next ?? Int64.max)
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
    var known: [[String]: [String]] = [:]

    mutating func normalized(_ tags: [String]) throws -> [String] {
        if tags.isEmpty { return [] }
        if let form = known[tags] { return form }
        let form = try FocusTags.normalized(tags)
        if known.count < 1_000 { known[tags] = form }
        return form
    }
}
