import Foundation

extension MindfulnessContent.ContentCategory {
    /// A category typed by a person (any case), or a validation error naming `field` and the choices.
    public init(validating text: String, field: String = "category") throws {
        self = try Self.choosing(text, field: field)
    }
}

extension MindfulnessContent.ContentType {
    /// A content type typed by a person (any case), or a validation error naming `field` and the choices.
    public init(validating text: String, field: String = "type") throws {
        self = try Self.choosing(text, field: field)
    }
}

// Bodies read a category or a type by the same rule as the CLI (any case, the same message), wherever
// they come from: the API, the web's forms, a Grove export, a content pack.
extension MindfulnessContent.ContentCategory {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        try self.init(validating: try container.decode(String.self), field: decoder.codingPath.last?.stringValue ?? "category")
    }
}

extension MindfulnessContent.ContentType {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        try self.init(validating: try container.decode(String.self), field: decoder.codingPath.last?.stringValue ?? "type")
    }
}
