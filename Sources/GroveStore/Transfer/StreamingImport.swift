import Foundation
import GRDB
import GroveCore

/// The sessions of a streamed import: each decoded from its JSON, checked by the stored-session
/// rules, refused if its id came before in the file, and written at once.
struct SessionImport {
    let db: Database
    private(set) var count = 0
    private var writer: SessionWriter?
    private var seen: BulkStatement?
    private var seenStatement: Statement?
    private var lookupStatement: Statement?
    private var pending: [(session: FocusSession, idText: String)] = []

    init(_ db: Database) { self.db = db }

    /// Reads the `focusSessions` array.
    fileprivate mutating func read(from source: ReaderHandoff) throws {
        try source.reader.expect(UInt8(ascii: "["))
        if try source.reader.take(UInt8(ascii: "]")) { return }
        // Into a store without sessions every upsert inserts, unless the file repeats an id: the
        // per-day totals are then summed as the sessions go in, not recounted from the store, and a
        // spooled file's repeats are found as its rows go in rather than by a sort of its ids first.
        let empty = try !(Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM focus_session)") ?? true)
        let writer = try SessionWriter(db, intoEmptyStore: empty)
        self.writer = writer
        // The ids seen so far, in a temporary table: a set of a million ids would not fit the memory bound.
        try db.execute(
            sql: "CREATE TEMP TABLE IF NOT EXISTS import_session_id (id TEXT PRIMARY KEY) WITHOUT ROWID; DELETE FROM temp.import_session_id"
        )
        let statement = try db.makeStatement(sql: "INSERT INTO temp.import_session_id (id) VALUES (?)")
        seenStatement = statement
        let seen = BulkStatement(statement.sqliteStatement, connection: db.sqliteConnection)
        let lookup = try db.makeStatement(sql: "SELECT 1 FROM temp.import_session_id WHERE id = ?")
        lookupStatement = lookup
        let seenBefore = BulkStatement(lookup.sqliteStatement, connection: db.sqliteConnection)
        self.seen = seen
        // The array is read, and each session checked, on a thread of its own while this one writes;
        // the reader comes back here at its end for the rest of the document.
        var checks = SessionChecks()
        var tagForms = TagForms()
        var index = 0
        let sessions = Prefetcher<FocusSession> {
            if source.ended { return nil }
            if index > 0, try !source.reader.take(UInt8(ascii: ",")) {
                try source.reader.expect(UInt8(ascii: "]"))
                source.ended = true
                return nil
            }
            let session = try Self.session(from: &source.reader, index: index, tagForms: &tagForms)
            try checks.check(session, index: index)
            index += 1
            return session
        }
        defer { sessions.finish() }
        // From the first session out of time order on, sessions wait in a spool and go in sorted at the
        // end (`ImportSpool`): a shuffled export would otherwise scatter its inserts over every index.
        var spool: ImportSpool?
        var lastStart = Int64.min
        while let batch = try sessions.next() {
            for session in batch {
                let idText = SessionWriter.text(of: session.id)
                let start = session.startTime.groveMillis
                if spool == nil, start < lastStart { spool = try ImportSpool() }
                if let spool {
                    // Against the ids written before the spool began (a read); among the spooled ones, by
                    // one sort at the end (`ImportSpool.repeatedId`).
                    seenBefore.reset()
                    seenBefore.bind(1, idText)
                    if try seenBefore.exists() { throw Self.repeated(idText) }
                    try spool.add(
                        PreparedInterval(
                            row: spooled, start: session.startTime, finish: session.endTime ?? session.startTime, name: "", id: session.id,
                            isStored: true, session: .success(session)))
                    spooled += 1
                } else {
                    seen.reset()
                    seen.bind(1, idText)
                    do { try seen.step() } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
                        throw Self.repeated(idText)
                    }
                    lastStart = start
                    try write(session, idText: idText, with: writer)
                }
            }
        }
        if let spool {
            // Into an empty store a repeat shows as a row not inserted (`metWrittenId`): only then are
            // the spooled ids sorted, to name the first repeated in file order.
            if !writer.intoEmptyStore, let id = try spool.repeatedId() { throw Self.repeated(id) }
            // Sorted and decoded on the spool's thread while this one writes.
            let sorted = try spool.sorted()
            defer { sorted.finish() }
            while let batch = try sorted.next() {
                for item in batch { try write(item.session.get(), idText: SessionWriter.text(of: item.id), with: writer) }
            }
            try flush()
            if writer.metWrittenId {
                sorted.finish()
                guard let id = try spool.repeatedId() else {
                    throw InvalidField("focusSessions", "focusSessions has an id more than once")
                }
                throw Self.repeated(id)
            }
        }
        try flush()
        // Before the spool, a repeat is refused as it is read (`seen`): a row left unwritten here would be
        // a session lost from an import that said it succeeded.
        if writer.metWrittenId { throw InvalidField("focusSessions", "focusSessions has an id more than once") }
    }

    /// The refusal of an id met twice in the file.
    private static func repeated(_ idText: String) -> InvalidField {
        InvalidField("focusSessions", "focusSessions has id \(idText) more than once")
    }

    /// Sessions taken out of file order to go in sorted (0 when the file came sorted by start).
    private(set) var spooled = 0

    /// Writes one session: one statement each at first; past the bulk threshold, with the per-row
    /// triggers set aside, a batch per statement.
    private mutating func write(_ session: FocusSession, idText: String, with writer: SessionWriter) throws {
        if count == AppDatabase.bulkThreshold { try writer.setTriggersAside(adding: writer.intoEmptyStore) }
        if count < AppDatabase.bulkThreshold {
            try writer.upsert(session, idText: idText)
        } else {
            pending.append((session, idText))
            if pending.count == SessionWriter.batchSize { try flush() }
        }
        count += 1
    }

    /// Writes the sessions waiting for a full batch.
    private mutating func flush() throws {
        guard let writer, !pending.isEmpty else { return }
        try writer.upsert(pending)
        pending.removeAll(keepingCapacity: true)
    }

    /// Rebuilds what the bulk write set aside.
    mutating func finish() throws {
        try writer?.finish()
        seen?.reset()
    }

    /// Drops the temporary id table.
    mutating func close() {
        seen?.reset()
        seen = nil
        seenStatement = nil
        lookupStatement = nil
        if writer != nil { try? db.execute(sql: "DROP TABLE IF EXISTS temp.import_session_id") }
    }
}

/// A reader lent to the import's reading thread and given back when it ends (`Prefetcher.finish()`
/// waits for that thread, so the two never use it at once).
private final class ReaderHandoff: @unchecked Sendable {
    var reader: JSONStreamReader
    /// The reading thread met the array's end.
    var ended = false
    init(_ reader: consuming JSONStreamReader) { self.reader = reader }
}

extension TransferRoom {
    /// Imports a Grove JSON export read from `read` a chunk at a time (nil or empty at the end), in
    /// bounded memory: sessions are read, checked and written one by one, everything else (small:
    /// at most `maxRest` bytes together) is decoded whole. One transaction: any bad item, anywhere in
    /// the file, and nothing changes.
    @discardableResult
    public func importJSON(streamingFrom read: @escaping () throws -> [UInt8]?) throws -> ImportSummary {
        // Lent to the sessions' reading thread while it reads their array (`ReaderHandoff`).
        let source = ReaderHandoff(JSONStreamReader(read: read))
        return try write { db in
            var sessions = SessionImport(db)
            defer { sessions.close() }
            var members: [(String, [UInt8])] = []
            var budget = Self.maxRest
            do {
                try source.reader.expect(UInt8(ascii: "{"))
                if try !source.reader.take(UInt8(ascii: "}")) {
                    repeat {
                        let key = try source.reader.string()
                        try source.reader.expect(UInt8(ascii: ":"))
                        guard key != "focusSessions" || sessions.count == 0, !members.contains(where: { $0.0 == key }) else {
                            throw source.reader.failure("the field \(key) appears twice")
                        }
                        do {
                            if key == "focusSessions" {
                                try sessions.read(from: source)
                            } else {
                                let value = try source.reader.captureValue(
                                    limit: budget,
                                    tooLarge:
                                        "more than \(JSONStreamReader.sizeText(Self.maxRest)) with the other fields besides focusSessions "
                                        + "(an export holds a few MiB besides its sessions)")
                                budget -= value.count
                                members.append((key, value))
                            }
                        } catch var failure as JSONStreamReader.Failure {
                            // Named from the top: `focusSessions: tags: a text longer than…`.
                            failure.field = key + (failure.field.map { ": " + $0 } ?? "")
                            throw failure
                        }
                    } while try source.reader.take(UInt8(ascii: ","))
                    try source.reader.expect(UInt8(ascii: "}"))
                }
                guard try source.reader.isAtEnd() else { throw source.reader.failure("more after the document") }
            } catch let failure as JSONStreamReader.Failure {
                throw StoreError.unreadableExport(failure.description)
            }
            // Everything else is small: one document without the sessions, decoded as usual.
            var rest: [UInt8] = Array(#"{"focusSessions":["#.utf8) + Array("]".utf8)
            for (key, value) in members {
                rest.append(contentsOf: ",\"".utf8)
                rest.append(
                    contentsOf: key.utf8.flatMap { $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") ? [UInt8(ascii: "\\"), $0] : [$0] })
                rest.append(contentsOf: "\":".utf8)
                rest.append(contentsOf: value)
            }
            rest.append(UInt8(ascii: "}"))
            let export: GroveExport
            do {
                export = try GroveExport.makeDecoder().decode(GroveExport.self, from: Data(rest))
            } catch let error as DecodingError {
                throw StoreError.unreadableExport(Self.describe(error))
            }
            let checked = try database.checkImport(export)
            try database.applyImport(export, checked, db)
            try sessions.finish()
            return ImportSummary(
                focusSessions: sessions.count, timers: export.timers.count, intentions: export.intentions.count,
                gatewaySessions: export.gatewaySessions.count, themes: export.themes.count)
        }
    }

    /// The most an export may hold besides its focus sessions, all other fields together. Timers,
    /// intentions, themes, preferences and the 30 days of pauses a store keeps come to a few MiB at
    /// most; a larger file is refused by the field that crossed it as it streams past, so that no
    /// input makes an import hold hundreds of MiB (`JSONDecoder` needs the whole rest at once).
    public static let maxRest = 16 << 20

    /// Imports the export in the file at `path`, streamed.
    @discardableResult
    public func importJSON(contentsOf path: String) throws -> ImportSummary {
        guard let handle = FileHandle(forReadingAtPath: path) else { throw StoreError.unreadableExport("cannot open \(path)") }
        defer { try? handle.close() }
        return try importJSON { try handle.read(upToCount: 1 << 16).map(Array.init) }
    }
}
