/// How far a session's tree has grown: five stages from seed to full tree.
public enum TreeStage: Int, CaseIterable, Sendable, Codable, Comparable {
    case seed = 1
    case sprout = 2
    case sapling = 3
    case youngTree = 4
    case fullTree = 5

    /// Stage for progress 0…1: each quarter of the session grows the tree one stage; it is full only once complete.
    public init(progress: Double) {
        self = Self.allCases.last { progress >= $0.startsAt } ?? .seed
    }

    /// The progress (0…1) at which the tree reaches this stage. The web page's live countdown reads
    /// this table from the page, so the browser and Swift grow the same tree.
    public var startsAt: Double {
        switch self {
        case .seed: 0
        case .sprout: 0.25
        case .sapling: 0.5
        case .youngTree: 0.75
        case .fullTree: 1
        }
    }

    /// The terminal's glyph for a tree still growing. A grown tree is drawn as its species
    /// (`TreeLook.glyph`: 🌲 or 🌳), so no stage's glyph is ever mistaken for a tree in the forest.
    public var glyph: String {
        switch self {
        case .seed: "·"
        case .sprout: "🌱"
        case .sapling: "🌿"
        case .youngTree: "🪴"
        case .fullTree: "🌳"
        }
    }

    public var displayName: String {
        switch self {
        case .seed: "Seed"
        case .sprout: "Sprout"
        case .sapling: "Sapling"
        case .youngTree: "Young tree"
        case .fullTree: "Full tree"
        }
    }

    public static func < (lhs: TreeStage, rhs: TreeStage) -> Bool { lhs.rawValue < rhs.rawValue }
}
