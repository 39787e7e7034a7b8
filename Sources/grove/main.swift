import Foundation
import GroveCLI

// `grove now` runs on every shell prompt: answered here, before the first `await` starts the
// concurrency runtime's threads (see `executeImmediately`).
if let status = GroveCommand.executeImmediately(Array(CommandLine.arguments.dropFirst()), exiting: true) { exit(status) }
GroveCommand.bootstrapLogging()
await GroveCommand.runMain()
