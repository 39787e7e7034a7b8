import ArgumentParser
import Foundation
import GroveStore

/// `grove serve sign-out ID | --all`: ends browser sessions; a running `grove serve` sees it at its
/// next request from them.
struct ServeSignOutCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sign-out", abstract: "Sign a browser out (its id from `grove serve browsers`), or every one with --all.")

    @OptionGroup var options: GlobalOptions
    @Argument(help: "The browser's id, or its first characters.") var id: String?
    @Flag(name: .long, help: "Sign every browser out.") var all = false

    func run() throws {
        let db = try options.open(concurrentReads: false)
        switch (id, all) {
        case (nil, true):
            print("Signed out \(try db.endAllWebSessions()) browser(s).")
        case (let id?, false):
            guard try db.endWebSession(id: id) else {
                throw CLIError.usage("id: no single signed-in browser has an id starting with \(id) (see grove serve browsers)")
            }
            print("Signed out.")
        default:
            throw CLIError.usage("give a browser's id (see grove serve browsers), or --all; not both")
        }
    }
}
