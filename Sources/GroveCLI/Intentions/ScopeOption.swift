import Foundation
import GroveCore

enum ScopeOption {
    static func parse(_ text: String) throws -> IntentionScope { try IntentionScope(validating: text) }
}
