import Foundation

/// One line of a timer's checklist (seed 001).
public struct TodoItem: Identifiable, Hashable, Sendable, Codable {
    public var id: UUID
    public var text: String
    public var isCompleted: Bool
    /// Position in the checklist, from 0.
    public var sortOrder: Int
    public var createdAt: Date
    public var updatedAt: Date

    public init(id: UUID, text: String, isCompleted: Bool = false, sortOrder: Int = 0, createdAt: Date, updatedAt: Date? = nil) {
        self.id = id
        self.text = text
        self.isCompleted = isCompleted
        self.sortOrder = sortOrder
        self.createdAt = createdAt
        self.updatedAt = updatedAt ?? createdAt
    }

    public var isValid: Bool { (try? validate()) != nil }

    public func validate() throws(TodoValidationError) {
        if text.containsNUL { throw .nulCharacter }
        if text.trimmingCharacters(in: .whitespaces).isEmpty { throw .emptyText }
        if text.storedLength > 500 { throw .textTooLong }
        if sortOrder < 0 { throw .negativeSortOrder }
    }

    /// Flips completion and stamps `updatedAt`.
    public mutating func toggle(at now: Date) {
        isCompleted.toggle()
        updatedAt = now
    }
}

/// Seed 001's `TodoValidationError`, with its exact message.
public enum TodoValidationError: GroveValidationError, Equatable {
    /// The text is empty or only spaces.
    case emptyText
    /// The text is over 500 characters.
    case textTooLong
    /// Text with a NUL character.
    case nulCharacter
    /// A negative position in the checklist.
    case negativeSortOrder

    public var field: String { self == .negativeSortOrder ? "sortOrder" : "text" }

    public var message: String {
        switch self {
        case .emptyText: "To-do text cannot be empty"
        case .textTooLong: "To-do text cannot exceed 500 characters"
        case .nulCharacter: "To-do text cannot contain a NUL character"
        case .negativeSortOrder: "A to-do's sortOrder cannot be negative"
        }
    }
}

extension Array where Element == TodoItem {
    /// Moves the item at `from` to `to` and renumbers `sortOrder` 0…n-1.
    public mutating func move(from: Int, to: Int, at now: Date) {
        guard indices.contains(from) else { return }
        let item = remove(at: from)
        insert(item, at: Swift.min(Swift.max(0, to), count))
        for index in indices where self[index].sortOrder != index {
            self[index].sortOrder = index
            self[index].updatedAt = now
        }
    }
}
