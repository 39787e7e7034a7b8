import Foundation

/// An error caused by bad input: names the field and the rule it broke.
///
/// Every face (CLI, HTTP) reports these the same way: the CLI prints `message` and exits 64, the API
/// answers `application/problem+json` with a 4xx status and `field` in the body.
public protocol GroveValidationError: LocalizedError, Sendable {
    /// The field at fault, named as in the JSON API and the seeds (camelCase); the CLI says the option instead (`OptionWords`).
    var field: String { get }
    /// One sentence naming the rule, e.g. "Timer name cannot be empty".
    var message: String { get }
}

extension GroveValidationError {
    public var errorDescription: String? { message }
}

/// A validation failure that carries its own field and message; used for rules that have no
/// dedicated case in a room's error enum (an unknown enum value in imported data, for example).
public struct InvalidField: GroveValidationError, Equatable {
    public let field: String
    public let message: String
    public init(_ field: String, _ message: String) {
        self.field = field
        self.message = message
    }
}

extension StringProtocol {
    /// This text as a validation message quotes it: whole when short, else its first 80 characters
    /// and an ellipsis. A refused value can be megabytes long; the message names it, not repeats it.
    public var quotedForMessage: String {
        let limit = 80
        guard unicodeScalars.count > limit else { return "\"\(String(self))\"" }
        var scalars = String.UnicodeScalarView()
        scalars.append(contentsOf: unicodeScalars.prefix(limit))
        return "\"\(String(scalars))…\""
    }
}
