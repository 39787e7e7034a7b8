import Foundation

/// A named countdown timer with a to-do checklist (seed 001's `Timer`, renamed so that it does not
/// clash with Foundation's `Timer`).
public struct NamedTimer: Identifiable, Hashable, Sendable, Codable {
    public var id: UUID
    public var name: String
    /// Total duration, seconds (1 … 86 400).
    public var durationInSeconds: Int
    /// Icon name (the seed's SF Symbol names; terminals and the web map them to glyphs).
    public var icon: String
    /// `#RRGGBB`.
    public var colorHex: String
    public var notes: String?
    public var createdAt: Date
    public var updatedAt: Date
    /// The checklist, in `sortOrder`.
    public var todoItems: [TodoItem]

    public static let defaultIcon = "timer"
    public static let defaultColorHex = "#007AFF"
    public static let maxDuration = 86_400

    public init(
        id: UUID, name: String, durationInSeconds: Int, icon: String = NamedTimer.defaultIcon,
        colorHex: String = NamedTimer.defaultColorHex, notes: String? = nil, createdAt: Date,
        updatedAt: Date? = nil, todoItems: [TodoItem] = []
    ) {
        self.id = id
        self.name = name
        self.durationInSeconds = durationInSeconds
        self.icon = icon
        self.colorHex = colorHex
        self.notes = notes
        self.createdAt = createdAt
        self.updatedAt = updatedAt ?? createdAt
        self.todoItems = todoItems
    }

    public var hours: Int { durationInSeconds / 3600 }
    public var minutes: Int { (durationInSeconds % 3600) / 60 }
    public var seconds: Int { durationInSeconds % 60 }

    /// `HH:MM:SS` when an hour or more, else `MM:SS`.
    public var formattedDuration: String { ClockText.format(TimeInterval(durationInSeconds), padHours: true) }

    /// The seed's `isValid`.
    public var isValid: Bool { (try? validate()) != nil }

    /// Throws the first rule broken, with the seed's messages.
    public func validate() throws(TimerValidationError) {
        if name.containsNUL { throw .nulCharacter(field: "name") }
        if name.trimmingCharacters(in: .whitespaces).isEmpty { throw .emptyName }
        if name.storedLength > 100 { throw .nameTooLong }
        if durationInSeconds <= 0 { throw .invalidDuration }
        if durationInSeconds > Self.maxDuration { throw .durationTooLong }
        if !HexColor.isValid(colorHex) { throw .invalidColor(colorHex) }
        if icon.containsNUL { throw .nulCharacter(field: "icon") }
        if icon.trimmingCharacters(in: .whitespaces).isEmpty { throw .emptyIcon }
        if icon.storedLength > 100 { throw .iconTooLong }
        if let notes, notes.containsNUL { throw .nulCharacter(field: "notes") }
        if let notes, notes.storedLength > 2000 { throw .notesTooLong }
    }

    /// Whether any to-do is still open (the seed's `timers.withIncompleteTodos` predicate).
    public var hasIncompleteTodos: Bool { todoItems.contains { !$0.isCompleted } }
}

/// Seed 001's `ValidationError` for timers, with its exact messages, plus Grove's extra rules.
public enum TimerValidationError: GroveValidationError, Equatable {
    /// The name is empty or only spaces.
    case emptyName
    /// The duration is 0 or negative.
    case invalidDuration
    /// The duration is over 24 hours.
    case durationTooLong
    /// The colour is not `#RRGGBB`.
    case invalidColor(String)
    /// The name is over 100 characters.
    case nameTooLong
    /// The icon name is empty.
    case emptyIcon
    /// The icon name is over 100 characters (an SF Symbol name or an emoji, not a paragraph).
    case iconTooLong
    /// The notes are over 2 000 characters.
    case notesTooLong
    /// Text with a NUL character (SQLite would read it as ending there).
    case nulCharacter(field: String)

    public var field: String {
        switch self {
        case .emptyName, .nameTooLong: "name"
        case .invalidDuration, .durationTooLong: "durationInSeconds"
        case .invalidColor: "colorHex"
        case .emptyIcon, .iconTooLong: "icon"
        case .notesTooLong: "notes"
        case .nulCharacter(let field): field
        }
    }

    public var message: String {
        switch self {
        case .emptyName: "Timer name cannot be empty"
        case .invalidDuration: "Duration must be greater than 0"
        case .durationTooLong: "Duration cannot exceed 24 hours"
        case .invalidColor(let value): "Colour must be a hex colour like #007AFF (got \(value.quotedForMessage))"
        case .nameTooLong: "Timer name cannot exceed 100 characters"
        case .emptyIcon: "Icon cannot be empty"
        case .iconTooLong: "Icon cannot exceed 100 characters"
        case .notesTooLong: "Notes cannot exceed 2000 characters"
        case .nulCharacter(let field): "\(field) cannot contain a NUL character"
        }
    }
}
