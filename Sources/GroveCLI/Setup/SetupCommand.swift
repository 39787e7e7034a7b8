import ArgumentParser
import Foundation
import GroveCore
import GroveStore

/// `grove setup`: the first-run choices (seeds 003 and 004's onboarding), again whenever wanted.
struct SetupCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "setup", abstract: "First-run setup: focus length and breaks, sites to pause before, a reminder, sample timers.",
        discussion: """
              grove setup --focus 50 --short-break 10 --gate youtube,reddit --daily 08:00 --sample-timers
              grove setup --skip          # never ask again, change nothing
            Anything not given stays as it is. Grove sends no analytics anywhere. The web app offers the
            same on its first page view (and under Settings). The browser extension
            (/usr/share/grove/extension, or `extension/` in the source) pauses before the gated sites (see
            the README); it and the reminder need `grove serve` running (`grove service install`).
            """)
    @OptionGroup var options: GlobalOptions
    @Option(name: .long, help: "Focus length, minutes.") var focus: Int?
    @Option(name: .customLong("short-break"), help: "Short break, minutes.") var shortBreak: Int?
    @Option(name: .customLong("long-break"), help: "Long break, minutes.") var longBreak: Int?
    @Option(name: .long, help: ArgumentHelp("The apps or sites to pause before, by id (grove apps list); exactly these.", valueName: "ids"))
    var gate: String?
    @Option(name: .long, help: ArgumentHelp("A daily intention reminder at this time, or off.", valueName: "HH:MM|off")) var daily: String?
    @Flag(name: .customLong("sample-timers"), help: "Load the sample timers (Workout, Study Session, Coffee Break, Meditation).")
    var sampleTimers = false
    @Flag(name: .long, help: "Mark the setup done without changing anything.") var skip = false

    func validate() throws {
        if skip, focus != nil || shortBreak != nil || longBreak != nil || gate != nil || daily != nil || sampleTimers {
            throw ValidationError("--skip changes nothing: leave out the other options, or --skip")
        }
    }

    func run() throws {
        let db = try options.open()
        let apps = gate.map { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty } }
        let setup = FirstRunSetup(
            focusMinutes: focus, shortBreakMinutes: shortBreak, longBreakMinutes: longBreak, gatedApps: apps,
            dailyReminder: daily.map { $0.lowercased() == "off" ? "" : $0 }, sampleTimers: sampleTimers ? true : nil)
        try db.setup.complete(setup, skip: skip)
        if options.json { return try Output.json(["setupNeeded": try db.setup.isNeeded()]) }
        guard !skip else { return print("Setup skipped; `grove setup` runs it whenever you like.") }
        let focusPreferences = try db.focus.preferences()
        let gated = try db.pause.apps().filter(\.isEnabled).map(\.displayName)
        print(
            "Focus \(Int(focusPreferences.focusDuration / 60)) min, breaks \(Int(focusPreferences.shortBreakDuration / 60))/\(Int(focusPreferences.longBreakDuration / 60)) min."
        )
        print(gated.isEmpty ? "No app or site is gated (grove apps enable ID)." : "Pausing before: \(gated.joined(separator: ", ")).")
        let reminder = try db.intentions.preferences().notificationSettings.dailyEnabled
        for line in SetupAfterword.lines(gated: !gated.isEmpty, reminder: reminder, variables: CLIEnvironment.current.variables) {
            print(line)
        }
    }
}
