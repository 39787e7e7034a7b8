import Foundation

/// Helps with intentions: rephrasing, a fitting quote, a generated theme (seed 004's AI features).
///
/// Grove ships `OfflineAssistant`, deterministic and with no network; an HTTP implementation for
/// OpenAI-compatible servers (Ollama, llama.cpp) can stand in its place.
public protocol IntentionAssistant: Sendable {
    /// A fresh wording of `text` for its scope.
    func rephrase(_ text: String, scope: IntentionScope) async throws -> String
    /// A quote that suits `text`, chosen from `library`, formatted "text — author".
    func quote(for text: String, from library: [MindfulnessContent]) async throws -> String?
    /// A theme for `prompt` whose text/background contrast is at least 4.5:1 (WCAG AA).
    func generateTheme(prompt: String, id: UUID, createdAt: Date) async throws -> IntentionTheme
}

/// Stable 64-bit FNV-1a: Swift's `hashValue` changes between runs, and the offline assistant must not.
public func stableHash(_ string: String) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in string.utf8 {
        hash ^= UInt64(byte)
        hash = hash &* 0x100_0000_01b3
    }
    return hash
}
