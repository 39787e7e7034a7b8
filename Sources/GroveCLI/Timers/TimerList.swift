import ArgumentParser
import Foundation
import GroveCore
import GroveStore

struct TimerList: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List timers.")
    @OptionGroup var options: GlobalOptions
    @Option(name: .long, help: "Order: createdAt (newest first) or name.") var sort: String = "createdAt"
    @Flag(name: .long, help: "Only timers with unfinished to-dos.") var incomplete = false

    func run() throws { try Self.run(options.plain, sort: sort, incomplete: incomplete) }

    /// The list, for whichever parse made the command (`EverydayParse.immediate`: the defaults).
    static func run(_ options: PlainOptions, sort: String = "createdAt", incomplete: Bool = false) throws {
        let order = try AppDatabase.TimerOrder(validating: sort)
        let db = try options.open()
        let timers = try db.timers.all(orderedBy: order, incompleteOnly: incomplete)
        if options.json { return try Output.json(timers.map(TimerDTO.init(from:))) }
        guard !timers.isEmpty else { return print("No timers yet. Add one: grove timer add Workout --duration 25m") }
        let runs = Dictionary(try db.timers.runs().map { ($0.timerId, $0) }, uniquingKeysWith: { a, _ in a })
        for t in timers {
            let run = runs[t.id].map {
                "  \(TimerText.glyph($0.state)) \($0.state == .finished ? "done" : DurationParser.clock($0.remaining))"
            }
            print(TimerText.summary(t) + (run ?? ""))
        }
    }
}
