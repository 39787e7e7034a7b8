import ArgumentParser
import Foundation
import GroveCore
import GroveStore

/// `grove apps adaptive ID [--off]`: adaptive friction for one app.
struct AppsAdaptive: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "adaptive", abstract: "Let an app's pause lengthen when it stops working (and relax when it works).",
        discussion: """
            Once a week Grove compares the share of this app's pauses that ended without opening it (Exit or
            "plant a tree instead") with the week before. Fell by 5 points or more: the pause gets 5 s longer.
            Rose as much: 5 s shorter. Never shorter than your pause length, never longer than 45 s.
              grove apps adaptive youtube          # on
              grove apps adaptive youtube --off
              grove apps adaptive                  # which apps have it, and their lengths now
            """)
    @OptionGroup var options: GlobalOptions
    @Argument(help: "The app's id (none: list the apps that have it).", completion: Completions.apps) var id: String?
    @Flag(name: .long, help: "Switch it off: the app's pauses last your pause length again.") var off = false

    func run() throws {
        let db = try options.open()
        if let id {
            let friction = try db.pause.setFriction(appId: id, !off)
            if options.json { return try Output.json(friction.map { [$0] } ?? []) }
            return print(
                friction.map { "\(id): adaptive friction on; pauses last \($0.duration) s now." } ?? "\(id): adaptive friction off.")
        }
        let all = try db.pause.friction()
        if options.json { return try Output.json(all) }
        guard !all.isEmpty else { return print("No app has adaptive friction (`grove apps adaptive ID` switches it on).") }
        for f in all { print(Self.describe(f)) }
    }

    static func describe(_ f: AdaptiveFriction) -> String { "\(f.appId): \(f.duration) s — \(f.reviewDescription)" }
}
