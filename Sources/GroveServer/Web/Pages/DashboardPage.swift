import Foundation
import GroveCore
import GroveStore
import HTTPTypes
import Hummingbird

struct ReminderLine: Encodable { var kind: String; var at: String }

struct DashboardPage: Encodable {
    var title: String
    var bare = false
    var stats: StatsView
    var reminders: [ReminderLine]
    var hasReminders: Bool
    var focusLength: Int
    /// Today's intentions as cards, day first (empty: the "no intention yet" card).
    var intentions: [IntentionCardView]
    /// The first page view of a new store: a welcome with the setup (or a skip).
    var setupNeeded = false
    /// Named timers counting down, paused or done.
    var runs: [RunView] = []
    var hasRuns = false
}

/// A timer run on the dashboard: the page counts a running one down from `remaining`.
struct RunView: Encodable {
    var id: String
    var name: String
    var state: String
    var remaining: Double
    var left: String
    var stateText: String

    init(_ run: TimerRunStatus) {
        id = run.timerId.uuidString
        name = run.name
        state = run.state.rawValue
        remaining = run.remaining
        left = run.state == .finished ? "done" : ClockText.format(run.remaining)
        stateText = run.state == .paused ? "paused" : run.state == .finished ? "" : "left"
    }
}

extension WebController {
    func dashboard() throws -> DashboardPage {
        let wall = try wallFormatter()
        let reminders = try database.intentions.upcomingReminders().map {
            ReminderLine(kind: $0.kind.rawValue.capitalized, at: wall($0.at))
        }
        let runs = try database.timers.runs().map(RunView.init)
        return DashboardPage(
            title: "Today", stats: statsView(try database.focus.stats()), reminders: reminders, hasReminders: !reminders.isEmpty,
            focusLength: Int(try database.focus.preferences().focusDuration / 60),
            intentions: try intentionCards(elementID: "intention-card", rephrasable: false),
            setupNeeded: try database.setup.isNeeded(), runs: runs, hasRuns: !runs.isEmpty)
    }
}
