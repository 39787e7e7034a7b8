import Foundation
import GroveCore
import GroveStore
import HTTPTypes
import Hummingbird

/// `/setup`: the first-run choices, filled with what is set now.
struct SetupPage: Encodable {
    struct App: Encodable { var id: String; var name: String; var gated: Bool; var site: String? }
    var title = "Set up Grove"
    var bare = false
    var focusMinutes: Int
    var shortBreakMinutes: Int
    var longBreakMinutes: Int
    var apps: [App]
    var dailyReminder: String?
    var firstRun: Bool
}

extension WebController {
    /// The first-run setup, filled with the current choices.
    func setup() throws -> SetupPage {
        let focus = try database.focus.preferences()
        let reminders = try database.intentions.preferences().notificationSettings
        return SetupPage(
            focusMinutes: Int(focus.focusDuration / 60), shortBreakMinutes: Int(focus.shortBreakDuration / 60),
            longBreakMinutes: Int(focus.longBreakDuration / 60),
            apps: try database.pause.apps().map { SetupPage.App(id: $0.id, name: $0.displayName, gated: $0.isEnabled, site: $0.webURL) },
            dailyReminder: reminders.dailyEnabled ? reminders.dailyTime?.description : nil, firstRun: try database.setup.isNeeded())
    }
}
