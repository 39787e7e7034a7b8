import Foundation
import GRDB
import GroveCore

/// A row of `timer` (its to-dos live in `todo_item`).
struct TimerRecord: FetchableRecord, PersistableRecord {
    static let databaseTableName = "timer"
    static let todoItems = hasMany(TodoItemRecord.self)

    var id: String, name: String, durationInSeconds: Int, icon: String, colorHex: String, notes: String?, createdAt: Int64, updatedAt: Int64
    /// `id` parsed (a row written by hand with a malformed id is refused on read, never trapped on).
    var uuid: UUID

    init(row: Row) throws {
        uuid = try row.uuid("id"); id = row["id"]; name = row["name"]; durationInSeconds = row["duration_in_seconds"]; icon = row["icon"]
        colorHex = row["color_hex"]; notes = row["notes"]; createdAt = row["created_at"]; updatedAt = row["updated_at"]
    }

    init(_ t: NamedTimer) {
        uuid = t.id; id = t.id.uuidString; name = t.name; durationInSeconds = t.durationInSeconds; icon = t.icon; colorHex = t.colorHex
        notes = t.notes; createdAt = t.createdAt.groveMillis; updatedAt = t.updatedAt.groveMillis
    }

    func encode(to c: inout PersistenceContainer) {
        c["id"] = id; c["name"] = name; c["duration_in_seconds"] = durationInSeconds; c["icon"] = icon; c["color_hex"] = colorHex
        c["notes"] = notes; c["created_at"] = createdAt; c["updated_at"] = updatedAt
    }

    /// Inserts the row, or updates every column of the stored one (`DO UPDATE`, so update triggers
    /// fire), through a statement compiled once per connection: GRDB's `upsert` builds its SQL anew
    /// on every call, a fifth of a timer write's time.
    func upsertRow(_ db: Database) throws {
        try db.cachedExecute(
            """
            INSERT INTO timer (id, name, duration_in_seconds, icon, color_hex, notes, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (id) DO UPDATE SET name = excluded.name, duration_in_seconds = excluded.duration_in_seconds, icon = excluded.icon,
                color_hex = excluded.color_hex, notes = excluded.notes, created_at = excluded.created_at, updated_at = excluded.updated_at
            """, [id, name, durationInSeconds, icon, colorHex, notes, createdAt, updatedAt])
    }

    func model(todos: [TodoItem]) -> NamedTimer {
        NamedTimer(
            id: uuid, name: name, durationInSeconds: durationInSeconds, icon: icon, colorHex: colorHex,
            notes: notes, createdAt: Date(groveMillis: createdAt), updatedAt: Date(groveMillis: updatedAt), todoItems: todos)
    }
}

/// A row of `todo_item`.
struct TodoItemRecord: FetchableRecord, PersistableRecord {
    static let databaseTableName = "todo_item"
    static let timer = belongsTo(TimerRecord.self)

    var id: String, timerId: String, text: String, isCompleted: Bool, sortOrder: Int, createdAt: Int64, updatedAt: Int64
    /// The fractional key the order comes from (`sortOrder` is its rank).
    var orderKey: String
    var uuid: UUID

    init(row: Row) throws {
        uuid = try row.uuid("id"); id = row["id"]; timerId = row["timer_id"]; text = row["text"]; isCompleted = row["is_completed"]
        sortOrder = row["sort_order"]; createdAt = row["created_at"]; updatedAt = row["updated_at"]; orderKey = row["order_key"]
    }

    init(_ t: TodoItem, timerID: UUID, orderKey: String) {
        uuid = t.id; id = t.id.uuidString; timerId = timerID.uuidString; text = t.text; isCompleted = t.isCompleted; sortOrder = t.sortOrder
        createdAt = t.createdAt.groveMillis; updatedAt = t.updatedAt.groveMillis; self.orderKey = orderKey
    }

    func encode(to c: inout PersistenceContainer) {
        c["id"] = id; c["timer_id"] = timerId; c["text"] = text; c["is_completed"] = isCompleted; c["sort_order"] = sortOrder
        c["created_at"] = createdAt; c["updated_at"] = updatedAt; c["order_key"] = orderKey
    }

    /// Inserts the row or updates every column of the stored one, as `TimerRecord.upsertRow`.
    func upsertRow(_ db: Database) throws {
        try db.cachedExecute(
            """
            INSERT INTO todo_item (id, timer_id, text, is_completed, sort_order, created_at, updated_at, order_key) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (id) DO UPDATE SET timer_id = excluded.timer_id, text = excluded.text, is_completed = excluded.is_completed,
                sort_order = excluded.sort_order, created_at = excluded.created_at, updated_at = excluded.updated_at, order_key = excluded.order_key
            """, [id, timerId, text, isCompleted, sortOrder, createdAt, updatedAt, orderKey])
    }

    var model: TodoItem {
        TodoItem(
            id: uuid, text: text, isCompleted: isCompleted, sortOrder: sortOrder,
            createdAt: Date(groveMillis: createdAt), updatedAt: Date(groveMillis: updatedAt))
    }
}

extension Row {
    /// The UUID in `column`; a malformed one (a row written by hand) is an error, never a trap.
    func uuid(_ column: String) throws -> UUID {
        let text: String? = self[column]
        guard let text, let id = UUID(uuidString: text) else {
            throw InvalidField(column, "A stored \(column) is not a UUID: \(text ?? "null")")
        }
        return id
    }
}
