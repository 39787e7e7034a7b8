import Foundation
import GroveCore
import GroveStore

/// The random things people do, weighted toward conflicts: the same few timers, to-dos, intentions
/// and sessions touched from every device.
struct SimulatedActions {
    var random: SeededRandom

    /// Does one thing on `database`; returns a description of anything that should never happen
    /// (a broken schema rule), nil otherwise. Refusals a person can meet (not found, illegal
    /// transition) are part of the game.
    mutating func act(on database: AppDatabase) -> String? {
        let roll = Int.random(in: 0..<100, using: &random)
        do {
            // Only the timer actions read the timers.
            let timer = roll >= 6 && roll < 39 ? try database.timers().randomElement(using: &random) : nil
            let todo = timer?.todoItems.randomElement(using: &random)
            switch roll {
            case 0..<6:
                try database.createTimer(
                    name: "Timer \(Int.random(in: 0 ..< 5, using: &random))", durationInSeconds: Int.random(in: 60...3600, using: &random),
                    todos: (0..<Int.random(in: 0...3, using: &random)).map { "step \($0)" })
            case 6..<11:
                if let timer { try database.updateTimer(id: timer.id, name: "Renamed \(Int.random(in: 0 ..< 9, using: &random))") }
            case 11..<14:
                if let timer { try database.deleteTimer(id: timer.id) }
            case 14..<20:
                if let timer { try database.addTodo(timerID: timer.id, text: "todo \(Int.random(in: 0 ..< 99, using: &random))") }
            case 20..<28:
                if let timer, let todo { try database.toggleTodo(timerID: timer.id, todoID: todo.id) }
            case 28..<33:
                if let timer, let todo, timer.todoItems.count > 1 {
                    try database.moveTodo(timerID: timer.id, todoID: todo.id, to: Int.random(in: 0..<timer.todoItems.count, using: &random))
                }
            case 33..<36:
                if let timer, let todo { try database.deleteTodo(timerID: timer.id, todoID: todo.id) }
            case 36..<39:
                if let timer, let todo {
                    try database.editTodo(timerID: timer.id, todoID: todo.id, text: "edited \(Int.random(in: 0 ..< 9, using: &random))")
                }
            case 39..<46:
                let themes = try database.themes()
                try database.setIntention(
                    "Intention \(Int.random(in: 0 ..< 9, using: &random))", scope: .day,
                    themeId: random.chance(0.3) ? themes.randomElement(using: &random)?.id : nil)
            case 46..<49:
                try database.setIntention("Week \(Int.random(in: 0 ..< 9, using: &random))", scope: random.chance(0.5) ? .week : .month)
            case 49..<51:
                if let intention = try database.intentions().randomElement(using: &random) {
                    try database.deleteIntention(id: intention.id)
                }
            case 51..<56:
                _ = try database.startFocusSession(plannedDuration: Double(Int.random(in: 1...40, using: &random) * 60), tags: randomTags())
            case 56..<59:
                if try database.currentFocusSession()?.state == .paused {
                    _ = try database.resumeFocusSession()
                } else {
                    _ = try database.pauseFocusSession()
                }
            case 59..<61:
                _ = try database.abandonFocusSession()
            case 61..<63:
                _ = try database.settleFocusSession()
            case 63..<65:
                let end = database.environment.now().addingTimeInterval(-Double(Int.random(in: 3600...86400, using: &random)))
                // A time already taken by another session is refused (one focus at a time): fine here.
                do { _ = try database.logFocusSession(start: end.addingTimeInterval(-1500), end: end, tags: randomTags()) } catch FocusError
                    .invalidInterval
                {}
            case 65..<67:
                if let session = try database.focusSessions(state: .completed, limit: 5).randomElement(using: &random) {
                    try database.deleteFocusSession(id: session.id)
                }
            case 67..<70:
                _ = try database.changeFocusPreferences { $0.focusDuration = Double(Int.random(in: 10...60, using: &random) * 60) }
            case 70..<73:
                let enabled = random.chance(0.5)
                let hour = Int.random(in: 6...9, using: &random)
                _ = try database.changeUserPreferences { preferences in
                    preferences.notificationSettings.dailyEnabled = enabled
                    preferences.notificationSettings.dailyTime = TimeOfDay(hour: hour, minute: 0)
                }
            case 73..<75:
                _ = try database.changePausePreferences { $0.timerDuration = Int.random(in: 15...45, using: &random) }
            case 75..<80:
                let apps = try database.apps()
                if let app = apps.randomElement(using: &random) {
                    let enabledCount = apps.filter(\.isEnabled).count
                    if app.isEnabled || enabledCount < 10 { try database.setAppEnabled(id: app.id, !app.isEnabled) }
                }
            case 80..<82:
                let slug = "app-\(Int.random(in: 0 ..< 6, using: &random))"
                if try database.app(id: slug) == nil {
                    try database.addApp(
                        SocialApp(id: slug, displayName: "App \(slug)", urlScheme: "app\(slug.suffix(1))://", isEnabled: false))
                }
            case 82..<84:
                try database.createTheme(
                    IntentionTheme(
                        id: database.environment.uuid(), name: "Theme \(Int.random(in: 0 ..< 9, using: &random))",
                        backgroundColor: "#112233", textColor: "#FFFFFF", createdAt: database.environment.now()))
            case 84..<86:
                if let theme = try database.themes().filter({ !$0.isPreset }).randomElement(using: &random) {
                    try database.deleteTheme(id: theme.id)
                }
            case 86..<90:
                if let app = try database.apps().randomElement(using: &random) {
                    _ = try database.startGatewaySession(appId: app.id, platform: "linux")
                }
            case 90..<94:
                if let open = try database.gatewaySessions(limit: 5).first(where: { $0.completionStatus == nil }) {
                    _ = try database.finishGatewaySession(
                        id: open.id, status: random.chance(0.5) ? .completed : .exited,
                        outcome: random.chance(0.5) ? .proceedToApp : .exitToHome)
                }
            case 94..<97:
                // Retag the running session or a finished one, racing its end on another device.
                let session = try database.currentFocusSession() ?? database.focusSessions(limit: 5).randomElement(using: &random)
                if let session { _ = try database.retagFocusSession(id: session.id, tags: randomTags()) }
            default:
                _ = try database.currentFocusSession()
            }
        } catch let violation as ConstraintViolation {
            return "a schema rule broke: \(violation)"
        } catch {
            // Refusals a person meets (not found, wrong state, validation) are expected.
        }
        return nil
    }

    /// None, one or two of a few tags (so that devices collide on them).
    mutating func randomTags() -> [String] {
        let vocabulary = ["essay", "code", "deep work", "Reading"]
        return (0..<Int.random(in: 0...2, using: &random)).compactMap { _ in vocabulary.randomElement(using: &random) }
    }
}
