import Foundation
import GroveCore
import GroveStore

/// The random things people do, weighted toward conflicts: the same few timers, to-dos, intentions
/// and sessions touched from every device.
public struct SimulatedActions {
    public var random: SeededRandom

    public init(random: SeededRandom) { self.random = random }

    /// Does one thing on `database`; returns a description of anything that should never happen
    /// (a broken schema rule), nil otherwise. Refusals a person can meet (not found, illegal
    /// transition) are part of the game.
    public mutating func act(on database: AppDatabase) -> String? {
        let roll = Int.random(in: 0..<100, using: &random)
        do {
            // Only the timer actions read the timers.
            let timer = roll >= 6 && roll < 39 ? try database.timers.all().randomElement(using: &random) : nil
            let todo = timer?.todoItems.randomElement(using: &random)
            switch roll {
            case 0..<6:
                try database.timers.create(
                    name: "Timer \(Int.random(in: 0 ..< 5, using: &random))", durationInSeconds: Int.random(in: 60...3600, using: &random),
                    todos: (0..<Int.random(in: 0...3, using: &random)).map { "step \($0)" })
            case 6..<11:
                if let timer { try database.timers.update(id: timer.id, name: "Renamed \(Int.random(in: 0 ..< 9, using: &random))") }
            case 11..<14:
                if let timer { try database.timers.delete(id: timer.id) }
            case 14..<20:
                if let timer { try database.timers.addTodo(timerID: timer.id, text: "todo \(Int.random(in: 0 ..< 99, using: &random))") }
            case 20..<28:
                if let timer, let todo { try database.timers.toggleTodo(timerID: timer.id, todoID: todo.id) }
            case 28..<33:
                if let timer, let todo, timer.todoItems.count > 1 {
                    try database.timers.moveTodo(
                        timerID: timer.id, todoID: todo.id, to: Int.random(in: 0..<timer.todoItems.count, using: &random))
                }
            case 33..<36:
                if let timer, let todo { try database.timers.deleteTodo(timerID: timer.id, todoID: todo.id) }
            case 36..<39:
                if let timer, let todo {
                    try database.timers.editTodo(
                        timerID: timer.id, todoID: todo.id, text: "edited \(Int.random(in: 0 ..< 9, using: &random))")
                }
            case 39..<46:
                let themes = try database.themes.all()
                try database.intentions.set(
                    "Intention \(Int.random(in: 0 ..< 9, using: &random))", scope: .day,
                    themeId: random.chance(0.3) ? themes.randomElement(using: &random)?.id : nil)
            case 46..<49:
                try database.intentions.set("Week \(Int.random(in: 0 ..< 9, using: &random))", scope: random.chance(0.5) ? .week : .month)
            case 49..<51:
                if let intention = try database.intentions.all().randomElement(using: &random) {
                    try database.intentions.delete(id: intention.id)
                }
            case 51..<56:
                _ = try database.focus.start(plannedDuration: Double(Int.random(in: 1...40, using: &random) * 60), tags: randomTags())
            case 56..<59:
                if try database.focus.current()?.state == .paused {
                    _ = try database.focus.resume()
                } else {
                    _ = try database.focus.pause()
                }
            case 59..<61:
                _ = try database.focus.abandon()
            case 61..<63:
                _ = try database.focus.settle()
            case 63..<65:
                let end = database.environment.now().addingTimeInterval(-Double(Int.random(in: 3600...86400, using: &random)))
                // A time already taken by another session is refused (one focus at a time): fine here.
                do { _ = try database.focus.log(start: end.addingTimeInterval(-1500), end: end, tags: randomTags()) } catch FocusError
                    .invalidInterval
                {}
            case 65..<67:
                if let session = try database.focus.sessions(state: .completed, limit: 5).randomElement(using: &random) {
                    try database.focus.delete(id: session.id)
                }
            case 67..<70:
                _ = try database.focus.changePreferences { $0.focusDuration = Double(Int.random(in: 10...60, using: &random) * 60) }
            case 70..<73:
                let enabled = random.chance(0.5)
                let hour = Int.random(in: 6...9, using: &random)
                _ = try database.intentions.changePreferences { preferences in
                    preferences.notificationSettings.dailyEnabled = enabled
                    preferences.notificationSettings.dailyTime = TimeOfDay(hour: hour, minute: 0)
                }
            case 73..<75:
                _ = try database.pause.changePreferences { $0.timerDuration = Int.random(in: 15...45, using: &random) }
            case 75..<80:
                let apps = try database.pause.apps()
                if let app = apps.randomElement(using: &random) {
                    let enabledCount = apps.filter(\.isEnabled).count
                    if app.isEnabled || enabledCount < 10 { try database.pause.setAppEnabled(id: app.id, !app.isEnabled) }
                }
            case 80..<82:
                let slug = "app-\(Int.random(in: 0 ..< 6, using: &random))"
                if try database.pause.app(id: slug) == nil {
                    try database.pause.addApp(
                        SocialApp(id: slug, displayName: "App \(slug)", urlScheme: "app\(slug.suffix(1))://", isEnabled: false))
                }
            case 82..<84:
                try database.themes.create(
                    IntentionTheme(
                        id: database.environment.uuid(), name: "Theme \(Int.random(in: 0 ..< 9, using: &random))",
                        backgroundColor: "#112233", textColor: "#FFFFFF", createdAt: database.environment.now()))
            case 84..<86:
                if let theme = try database.themes.all().filter({ !$0.isPreset }).randomElement(using: &random) {
                    try database.themes.delete(id: theme.id)
                }
            case 86..<90:
                if let app = try database.pause.apps().randomElement(using: &random) {
                    _ = try database.pause.start(appId: app.id, platform: "linux")
                }
            case 90..<94:
                if let open = try database.pause.sessions(limit: 5).first(where: { $0.completionStatus == nil }) {
                    _ = try database.pause.finishSession(
                        id: open.id, status: random.chance(0.5) ? .completed : .exited,
                        outcome: random.chance(0.5) ? .proceedToApp : .exitToHome)
                }
            case 94..<97:
                // Retag the running session or a finished one, racing its end on another device.
                let session = try database.focus.current() ?? database.focus.sessions(limit: 5).randomElement(using: &random)
                if let session { _ = try database.focus.retag(id: session.id, tags: randomTags()) }
            default:
                _ = try database.focus.current()
            }
        } catch let violation as ConstraintViolation {
            return "a schema rule broke: \(violation)"
        } catch {
            // Refusals a person meets (not found, wrong state, validation) are expected.
        }
        return nil
    }

    /// None, one or two of a few tags (so that devices collide on them).
    public mutating func randomTags() -> [String] {
        let vocabulary = ["essay", "code", "deep work", "Reading"]
        return (0..<Int.random(in: 0...2, using: &random)).compactMap { _ in vocabulary.randomElement(using: &random) }
    }
}
