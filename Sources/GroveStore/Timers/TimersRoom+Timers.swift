import Foundation
import GRDB
import GroveCore

extension AppDatabase {
    /// How to order the timer list (seed 001's two `@Query` sorts).
    public enum TimerOrder: String, Sendable, CaseIterable {
        /// Newest first.
        case createdAt
        /// By name, A→Z.
        case name

        /// An order typed by a person or sent as `?sort=`, or a validation error naming `field`.
        public init(validating text: String, field: String = "sort") throws {
            self = try Self.choosing(text, field: field)
        }
    }

    // MARK: Reads

    func timer(_ db: Database, id: UUID) throws -> NamedTimer? {
        guard let record = try TimerRecord.fetchOne(db.cachedStatement(sql: "SELECT * FROM timer WHERE id = ?"), arguments: [id.uuidString])
        else { return nil }
        return try loadTodos(db, for: [record]).first
    }

    func loadTodos(_ db: Database, for records: [TimerRecord]) throws -> [NamedTimer] {
        guard !records.isEmpty else { return [] }
        // One statement for any number of timers (the ids as one JSON array), compiled once per connection.
        let ids = String(decoding: try JSONEncoder().encode(records.map(\.id)), as: UTF8.self)
        let todos = try TodoItemRecord.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT * FROM todo_item WHERE timer_id IN (SELECT value FROM json_each(?)) ORDER BY sort_order, order_key, id
                    """), arguments: [ids])
        let byTimer = Dictionary(grouping: todos, by: \.timerId)
        return records.map { $0.model(todos: (byTimer[$0.id] ?? []).map(\.model)) }
    }

    // MARK: Writes

    func saveTimer(_ timer: NamedTimer, _ db: Database) throws {
        try checkTodoOwnership(timer, db)
        try TimerRecord(timer).upsertRow(db)
        let existing = Dictionary(
            try db.cachedRows("SELECT id, order_key FROM todo_item WHERE timer_id = ?", [timer.id.uuidString])
                .map { ($0["id"] as String, $0["order_key"] as String) }, uniquingKeysWith: { a, _ in a })
        let keep = Set(timer.todoItems.map(\.id.uuidString))
        for id in existing.keys where !keep.contains(id) { try db.cachedExecute("DELETE FROM todo_item WHERE id = ?", [id]) }
        // The list's order as given (by sortOrder), kept as fractional keys: to-dos still in order keep
        // theirs, only the moved and the new get one (a synced move then changes one row).
        let ordered = timer.todoItems.enumerated().sorted { ($0.element.sortOrder, $0.offset) < ($1.element.sortOrder, $1.offset) }.map(
            \.element)
        let keys = OrderKey.assign(ordered.map { existing[$0.id.uuidString] })
        for (rank, (item, key)) in zip(ordered, keys).enumerated() {
            var item = item
            item.sortOrder = rank
            try TodoItemRecord(item, timerID: timer.id, orderKey: key).upsertRow(db)
        }
    }

    /// A to-do belongs to one timer: saving a checklist that names another timer's to-do (or one to-do
    /// twice) is an error, never a silent move.
    func checkTodoOwnership(_ timer: NamedTimer, _ db: Database) throws {
        try Self.checkUnique(timer.todoItems.map(\.id.uuidString), "todoItems")
        guard !timer.todoItems.isEmpty else { return }
        let ids = timer.todoItems.map(\.id.uuidString)
        if let taken = try String.fetchOne(
            db,
            TodoItemRecord.select(Column("id"))
                .filter(ids.contains(Column("id")) && Column("timer_id") != timer.id.uuidString))
        {
            throw InvalidField("todoItems", "To-do \(taken) belongs to another timer")
        }
    }

    @discardableResult
    func modifyTimer(id: UUID, chosen: [String] = [], _ change: (inout NamedTimer) throws -> Void) throws -> NamedTimer {
        try write { db in
            guard var timer = try timer(db, id: id) else { throw NotFoundError("timer", id.uuidString) }
            try change(&timer)
            timer.updatedAt = environment.now()
            try timer.validate()
            for item in timer.todoItems { try item.validate() }
            try saveTimer(timer, db)
            try SyncChoice.record(db, .timer, id: id.uuidString, fields: chosen)
            return timer
        }
    }
}

extension TimersRoom {
    /// All timers with their to-dos in order.
    public func all(orderedBy order: AppDatabase.TimerOrder = .createdAt) throws -> [NamedTimer] {
        try writer.snapshotRead { db in
            let sql =
                order == .createdAt
                ? "SELECT * FROM timer ORDER BY created_at DESC, id" : "SELECT * FROM timer ORDER BY name COLLATE NOCASE, created_at DESC"
            return try database.loadTodos(db, for: TimerRecord.fetchAll(db.cachedStatement(sql: sql)))
        }
    }

    /// Timers with at least one incomplete to-do (seed 001's predicate query), newest first.
    public func withIncompleteTodos() throws -> [NamedTimer] {
        try all(orderedBy: .createdAt, incompleteOnly: true)
    }

    /// The timer list every face shows: in `order`, optionally only those with unfinished to-dos.
    public func all(orderedBy order: AppDatabase.TimerOrder, incompleteOnly: Bool) throws -> [NamedTimer] {
        guard incompleteOnly else { return try all(orderedBy: order) }
        return try writer.snapshotRead { db in
            try database.loadTodos(
                db,
                for: TimerRecord.filter(sql: "EXISTS (SELECT 1 FROM todo_item WHERE timer_id = timer.id AND NOT is_completed)")
                    .order(sql: order == .createdAt ? "created_at DESC, id" : "name COLLATE NOCASE, created_at DESC").fetchAll(db))
        }
    }

    /// One timer by id.
    public func find(id: UUID) throws -> NamedTimer? {
        try writer.snapshotRead { db in try database.timer(db, id: id) }
    }

    /// Creates a timer (and its to-dos) after validating it; `icon` is one of `TimerIcon.choices`, by
    /// its stored name or its word.
    @discardableResult
    public func create(
        name: String, durationInSeconds: Int, icon: String = NamedTimer.defaultIcon,
        colorHex: String = NamedTimer.defaultColorHex, notes: String? = nil, todos: [String] = []
    ) throws -> NamedTimer {
        let now = environment.now()
        var timer = NamedTimer(
            id: environment.uuid(), name: name.trimmingCharacters(in: .whitespaces), durationInSeconds: durationInSeconds,
            icon: try TimerIcon.name(validating: icon), colorHex: HexColor.normalized(colorHex), notes: notes, createdAt: now)
        timer.todoItems = todos.enumerated().map {
            TodoItem(id: environment.uuid(), text: $0.element, sortOrder: $0.offset, createdAt: now)
        }
        try save(timer)
        return timer
    }

    /// Inserts or replaces a timer with its whole checklist (sync, import, edits).
    public func save(_ timer: NamedTimer) throws {
        try timer.validate()
        for item in timer.todoItems { try item.validate() }
        try write { db in try database.saveTimer(timer, db) }
    }

    /// Changes a timer's fields; `nil` leaves a field as it is. `notes: ""` clears the notes.
    @discardableResult
    public func update(
        id: UUID, name: String? = nil, durationInSeconds: Int? = nil, icon: String? = nil,
        colorHex: String? = nil, notes: String? = nil
    ) throws -> NamedTimer {
        // Each field given is a choice, even of the value it has (it syncs as one).
        let chosen = [
            ("name", name != nil), ("durationInSeconds", durationInSeconds != nil), ("icon", icon != nil), ("colorHex", colorHex != nil),
            ("notes", notes != nil),
        ].filter(\.1).map(\.0)
        return try database.modifyTimer(id: id, chosen: chosen) { timer in
            if let name { timer.name = name.trimmingCharacters(in: .whitespaces) }
            if let durationInSeconds { timer.durationInSeconds = durationInSeconds }
            // A person picks from Grove's icons; a synced timer keeps the name its device gave it (an edit
            // form sends it back unchanged).
            if let icon, icon != timer.icon { timer.icon = try TimerIcon.name(validating: icon) }
            if let colorHex { timer.colorHex = HexColor.normalized(colorHex) }
            if let notes { timer.notes = notes.isEmpty ? nil : notes }
        }
    }

    /// Deletes a timer; its to-dos go with it (ON DELETE CASCADE).
    public func delete(id: UUID) throws {
        try write { db in
            try db.cachedExecute("DELETE FROM timer WHERE id = ?", [id.uuidString])
            guard db.changesCount > 0 else { throw NotFoundError("timer", id.uuidString) }
        }
    }

    /// Appends a to-do to a timer's checklist.
    @discardableResult
    public func addTodo(timerID: UUID, text: String) throws -> TodoItem {
        let item = TodoItem(id: environment.uuid(), text: text.trimmingCharacters(in: .whitespaces), createdAt: environment.now())
        try item.validate()
        var added = item
        try database.modifyTimer(id: timerID) { timer in
            added.sortOrder = timer.todoItems.count
            timer.todoItems.append(added)
        }
        return added
    }

    /// Flips a to-do and stamps it and its timer (seed 001).
    @discardableResult
    public func toggleTodo(timerID: UUID, todoID: UUID) throws -> TodoItem {
        var result: TodoItem?
        try database.modifyTimer(id: timerID) { timer in
            guard let index = timer.todoItems.firstIndex(where: { $0.id == todoID }) else {
                throw NotFoundError("to-do", todoID.uuidString)
            }
            timer.todoItems[index].toggle(at: environment.now())
            result = timer.todoItems[index]
        }
        guard let result else { throw NotFoundError("to-do", todoID.uuidString) }
        return result
    }

    /// Changes a to-do's text.
    @discardableResult
    public func editTodo(timerID: UUID, todoID: UUID, text: String) throws -> TodoItem {
        var result: TodoItem?
        try database.modifyTimer(id: timerID) { timer in
            guard let index = timer.todoItems.firstIndex(where: { $0.id == todoID }) else {
                throw NotFoundError("to-do", todoID.uuidString)
            }
            timer.todoItems[index].text = text.trimmingCharacters(in: .whitespaces)
            timer.todoItems[index].updatedAt = environment.now()
            try timer.todoItems[index].validate()
            result = timer.todoItems[index]
        }
        guard let result else { throw NotFoundError("to-do", todoID.uuidString) }
        return result
    }

    /// Moves a to-do to position `to` (0-based) and renumbers the checklist.
    public func moveTodo(timerID: UUID, todoID: UUID, to position: Int) throws {
        try database.modifyTimer(id: timerID) { timer in
            guard let index = timer.todoItems.firstIndex(where: { $0.id == todoID }) else {
                throw NotFoundError("to-do", todoID.uuidString)
            }
            guard position >= 0, position < timer.todoItems.count else {
                throw InvalidField("sortOrder", "Position must be between 0 and \(timer.todoItems.count - 1)")
            }
            timer.todoItems.move(from: index, to: position, at: environment.now())
        }
    }

    /// Removes a to-do and closes the gap in the order.
    public func deleteTodo(timerID: UUID, todoID: UUID) throws {
        try database.modifyTimer(id: timerID) { timer in
            guard let index = timer.todoItems.firstIndex(where: { $0.id == todoID }) else {
                throw NotFoundError("to-do", todoID.uuidString)
            }
            timer.todoItems.remove(at: index)
            for i in timer.todoItems.indices where timer.todoItems[i].sortOrder != i { timer.todoItems[i].sortOrder = i }
        }
    }

    /// Loads seed 001's sample timers (idempotent: fixed ids).
    /// Adds seed 001's sample timers that are not there yet (their ids are fixed: loading twice adds
    /// nothing, and a sample you edited stays as you left it); how many were added.
    @discardableResult
    public func loadSamples() throws -> Int {
        var added = 0
        for timer in NamedTimer.sampleData(createdAt: environment.now()) where try self.find(id: timer.id) == nil {
            try save(timer)
            added += 1
        }
        return added
    }
}
