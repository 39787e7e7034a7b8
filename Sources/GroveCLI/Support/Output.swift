import Foundation
import GroveCore
import GroveStore

/// Writing results: text or JSON on stdout, errors on stderr.
public enum Output {
    /// Prints `value` as Grove JSON (pretty, sorted keys, ISO 8601 instants).
    public static func json<T: Encodable>(_ value: T) throws {
        write(try GroveExport.makeEncoder().encode(value) + Data(utf8: "\n"))
    }

    public static func error(_ message: String) {
        CLIEnvironment.current.output.standardError(Data(utf8: TerminalText.neutralized("grove: \(message)\n")))
    }

    /// Raw bytes on standard output (an export, a redrawn countdown line).
    public static func write(_ data: Data) { CLIEnvironment.current.output.standardOutput(data) }

    /// Raw text on standard error.
    public static func note(_ text: String) { CLIEnvironment.current.output.standardError(Data(utf8: TerminalText.neutralized(text))) }
}
