import Foundation
import GroveCore
import GroveStore
import HTTPTypes
import Hummingbird

struct DayOption: Encodable { var value: Int; var name: String; var selected: Bool }

struct SettingsPage: Encodable {
    var title: String
    var bare = false
    var focusMinutes: Int
    var shortBreak: Int
    var longBreak: Int
    var interval: Int
    var dailyEnabled: Bool
    var dailyTime: String
    var dailyNext: String
    var weeklyEnabled: Bool
    var weeklyTime: String
    var weeklyNext: String
    var weeklyDays: [DayOption]
    var monthlyEnabled: Bool
    var monthlyTime: String
    var monthlyDay: Int
    var monthlyNext: String
    var zone: String
    var pauseDuration: Int
    var apps: [AppView]
    var enabledCount: Int
    /// The content categories a pause draws from, each with whether it is chosen.
    var categories: [CategoryView]
    /// This device's sync, as `GET /api/v1/sync` says it.
    var sync: SyncStatusView
}

extension WebController {
    func settings() throws -> SettingsPage {
        let focus = try database.focus.preferences()
        let prefs = try database.intentions.preferences()
        let n = prefs.notificationSettings
        let pause = try database.pause.preferences()
        let upcoming = try database.intentions.upcomingReminders()
        let wall = try wallFormatter()
        func next(_ kind: ReminderKind) -> String { upcoming.first { $0.kind == kind }.map { wall($0.at) } ?? "off" }
        return SettingsPage(
            title: "Settings", focusMinutes: Int(focus.focusDuration / 60), shortBreak: Int(focus.shortBreakDuration / 60),
            longBreak: Int(focus.longBreakDuration / 60), interval: focus.longBreakInterval,
            dailyEnabled: n.dailyEnabled, dailyTime: n.dailyTime?.description ?? "08:00", dailyNext: next(.daily),
            weeklyEnabled: n.weeklyEnabled, weeklyTime: n.weeklyTime?.description ?? "09:00", weeklyNext: next(.weekly),
            weeklyDays: Weekday.allCases.map { DayOption(value: $0.rawValue, name: $0.name, selected: $0.rawValue == n.weeklyDay) },
            monthlyEnabled: n.monthlyEnabled, monthlyTime: n.monthlyTime?.description ?? "09:00", monthlyDay: n.monthlyDay,
            monthlyNext: next(.monthly),
            zone: try database.calendar().timeZone.identifier, pauseDuration: pause.timerDuration,
            apps: try database.pause.apps().map(\.view),
            enabledCount: pause.enabledApps.count,
            categories: MindfulnessContent.ContentCategory.allCases.map {
                CategoryView(id: $0.rawValue, name: $0.displayName, selected: pause.selectedCategories.contains($0))
            },
            sync: SyncStatusView(try database.sync.status()))
    }
}
