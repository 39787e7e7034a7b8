import Foundation
import GroveCore
import GroveStore

// Typed view models of the web pages: what each Mustache template reads, field by field. Every page
// carries the layout's `title` and `bare` (no navigation: the gateway and the login page).

/// An intention shown as a card in its theme (the `intention-card` partial).
struct IntentionCardView: Encodable {
    /// The element's id and test id: `intention-card` on the dashboard, `current-intention` on the intentions page.
    var elementID: String
    var id: String
    var text: String
    var scope: String
    var date: String
    var background: String
    var color: String
    var accent: String
    /// The CSS font stack of the text (nil: the page's).
    var font: String?
    var quote: String?
    /// Whether the card offers "Rephrase".
    var rephrasable: Bool
    /// A week's or month's card under the day's: drawn smaller.
    var secondary = false
}

/// One entry of a font menu.
struct FontOption: Encodable { var value: String; var label: String; var selected: Bool }

/// The forest's figures as the pages show them.
struct StatsView: Encodable {
    var totalTrees: Int
    var todaysTrees: Int
    var todaysFocus: String
    var totalFocus: String
    var totalSessions: Int
    var abandonedCount: Int
    var completionRate: String
    var currentStreak: Int
    var longestStreak: Int
    var average: String
    var daysWithTrees: Int
    var totalHours: String
    /// "tree" or "trees" for today's count, "day" or "days" for the streak and the active days.
    var todaysTreesWord: String
    var totalTreesWord: String
    var streakWord: String
    var daysWithTreesWord: String
}

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

struct LengthOption: Encodable { var minutes: Int; var selected: Bool }

struct FocusPage: Encodable {
    var title: String
    var bare = false
    var lengths: [LengthOption]
    var stats: StatsView
    var nextBreak: String
    /// The tags used lately, for the picker.
    var knownTags: [String] = []
    /// The tree's stages and the progress each begins at (`TreeStage`), for the live countdown.
    var stages = TreeStage.allCases.map { StageView(stage: $0.rawValue, name: $0.displayName, startsAt: $0.startsAt) }
}

struct StageView: Encodable { var stage: Int; var name: String; var startsAt: Double }

struct TreeView: Encodable { var minutes: Int; var at: String; var variant: Int }
struct ForestDay: Encodable { var day: String; var trees: [TreeView] }

/// The tag picker of the stats and forest pages (nil when no session has a tag).
struct TagFilterView: Encodable {
    struct Option: Encodable { var tag: String; var selected: Bool }
    var options: [Option]
}

struct ForestPage: Encodable {
    var title: String
    var bare = false
    var tag: String?
    var tagFilter: TagFilterView?
    /// `?tag=…` and `&tag=…` for the pager's links (empty without a tag).
    var tagQuery = ""
    var tagAnd = ""
    var days: [ForestDay]
    var total: Int
    var empty: Bool
    var totalWord: String
    /// The `before` of the next, older window; nil when nothing is older.
    var older: String?
    /// Whether this is an older window (a link back to the newest days).
    var newer: Bool
}

struct HeatmapCell: Encodable { var x: Int; var y: Int; var level: Int; var title: String }
struct MinutesBar: Encodable { var x: Int; var y: Int; var height: Int; var minutes: Int; var label: String; var tick: String }
struct RowLabel: Encodable { var y: Int; var name: String }

struct StatsPage: Encodable {
    var title: String
    var bare = false
    var tag: String?
    var tagFilter: TagFilterView?
    var stats: StatsView
    var cells: [HeatmapCell]
    var bars: [MinutesBar]
    var rowLabels: [RowLabel]
    var maxMinutes: Int
    var heatmapWidth: Int
}

struct TodoView: Encodable { var id: String; var timerId: String; var text: String; var done: Bool; var n: Int }

struct TimerView: Encodable {
    var id: String
    var name: String
    var seconds: Int
    var formatted: String
    var color: String
    var icon: String
    var notes: String
    var done: Int
    var count: Int
    var todos: [TodoView]
    /// What the edit form shows: the glyph of the icon, the length in minutes, the colour as
    /// `<input type=color>` wants it (lower case), and the icons to choose from.
    var glyph = "⏱"
    var minutes = "25"
    var colorInput = "#007aff"
    var icons: [IconOption] = []
}

struct IconOption: Encodable { var name: String; var label: String; var glyph: String; var selected: Bool }

struct TimersPage: Encodable {
    /// One way to list the timers (`?sort=`, `?incomplete=true`), as the CLI's `grove timer list` offers.
    struct View: Encodable { var label: String; var link: String; var current: Bool }
    var title: String
    var bare = false
    var timers: [TimerView]
    var empty: Bool
    /// Only timers with unfinished to-dos are listed.
    var filtered: Bool
    var views: [View]
}

struct ThemeChoice: Encodable { var id: String; var name: String }
struct IntentionLine: Encodable { var id: String; var text: String; var scope: String; var date: String }

struct IntentionsPage: Encodable {
    var title: String
    var bare = false
    var query: String
    var today: String
    var themes: [ThemeChoice]
    var items: [IntentionLine]
    /// Today's intentions as cards, day first.
    var cards: [IntentionCardView]
}

struct ThemeView: Encodable {
    var id: String
    var name: String
    var background: String
    var color: String
    var accent: String
    var kind: String
    var deletable: Bool
    var contrast: String
    var isDefault: Bool
    /// The CSS font stack the swatch is drawn in (nil: the page's).
    var font: String?
    /// The colours as `<input type=color>` reads them (lower case) for the edit form.
    var backgroundInput: String
    var textInput: String
    var accentInput: String
    var fonts: [FontOption]
}

struct ThemesPage: Encodable {
    var title: String
    var bare = false
    /// The kind shown (`?kind=`), nil for all; the filter's links.
    var kind: String?
    var kinds: [CategoryView]
    var themes: [ThemeView]
    /// The font menu of the "make your own" form, and of the default font.
    var fonts: [FontOption]
    var defaultFonts: [FontOption]
}

struct DayOption: Encodable { var value: Int; var name: String; var selected: Bool }
struct AppView: Encodable { var id: String; var name: String; var scheme: String; var webURL: String; var enabled: Bool }

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
    /// Seed 003's privacy preference, changeable after setup as on every face.
    var analyticsOptIn: Bool
}

struct CategoryView: Encodable { var id: String; var name: String; var selected: Bool }

struct PauseUsagePage: Encodable {
    struct Row: Encodable {
        var day: String; var app: String; var total: Int; var completed: Int; var exited: Int; var average: String; var rate: Int;
        var meets: Bool; var streak: Int; var streakWord: String
    }
    var title = "Pause"
    var bare = false
    var rows: [Row]
    var empty: Bool
    /// Adaptive friction, one row per gated app (and any app that has it on): its switch, its length now, its last review.
    struct Friction: Encodable { var id: String; var app: String; var on: Bool; var length: String; var review: String }
    var friction: [Friction]
}

struct ContentPage: Encodable {
    struct Item: Encodable {
        var id: String; var text: String; var author: String?; var type: String; var category: String; var timesShown: Int;
        var timesWord: String; var bundled: Bool; var source: String?
    }
    var title = "Content"
    var bare = false
    var category: String?
    var categories: [CategoryView]
    var items: [Item]
    /// Content packs from the web, with when each was last fetched (in the store's zone) and why the last check failed.
    struct Source: Encodable { var url: String; var items: String; var fetched: String?; var error: String? }
    var sources: [Source]
    var hasSources: Bool
}

struct PausePage: Encodable {
    var title: String
    var bare = true
    var app: AppView
    /// False when the app's gate is off: the page lets the person through without a pause.
    var gated: Bool
    /// Where Proceed goes: the address asked for (one of the app's pages), else the app's web URL.
    var target: String
    var attemptsToday: Int
    var firstVisit: Bool
    var times: String
    /// Reached by a link on another site: nothing is counted until the person starts the pause.
    var confirm = false
}

struct LoginPage: Encodable {
    var title = "Log in"
    var bare = true
    var next: String
    var error: String?
}
