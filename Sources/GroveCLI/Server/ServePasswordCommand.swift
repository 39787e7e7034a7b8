import ArgumentParser
import Foundation
import GroveStore
import HummingbirdBcrypt

#if canImport(Glibc)
    import Glibc
#endif

/// `grove serve password`: sets the password browsers from elsewhere log in with, and signs every
/// browser out.
struct ServePasswordCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "password", abstract: "Set the password your phone and other browsers log in with.",
        discussion: """
            Read from standard input (at a terminal, asked for twice without echo; in a script, one line: \
            printf '%s' "$PASS" | grove serve password). Stored as a bcrypt hash with your data. Setting it \
            signs every browser out.
            """)

    @OptionGroup var options: GlobalOptions

    func run() throws {
        let db = try options.open(concurrentReads: false)
        let password = try Self.readPassword()
        guard password.utf8.count >= 8, password.utf8.count <= 72 else {
            throw CLIError.usage("password: a password has 8 to 72 bytes (bcrypt's limit)")
        }
        try db.setWebPassword(hash: Bcrypt.hash(password, cost: 10))
        print("Password set; every signed-in browser was signed out. Browsers from elsewhere than this machine log in with it.")
    }

    /// At a terminal: asked twice, without echo. Otherwise: the first line of standard input.
    static func readPassword() throws -> String {
        guard isatty(STDIN_FILENO) == 1 else {
            guard let line = CLIEnvironment.current.readInputLine(), !line.isEmpty else {
                throw CLIError.usage("password: give it on standard input (for example `printf '%s' \"$PASS\" | grove serve password`)")
            }
            return line
        }
        let first = try hidden("New password: "), second = try hidden("Again: ")
        guard first == second else { throw CLIError.usage("password: the two entries differ; nothing was changed") }
        return first
    }

    private static func hidden(_ prompt: String) throws -> String {
        FileHandle.standardError.write(Data(utf8: prompt))
        var saved = termios()
        tcgetattr(STDIN_FILENO, &saved)
        var quiet = saved
        quiet.c_lflag &= ~tcflag_t(ECHO)
        tcsetattr(STDIN_FILENO, TCSANOW, &quiet)
        defer {
            tcsetattr(STDIN_FILENO, TCSANOW, &saved)
            FileHandle.standardError.write(Data(utf8: "\n"))
        }
        guard let line = readLine(strippingNewline: true) else { throw CLIError.usage("password: nothing was typed") }
        return line
    }
}
