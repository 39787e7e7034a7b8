import Foundation
import GroveCore
import GroveStore

/// Pieces more than one page shows.
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
    /// Whether a theme was chosen (the intention's own, or the preferred one): its colours are drawn.
    /// Without one the card takes the page's colours, light or dark.
    var themed: Bool
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

/// One tree of the forest: its look (`kind`: a species and a size, or withered; `TreeLook`) and what
/// its title says.
struct TreeView: Encodable {
    var minutes: Int
    var at: String
    var kind: String
    var label: String

    init(_ session: FocusSession, at: String) {
        minutes = Int(session.duration / 60)
        self.at = at
        let look = TreeLook(session)
        if let species = look.species {
            kind = "\(species.rawValue) \(look.size.rawValue)"
            label = "\(species.rawValue.capitalized), \(minutes) min, \(at)"
        } else {
            kind = "withered"
            label = "Withered: given up after \(minutes) min, \(at)"
        }
    }
}

/// The tag picker of the stats and forest pages (nil when no session has a tag).
struct TagFilterView: Encodable {
    struct Option: Encodable { var tag: String; var selected: Bool }
    var options: [Option]
}

struct TodoView: Encodable { var id: String; var timerId: String; var text: String; var done: Bool; var n: Int }

struct AppView: Encodable {
    var id: String
    var name: String
    var scheme: String
    var webURL: String
    var enabled: Bool
    /// The gated paths, one per line ("" for the whole site).
    var paths: String = ""
    var hasPaths = false
    /// The block schedule as Grove writes it ("" for none), and whether it is strict.
    var block: String = ""
    var hasBlock = false
    var strict = false
    /// The allowlist while a tree grows: in words, whether it is every session, and its tags one per line.
    var focusSummary = "waits behind the tree"
    var focusAlways = false
    var focusTags = ""
}

struct CategoryView: Encodable { var id: String; var name: String; var selected: Bool }
