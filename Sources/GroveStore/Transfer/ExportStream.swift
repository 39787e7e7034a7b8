import Foundation
import GRDB
import GroveCore

/// Bytes handed to a sink in chunks of about 64 KiB: an export of any size holds one chunk, one page
/// of rows and one cursor in memory, never the whole document.
struct ExportStream: ~Copyable {
    static let chunkSize = 1 << 16
    private var buffer = Data()
    private let sink: (Data) throws -> Void

    init(_ sink: @escaping (Data) throws -> Void) {
        self.sink = sink
        buffer.reserveCapacity(Self.chunkSize + 4096)
    }

    mutating func write(_ text: String) throws { try write(Data(text.utf8)) }

    mutating func write(_ data: Data) throws {
        buffer.append(data)
        if buffer.count >= Self.chunkSize { try flush() }
    }

    mutating func write(_ bytes: [UInt8]) throws {
        buffer.append(contentsOf: bytes)
        if buffer.count >= Self.chunkSize { try flush() }
    }

    mutating func flush() throws {
        guard !buffer.isEmpty else { return }
        try sink(buffer)
        buffer.removeAll(keepingCapacity: true)
    }
}

extension AppDatabase {

    /// Grove's JSON document with its keys sorted, as `JSONEncoder` would sort them, and each item of a
    /// list on a line of its own, so that a diff of two exports reads item by item.
    func writeJSON(to stream: inout ExportStream, _ filter: SessionFilter) throws {
        let encoder = GroveExport.makeEncoder(pretty: false)
        try writer.snapshotRead { db in
            func value(_ key: String, _ value: some Encodable, last: Bool = false) throws {
                try stream.write("  \"\(key)\" : ")
                try stream.write(encoder.encode(value))
                try stream.write(last ? "\n" : ",\n")
            }
            /// A list read through a cursor, one item per line; `next` gives an item's bytes, nil at the end.
            func list(_ key: String, _ next: () throws -> [UInt8]?) throws {
                try stream.write("  \"\(key)\" : [")
                var first = true
                while let item = try next() {
                    try stream.write(first ? "\n    " : ",\n    ")
                    try stream.write(item)
                    first = false
                }
                try stream.write(first ? "],\n" : "\n  ],\n")
            }
            func list<Item: Encodable>(_ key: String, _ next: () throws -> Item?) throws {
                try list(key) { try next().map { Array(try encoder.encode($0)) } }
            }
            try stream.write("{\n")
            let apps = try SocialAppRecord.order(sql: "sort_order, id").fetchCursor(db)
            try list("apps") { try apps.next()?.app }
            let contents = try ContentRecord.order(sql: "id").fetchCursor(db)
            try list("contents") { try contents.next()?.content }
            try value("exportedAt", GroveExport.formatInstant(environment.now()))
            try value("focusPreferences", try focusPreferences(db))
            // Sessions go straight from their columns to bytes (see `SessionRows`).
            let sessions = try Row.fetchCursor(
                db, sql: SessionRows.select + filter.sql + " ORDER BY start_time, id", arguments: filter.arguments)
            var bytes: [UInt8] = []
            try list("focusSessions") { () -> [UInt8]? in
                guard let row = try sessions.next() else { return nil }
                bytes.removeAll(keepingCapacity: true)
                SessionRows.appendJSON(row, to: &bytes)
                return bytes
            }
            try value("format", GroveExport.formatName)
            let changes = try GateChangeRecord.order(sql: "timestamp, id").fetchCursor(db)
            try list("gateChanges") { try changes.next()?.change }
            let pauses = try GatewaySessionRecord.order(sql: "start_timestamp, id").fetchCursor(db)
            try list("gatewaySessions") { try pauses.next()?.session }
            let intentions = try IntentionRecord.order(sql: "date, created_at, id").fetchCursor(db)
            try list("intentions") { try intentions.next()?.intention }
            try value("pausePreferences", try pausePreferences(db))
            let themes = try ThemeRecord.order(sql: "is_preset DESC, created_at, id").fetchCursor(db)
            try list("themes") { try themes.next()?.theme }
            // A timer's to-dos come with it: one indexed read per timer.
            let timers = try TimerRecord.order(sql: "created_at, id").fetchCursor(db)
            let todos = try db.makeStatement(sql: "SELECT * FROM todo_item WHERE timer_id = ? ORDER BY sort_order, id")
            try list("timers") { () -> TimerDTO? in
                guard let timer = try timers.next() else { return nil }
                let items = try TodoItemRecord.fetchAll(todos, arguments: [timer.id])
                return TimerDTO(from: timer.model(todos: items.map(\.model)))
            }
            try value(
                "userPreferences",
                try UserPreferencesRecord.fetchOne(db.cachedStatement(sql: "SELECT * FROM user_preferences LIMIT 1"))?.preferences
                    ?? UserPreferences())
            try value("version", GroveExport.currentVersion, last: true)
            try stream.write("}\n")
        }
    }

    /// Focus sessions as CSV (RFC 4180), oldest first: one row per session, durations in seconds.
    func writeCSV(to stream: inout ExportStream, _ filter: SessionFilter) throws {
        try stream.write(Self.groveCSVColumns.joined(separator: ",") + "\r\n")
        try writer.snapshotRead { db in
            let rows = try Row.fetchCursor(
                db, sql: SessionRows.select + filter.sql + " ORDER BY start_time, id", arguments: filter.arguments)
            var bytes: [UInt8] = []
            while let row = try rows.next() {
                bytes.removeAll(keepingCapacity: true)
                SessionRows.appendCSV(row, to: &bytes)
                try stream.write(bytes)
            }
        }
    }

    /// Completed and abandoned sessions as iCalendar events, oldest first.
    func writeICS(to stream: inout ExportStream, _ filter: SessionFilter) throws {
        let stamp = environment.now()
        try stream.write(ICalendar.header)
        try writer.snapshotRead { db in
            let cursor = try FocusSessionRecord.filter(sql: "state IN ('completed', 'abandoned')" + filter.and, arguments: filter.arguments)
                .order(sql: "start_time, id").fetchCursor(db)
            while let record = try cursor.next() { try stream.write(ICalendar.event(try record.model(), stamp: stamp)) }
        }
        try stream.write(ICalendar.footer)
    }
}

/// Which sessions an export carries: all, or those with one tag.
struct SessionFilter {
    var tag: String?
    /// Any spelling of the tag (two devices' "Reading" and "reading" are one tag).
    private static let condition = "tags IS NOT NULL AND EXISTS (SELECT 1 FROM json_each(tags) WHERE lower(value) = lower(?))"
    /// ` WHERE …` to append to `SessionRows.select` (empty for all).
    var sql: String { tag == nil ? "" : " WHERE " + Self.condition }
    /// ` AND …` to append to another condition.
    var and: String { tag == nil ? "" : " AND " + Self.condition }
    var arguments: StatementArguments { tag.map { [$0] } ?? [] }
}

extension TransferRoom {
    /// The store in `format`, written to `sink` in chunks as it is read, in one read transaction (a
    /// consistent snapshot while other processes keep writing). With `tag`, only the focus sessions
    /// carrying it (everything else in a JSON export stays whole).
    public func export(as format: ExportFormat, tag: String? = nil, to sink: (Data) throws -> Void) throws {
        if let tag { try FocusTags.check(tag) }
        let filter = SessionFilter(tag: tag)
        try withoutActuallyEscaping(sink) { sink in
            var stream = ExportStream(sink)
            switch format {
            case .json: try database.writeJSON(to: &stream, filter)
            case .csv: try database.writeCSV(to: &stream, filter)
            case .ics: try database.writeICS(to: &stream, filter)
            }
            try stream.flush()
        }
    }
}
