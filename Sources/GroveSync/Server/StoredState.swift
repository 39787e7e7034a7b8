import Foundation
import GroveCore

/// How both server stores keep an entity's merged state: JSON with sorted keys, so that equal states
/// are equal text (a replayed push rewrites nothing).
enum StoredState {
    static func text(_ state: SyncState) throws -> String {
        let encoder = JSONEncoder()
        // Slashes as they are: a sealed state is mostly base64, and "\/" would cost a byte for each.
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(state), as: UTF8.self)
    }

    static func state(_ text: String, decoder: JSONDecoder = JSONDecoder()) throws -> SyncState {
        try decoder.decode(SyncState.self, from: Data(text.utf8))
    }
}
