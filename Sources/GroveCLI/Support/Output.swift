import Foundation
import GroveCore
import GroveStore

/// Writing results: text or JSON on stdout, errors on stderr.
public enum Output {
    /// Prints `value` as Grove JSON (pretty, sorted keys, ISO 8601 instants).
    public static func json<T: Encodable>(_ value: T) throws {
        print(String(decoding: try GroveExport.makeEncoder().encode(value), as: UTF8.self))
    }

    public static func error(_ message: String) {
        FileHandle.standardError.write(Data("grove: \(message)\n".utf8))
    }
}
