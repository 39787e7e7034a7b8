import ArgumentParser
import Foundation
import GroveCore
import GroveStore

/// A command-line failure with its message and exit status.
public struct CLIError: Error, Equatable {
    public var message: String
    public var exitCode: Int32

    /// Bad usage or input: exit 64.
    public static func usage(_ message: String) -> CLIError { CLIError(message: message, exitCode: 64) }
    /// Anything else: exit 1.
    public static func failure(_ message: String) -> CLIError { CLIError(message: message, exitCode: 1) }
}
