import ArgumentParser
import Foundation
import GroveCore
import GroveStore

enum ScopeOption {
    static func parse(_ text: String) throws -> IntentionScope {
        guard let scope = IntentionScope(rawValue: text.lowercased()) else { throw InvalidField("scope", "scope must be day, week or month (got \"\(text)\")") }
        return scope
    }
}
