import Foundation
import GRDB
import GroveCore

/// A rule of the schema (a `CHECK`, `NOT NULL`, `UNIQUE` or foreign key) that a write broke, told as
/// a validation error naming the field — never as SQL text.
///
/// Every such rule is also checked in Swift before the write with a better message; this is the net
/// under that check, for a rule missed there or data from another process.
public struct ConstraintViolation: GroveValidationError, Equatable {
    public let field: String
    public let message: String

    /// The violation `error` reports, or nil when it is not a constraint failure.
    init?(_ error: DatabaseError) {
        guard error.resultCode == .SQLITE_CONSTRAINT else { return nil }
        let text = error.message ?? ""
        if text.contains("At most 10 apps") {
            field = "isEnabled"
            message = "At most \(PausePreferences.maxEnabledApps) apps can be enabled"
        } else if text.contains("focus_session_one_open") {
            field = "state"
            message = FocusError.sessionAlreadyOpen.message
        } else if let columns = Self.suffix(of: text, after: "NOT NULL constraint failed:") {
            field = Self.field(columns)
            message = "\(field) is required"
        } else if let columns = Self.suffix(of: text, after: "UNIQUE constraint failed:") {
            field = Self.field(columns)
            message = "An item with this \(field) already exists"
        } else if let expression = Self.suffix(of: text, after: "CHECK constraint failed:") {
            field = Self.field(expression)
            message = "\(field) is out of range or malformed"
        } else if text.contains("FOREIGN KEY") {
            field = "id"
            message = "The item refers to something that does not exist"
        } else {
            field = "body"
            message = "The change breaks a rule of the store"
        }
    }

    private static func suffix(of text: String, after marker: String) -> String? {
        guard let range = text.range(of: marker) else { return nil }
        return text[range.upperBound...].trimmingCharacters(in: .whitespaces)
    }

    /// SQL words that are not column names.
    private static let sqlWords: Set<String> = [
        "length", "trim", "and", "or", "not", "null", "is", "in", "between", "glob", "like", "instr", "json_valid",
        "json_array_length", "index", "case", "when", "then", "else", "end", "abs",
    ]

    /// The first column named in `sql` (`timer.name`, `length(trim(name)) > 0`), in the seeds' camelCase.
    static func field(_ sql: String) -> String {
        var words: [String] = []
        var current = ""
        var quoted = false
        for ch in sql {
            if ch == "'" { quoted.toggle(); current = ""; continue }
            if quoted { continue }
            if ch.isLetter || ch == "_" || (ch.isNumber && !current.isEmpty) {
                current.append(ch)
            } else {
                if !current.isEmpty { words.append(current) }
                current = ""
                if ch == "." { words.removeAll() }  // `table.column`: keep the column
            }
        }
        if !current.isEmpty { words.append(current) }
        guard let column = words.first(where: { !sqlWords.contains($0.lowercased()) }) else { return "body" }
        let parts = column.split(separator: "_")
        guard let first = parts.first else { return "body" }
        return String(first) + parts.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }
}

extension DatabaseError: StoreFailure {
    public var summary: String {
        switch resultCode.primaryResultCode {
        case .SQLITE_FULL: "The disk is full: nothing was saved. Free some space and try again"
        case .SQLITE_IOERR: "The disk could not be read or written (an I/O error): nothing was saved"
        case .SQLITE_READONLY: "The database can only be read here (its file or folder is read-only): nothing was saved"
        case .SQLITE_CANTOPEN: "The database file cannot be opened: check that its folder exists and is yours"
        case .SQLITE_BUSY, .SQLITE_LOCKED: "The database stayed busy with another program for 10 s: nothing was saved; try again"
        case .SQLITE_CORRUPT, .SQLITE_NOTADB:
            "The database file is damaged: restore it from a backup (`grove export` from a copy saves what can be read)"
        case .SQLITE_PERM, .SQLITE_AUTH: "The database refused access to its file: check its permissions"
        default: "The database failed (SQLite error \(resultCode.rawValue): \(message ?? "unknown"))"
        }
    }

    /// What kind of failure this is for a server's answer: the disk full (507), the store busy or
    /// unwritable for now (503), or something else (500).
    public var serverStatus: Int {
        switch resultCode.primaryResultCode {
        case .SQLITE_FULL: 507
        case .SQLITE_BUSY, .SQLITE_LOCKED, .SQLITE_IOERR, .SQLITE_READONLY: 503
        default: 500
        }
    }
}
