/// How far a session's tree has grown: five stages from seed to full tree.
public enum TreeStage: Int, CaseIterable, Sendable, Codable, Comparable {
    case seed = 1
    case sprout = 2
    case sapling = 3
    case youngTree = 4
    case fullTree = 5

    /// Stage for progress 0…1: each quarter of the session grows the tree one stage; it is full only once complete.
    public init(progress: Double) {
        switch progress {
        case ..<0.25: self = .seed
        case ..<0.5: self = .sprout
        case ..<0.75: self = .sapling
        case ..<1: self = .youngTree
        default: self = .fullTree
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
