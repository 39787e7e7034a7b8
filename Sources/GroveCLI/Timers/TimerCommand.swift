import ArgumentParser
import Foundation
import GroveCore
import GroveSystem
import GroveStore

/// `grove timer …`: named timers with checklists.
struct TimerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "timer", abstract: "Named timers with to-do checklists.",
        discussion: """
            Timers are named by their name (any case) or the start of their id.
              grove timer add Workout --duration 25m --color "#FF3B30" --todo "Warm up" --todo "20 push-ups"
              grove timer run workout
              grove timer todo toggle workout 1
            """,
        subcommands: [TimerList.self, TimerAdd.self, TimerShow.self, TimerEdit.self, TimerRemove.self, TimerRun.self, TodoCommand.self],
        defaultSubcommand: TimerList.self)
}

/// Finds a timer by id, id prefix or name.
enum TimerLookup {
    static func find(_ reference: String, in db: AppDatabase) throws -> NamedTimer {
        let timers = try db.timers()
        if let id = UUID(uuidString: reference), let match = timers.first(where: { $0.id == id }) { return match }
        let byName = timers.filter { $0.name.caseInsensitiveCompare(reference) == .orderedSame }
        if byName.count == 1 { return byName[0] }
        let byPrefix = reference.count >= 4 ? timers.filter { $0.id.uuidString.lowercased().hasPrefix(reference.lowercased()) } : []
        if byPrefix.count == 1 { return byPrefix[0] }
        if byName.count + byPrefix.count > 1 { throw InvalidField("timer", "\"\(reference)\" matches several timers; use its id") }
        throw NotFoundError("timer", reference)
    }

    /// A to-do by its number in the checklist (from 1) or the start of its id.
    static func todo(_ reference: String, in timer: NamedTimer) throws -> TodoItem {
        if let n = Int(reference) {
            guard (1...max(1, timer.todoItems.count)).contains(n), n <= timer.todoItems.count else {
                throw InvalidField("todo", "\(timer.name) has \(timer.todoItems.count) to-do\(timer.todoItems.count == 1 ? "" : "s"); \(n) is not one of them")
            }
            return timer.todoItems[n - 1]
        }
        let matches = timer.todoItems.filter { $0.id.uuidString.lowercased().hasPrefix(reference.lowercased()) }
        guard matches.count == 1 else { throw NotFoundError("to-do", reference) }
        return matches[0]
    }
}

enum TimerText {
    static func summary(_ t: NamedTimer) -> String {
        let done = t.todoItems.filter(\.isCompleted).count
        let todos = t.todoItems.isEmpty ? "" : "  \(done)/\(t.todoItems.count) done"
        return "\(t.formattedDuration.padding(toLength: 9, withPad: " ", startingAt: 0)) \(t.name)\(todos)  \(String(t.id.uuidString.prefix(8)).lowercased())"
    }

    static func checklist(_ t: NamedTimer) -> [String] {
        t.todoItems.enumerated().map { "  \($0.offset + 1). [\($0.element.isCompleted ? "x" : " ")] \($0.element.text)" }
    }
}

struct TimerList: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List timers.")
    @OptionGroup var options: GlobalOptions
    @Option(name: .long, help: "Order: createdAt (newest first) or name.") var sort: String = "createdAt"
    @Flag(name: .long, help: "Only timers with unfinished to-dos.") var incomplete = false

    func run() throws {
        guard let order = AppDatabase.TimerOrder(rawValue: sort) else { throw InvalidField("sort", "sort must be createdAt or name (got \"\(sort)\")") }
        let db = try options.open()
        let timers = incomplete ? try db.timersWithIncompleteTodos() : try db.timers(orderedBy: order)
        if options.json { return try Output.json(timers.map(TimerDTO.init(from:))) }
        guard !timers.isEmpty else { return print("No timers yet. Add one: grove timer add Workout --duration 25m") }
        for t in timers { print(TimerText.summary(t)) }
    }
}

struct TimerAdd: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "add", abstract: "Add a timer.")
    @OptionGroup var options: GlobalOptions
    @Argument(help: "Its name.") var name: String
    @Option(name: .long, help: "Its length, e.g. 25m or 1h30m (up to 24h).") var duration: String
    @Option(name: .long, help: "Icon name.") var icon: String = NamedTimer.defaultIcon
    @Option(name: .long, help: "Colour, #RRGGBB.") var color: String = NamedTimer.defaultColorHex
    @Option(name: .long, help: "Notes.") var notes: String?
    @Option(name: .long, help: "A to-do (repeatable).") var todo: [String] = []

    func run() throws {
        let db = try options.open()
        let seconds = try TimeParsing.duration(duration, field: "durationInSeconds")
        let timer = try db.createTimer(name: name, durationInSeconds: Int(seconds.rounded()), icon: icon, colorHex: color, notes: notes, todos: todo)
        if options.json { return try Output.json(TimerDTO(from: timer)) }
        print("Added \(TimerText.summary(timer))")
    }
}

struct TimerShow: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "show", abstract: "Show a timer and its checklist.")
    @OptionGroup var options: GlobalOptions
    @Argument(help: "Timer name or id.") var timer: String

    func run() throws {
        let db = try options.open()
        let t = try TimerLookup.find(timer, in: db)
        if options.json { return try Output.json(TimerDTO(from: t)) }
        let style = Style(.current())
        print(style.colors("● ", foreground: t.colorHex, background: nil) + style.bold(t.name) + "  \(t.formattedDuration)  (\(t.icon))")
        if let notes = t.notes { print("  \(notes)") }
        TimerText.checklist(t).forEach { print($0) }
        print(style.dim("  id \(t.id.uuidString.lowercased())"))
    }
}

struct TimerEdit: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "edit", abstract: "Change a timer.")
    @OptionGroup var options: GlobalOptions
    @Argument(help: "Timer name or id.") var timer: String
    @Option(name: .long, help: "New name.") var name: String?
    @Option(name: .long, help: "New length.") var duration: String?
    @Option(name: .long, help: "New icon.") var icon: String?
    @Option(name: .long, help: "New colour.") var color: String?
    @Option(name: .long, help: "New notes (\"\" clears them).") var notes: String?

    func run() throws {
        let db = try options.open()
        let t = try TimerLookup.find(timer, in: db)
        let seconds = try duration.map { Int(try TimeParsing.duration($0, field: "durationInSeconds").rounded()) }
        let updated = try db.updateTimer(id: t.id, name: name, durationInSeconds: seconds, icon: icon, colorHex: color, notes: notes)
        if options.json { return try Output.json(TimerDTO(from: updated)) }
        print("Updated \(TimerText.summary(updated))")
    }
}

struct TimerRemove: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "rm", abstract: "Delete a timer and its checklist.")
    @OptionGroup var options: GlobalOptions
    @Argument(help: "Timer name or id.") var timer: String

    func run() throws {
        let db = try options.open()
        let t = try TimerLookup.find(timer, in: db)
        try db.deleteTimer(id: t.id)
        if options.json { return try Output.json(TimerUpdateMessage(type: .deleted, timer: nil, timerID: t.id)) }
        print("Deleted \(t.name) and its \(t.todoItems.count) to-do\(t.todoItems.count == 1 ? "" : "s").")
    }
}

struct TimerRun: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run", abstract: "Count a timer down live; number keys tick its checklist.",
        discussion: "Keys: 1–9 toggle a to-do, space pause/resume, q quit.")
    @OptionGroup var options: GlobalOptions
    @Argument(help: "Timer name or id.") var timer: String

    func run() throws {
        let db = try options.open()
        var t = try TimerLookup.find(timer, in: db)
        let traits = TerminalTraits.current()
        let style = Style(traits)
        guard let terminal = RawTerminal() else { throw CLIError.usage("timer run needs a terminal") }
        defer { terminal.restore() }
        // A monotonic clock: the countdown never drifts, whatever the wall clock does.
        let clock = ContinuousClock()
        var elapsed: Duration = .zero
        var runningSince: ContinuousClock.Instant? = clock.now
        var drawn = 0
        while true {
            let total = elapsed + (runningSince.map { $0.duration(to: clock.now) } ?? .zero)
            let spent = Double(total.components.seconds) + Double(total.components.attoseconds) / 1e18
            let left = max(0, Double(t.durationInSeconds) - spent)
            var lines = ["\(style.colors("●", foreground: t.colorHex, background: nil)) \(style.bold(t.name))  \(style.bold(DurationParser.clock(left)))\(runningSince == nil ? style.yellow("  paused") : "")",
                         style.green(FocusScreen.bar(1 - left / Double(t.durationInSeconds), width: min(40, traits.width - 4)))]
            lines += TimerText.checklist(t)
            lines.append(style.dim("[1-9] toggle  [space] pause  [q] quit"))
            var out = drawn > 0 ? "\u{1B}[\(drawn)F" : ""
            for line in lines { out += "\u{1B}[2K" + line + "\n" }
            FileHandle.standardOutput.write(Data(out.utf8))
            drawn = lines.count
            if left <= 0 {
                TerminalBell.ring()
                DesktopNotifier().send(title: "\(t.name) is done", body: "\(t.todoItems.filter(\.isCompleted).count)/\(t.todoItems.count) to-dos done")
                return print("\(t.name) is done.")
            }
            switch terminal.readKey(timeout: runningSince == nil ? 1 : max(0.05, left - left.rounded(.down))) {
            case "q", "\u{03}", "\u{1B}": return print("Stopped.")
            case " ":
                if let since = runningSince { elapsed += since.duration(to: clock.now); runningSince = nil } else { runningSince = clock.now }
            case let key? where key.isNumber:
                if let n = key.wholeNumberValue, n >= 1, n <= t.todoItems.count {
                    try db.toggleTodo(timerID: t.id, todoID: t.todoItems[n - 1].id)
                    t = try db.timer(id: t.id) ?? t
                }
            default: break
            }
        }
    }
}

/// `grove timer todo …`
struct TodoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "todo", abstract: "Edit a timer's checklist.",
        subcommands: [TodoAdd.self, TodoToggle.self, TodoRemove.self, TodoMove.self])
}

struct TodoAdd: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "add", abstract: "Add a to-do at the end.")
    @OptionGroup var options: GlobalOptions
    @Argument(help: "Timer name or id.") var timer: String
    @Argument(help: "The to-do.") var text: String

    func run() throws {
        let db = try options.open()
        let t = try TimerLookup.find(timer, in: db)
        let item = try db.addTodo(timerID: t.id, text: text)
        if options.json { return try Output.json(TodoItemDTO(from: item)) }
        print("\(item.sortOrder + 1). [ ] \(item.text)")
    }
}

struct TodoToggle: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "toggle", abstract: "Tick or untick a to-do (by number or id).")
    @OptionGroup var options: GlobalOptions
    @Argument(help: "Timer name or id.") var timer: String
    @Argument(help: "To-do number (from 1) or id.") var todo: String

    func run() throws {
        let db = try options.open()
        let t = try TimerLookup.find(timer, in: db)
        let item = try db.toggleTodo(timerID: t.id, todoID: try TimerLookup.todo(todo, in: t).id)
        if options.json { return try Output.json(TodoItemDTO(from: item)) }
        print("\(item.sortOrder + 1). [\(item.isCompleted ? "x" : " ")] \(item.text)")
    }
}

struct TodoRemove: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "rm", abstract: "Remove a to-do.")
    @OptionGroup var options: GlobalOptions
    @Argument(help: "Timer name or id.") var timer: String
    @Argument(help: "To-do number (from 1) or id.") var todo: String

    func run() throws {
        let db = try options.open()
        let t = try TimerLookup.find(timer, in: db)
        let item = try TimerLookup.todo(todo, in: t)
        try db.deleteTodo(timerID: t.id, todoID: item.id)
        if options.json { return try Output.json(TimerDTO(from: try TimerLookup.find(t.id.uuidString, in: db))) }
        print("Removed \"\(item.text)\".")
    }
}

struct TodoMove: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "move", abstract: "Move a to-do to a new position (from 1).")
    @OptionGroup var options: GlobalOptions
    @Argument(help: "Timer name or id.") var timer: String
    @Argument(help: "To-do number (from 1) or id.") var todo: String
    @Argument(help: "New position (from 1).") var position: Int

    func run() throws {
        let db = try options.open()
        let t = try TimerLookup.find(timer, in: db)
        try db.moveTodo(timerID: t.id, todoID: try TimerLookup.todo(todo, in: t).id, to: position - 1)
        let updated = try TimerLookup.find(t.id.uuidString, in: db)
        if options.json { return try Output.json(TimerDTO(from: updated)) }
        TimerText.checklist(updated).forEach { print($0) }
    }
}
