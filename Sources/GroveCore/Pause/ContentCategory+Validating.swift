import Foundation

extension MindfulnessContent.ContentCategory {
    /// A category typed by a person (any case), or a validation error naming `field` and the choices.
    public init(validating text: String, field: String = "category") throws {
        guard let category = Self(rawValue: text.lowercased()) else {
            throw InvalidField(field, "\(field) must be one of \(Self.allCases.map(\.rawValue).joined(separator: ", ")) (got \(text.quotedForMessage))")
        }
        self = category
    }
}
