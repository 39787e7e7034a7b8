import Foundation
import GroveCore

/// Failures of the store that are not bad input.
public enum StoreError: Error, LocalizedError, Equatable {
    /// An export file Grove cannot read.
    case unreadableExport(String)
    /// An export written by a newer Grove.
    case unsupportedExportVersion(Int)
    /// The database file has migrations this build does not know: a newer Grove wrote it.
    case newerStore(path: String, unknownMigrations: [String])
    /// The database file was deleted while the store was open; writes would be lost.
    case databaseFileGone(String)
    /// The path now names another file than the one opened; writes would go to the old one.
    case databaseFileReplaced(String)
    /// The path names something that is not a Grove store (a directory, a device, a pipe, another
    /// kind of file, another program's SQLite database): Grove neither opens nor changes it.
    case notAStore(path: String, what: String)
    /// The directory a given path names does not exist (Grove makes only its default directory).
    case missingDirectory(path: String, directory: String)
    /// The kernel would not watch the store's folder for commits (errno).
    case watch(String, Int32)

    public var errorDescription: String? {
        switch self {
        case .unreadableExport(let why): "Cannot read the export: \(why)"
        case .unsupportedExportVersion(let v): "This export has format version \(v), newer than this Grove understands"
        case .newerStore(let path, let unknown):
            "The store at \(path) was written by a newer Grove (schema \(unknown.joined(separator: ", "))); upgrade Grove to use it"
        case .databaseFileGone(let path): "The database file \(path) was deleted; nothing was saved. Restart Grove to create a new one"
        case .databaseFileReplaced(let path): "The database file \(path) was replaced; nothing was saved. Restart Grove to open the new one"
        case .watch(let path, let code): "Cannot watch \(path) for changes: \(String(cString: strerror(code)))"
        case .notAStore(let path, let what):
            "database: \(path) is not a Grove store (it is \(what)); give the path of a Grove store or a new file"
        case .missingDirectory(let path, let directory):
            "database: the directory \(directory) of \(path) does not exist; create it first or give another path"
        }
    }

    /// Whether the failure is the caller's (bad input: exit 64 / 4xx) rather than the machine's.
    public var isBadInput: Bool {
        switch self {
        case .unreadableExport, .unsupportedExportVersion, .notAStore, .missingDirectory: true
        case .newerStore, .databaseFileGone, .databaseFileReplaced, .watch: false
        }
    }
}

/// Not-found as a validation-style error, so faces answer 404 / exit 64 naming the id.
public struct NotFoundError: GroveValidationError, Equatable {
    public let kind: String
    public let id: String
    public init(_ kind: String, _ id: String) {
        self.kind = kind
        self.id = id
    }
    public var field: String { "id" }
    public var message: String { "No \(kind) with id \(id)" }
}

/// A failure of the database engine itself (I/O, permissions, a full disk), as the faces may show it:
/// the engine's own message, never the SQL statement it was running.
public protocol StoreFailure: Error {
    /// One line for a person: what failed, without SQL.
    var summary: String { get }
    /// The HTTP status a server answers it with: 507 for a full disk, 503 for a store busy or
    /// unwritable for now, 500 for the rest.
    var serverStatus: Int { get }
}
