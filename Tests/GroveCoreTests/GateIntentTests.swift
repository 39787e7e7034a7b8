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
}
