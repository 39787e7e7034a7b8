import Foundation
import GRDB
import GroveCore

/// The sessions of a streamed import: each decoded from its JSON, checked by the stored-session
/// rules, refused if its id came before in the file, and written at once.
private struct SessionImport {
    let db: Database
    private(set) var count = 0
    private var writer: SessionWriter?
    private var seen: BulkStatement?
    private var seenStatement: Statement?
    private var pending: [(session: FocusSession, idText: String)] = []

    init(_ db: Database) { self.db = db }

    /// Reads the `focusSessions` array.
    mutating func read(from source: ReaderHandoff) throws {
        try source.reader.expect(UInt8(ascii: "["))
        if try source.reader.take(UInt8(ascii: "]")) { return }
        let writer = try SessionWriter(db)
        self.writer = writer
        // The ids seen so far, in a temporary table: a set of a million ids would not fit the memory bound.
        try db.execute(
            sql: "CREATE TEMP TABLE IF NOT EXISTS import_session_id (id TEXT PRIMARY KEY) WITHOUT ROWID; DELETE FROM temp.import_session_id"
        )
        let statement = try db.makeStatement(sql: "INSERT INTO temp.import_session_id (id) VALUES (?)")
        seenStatement = statement
        let seen = BulkStatement(statement.sqliteStatement, connection: db.sqliteConnection)
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
        while let batch = try sessions.next() {
            for session in batch {
                let idText = SessionWriter.text(of: session.id)
                seen.reset()
                seen.bind(1, idText)
                do { try seen.step() } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
                    throw InvalidField("focusSessions", "focusSessions has id \(idText) more than once")
                }
                if count == AppDatabase.bulkThreshold { try writer.setTriggersAside() }
                if count < AppDatabase.bulkThreshold {
                    try writer.upsert(session, idText: idText)
                } else {
                    // Past the threshold, sessions go in a batch per statement.
                    pending.append((session, idText))
                    if pending.count == SessionWriter.batchSize { try flush() }
                }
                count += 1
            }
        }
        try flush()
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
        if writer != nil { try? db.execute(sql: "DROP TABLE IF EXISTS temp.import_session_id") }
    }

    /// A session read straight from its JSON object (no intermediate tree: a million of them),
    /// with the export's field names; a message naming the field for anything missing or of the
    /// wrong kind. Unknown fields are skipped, as `JSONDecoder` skips them.
    static func session(from reader: inout JSONStreamReader, index: Int, tagForms: inout TagForms) throws -> FocusSession {
        var id: UUID?, start: Date?, end: Date?, state: SessionState?, duration: Double?, paused: Double?
        var created: Date?, planned: Double?, pausedAt: Date?, zone: String?, endDay: LocalDay?, uncertain: Bool?
        var openEnded = false
        var tags: [String] = []
        func string(_ key: String) throws -> String? {
            switch try reader.peek() {
            case UInt8(ascii: "n")?: _ = try reader.value(); return nil
            case UInt8(ascii: "\"")?: return try reader.string()
            default: throw unreadable(index, key, "expected a string")
            }
        }
        func instant(_ key: String) throws -> Date? {
            guard let text = try string(key) else { return nil }
            guard let date = GroveExport.parseInstant(text) else {
                throw unreadable(index, key, "Expected an ISO 8601 instant, got \"\(text.prefix(40))\"")
            }
            return date
        }
        func number(_ key: String) throws -> Double? {
            switch try reader.value() {
            case .null: return nil
            case .number(let n): return n
            default: throw unreadable(index, key, "expected a number")
            }
        }
        guard try reader.take(UInt8(ascii: "{")) else { throw unreadable(index, nil, "expected an object") }
        if try !reader.take(UInt8(ascii: "}")) {
            repeat {
                let key = try reader.string()
                try reader.expect(UInt8(ascii: ":"))
                switch key {
                case "id":
                    let text = try string(key)
                    guard let text else { break }
                    guard let value = SessionWriter.uuid(fromText: text) else {
                        throw unreadable(index, key, "Attempted to decode UUID from invalid UUID string.")
                    }
                    id = value
                case "startTime": start = try instant(key)
                case "endTime": end = try instant(key)
                case "createdAt": created = try instant(key)
                case "pausedAt": pausedAt = try instant(key)
                case "state":
                    guard let text = try string(key) else { break }
                    guard let value = SessionState(rawValue: text) else {
                        throw unreadable(index, key, "Cannot initialize SessionState from invalid String value \(text.prefix(40))")
                    }
                    state = value
                case "duration": duration = try number(key)
                case "pausedDuration": paused = try number(key)
                case "plannedDuration": planned = try number(key)
                case "timeZoneIdentifier": zone = try string(key)
                case "endDay":
                    guard let text = try string(key) else { break }
                    guard let day = LocalDay(text) else {
                        throw unreadable(index, key, "Expected a date as YYYY-MM-DD, got \"\(text.prefix(40))\"")
                    }
                    endDay = day
                case "tags":
                    switch try reader.value() {
                    case .null: tags = []
                    case .array(let items):
                        tags = try items.map { item in
                            guard case .string(let tag) = item else { throw unreadable(index, key, "expected an array of strings") }
                            return tag
                        }
                        // Grove's form (trimmed, once each, sorted), or the rule a tag breaks.
                        do { tags = try tagForms.normalized(tags) } catch let error as InvalidField {
                            throw InvalidField("tags", "\(error.message) (focusSessions[\(index)])")
                        }
                    default: throw unreadable(index, key, "expected an array of strings")
                    }
                case "clockUncertain":
                    switch try reader.value() {
                    case .bool(let flag): uncertain = flag
                    case .null: uncertain = nil
                    default: throw unreadable(index, key, "expected true or false")
                    }
                case "openEnded":
                    switch try reader.value() {
                    case .bool(let flag): openEnded = flag
                    case .null: openEnded = false
                    default: throw unreadable(index, key, "expected true or false")
                    }
                default: _ = try reader.value()
                }
            } while try reader.take(UInt8(ascii: ","))
            try reader.expect(UInt8(ascii: "}"))
        }
        func required<T>(_ key: String, _ value: T?) throws -> T {
            guard let value else { throw StoreError.unreadableExport("missing field focusSessions[\(index)].\(key)") }
            return value
        }
        return FocusSession(
            id: try required("id", id), startTime: try required("startTime", start), endTime: end, state: try required("state", state),
            duration: try required("duration", duration), pausedDuration: try required("pausedDuration", paused),
            createdAt: try required("createdAt", created), plannedDuration: try required("plannedDuration", planned),
            pausedAt: pausedAt, timeZoneIdentifier: try required("timeZoneIdentifier", zone), endDay: endDay,
            clockUncertain: try required("clockUncertain", uncertain), tags: tags, openEnded: openEnded)
    }

    private static func unreadable(_ index: Int, _ key: String?, _ why: String) -> StoreError {
        .unreadableExport(".focusSessions[\(index)]\(key.map { ".\($0)" } ?? ""): \(why)")
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
