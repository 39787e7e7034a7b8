import Foundation
import GroveCore
import GroveStore

#if canImport(Glibc)
    import Glibc
#endif

/// The first `grove` at a terminal: the setup the web offers on its first page view, as questions
/// (Enter keeps the default shown, `s` skips for good), applied by the same `setup.complete` that
/// `grove setup` and the web call. A bad answer is asked again with the rule it broke; end of input
/// leaves everything as it was (the question comes back next time).
struct FirstRunPrompt {
    let db: AppDatabase
    /// The next line typed, nil at end of input (injected so that a test can script it).
    var readAnswer: () -> String? = { readLine(strippingNewline: true) }

    /// Whether to ask: a person at a terminal on both ends, and a store that was never set up.
    static func shouldAsk(_ db: AppDatabase) throws -> Bool {
        guard isatty(STDIN_FILENO) == 1, TerminalTraits.current().isTTY else { return false }
        return try db.setup.isNeeded()
    }

    private struct Skip: Error {}

    func run() throws {
        let style = Style(.current())
        print(style.bold("Welcome to Grove.") + " A one-minute setup — Enter keeps the [default], s skips it for good.")
        let focus = try db.focus.preferences()
        let apps = try db.pause.apps()
        do {
            let focusMinutes = try minutes("Focus length, minutes", default: Int(focus.focusDuration / 60), range: 1...240)
            let short = try minutes("Short break, minutes", default: Int(focus.shortBreakDuration / 60), range: 1...60)
            let long = try minutes("Long break, minutes", default: Int(focus.longBreakDuration / 60), range: 1...120)
            let known = apps.map(\.id)
            let gated = try ask("Sites to pause before (\(known.prefix(6).joined(separator: ", "))…; comma-separated)", default: "none") {
                text in
                if text.lowercased() == "none" { return .success([String]()) }
                let ids = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }.filter { !$0.isEmpty }
                if let unknown = ids.first(where: { !known.contains($0) }) {
                    return .failure("No app or site \"\(unknown)\" (grove apps lists them)")
                }
                if ids.count > PausePreferences.maxEnabledApps { return .failure("At most \(PausePreferences.maxEnabledApps) at once") }
                return .success(ids)
            }
            let daily = try ask("Daily intention reminder, HH:MM or off", default: "off") { text in
                if text.lowercased() == "off" { return .success("") }
                return TimeOfDay(text) != nil ? .success(text) : .failure("A time like 08:00, or off")
            }
            let samples = try yesNo("Load the sample timers (Workout, Study Session, Coffee Break, Meditation)?")
            // No analytics question: Grove sends nothing anywhere, so there is nothing to agree to.
            try db.setup.complete(
                FirstRunSetup(
                    focusMinutes: focusMinutes, shortBreakMinutes: short, longBreakMinutes: long, gatedApps: gated,
                    dailyReminder: daily, sampleTimers: samples))
            print(
                "All set: focus \(focusMinutes) min, breaks \(short)/\(long) min\(gated.isEmpty ? "" : ", pausing before \(gated.joined(separator: ", "))"). `grove setup` changes it any time."
            )
            for line in SetupAfterword.lines(gated: !gated.isEmpty, reminder: !daily.isEmpty, variables: CLIEnvironment.current.variables) {
                print(line)
            }
        } catch is Skip {
            try db.setup.complete(FirstRunSetup(), skip: true)
            print("Setup skipped; `grove setup` runs it whenever you like.")
        } catch is EndOfInput {
            print("")
        }
    }

    private struct EndOfInput: Error {}

    /// Asks until `parse` accepts the answer (or the default, on Enter).
    private func ask<T>(_ question: String, default fallback: String, parse: (String) -> Result<T, Refusal>) throws -> T {
        while true {
            // Written straight to the terminal: a prompt without a newline must show before the answer.
            Output.write(Data(utf8: TerminalText.neutralized("\(question) [\(fallback)]: ")))
            guard let line = readAnswer() else { throw EndOfInput() }
            let text = line.trimmingCharacters(in: .whitespaces)
            if text.lowercased() == "s" { throw Skip() }
            switch parse(text.isEmpty ? fallback : text) {
            case .success(let value): return value
            case .failure(let refusal): print("  \(refusal.message)")
            }
        }
    }

    private func minutes(_ question: String, default fallback: Int, range: ClosedRange<Int>) throws -> Int {
        try ask(question, default: String(fallback)) { text in
            guard let n = Int(text), range.contains(n) else {
                return .failure("A whole number of minutes from \(range.lowerBound) to \(range.upperBound)")
            }
            return .success(n)
        }
    }

    private func yesNo(_ question: String) throws -> Bool {
        try ask("\(question) y/n", default: "n") { text in
            switch text.lowercased() {
            case "y", "yes": .success(true)
            case "n", "no": .success(false)
            default: .failure("y or n")
            }
        }
    }

    fileprivate struct Refusal: Error { var message: String }
}

extension FirstRunPrompt.Refusal: ExpressibleByStringInterpolation {
    init(stringLiteral value: String) { message = value }
}
