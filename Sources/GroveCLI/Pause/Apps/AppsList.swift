import ArgumentParser
import Foundation
import GroveCore
import GroveStore

struct AppsList: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List apps.")
    @OptionGroup var options: GlobalOptions
    func run() throws {
        let db = try options.open()
        let apps = try db.pause.apps()
        if options.json { return try Output.json(apps) }
        let p = try db.pause.preferences()
        let adaptive = Dictionary(try db.pause.friction().map { ($0.appId, $0) }, uniquingKeysWith: { a, _ in a })
        for a in apps {
            let friction = adaptive[a.id].map { "  (adaptive: \($0.effectiveDuration(base: p.timerDuration)) s)" } ?? ""
            print(
                "\(a.isEnabled ? "●" : "○") \(a.id.padding(toLength: 12, withPad: " ", startingAt: 0)) \(a.displayName.padding(toLength: 14, withPad: " ", startingAt: 0)) \(a.webURL ?? a.urlScheme)\(a.gatedPaths.isEmpty ? "" : " (only \(a.gatedPaths.joined(separator: ", ")))")\(friction)\(a.blockSchedule.map { "  blocked \($0)\(a.blockStrict ? " (strict)" : "")" } ?? "")"
            )
        }
        print("\(p.enabledApps.count)/\(PausePreferences.maxEnabledApps) enabled · pause \(p.timerDuration) s")
        if apps.contains(where: { $0.blockSchedule != nil }) {
            let pass = try db.pause.emergencyPass(), calendar = try db.calendar()
            print(
                pass.available
                    ? "This week's emergency pass is left (`grove pause ID --emergency`)."
                    : "This week's emergency pass went to \(pass.usedBy?.appId ?? "an app") at \(pass.usedBy.map { calendar.wallText($0.startTimestamp) } ?? "?"); the next comes \(calendar.wallText(pass.nextAt))."
            )
        }
    }
}
