/// What the gate puts before a pause: what the person meant to do today (the intention in effect:
/// day over week over month) and what a growing tree is for (its tags). Grove is the only one of its
/// peers that holds all three in one store; one sec shows a pause, Forest a tree, neither the
/// intention. One wording for every face.
public struct GateIntent: Sendable, Equatable, Encodable {
    /// The text of today's intention, if any is set.
    public var intention: String?
    /// The tags of the focus session growing now (none when no session runs, or it has none).
    public var tags: [String]

    public init(intention: String?, tags: [String]) {
        self.intention = intention
        self.tags = tags
    }

    /// "Today's intention: Write the chapter on roots", or nil.
    public var intentionLine: String? { intention.map { "Today's intention: \($0)" } }

    /// "Your tree grows for: essay, reading", or nil.
    public var tagsLine: String? { tags.isEmpty ? nil : "Your tree grows for: " + tags.joined(separator: ", ") }

    /// The lines to show, in order (none when there is nothing to remind of).
    public var lines: [String] { [intentionLine, tagsLine].compactMap { $0 } }
}
