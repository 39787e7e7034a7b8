import ArgumentParser
import Foundation
import GroveMCP
import GroveStore
import GroveSystem

/// `grove mcp [--allow-writes]`: a Model Context Protocol server on standard input and output, for
/// the person's own assistant (its MCP configuration starts it).
struct MCPCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mcp", abstract: "Serve your Grove to your assistant over the Model Context Protocol (stdio).",
        discussion: """
              An assistant's MCP configuration (Claude Desktop, Cursor, Zed, …):
                {"mcpServers": {"grove": {"command": "grove", "args": ["mcp"]}}}
              Read-only by default: today, intentions, focus stats and streaks, the forest, pause figures,
              the weekly review, timers. With --allow-writes it may also start a focus session and set an intention.
            """)

    @OptionGroup var options: GlobalOptions
    @Flag(name: .long, help: "Let the assistant start a focus session and set an intention.") var allowWrites = false

    func run() throws {
        // An assistant that goes away closes the pipe: the next answer fails with EPIPE and the
        // session ends as at the end of its input, instead of by a signal.
        StandardStream.keepRunningWhenReadersLeave()
        let grove = GroveMCP(database: try options.open(), allowWrites: allowWrites)
        do {
            try grove.run(input: STDIN_FILENO, output: .standardOutput)
        } catch let error as OutputFailed {
            if error.clientLeft { return }
            throw CLIError.failure(error.description)
        }
    }
}
