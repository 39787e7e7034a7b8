import ArgumentParser
import Foundation
import GroveCore
import GroveStore

/// `grove serve browsers`: the browsers signed in to `grove serve` from elsewhere than this machine.
struct ServeBrowsersCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "browsers", abstract: "List the browsers signed in from elsewhere (sign one out with `grove serve sign-out ID`).")

    @OptionGroup var options: GlobalOptions

    func run() throws {
        let db = try options.open(concurrentReads: false)
        let sessions = try db.webSessions()
        if options.json { return print(String(decoding: try GroveExport.makeEncoder().encode(sessions), as: UTF8.self)) }
        guard !sessions.isEmpty else { return print("No browser is signed in from elsewhere.") }
        for session in sessions {
            print(
                "\(session.id.prefix(12))  \(TerminalText.neutralized(String(session.userAgent.prefix(60))))  from \(TerminalText.neutralized(session.address))  last seen \(Self.iso(session.lastSeen))"
            )
        }
    }

    static func iso(_ date: Date) -> String { ISO8601DateFormatter().string(from: date) }
}
