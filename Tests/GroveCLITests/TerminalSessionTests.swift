import Foundation
import GroveCore
import GroveStore
import GroveSystem
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The real `grove` binary in a pseudo-terminal, driven by keys like a person would.
final class PseudoTerminal {
    let process = Process()
    private let master: Int32
    private(set) var screen = ""

    init(_ grove: Grove, _ arguments: [String]) throws {
        var master: Int32 = 0, slave: Int32 = 0
        var size = winsize(ws_row: 24, ws_col: 80, ws_xpixel: 0, ws_ypixel: 0)
        guard openpty(&master, &slave, nil, nil, &size) == 0 else { throw CocoaError(.fileNoSuchFile) }
        self.master = master
        process.executableURL = try Grove.binary()
        process.arguments = arguments
        var env = grove.environment
        env["GROVE_NOW"] = nil  // a live session needs the real clock
        env["TERM"] = "xterm-256color"
        process.environment = env
        let handle = FileHandle(fileDescriptor: slave, closeOnDealloc: true)
        process.standardInput = handle
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        close(master)
    }

    func send(_ keys: String) { _ = keys.utf8CString.withUnsafeBufferPointer { write(master, $0.baseAddress, keys.utf8.count) } }

    /// Reads output until `text` appears or `timeout` passes; returns whether it appeared.
    @discardableResult
    func waitFor(_ text: String, timeout: TimeInterval) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while !screen.contains(text) {
            let left = deadline.timeIntervalSinceNow
            if left <= 0 { return false }
            var fds = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            guard poll(&fds, 1, Int32(min(left, 0.5) * 1000)) > 0 else { continue }
            var buffer = [UInt8](repeating: 0, count: 4096)
            let n = read(master, &buffer, buffer.count)
            if n <= 0 { return screen.contains(text) }
            screen += String(decoding: buffer[0..<n], as: UTF8.self)
        }
        return true
    }
}

/// The live screens in-process, driven by scripted keys on a test clock: what a person sees and what
/// the store keeps, with no real waiting.
@Suite("Live screens: focus, pause countdown, timer run")
struct LiveScreenTests {
    static let start = ISO8601DateFormatter().date(from: "2025-05-14T09:00:00Z") ?? Date()

    @Test func anInteractiveSessionPausesResumesCompletesAndPlantsATree() async throws {
        let g = Grove()
        let person = LiveScript(clock: TestClock(Self.start), keys: [(1, "p"), (61, "p"), (400, "q")])
        let run = try await g.run(["focus", "--length", "3m"], live: person)
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out.contains("Growing") && run.out.contains("[p] pause"))
        #expect(run.out.contains("Paused"))
        #expect(run.out.contains("Tree planted! 1 today"))
        #expect(run.out.contains("Time for a short break: 05:00"))
        #expect(person.notifications.contains { $0.hasPrefix("Tree planted") })
        // 3 minutes of focus and the minute-long pause: done at 4:01 of the script, not a second later.
        #expect(abs(person.elapsed - 400) < 0.001, "the script ran to its last key")
        let forest = try await g.run(["forest", "--json"], live: person).array()
        #expect(forest.count == 1)
        #expect(forest.first?["state"] as? String == "completed")
        #expect(forest.first?["pausedDuration"] as? Double == 60)
        #expect(forest.first?["duration"] as? Double == 180)
    }

    @Test func abandoningAsksFirstAndPlantsNothing() async throws {
        let g = Grove()
        let person = LiveScript(clock: TestClock(Self.start), keys: [(5, "a"), (6, "n"), (10, "a"), (11, "y")])
        let run = try await g.run(["focus", "--length", "25m"], live: person)
        #expect(run.out.contains("Abandon this session? [y/N]"))
        // Answered "no": the question's lines are blanked, not left on the prompt line.
        #expect(run.out.contains(String(repeating: "\u{1B}[2K\n", count: 5) + "\u{1B}[5F"), "\(run.out.debugDescription)")
        #expect(run.out.contains("No tree this time."))
        let sessions = try await g.run(["focus", "status", "--json"], live: person).object()
        #expect((sessions["session"] as? [String: Any])?["state"] as? String == "abandoned")
    }

    @Test func theBreakBeginsWithTheTreeAndCountsDownOnTheSameClock() async throws {
        let g = Grove()
        let person = LiveScript(clock: TestClock(Self.start), keys: [(400, "q")])
        let run = try await g.run(["focus", "--length", "1m"], live: person)
        #expect(run.out.contains("Time for a short break: 05:00"))
        #expect(run.out.contains("Break: 00:01 left"))
        #expect(run.out.contains("Break over.") && run.out.contains("Start the next session? [n] yes  [q] quit"))
        #expect(abs(person.elapsed - 400) < 0.001, "a five-minute break from the tree, then the question until the key")
        #expect(person.notifications.contains { $0.hasPrefix("Break over") })
    }

    @Test func aBreakIsSkippedAndTheNextSessionStartsFromTheSameScreen() async throws {
        let g = Grove()
        let clock = TestClock(Self.start)
        // The tree at 60 s; [s] skips its break at 90 s; [n] starts the next session, which [d] detaches.
        let person = LiveScript(clock: clock, keys: [(90, "s"), (95, "n"), (100, "d")])
        let run = try await g.run(["focus", "--length", "1m"], live: person)
        #expect(run.out.contains("Break skipped."), "\(run.out)")
        #expect(run.out.contains("Detached."))
        let status = try await g.run(["focus", "status", "--json"], live: LiveScript(clock: clock)).object()
        #expect((status["session"] as? [String: Any])?["state"] as? String == "active")
        #expect(status["break"] == nil)
        #expect(try await g.run(["forest", "--json"], live: LiveScript(clock: clock)).array().count == 1)
    }

    @Test func theBreakOutlivesItsWindowAndEveryFaceSeesIt() async throws {
        let g = Grove()
        let clock = TestClock(Self.start)
        let person = LiveScript(clock: clock, keys: [(70, "q")])
        let run = try await g.run(["focus", "--length", "1m"], live: person)
        #expect(run.out.contains("The break goes on without this window"))
        let now = try await g.run(["now"], live: LiveScript(clock: clock))
        // Ten seconds into the five minutes (a countdown shows the second it is in).
        #expect(["☕ break 04:50\n", "☕ break 04:51\n"].contains(now.out), "\(now.out)")
        let status = try await g.run(["focus", "status"], live: LiveScript(clock: clock))
        #expect(status.out.contains("On a short break: 04:5"), "\(status.out)")
    }

    @Test func anOpenEndedSessionCountsUpUntilStopped() async throws {
        let g = Grove()
        let clock = TestClock(Self.start)
        let person = LiveScript(clock: clock, keys: [(754, "s"), (760, "q")])
        let run = try await g.run(["focus", "--open", "--tag", "essay"], live: person)
        #expect(run.out.contains("12:33 so far") && run.out.contains("[s] stop"), "\(run.out)")
        #expect(run.out.contains("Tree planted! 1 today"))
        #expect(!run.out.contains("Time for a"), "no Pomodoro break after an open-ended session")
        let forest = try await g.run(["forest", "--json"], live: LiveScript(clock: clock)).array()
        #expect(forest.first?["openEnded"] as? Bool == true && forest.first?["duration"] as? Double == 754)
        let refused = try await g.run(["focus", "--open", "--length", "5m"], live: LiveScript(clock: clock))
        #expect(refused.status == 64 && refused.err.contains("--open and --length cannot be combined"))
    }

    @Test func proceedingAfterTheFullPauseRunsTheCommandAndRecordsCompleted() async throws {
        let g = Grove()
        _ = try await g.run("apps", "enable", "youtube")
        let marker = g.home + "-opened"
        let person = LiveScript(clock: TestClock(Self.start), terminal: false)
        let result = try await g.run(["pause", "youtube", "--choice", "proceed", "--", "/usr/bin/touch", marker], live: person)
        #expect(result.status == 0, "\(result.err)")
        #expect(result.out.contains("Going on to YouTube, mindfully."))
        #expect(FileManager.default.fileExists(atPath: marker), "the command ran")
        #expect(person.elapsed >= 15, "the whole pause was waited out")
        let stats = try await g.run(["pause", "stats", "--json"], live: person).array()
        #expect(stats.first?["completedSessions"] as? Int == 1)
        #expect((stats.first?["avgTimeSpent"] as? Double ?? 0) >= 15)
    }

    @Test func aPauseAtATerminalDuringFocusAsksAboutTheTreeFirst() async throws {
        let g = Grove()
        _ = try await g.run("apps", "enable", "youtube")
        let clock = TestClock(Self.start)
        _ = try await g.run(["focus", "start", "--length", "25m"], live: LiveScript(clock: clock))
        let back = try await g.run(["pause", "youtube"], live: LiveScript(clock: clock, keys: [(1, "b")]))
        #expect(back.out.contains("Your tree is growing (25:00 left). Opening YouTube now lets it wither."), "\(back.out)")
        #expect(back.out.contains("Back to focus: your tree keeps growing"))
        #expect(try await g.run(["pause", "stats", "--json"], live: LiveScript(clock: clock)).array().isEmpty)
        let wither = try await g.run(["pause", "youtube"], live: LiveScript(clock: clock, keys: [(1, "w"), (3, "e")]))
        #expect(wither.out.contains("The tree withered.") && wither.out.contains("Good call."), "\(wither.out)")
        let status = try await g.run(["focus", "status", "--json"], live: LiveScript(clock: clock)).object()
        #expect((status["session"] as? [String: Any])?["state"] as? String == "abandoned")
    }

    @Test func everyOtherPauseAsksWhyAndAnswersTheAnswer() async throws {
        let g = Grove()
        _ = try await g.run("apps", "enable", "youtube")
        let clock = TestClock(Self.start)
        let first = try await g.run(["pause", "youtube"], live: LiveScript(clock: clock, keys: [(2, "e")]))
        #expect(!first.out.contains("Why are you opening"))
        let second = try await g.run(["pause", "youtube"], live: LiveScript(clock: clock, keys: [(2, "2"), (4, "e")]))
        #expect(second.out.contains("Why are you opening YouTube?") && second.out.contains("[2] Habit, without thinking"), "\(second.out)")
        #expect(second.out.contains(PauseReason.habit.reply))
        #expect(second.out.contains("Good call."))
        // With an intention set, it is the first answer, and its reply comes back for [1].
        _ = try await g.run(["intention", "set", "Write the chapter on roots"], live: LiveScript(clock: clock))
        _ = try await g.run(["pause", "youtube"], live: LiveScript(clock: clock, keys: [(2, "e")]))
        let fourth = try await g.run(["pause", "youtube"], live: LiveScript(clock: clock, keys: [(2, "1"), (4, "e")]))
        #expect(fourth.out.contains("[1] For: Write the chapter on roots  [2] Something specific to do"), "\(fourth.out)")
        #expect(fourth.out.contains(PauseReason.intention.reply))
    }

    @Test("walking away from a pause is a timeout, as the web stores it, not an exit nobody chose")
    func walkingAwayIsATimeout() async throws {
        let g = Grove()
        _ = try await g.run("apps", "enable", "youtube")
        let person = LiveScript(clock: TestClock(Self.start))
        let result = try await g.run(["pause", "youtube"], live: person)
        #expect(result.out.contains("No choice made: the pause timed out, and YouTube stays closed."), "\(result.out)")
        let day = try #require(try await g.run(["pause", "stats", "--json"], live: person).array().first)
        #expect(day["totalSessions"] as? Int == 1)
        #expect(day["completedSessions"] as? Int == 0 && day["exitedSessions"] as? Int == 0, "\(day)")
    }

    @Test func leavingThePauseEarlyIsAnExit() async throws {
        let g = Grove()
        _ = try await g.run("apps", "enable", "youtube")
        let person = LiveScript(clock: TestClock(Self.start), keys: [(3, "e")])
        let result = try await g.run(["pause", "youtube"], live: person)
        #expect(result.out.contains("Good call. YouTube will still be there later."))
        let pauses = try await g.run(["pause", "stats", "--json"], live: person).array()
        #expect(pauses.first?["exitedSessions"] as? Int == 1)
    }

    @Test func timerRunTicksTheChecklistWithNumberKeysAndPauses() async throws {
        let g = Grove()
        let person = LiveScript(clock: TestClock(Self.start), keys: [(0.5, "2"), (1, " "), (31, " ")])
        _ = try await g.run(["timer", "add", "Tea", "--duration", "2m", "--todo", "Kettle", "--todo", "Cup"], live: person)
        let run = try await g.run(["timer", "run", "tea"], live: person)
        #expect(run.out.contains("[x] Cup"))
        #expect(run.out.contains("paused"))
        #expect(run.out.contains("Tea is done."))
        // Two minutes of running plus the half minute it was paused.
        #expect(abs(person.elapsed - 150) < 1.1, "\(person.elapsed)")
        let timer = try await g.run(["timer", "show", "tea", "--json"], live: person).object()
        #expect((timer["todoItems"] as? [[String: Any]])?.map { $0["isCompleted"] as? Bool } == [false, true])
    }

    @Test func leavingTheLiveTimerLeavesItCountingDownForEveryFace() async throws {
        let g = Grove()
        let person = LiveScript(clock: TestClock(Self.start), keys: [(10, "q")])
        _ = try await g.run(["timer", "add", "Tea", "--duration", "3m"], live: person)
        let live = try await g.run(["timer", "run", "tea"], live: person)
        #expect(live.out.contains("Tea goes on: 02:50 left"), "\(live.out)")
        #expect(try await g.run(["now"], live: person).out == "⏱ Tea 02:50\n")
        // Following it again picks the same run up (not a fresh three minutes), then stops it.
        let again = LiveScript(clock: person.clock, keys: [(5, "s")])
        #expect(try await g.run(["timer", "run", "tea"], live: again).out.contains("Tea stopped."))
        #expect(try await g.run(["timer", "runs"], live: again).out.hasPrefix("No timer is counting down"))
    }
}

/// The real binary in a real pseudo-terminal: the few things only a process can show.
@Suite("A session that rings with nobody watching: the detached waiter")
struct FocusWaiterTests {
    static let start = ISO8601DateFormatter().date(from: "2025-05-14T09:00:00Z") ?? Date()

    @Test func aBackgroundSessionRingsOnceAtItsDueInstantWhoeverElseNoticed() async throws {
        let g = Grove()
        let person = LiveScript(clock: TestClock(Self.start), terminal: false)
        let started = try await g.run(["focus", "start", "--length", "2m", "--json"], live: person)
        let id = try #require((started.object()["session"] as? [String: Any])?["id"] as? String)
        let waiter = try #require(person.waiters.first, "focus start leaves a waiter")
        #expect(Array(waiter.prefix(3)) == ["focus", "watch", id] && waiter.contains("--database"))
        // The waiter (run here on the test clock) sleeps to the due instant, settles and rings; then it
        // sleeps through the tree's five-minute break and says it is over.
        #expect(try await g.run(waiter, live: person).status == 0)
        #expect(person.notifications.count == 2 && person.notifications[0].hasPrefix("Tree planted"), "\(person.notifications)")
        #expect(person.notifications[1] == "\(BreakNotice.title): \(BreakNotice.body)")
        #expect(abs(person.elapsed - 420) < 0.5, "woke at the break's end, not before or long after: \(person.elapsed)")
        #expect(try await g.run(["forest", "--json"], live: person).array().count == 1, "the waiter completed it in the store")
        // A second waiter (a resume, the server, a page) finds both claimed: no second notice.
        #expect(try await g.run(waiter, live: person).status == 0)
        #expect(person.notifications.count == 2)
    }

    @Test func aSkippedBreakSaysNothingAtItsEnd() async throws {
        let g = Grove()
        let clock = TestClock(Self.start)
        let person = LiveScript(clock: clock, terminal: false)
        _ = try await g.run(["focus", "start", "--length", "2m"], live: person)
        let waiter = try #require(person.waiters.first)
        clock.advance(by: 150)
        #expect(try await g.run(["focus", "break", "--skip"], live: person).status == 0)
        #expect(try await g.run(waiter, live: person).status == 0)
        #expect(person.notifications == ["\(CompletionNotice.title): \(CompletionNotice.body)"], "\(person.notifications)")
    }

    @Test func anAbandonedSessionNeverRingsAndAPauseEndsTheWaitUntilResumed() async throws {
        let g = Grove()
        let person = LiveScript(clock: TestClock(Self.start), terminal: false)
        _ = try await g.run(["focus", "start", "--length", "2m"], live: person)
        #expect(try await g.run(["focus", "pause"], live: person).status == 0)
        let first = try #require(person.waiters.first)
        #expect(try await g.run(first, live: person).status == 0)
        #expect(person.notifications.isEmpty && person.elapsed < 1, "a paused session's waiter leaves at once")
        #expect(try await g.run(["focus", "resume"], live: person).status == 0)
        #expect(person.waiters.count == 2, "resuming re-arms")
        #expect(try await g.run(["focus", "abandon"], live: person).status == 0)
        #expect(try await g.run(person.waiters[1], live: person).status == 0)
        #expect(person.notifications.isEmpty, "seed 002: abandoning cancels the notification")
    }

    @Test func aTimerStartedFromTheCommandLineRingsAtItsInstantOnce() async throws {
        let g = Grove()
        let person = LiveScript(clock: TestClock(Self.start), terminal: false)
        #expect(try await g.run(["timer", "add", "Tea", "--duration", "3m", "--todo", "Kettle"], live: person).status == 0)
        #expect(try await g.run(["timer", "start", "Tea"], live: person).status == 0)
        let waiter = try #require(person.waiters.first)
        #expect(waiter.prefix(2) == ["timer", "watch"])
        #expect(try await g.run(waiter, live: person).status == 0)
        #expect(person.notifications == ["Tea is done: 0/1 to-dos done"], "\(person.notifications)")
        #expect(abs(person.elapsed - 180) < 0.5)
        #expect(try await g.run(waiter, live: person).status == 0)
        #expect(person.notifications.count == 1, "announced once")
        // Paused: the waiter leaves; resuming leaves another.
        #expect(try await g.run(["timer", "start", "Tea"], live: person).status == 0)
        #expect(try await g.run(["timer", "pause", "Tea"], live: person).status == 0)
        #expect(try await g.run(person.waiters[1], live: person).status == 0)
        #expect(person.notifications.count == 1)
        #expect(try await g.run(["timer", "resume", "Tea"], live: person).status == 0)
        #expect(person.waiters.count == 3)
        #expect(try await g.run(["timer", "stop", "Tea"], live: person).status == 0)
        #expect(try await g.run(person.waiters[2], live: person).status == 0)
        #expect(person.notifications.count == 1, "a stopped timer never rings")
    }

    @Test func theLiveScreenAndItsWaiterRingOnce() async throws {
        let g = Grove()
        let person = LiveScript(clock: TestClock(Self.start), keys: [(400, "q")])
        #expect(try await g.run(["focus", "--length", "3m"], live: person).status == 0)
        #expect(person.notifications.filter { $0.hasPrefix("Tree planted") }.count == 1)
        let waiter = try #require(person.waiters.first, "the live screen leaves a waiter for when its window dies")
        #expect(try await g.run(waiter, live: person).status == 0)
        #expect(person.notifications.filter { $0.hasPrefix("Tree planted") }.count == 1, "claimed by the screen already")
    }
}

@Suite("grove in a pseudo-terminal", .serialized)
struct TerminalSessionTests {
    @Test func theDetachKeyLeavesTheSessionRunning() throws {
        let g = Grove()
        let term = try PseudoTerminal(g, ["focus", "--length", "25m"])
        #expect(term.waitFor("Growing", timeout: 30))
        #expect(term.screen.contains("[p] pause"))
        term.send("d")
        #expect(term.waitFor("Detached", timeout: 30))
        term.process.waitUntilExit()
        #expect(term.process.terminationStatus == 0)
        #expect(try g.runBinary("now").out.hasPrefix("· 24:") || g.runBinary("now").out.hasPrefix("· 25:"))
    }

    /// Ctrl-C (SIGINT), `kill` (SIGTERM) or a closed terminal (SIGHUP) mid-pause: the pause ends as
    /// force_quit at once, the exit status tells the signal. (Sent with kill(2): the pseudo-terminal
    /// is not the child's controlling terminal, so a typed ^C would not become a signal here.)
    @Test func aPauseKilledBySignalEndsAsForceQuit() throws {
        let g = Grove()
        #expect(try g.runBinary("apps", "enable", "youtube").status == 0)
        for signal in [SIGINT, SIGTERM, SIGHUP] {
            let term = try PseudoTerminal(g, ["pause", "youtube"])
            #expect(term.waitFor("Breathe", timeout: 30))
            kill(term.process.processIdentifier, signal)
            term.process.waitUntilExit()
            #expect(term.process.terminationStatus == 128 + signal, "signal \(signal)")
        }
        let export = try g.runBinary("export").object()
        let statuses = (export["gatewaySessions"] as? [[String: Any]] ?? []).compactMap { $0["completionStatus"] as? String }
        #expect(statuses == ["force_quit", "force_quit", "force_quit"])
    }

    /// `grove apps launcher`: a menu entry that desktop-file-validate accepts, whose Exec line runs the
    /// pause before the program (at once when the app's gate is off).
    @Test func aDesktopLauncherPausesBeforeItsProgram() throws {
        let g = Grove()
        let environment = ["XDG_DATA_HOME": g.home + "-data"]
        let file = g.home + "-data/applications/grove-pause-youtube.desktop"
        #expect(
            try g.runBinary(["apps", "launcher", "youtube", "--exec", "/bin/echo 'hello there'"], environment: environment).status == 0)
        let text = try String(contentsOfFile: file, encoding: .utf8)
        try Grove.check("desktop-file-validate", [file])
        let exec = try ShellWords.split(String(try #require(text.split(separator: "\n").first { $0.hasPrefix("Exec=") }).dropFirst(5)))
        // The store is named: a menu runs the entry without the shell's GROVE_HOME or --database.
        #expect(Array(exec.dropFirst()) == ["pause", "youtube", "--database", g.home + "/grove.sqlite", "--", "/bin/echo", "hello there"])
        #expect(URL(fileURLWithPath: exec[0]).resolvingSymlinksInPath() == (try Grove.binary()).resolvingSymlinksInPath())
        // The gate off: the program runs at once.
        let direct = try g.runBinary(Array(exec.dropFirst()))
        #expect(direct.out.contains("YouTube is not gated") && direct.out.contains("hello there"))
        // The gate on: the pause comes first.
        #expect(try g.runBinary("apps", "enable", "youtube").status == 0)
        let term = try PseudoTerminal(g, Array(exec.dropFirst()))
        #expect(term.waitFor("Breathe", timeout: 30))
        kill(term.process.processIdentifier, SIGTERM)
        term.process.waitUntilExit()
        // Bad commands are refused and write nothing; --remove takes the entry away, once.
        #expect(try g.runBinary(["apps", "launcher", "youtube", "--exec", "'open"], environment: environment).status == 64)
        #expect(try g.runBinary(["apps", "launcher", "youtube"], environment: environment).status == 64)
        #expect(try g.runBinary(["apps", "launcher", "youtube", "--remove"], environment: environment).status == 0)
        #expect(!FileManager.default.fileExists(atPath: file))
        #expect(try g.runBinary(["apps", "launcher", "youtube", "--remove"], environment: environment).status == 1)
        // `apps add` takes a site and a program instead of a phone's URL scheme.
        let added = try g.runBinary(
            ["apps", "add", "steam", "--name", "Steam", "--exec", "steam -silent", "--enable"], environment: environment)
        #expect(added.status == 0 && added.out.contains("grove-pause-steam.desktop"), "\(added.err)")
        #expect(
            try g.runBinary("apps", "--json").array().contains {
                $0["id"] as? String == "steam" && $0["urlScheme"] as? String == "steam://"
            })
    }

    /// `kill -9` mid-session: the session lives in the store, and completes at the exact instant it
    /// reached its length, whoever looks next (here a process whose clock is set past that instant).
    @Test func killingTheWindowLeavesASessionThatCompletesOnTime() throws {
        let g = Grove()
        let term = try PseudoTerminal(g, ["focus", "--length", "25m"])
        #expect(term.waitFor("Growing", timeout: 30))
        kill(term.process.processIdentifier, SIGKILL)
        term.process.waitUntilExit()
        let running = try g.runBinary("focus", "status", "--json").object()
        let session = try #require(running["session"] as? [String: Any])
        #expect(session["state"] as? String == "active", "the session outlives its window")
        #expect((running["remaining"] as? Double ?? 0) > 0)
        #expect(try g.runBinary("focus", "status").out.contains("left · Growing"))
        let due = try #require(running["dueAt"] as? String)
        let dueDate = try #require(ISO8601DateFormatter.withFractions.date(from: due))
        let later = ISO8601DateFormatter().string(from: dueDate.addingTimeInterval(3600))
        let done = try #require(try g.runBinary(["focus", "status", "--json"], now: later).object()["session"] as? [String: Any])
        #expect(done["state"] as? String == "completed")
        #expect(done["endTime"] as? String == due, "completed at the exact instant it reached its length")
        #expect(try g.runBinary(["forest", "--json"], now: later).array().count == 1)
    }

    @Test func theFirstGroveAtATerminalAsksTheSetupOnceAndKeepsTheAnswers() throws {
        let g = Grove()
        let term = try PseudoTerminal(g, [])
        #expect(term.waitFor("Focus length, minutes [25]: ", timeout: 30), "\(term.screen)")
        term.send("0\n")
        #expect(term.waitFor("A whole number of minutes from 1 to 240", timeout: 30), "a bad answer is asked again with its rule")
        term.send("50\n")
        #expect(term.waitFor("Short break, minutes [5]: ", timeout: 30))
        term.send("\n")
        #expect(term.waitFor("Long break, minutes [15]: ", timeout: 30))
        term.send("20\n")
        #expect(term.waitFor("comma-separated) [none]: ", timeout: 30))
        term.send("nosuch\n")
        #expect(term.waitFor("No app or site \"nosuch\"", timeout: 30))
        term.send("youtube, reddit\n")
        #expect(term.waitFor("HH:MM or off [off]: ", timeout: 30), "\(term.screen)")
        term.send("8am\n")
        #expect(term.waitFor("A time like 08:00, or off", timeout: 30))
        term.send("08:30\n")
        #expect(term.waitFor("Meditation)? y/n [n]: ", timeout: 30))
        term.send("y\n")
        #expect(term.waitFor("All set: focus 50 min, breaks 5/20 min, pausing before youtube, reddit.", timeout: 30), "\(term.screen)")
        term.process.waitUntilExit()
        #expect(term.process.terminationStatus == 0)
        #expect(try g.runBinary("setup", "--json").object()["setupNeeded"] as? Bool == false)
        #expect(
            try g.runBinary("apps", "--json").array().filter { $0["isEnabled"] as? Bool == true }.compactMap { $0["id"] as? String }
                .sorted() == ["reddit", "youtube"])
        #expect(try g.runBinary("timer", "list", "--json").array().count == 4, "the sample timers")
        #expect(try g.runBinary("remind", "--json").out.contains("08:30"))
        // Never asked again.
        let again = try PseudoTerminal(g, [])
        again.process.waitUntilExit()
        again.waitFor("\u{0}", timeout: 1)
        #expect(!again.screen.contains("Welcome"), "\(again.screen)")
    }

    @Test func aSessionStartedInTheBackgroundRingsWithNoServerAndNoTerminal() throws {
        let g = Grove()
        // A stand-in notify-send that writes down what it was asked to show.
        let bin = g.home + "-bin", log = g.home + "-notices"
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        try "#!/bin/sh\necho \"$2\" >> '\(log)'\n".write(toFile: bin + "/notify-send", atomically: true, encoding: .utf8)
        chmod(bin + "/notify-send", 0o755)
        // A tree costs a minute; this test watches a real one end, so it lowers the cost to a second.
        let environment = ["PATH": "\(bin):/usr/bin:/bin", "GROVE_NO_WAITER": "", "GROVE_SHORTEST_TREE": "1"]
        var env = g.environment.merging(environment) { $1 }
        env["GROVE_NO_WAITER"] = nil
        let process = Process()
        process.executableURL = try Grove.binary()
        process.arguments = ["focus", "start", "--length", "2s"]
        process.environment = env
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        // `grove focus start` has exited; only its waiter is left to ring, at the 2-second mark.
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline, (try? String(contentsOfFile: log, encoding: .utf8)) == nil { usleep(50_000) }
        usleep(300_000)
        let notices = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        #expect(notices == "Tree planted!\n", "\(notices)")
        #expect(try g.runBinary("forest", "--json").array().count == 1)
    }

    /// A session's waiter holds the desktop's notifications while the tree grows and gives them back
    /// before it rings; an abandon gives them back at once; a hold whose process died ends at the next
    /// `grove now` (a status bar's). Against stand-ins for gsettings, makoctl and dunstctl.
    @Test func notificationsWaitWhileATreeGrows() throws {
        let g = Grove()
        let fake = try FakeDesktop(g)
        let desktop = fake.folder
        var env = fake.environment
        env["GROVE_NO_WAITER"] = nil
        let read = fake.read
        func grove(_ arguments: String...) throws -> Int32 {
            let process = Process()
            process.executableURL = try Grove.binary()
            process.arguments = arguments
            process.environment = env
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            return process.terminationStatus
        }
        func waitFor(_ name: String, _ value: String) -> Bool {
            let deadline = Date().addingTimeInterval(60)
            while Date() < deadline, read(name) != value { usleep(20_000) }
            return read(name) == value
        }
        #expect(try grove("focus", "start", "--length", "3s") == 0)
        // dunst is asked last: once it is paused, every daemon is.
        #expect(waitFor("paused", "true"), "held while the tree grows")
        #expect(read("banners") == "false" && read("modes").contains("do-not-disturb"))
        #expect(waitFor("notices", "Tree planted! banners=true"), "given back before the ring: \(read("notices"))")
        #expect(waitFor("paused", "false") && read("modes") == "default")
        // An abandon gives them back at once.
        #expect(try grove("focus", "start", "--length", "10m") == 0)
        #expect(waitFor("paused", "true"))
        #expect(try grove("focus", "abandon") == 0)
        #expect(read("banners") == "true" && read("paused") == "false")
        // A hold left by a process that died (its file beside the store) ends at the next `grove now`.
        try #"{"gnomeBanners":"true"}"#.write(toFile: g.home + "/grove.sqlite.notifications-held", atomically: true, encoding: .utf8)
        try "false\n".write(toFile: desktop + "/banners", atomically: true, encoding: .utf8)
        #expect(try grove("now") == 0)
        #expect(read("banners") == "true")
        #expect(!FileManager.default.fileExists(atPath: g.home + "/grove.sqlite.notifications-held"))
        // A hold whose waiter was killed ends at any focus command, `focus status` too.
        let record = g.home + "/.local/state/grove/notifications-held"
        try FileManager.default.createDirectory(atPath: g.home + "/.local/state/grove", withIntermediateDirectories: true)
        try #"{"held":{"gnomeBanners":"true","dunstPaused":"false"},"holders":["\#(g.home)/grove.sqlite"]}"#.write(
            toFile: record, atomically: true, encoding: .utf8)
        try "false\n".write(toFile: desktop + "/banners", atomically: true, encoding: .utf8)
        try "true\n".write(toFile: desktop + "/paused", atomically: true, encoding: .utf8)
        #expect(try grove("focus", "status") == 0)
        #expect(read("banners") == "true" && read("paused") == "false")
        #expect(!FileManager.default.fileExists(atPath: record))
    }

    @Test func skippingTheFirstRunChangesNothingAndIsFinal() throws {
        let g = Grove()
        let term = try PseudoTerminal(g, [])
        #expect(term.waitFor("Focus length, minutes [25]: ", timeout: 30))
        term.send("s\n")
        #expect(term.waitFor("Setup skipped", timeout: 30))
        term.process.waitUntilExit()
        #expect(try g.runBinary("setup", "--json").object()["setupNeeded"] as? Bool == false)
        #expect(try g.runBinary("timer", "list", "--json").array().isEmpty)
    }
}

extension ISO8601DateFormatter {
    static var withFractions: ISO8601DateFormatter {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return f
    }
}
