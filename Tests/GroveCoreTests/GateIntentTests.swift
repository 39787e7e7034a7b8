import GroveCore
import Testing

@Suite("The gate's reminder of what the person meant to do")
struct GateIntentTests {
    @Test func theIntentionThenWhatTheTreeGrowsFor() {
        #expect(GateIntent(intention: nil, tags: []).lines.isEmpty)
        #expect(GateIntent(intention: "Write the chapter", tags: []).lines == ["Today's intention: Write the chapter"])
        #expect(
            GateIntent(intention: "Write the chapter", tags: ["essay", "reading"]).lines == [
                "Today's intention: Write the chapter", "Your tree grows for: essay, reading",
            ])
        #expect(GateIntent(intention: nil, tags: ["essay"]).lines == ["Your tree grows for: essay"])
    }

    @Test("\"Why are you opening it?\" offers today's intention first, and only when there is one")
    func theIntentionIsAnAnswer() {
        let none = GateIntent(intention: nil, tags: []).answers
        #expect(none.map(\.reason) == [.task, .habit, .bored, .avoiding])
        let some = GateIntent(intention: "Write the chapter on roots", tags: []).answers
        #expect(some.first?.label == "For: Write the chapter on roots" && some.first?.reason == .intention)
        #expect(some.dropFirst().map(\.label) == none.map(\.label))
        let long = GateIntent(intention: String(repeating: "a", count: 200), tags: []).answers.first?.label ?? ""
        #expect(long.count == 5 + 60 && long.hasSuffix("…"), "a button, not a paragraph")
    }
}
