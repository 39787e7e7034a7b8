import Foundation
import GroveCore
import GroveStore
import HTTPTypes
import Hummingbird

struct ForestDay: Encodable {
    /// "Thu 26", under its month's heading; `date` is the day itself.
    var day: String
    var date: String
    var trees: [TreeView]
    var withered: Int
    /// The day's trees not drawn (`ForestWindow.Day.notDrawn`): said as "+N more".
    var more: Int
}

/// A month of the forest: its days with trees, newest first.
struct ForestMonth: Encodable {
    var name: String
    var days: [ForestDay]
}

struct ForestPage: Encodable {
    var title: String
    var bare = false
    var tag: String?
    var tagFilter: TagFilterView?
    /// `?tag=…` and `&tag=…` for the pager's links (empty without a tag).
    var tagQuery = ""
    var tagAnd = ""
    var months: [ForestMonth]
    var total: Int
    var empty: Bool
    var totalWord: String
    /// The `before` of the next, older window; nil when nothing is older.
    var older: String?
    /// Whether this is an older window (a link back to the newest days).
    var newer: Bool
}

extension WebController {
    static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    static let months = [
        "January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December",
    ]

    /// About how many trees one page of the web forest draws (whole days: at least one).
    static let treesPerForestPage = 500

    func forest(before: LocalDay?, tag: String?) throws -> ForestPage {
        // A page holds the last 14 days with trees, or fewer when they hold more than ~500 trees (a
        // heavy week is a long scroll and a large page): the days' counts first, then their trees.
        let counts = try database.focus.forest(before: before, sessions: false, tag: tag)
        var shownDays = 0, shownTrees = 0
        for day in counts.days {
            let drawn = min(day.trees + day.abandoned, ForestWindow.treesDrawnPerDay)
            if shownDays > 0 && shownTrees + drawn > Self.treesPerForestPage { break }
            shownDays += 1
            shownTrees += min(day.trees + day.abandoned, ForestWindow.treesDrawnPerDay)
        }
        let window = try database.focus.forest(days: max(1, shownDays), before: before, tag: tag)
        let wall = try wallFormatter()
        // Withered trees stand among the day's others, in the order they were given up.
        let days = window.days.map { day in
            ForestDay(
                day: "\(Self.weekdays[day.day.weekday]) \(day.day.day)", date: day.day.description,
                trees: (day.sessions + day.withered).sorted { ($0.endTime ?? .distantPast) > ($1.endTime ?? .distantPast) }
                    .map { TreeView($0, at: $0.endTime.map(wall) ?? "") },
                withered: day.withered.count, more: day.notDrawn)
        }
        var months: [ForestMonth] = []
        for (day, shown) in zip(window.days, days) {
            let name = "\(Self.months[day.day.month - 1]) \(day.day.year)"
            if months.last?.name == name {
                months[months.count - 1].days.append(shown)
            } else {
                months.append(ForestMonth(name: name, days: [shown]))
            }
        }
        let total = try database.focus.stats(tag: tag).totalTrees
        var page = ForestPage(
            title: "Forest", tag: tag, tagFilter: try tagFilter(tag), months: months, total: total, empty: days.isEmpty && before == nil,
            totalWord: total == 1 ? "tree" : "trees", older: window.older?.description, newer: before != nil)
        if let tag {
            page.tagQuery = "?tag=" + QueryText.encode(tag)
            page.tagAnd = "&tag=" + QueryText.encode(tag)
        }
        return page
    }
}
