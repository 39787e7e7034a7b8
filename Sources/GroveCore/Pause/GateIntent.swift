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

    /// One answer to "Why are you opening …?" as offered.
    public struct Answer: Sendable, Equatable, Encodable {
        public var reason: PauseReason
        public var label: String
        public var reply: String
    }

    /// The answers to "Why are you opening …?", in order: "For: <today's intention>" first when one is
    /// set (the gate is the only one that knows it), then the others. One list for every face.
    public var answers: [Answer] {
        PauseReason.allCases.compactMap { reason in
            guard reason == .intention else { return Answer(reason: reason, label: reason.label, reply: reason.reply) }
            return intention.map { text in
                let shown = text.count > 60 ? String(text.prefix(59)) + "…" : text
                return Answer(reason: reason, label: "For: " + shown, reply: reason.reply)
            }
        }
    }
}
