import ArgumentParser

/// `--passphrase-stdin`, required, for the commands that take one passphrase (`grove sync encrypt`,
/// `grove sync recovery-code`): read from standard input, never from the command line.
struct PassphraseStdin: ParsableArguments {
    @Flag(name: .long, help: "Read the passphrase from standard input.") var passphraseStdin = false

    /// The passphrase from standard input, or a usage error naming the flag.
    func passphrase() throws -> String {
        guard passphraseStdin else { throw CLIError.usage("--passphrase-stdin is required: give the passphrase on standard input") }
        return try SyncErrors.secretFromInput("--passphrase-stdin", what: "passphrase")
    }
}
