import ArgumentParser
import Foundation
import GroveBuildInfo
import GroveCore
import GroveStore
import GroveSync
import GroveSystem
import Logging

extension GroveCommand {
    /// Runs `grove` as a process: `execute` in the live environment, then exits with its status.
    public static func runMain(_ arguments: [String]? = nil) async -> Never {
        // Swift repairs an argument that is not UTF-8 into U+FFFD: it would be stored so, silently.
        if arguments == nil, let position = argumentNotUTF8() {
            Output.error("argument \(position) is not UTF-8 text: give names and notes in UTF-8")
            Foundation.exit(64)
        }
        let status = await execute(arguments ?? Array(CommandLine.arguments.dropFirst()))
        Foundation.exit(status)
    }

    /// The position (1-based, after the program's name) of the first command-line argument whose
    /// bytes are not valid UTF-8, read from the raw `argv`; nil when all are.
    static func argumentNotUTF8() -> Int? {
        let count = Int(CommandLine.argc)
        for index in 1..<max(1, count) {
            guard let pointer = CommandLine.unsafeArgv[index] else { continue }
            if String(validatingCString: pointer) == nil { return index }
        }
        return nil
    }

    /// Log lines go to standard error, ranked for the journal under systemd (`JournalLogHandler`).
    /// Once per process, before any logger is made: the `grove` binary's `main` calls it, tests do not.
    public static func bootstrapLogging() {
        LoggingSystem.bootstrap { label in JournalLogHandler.standardError(label: label) }
    }

    /// `grove now` runs on every shell prompt and status-bar tick: its usual forms skip ArgumentParser
    /// (`NowCommand.fastOptions`); the others are parsed by its own command alone
    /// (ArgumentParser then reflects over one command instead of building the tree of all ~80, a third
    /// of its start-up), and so are the everyday commands (`EverydayParse`); anything they do not take
    /// (`--help`, a typo) goes to the full parse as before.
    static func parseFast(_ arguments: [String]) throws -> any ParsableCommand {
        if arguments.first == "now", let now = EverydayParse.parse(NowCommand.self, Array(arguments.dropFirst())) { return now }
        if let everyday = EverydayParse.command(arguments) { return everyday }
        return try parseAsRoot(arguments)
    }

    /// Runs one `grove` command line in the current `CLIEnvironment` and returns its exit status: 0 on
    /// success, 64 for bad usage or invalid input (one `grove:` line on standard error naming the field
    /// and the rule), 1 for anything else. Never exits the process: tests run it in-process.
    public static func execute(_ arguments: [String]) async -> Int32 {
        if let status = executeImmediately(arguments) { return status }
        return await executeParsed(arguments)
    }

    /// `arguments` parsed by ArgumentParser, whatever their form, and run (`execute` without the
    /// immediate forms: tests hold those to what this makes of the same line).
    static func executeParsed(_ arguments: [String]) async -> Int32 {
        do {
            var command: any ParsableCommand
            do {
                command = try parseFast(arguments)
            } catch {
                let code = exitCode(for: error)
                // Help and completion scripts print in full; a usage error is one `grove:` line.
                if code == .success {
                    let message = fullMessage(for: error)
                    print(arguments.contains("--generate-completion-script") ? CompletionScript.mended(message) : message)
                    return code.rawValue
                }
                // A list of choices ArgumentParser prints as bullets becomes one comma-separated line.
                let message =
                    self.message(for: error).replacingOccurrences(of: ":\n  - ", with: ": ").replacingOccurrences(of: "\n  - ", with: ", ")
                    .split(separator: "\n").first.map(String.init) ?? "invalid usage"
                Output.error(message.replacingOccurrences(of: "Error: ", with: "") + " (see grove --help)")
                return code.rawValue
            }
            if var async = command as? any AsyncParsableCommand {
                try await async.run()
            } else {
                try command.run()
            }
            return 0
        } catch {
            return report(error)
        }
    }

    /// `grove now` in the forms a prompt or status bar runs (`NowCommand.fastOptions`), answered
    /// synchronously on the calling thread; nil for any other command line. `main` calls it before
    /// anything starts the concurrency runtime's threads: with one thread, the first touch of each
    /// page of the binary is a plain page fault, not one that interrupts every other core to flush
    /// its TLB (a tenth of `grove now`'s run, measured).
    ///
    /// `exiting`: the caller exits with the status returned (the `grove` binary's `main`), so the
    /// stores the command opened are closed and never released (`StoresAtExit`).
    ///
    /// The everyday commands' usual forms (`EverydayParse.immediate`) run here too, for the same reasons.
    public static func executeImmediately(_ arguments: [String], exiting: Bool = false) -> Int32? {
        // What ArgumentParser prints for `--version`, without building the tree of every command
        // (a third more instructions than `grove now` itself).
        if arguments == ["--version"] {
            Output.write(Data(utf8: Build.versionLine + "\n"))
            return 0
        }
        let work: () throws -> Void
        if let options = NowCommand.fastOptions(arguments) {
            work = { try NowCommand.show(options) }
        } else if let everyday = EverydayParse.immediate(arguments) {
            work = { try everyday.run(everyday.options) }
        } else {
            return nil
        }
        do {
            try exiting ? StoresAtExit.closingAtExit(work) : work()
            return 0
        } catch {
            return report(error)
        }
    }

    /// Says what went wrong on standard error and returns the exit status: 64 for bad usage or
    /// input, 1 for anything else.
    static func report(_ error: any Error) -> Int32 {
        switch error {
        case let error as GroveValidationError:
            Output.error(OptionWords.message(error))
            return 64
        case let error as StoreError:
            Output.error(error.localizedDescription)
            return error.isBadInput ? 64 : 1
        case let error as CLIError:
            Output.error(error.message)
            return error.exitCode
        case let error as SyncStoreError:
            Output.error(error.description)
            return 1
        case let error as SyncConnectionError:
            Output.error(error.description)
            return 1
        case let error as any StoreFailure:
            // A failure of SQLite itself (disk full, permissions): said without the SQL it ran.
            Output.error(error.summary)
            return 1
        default:
            let code = exitCode(for: error)
            let message = self.message(for: error)
            if !message.isEmpty { code == .success ? print(message) : Output.error(message) }
            return code.rawValue
        }
    }
}
