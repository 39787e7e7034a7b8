import Foundation
import GRDB
import GroveCore

/// A row of `timer` (its to-dos live in `todo_item`).
struct TimerRecord: FetchableRecord, PersistableRecord {
    static let databaseTableName = "timer"
    static let todoItems = hasMany(TodoItemRecord.self)

    var id: String, name: String, durationInSeconds: Int, icon: String, colorHex: String, notes: String?, createdAt: Int64, updatedAt: Int64

    init(row: Row) throws {
        id = row["id"]; name = row["name"]; durationInSeconds = row["duration_in_seconds"]; icon = row["icon"]
        colorHex = row["color_hex"]; notes = row["notes"]; createdAt = row["created_at"]; updatedAt = row["updated_at"]
    }

    init(_ t: NamedTimer) {
        id = t.id.uuidString; name = t.name; durationInSeconds = t.durationInSeconds; icon = t.icon; colorHex = t.colorHex
        notes = t.notes; createdAt = t.createdAt.groveMillis; updatedAt = t.updatedAt.groveMillis
    }

    func encode(to c: inout PersistenceContainer) {
        c["id"] = id; c["name"] = name; c["duration_in_seconds"] = durationInSeconds; c["icon"] = icon; c["color_hex"] = colorHex
        c["notes"] = notes; c["created_at"] = createdAt; c["updated_at"] = updatedAt
    }

    func model(todos: [TodoItem]) -> NamedTimer {
        NamedTimer(id: UUID(uuidString: id)!, name: name, durationInSeconds: durationInSeconds, icon: icon, colorHex: colorHex,
                   notes: notes, createdAt: Date(groveMillis: createdAt), updatedAt: Date(groveMillis: updatedAt), todoItems: todos)
    }
}

/// A row of `todo_item`.
struct TodoItemRecord: FetchableRecord, PersistableRecord {
    static let databaseTableName = "todo_item"
    static let timer = belongsTo(TimerRecord.self)

    var id: String, timerId: String, text: String, isCompleted: Bool, sortOrder: Int, createdAt: Int64, updatedAt: Int64

    init(row: Row) throws {
        id = row["id"]; timerId = row["timer_id"]; text = row["text"]; isCompleted = row["is_completed"]
        sortOrder = row["sort_order"]; createdAt = row["created_at"]; updatedAt = row["updated_at"]
    }

    init(_ t: TodoItem, timerID: UUID) {
        id = t.id.uuidString; timerId = timerID.uuidString; text = t.text; isCompleted = t.isCompleted; sortOrder = t.sortOrder
        createdAt = t.createdAt.groveMillis; updatedAt = t.updatedAt.groveMillis
    }

    func encode(to c: inout PersistenceContainer) {
        c["id"] = id; c["timer_id"] = timerId; c["text"] = text; c["is_completed"] = isCompleted; c["sort_order"] = sortOrder
        c["created_at"] = createdAt; c["updated_at"] = updatedAt
    }

    var model: TodoItem {
        TodoItem(id: UUID(uuidString: id)!, text: text, isCompleted: isCompleted, sortOrder: sortOrder,
                 createdAt: Date(groveMillis: createdAt), updatedAt: Date(groveMillis: updatedAt))
    }
}
