import ArgumentParser
import Foundation
import GroveCore
import GroveStore

extension GroveCommand {
    /// Runs `grove` with Grove's exit statuses: 0 on success, 64 for bad usage or invalid input
    /// (one line on stderr naming the field and the rule), 1 for anything else.
    public static func runMain(_ arguments: [String]? = nil) async -> Never {
        do {
            var command: any ParsableCommand
            do {
                command = try parseAsRoot(arguments)
            } catch {
                // Help and completion scripts print in full; a usage error is one `grove:` line.
                guard exitCode(for: error) != .success else { exit(withError: error) }
                let message = self.message(for: error).split(separator: "\n").first.map(String.init) ?? "invalid usage"
                Output.error(message.replacingOccurrences(of: "Error: ", with: "") + " (see grove --help)")
                Foundation.exit(exitCode(for: error).rawValue)
            }
            if var async = command as? any AsyncParsableCommand {
                try await async.run()
            } else {
                try command.run()
            }
            Foundation.exit(0)
        } catch let error as GroveValidationError {
            Output.error(error.message)
            Foundation.exit(64)
        } catch let error as StoreError {
            Output.error(error.localizedDescription)
            Foundation.exit(error.isBadInput ? 64 : 1)
        } catch let error as CLIError {
            Output.error(error.message)
            Foundation.exit(error.exitCode)
        } catch let error as any StoreFailure {
            // A failure of SQLite itself (disk full, permissions): said without the SQL it ran.
            Output.error(error.summary)
            Foundation.exit(1)
        } catch {
            exit(withError: error)
        }
    }
}
