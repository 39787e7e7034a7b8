import Foundation
import GroveCore
import GroveStore
import HTTPTypes
import Hummingbird

struct ForestDay: Encodable { var day: String; var trees: [TreeView] }

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

extension WebController {
    /// About how many trees one page of the web forest draws (whole days: at least one).
    static let treesPerForestPage = 500

    func forest(before: LocalDay?, tag: String?) throws -> ForestPage {
        // A page holds the last 14 days with trees, or fewer when they hold more than ~500 trees (a
        // heavy week is a long scroll and a large page): the days' counts first, then their trees.
        let counts = try database.focus.forest(before: before, sessions: false, tag: tag)
        var shownDays = 0, shownTrees = 0
        for day in counts.days {
            if shownDays > 0 && shownTrees + day.trees > Self.treesPerForestPage { break }
            shownDays += 1
            shownTrees += day.trees
        }
        let window = try database.focus.forest(days: max(1, shownDays), before: before, tag: tag)
        let wall = try wallFormatter()
        let days = window.days.map { day in
            ForestDay(
                day: day.day.description,
                trees: day.sessions.map { tree in
                    TreeView(
                        minutes: Int(tree.duration / 60), at: tree.endTime.map(wall) ?? "", variant: Int(stableHash(tree.id.uuidString) % 3)
                    )
                })
        }
        let total = try database.focus.stats(tag: tag).totalTrees
        var page = ForestPage(
            title: "Forest", tag: tag, tagFilter: try tagFilter(tag), days: days, total: total, empty: days.isEmpty && before == nil,
            totalWord: total == 1 ? "tree" : "trees", older: window.older?.description, newer: before != nil)
        if let tag {
            page.tagQuery = "?tag=" + QueryText.encode(tag)
            page.tagAnd = "&tag=" + QueryText.encode(tag)
        }
        return page
    }
}
