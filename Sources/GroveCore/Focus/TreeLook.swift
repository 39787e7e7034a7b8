import Foundation

/// How a session's tree looks in the forest, the same on the web and in the terminal: a completed
/// session grows a tree of a species its id picks (always the same) and of a size by its length; an
/// abandoned one is a withered tree.
public struct TreeLook: Sendable, Equatable {
    public enum Species: String, Sendable, CaseIterable { case pine, oak, birch }
    public enum Size: String, Sendable { case small = "s", medium = "m", large = "l" }

    /// Nil for a withered tree.
    public let species: Species?
    public let size: Size
    public var isWithered: Bool { species == nil }

    public init(_ session: FocusSession) {
        let minutes = session.duration / 60
        size = minutes < 20 ? .small : minutes < 45 ? .medium : .large
        guard session.state != .abandoned else {
            species = nil
            return
        }
        species = Species.allCases[Int(stableHash(session.id.uuidString) % UInt64(Species.allCases.count))]
    }

    /// The terminal's glyph: a conifer or a broadleaf tree whatever its size (a completed session is a
    /// full tree in every face: the seedling 🌱 is a stage of a tree still growing, `TreeStage.glyph`),
    /// fallen leaves for a withered one.
    public var glyph: String {
        guard let species else { return "🍂" }
        return species == .pine ? "🌲" : "🌳"
    }
}
