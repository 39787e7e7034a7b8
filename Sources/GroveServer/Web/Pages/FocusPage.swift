import Foundation
import GroveCore
import GroveStore
import HTTPTypes
import Hummingbird

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
    /// Seconds of focus that grow an open-ended session's tree in full (`FocusSession.openEndedFullTree`).
    var openFullTree = FocusSession.openEndedFullTree
}

struct StageView: Encodable { var stage: Int; var name: String; var startsAt: Double }

extension WebController {
    func focus() throws -> FocusPage {
        let minutes = Int(try database.focus.preferences().focusDuration / 60)
        let lengths = Set([15, 25, 45, 50, 90, minutes]).sorted().map { LengthOption(minutes: $0, selected: $0 == minutes) }
        return FocusPage(
            title: "Focus", lengths: lengths, stats: statsView(try database.focus.stats()),
            nextBreak: ForestStats.formatDuration(try database.focus.nextBreak().duration),
            knownTags: try database.focus.tags(limit: 50).map(\.tag))
    }
}
