import Foundation
import GroveCore

/// Failures of the store that are not bad input.
public enum StoreError: Error, LocalizedError, Equatable {
    /// No row with that id.
    case notFound(kind: String, id: String)
    /// An export file Grove cannot read.
    case unreadableExport(String)
    /// An export written by a newer Grove.
    case unsupportedExportVersion(Int)

    public var errorDescription: String? {
        switch self {
        case .notFound(let kind, let id): "No \(kind) with id \(id)"
        case .unreadableExport(let why): "Cannot read the export: \(why)"
        case .unsupportedExportVersion(let v): "This export has format version \(v), newer than this Grove understands"
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
