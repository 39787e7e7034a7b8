import Foundation

extension CaseIterable where Self: RawRepresentable, RawValue == String {
    /// The case whose raw value is `text` in any case, or a validation error naming `field` and every
    /// choice: the one reading of a fixed vocabulary that every face uses.
    public static func choosing(_ text: String, field: String) throws -> Self {
        guard let value = allCases.first(where: { $0.rawValue.lowercased() == text.lowercased() }) else {
            throw InvalidField(
                field, "\(field) must be one of \(allCases.map(\.rawValue).joined(separator: ", ")) (got \(text.quotedForMessage))")
        }
        return value
    }
}
