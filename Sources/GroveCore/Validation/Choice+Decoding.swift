import Foundation

// Bodies read these vocabularies by the same rule as the CLI and the query strings (`choosing`: any
// case, the same message naming the field), wherever they come from: the API, the web's forms, an
// export. The words written stay the raw values.

extension IntentionScope {
    public init(from decoder: any Decoder) throws {
        self = try Self.choosing(
            try decoder.singleValueContainer().decode(String.self), field: decoder.codingPath.last?.stringValue ?? "scope")
    }
}

extension GatewaySession.CompletionType {
    public init(from decoder: any Decoder) throws {
        self = try Self.choosing(
            try decoder.singleValueContainer().decode(String.self), field: decoder.codingPath.last?.stringValue ?? "completionStatus")
    }
}

extension GatewaySession.ActionType {
    public init(from decoder: any Decoder) throws {
        self = try Self.choosing(
            try decoder.singleValueContainer().decode(String.self), field: decoder.codingPath.last?.stringValue ?? "actionOutcome")
    }
}
