import Foundation

/// The wire form of a timer (seed 001), versioned for sync between devices.
public struct TimerDTO: Codable, Hashable, Sendable {
    /// Schema version of the transfer objects; bumped when a field changes meaning.
    public static let currentSchemaVersion = 1

    public let schemaVersion: Int
    public let id: UUID
    public let name: String
    public let durationInSeconds: Int
    public let icon: String
    public let colorHex: String
    public let notes: String?
    public let createdAt: Date
    public let updatedAt: Date
    public let todoItems: [TodoItemDTO]

    public init(from timer: NamedTimer) {
        schemaVersion = Self.currentSchemaVersion
        id = timer.id
        name = timer.name
        durationInSeconds = timer.durationInSeconds
        icon = timer.icon
        colorHex = timer.colorHex
        notes = timer.notes
        createdAt = timer.createdAt
        updatedAt = timer.updatedAt
        todoItems = timer.todoItems.map(TodoItemDTO.init(from:))
    }

    /// The timer this DTO describes, validated: a peer's bad data is rejected, not stored.
    public func toModel() throws -> NamedTimer {
        let timer = NamedTimer(
            id: id, name: name, durationInSeconds: durationInSeconds, icon: icon, colorHex: colorHex,
            notes: notes, createdAt: createdAt, updatedAt: updatedAt,
            todoItems: try todoItems.map { try $0.toModel() }.sorted { $0.sortOrder < $1.sortOrder })
        try timer.validate()
        return timer
    }

    /// The message's `schemaVersion` (1 when a version-1 peer omits it); versions this Grove does not
    /// know — newer, zero or negative — are refused, whichever message carries them.
    static func checkedSchemaVersion<Key: CodingKey>(_ c: KeyedDecodingContainer<Key>, _ key: Key) throws -> Int {
        let version = try c.decodeIfPresent(Int.self, forKey: key) ?? 1
        guard (1...currentSchemaVersion).contains(version) else {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: c,
                debugDescription: "Schema version \(version) is not one this Grove understands (1 to \(currentSchemaVersion))")
        }
        return version
    }

    private enum CodingKeys: String, CodingKey {
        case schemaVersion, id, name, durationInSeconds, icon, colorHex, notes, createdAt, updatedAt, todoItems
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        // Version 1 peers that predate the field omit it.
        schemaVersion = try Self.checkedSchemaVersion(c, .schemaVersion)
        id = try c.decode(UUID.self, forKey: .id)
        name = try c.decode(String.self, forKey: .name)
        durationInSeconds = try c.decode(Int.self, forKey: .durationInSeconds)
        icon = try c.decode(String.self, forKey: .icon)
        colorHex = try c.decode(String.self, forKey: .colorHex)
        notes = try c.decodeIfPresent(String.self, forKey: .notes)
        createdAt = try c.decode(Date.self, forKey: .createdAt)
        updatedAt = try c.decode(Date.self, forKey: .updatedAt)
        todoItems = try c.decodeIfPresent([TodoItemDTO].self, forKey: .todoItems) ?? []
    }
}

/// The wire form of a to-do (seed 001).
public struct TodoItemDTO: Codable, Hashable, Sendable {
    public let id: UUID
    public let text: String
    public let isCompleted: Bool
    public let sortOrder: Int
    public let createdAt: Date
    public let updatedAt: Date

    public init(from item: TodoItem) {
        id = item.id
        text = item.text
        isCompleted = item.isCompleted
        sortOrder = item.sortOrder
        createdAt = item.createdAt
        updatedAt = item.updatedAt
    }

    public func toModel() throws -> TodoItem {
        let item = TodoItem(id: id, text: text, isCompleted: isCompleted, sortOrder: sortOrder, createdAt: createdAt, updatedAt: updatedAt)
        try item.validate()
        return item
    }
}

/// All timers at once (seed 001's application-context payload).
public struct TimerSyncPayload: Codable, Hashable, Sendable {
    public let schemaVersion: Int
    public let timers: [TimerDTO]
    public let syncTimestamp: Date

    public init(timers: [TimerDTO], syncTimestamp: Date) {
        self.schemaVersion = TimerDTO.currentSchemaVersion
        self.timers = timers
        self.syncTimestamp = syncTimestamp
    }

    private enum CodingKeys: String, CodingKey { case schemaVersion, timers, syncTimestamp }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        schemaVersion = try TimerDTO.checkedSchemaVersion(c, .schemaVersion)
        timers = try c.decode([TimerDTO].self, forKey: .timers)
        syncTimestamp = try c.decode(Date.self, forKey: .syncTimestamp)
    }
}

/// One timer created, updated or deleted (seed 001).
public struct TimerUpdateMessage: Codable, Hashable, Sendable {
    public enum UpdateType: String, Codable, Sendable { case created, updated, deleted }

    public let schemaVersion: Int
    public let type: UpdateType
    /// The timer, except for deletions.
    public let timer: TimerDTO?
    public let timerID: UUID

    public init(type: UpdateType, timer: TimerDTO?, timerID: UUID) {
        self.schemaVersion = TimerDTO.currentSchemaVersion
        self.type = type
        self.timer = timer
        self.timerID = timerID
    }

    private enum CodingKeys: String, CodingKey { case schemaVersion, type, timer, timerID }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        schemaVersion = try TimerDTO.checkedSchemaVersion(c, .schemaVersion)
        type = try c.decode(UpdateType.self, forKey: .type)
        timer = try c.decodeIfPresent(TimerDTO.self, forKey: .timer)
        timerID = try c.decode(UUID.self, forKey: .timerID)
        if type != .deleted && timer == nil {
            throw DecodingError.dataCorruptedError(
                forKey: .timer, in: c, debugDescription: "A \(type.rawValue) message must carry the timer")
        }
    }
}

/// A small change made from a second device (seed 001).
public struct QuickActionMessage: Codable, Hashable, Sendable {
    public enum Action: String, Codable, Sendable { case todoToggled, noteUpdated }

    public let schemaVersion: Int
    public let action: Action
    public let timerID: UUID
    public let todoID: UUID?
    public let todoCompleted: Bool?
    public let noteText: String?

    public init(action: Action, timerID: UUID, todoID: UUID? = nil, todoCompleted: Bool? = nil, noteText: String? = nil) {
        self.schemaVersion = TimerDTO.currentSchemaVersion
        self.action = action
        self.timerID = timerID
        self.todoID = todoID
        self.todoCompleted = todoCompleted
        self.noteText = noteText
    }

    private enum CodingKeys: String, CodingKey { case schemaVersion, action, timerID, todoID, todoCompleted, noteText }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        schemaVersion = try TimerDTO.checkedSchemaVersion(c, .schemaVersion)
        action = try c.decode(Action.self, forKey: .action)
        timerID = try c.decode(UUID.self, forKey: .timerID)
        todoID = try c.decodeIfPresent(UUID.self, forKey: .todoID)
        todoCompleted = try c.decodeIfPresent(Bool.self, forKey: .todoCompleted)
        noteText = try c.decodeIfPresent(String.self, forKey: .noteText)
        if action == .todoToggled && (todoID == nil || todoCompleted == nil) {
            throw DecodingError.dataCorruptedError(forKey: .todoID, in: c, debugDescription: "todoToggled needs todoID and todoCompleted")
        }
    }

    /// Applies the action to `timer` at `now`; throws when it names a to-do the timer lacks.
    public func apply(to timer: inout NamedTimer, at now: Date) throws {
        guard timer.id == timerID else { throw InvalidField("timerID", "Quick action is for another timer") }
        switch action {
        case .todoToggled:
            guard let index = timer.todoItems.firstIndex(where: { $0.id == todoID }) else {
                throw InvalidField("todoID", "No to-do with id \(todoID?.uuidString ?? "nil") on this timer")
            }
            timer.todoItems[index].isCompleted = todoCompleted ?? !timer.todoItems[index].isCompleted
            timer.todoItems[index].updatedAt = now
        case .noteUpdated:
            let trimmed = noteText?.trimmingCharacters(in: .whitespacesAndNewlines)
            timer.notes = trimmed?.isEmpty == false ? noteText : nil
        }
        timer.updatedAt = now
        try timer.validate()
    }
}
