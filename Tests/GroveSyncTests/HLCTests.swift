import Foundation
import GroveCore
import Testing

@testable import GroveSimulation

@Suite("Hybrid logical clock")
struct HLCTests {
    static let node = "9f3c0123456789ab"

    @Test("the text form round-trips and collates in clock order")
    func textOrder() {
        var random = SeededRandom(seed: 1)
        var clocks: [HLC] = []
        for _ in 0..<500 {
            let millis = Int64.random(in: 0...253_402_300_799_999, using: &random)
            let node = String(format: "%016llx", random.next())
            clocks.append(
                HLC(millis: random.chance(0.3) ? 1_700_000_000_000 : millis, counter: UInt16.random(in: 0...3, using: &random), node: node))
        }
        for clock in clocks { #expect(HLC(clock.description) == clock) }
        for (a, b) in zip(clocks, clocks.shuffled(using: &random)) {
            #expect((a < b) == (a.description < b.description), "\(a) vs \(b)")
        }
        #expect(HLC(millis: 1_747_215_000_000, counter: 1, node: Self.node).description == "2025-05-14T09:30:00.000Z-0001-9f3c0123456789ab")
    }

    @Test(
        "malformed text is refused",
        arguments: [
            "", "2025-05-14T09:30:00.000Z-0001", "2025-13-14T09:30:00.000Z-0001-9f3c0123456789ab",
            "2025-02-30T09:30:00.000Z-0001-9f3c0123456789ab", "2025-05-14T09:30:00.000Z-00G1-9f3c0123456789ab",
            "2025-05-14T09:30:00.000Z-0001-9F3C0123456789AB", "2025-05-14T24:30:00.000Z-0001-9f3c0123456789ab",
        ])
    func malformed(_ text: String) {
        #expect(HLC(text) == nil)
    }

    @Test("ticks move forward even when the wall clock jumps back")
    func monotonic() {
        var clock = HLC.zero(node: Self.node)
        let start = Date(timeIntervalSince1970: 1_772_000_000)
        var previous = clock
        for step in 0..<200 {
            let wall = start.addingTimeInterval(step % 7 == 0 ? -30 : Double(step) / 1000)
            clock = clock.tick(now: wall)
            #expect(clock > previous)
            previous = clock
        }
    }

    @Test("receiving a clock moves past it; one more than five minutes ahead is refused")
    func receive() throws {
        let now = Date(timeIntervalSince1970: 1_772_000_000)
        let local = HLC(millis: now.groveMillis, counter: 0, node: Self.node)
        let remote = HLC(millis: now.groveMillis + 60_000, counter: 7, node: "0000000000000001")
        let next = try local.receive(remote, now: now)
        #expect(next > remote && next.node == Self.node)
        let far = HLC(millis: now.groveMillis + HLC.maxDrift + 1, counter: 0, node: "0000000000000001")
        #expect(throws: HLCError.self) { try local.receive(far, now: now) }
    }
}

@Suite("Merge rules")
struct MergeTests {
    static func clock(_ millis: Int64, _ node: String = "000000000000000a") -> HLC { HLC(millis: millis, counter: 0, node: node) }

    static func randomState(_ entity: SyncEntity, _ random: inout SeededRandom) -> SyncState {
        var state = SyncState()
        for group in entity.groups where random.chance(0.6) {
            state.clocks[group.name] = clock(
                Int64.random(in: 1...6, using: &random), String(format: "%016llx", UInt64.random(in: 1...3, using: &random)))
            for field in group.fields {
                switch field.kind {
                case .text:
                    state.fields[field.wire] = .text(["a", "b", "active", "completed", "abandoned"].randomElement(using: &random) ?? "a")
                case .integer: state.fields[field.wire] = .int(Int64.random(in: 0...3, using: &random))
                case .bool: state.fields[field.wire] = .bool(random.chance(0.5))
                }
            }
        }
        if random.chance(0.2) { state.tomb = clock(Int64.random(in: 1...6, using: &random)) }
        if random.chance(0.3) { state.alive = clock(Int64.random(in: 1...6, using: &random)) }
        return state
    }

    @Test("a version written before an optional group existed is whole; one missing a required group is not")
    func optionalGroupsMayBeMissing() {
        var state = SyncState()
        for group in SyncEntity.content.groups where !["sourceUrl", "retired"].contains(group.name) {
            state.clocks[group.name] = Self.clock(1)
            for field in group.fields { state.fields[field.wire] = field.kind == .integer ? .int(5) : .text("x") }
        }
        #expect(state.isComplete(.content))
        state.clocks["text"] = nil
        #expect(!state.isComplete(.content))
    }

    @Test("join is commutative, associative and idempotent for every entity")
    func semilattice() {
        var random = SeededRandom(seed: 7)
        for entity in SyncEntity.all {
            for _ in 0..<300 {
                let a = Self.randomState(entity, &random), b = Self.randomState(entity, &random), c = Self.randomState(entity, &random)
                let join = { (x: SyncState, y: SyncState) in SyncState.join(x, y, entity: entity) }
                #expect(join(a, b) == join(b, a), "\(entity.name)")
                #expect(join(join(a, b), c) == join(a, join(b, c)), "\(entity.name)")
                #expect(join(a, a) == a, "\(entity.name)")
            }
        }
    }

    /// The simulation's oracle (`ReferenceMerge`: each group the greatest version of the whole
    /// history) and the pairwise join agree, whatever order the versions are folded in.
    @Test("join folded in any order is the design's merge of the whole history")
    func joinIsTheReferenceMerge() {
        var random = SeededRandom(seed: 11)
        for entity in SyncEntity.all {
            for _ in 0..<100 {
                let versions = (0..<Int.random(in: 1...6, using: &random)).map { _ in Self.randomState(entity, &random) }
                let folded = versions.shuffled(using: &random).reduce(SyncState()) { SyncState.join($0, $1, entity: entity) }
                #expect(folded == ReferenceMerge.merge(versions, entity: entity), "\(entity.name)")
            }
        }
    }

    @Test("a completed session beats a later pause; the earlier end wins between two ends")
    func terminalRule() {
        let entity = SyncEntity.focusSession
        let group = entity.groups[0].name
        func session(_ state: String, end: Int64?, at millis: Int64) -> SyncState {
            SyncState(fields: ["state": .text(state), "endTime": end.map { .int($0) } ?? .null], clocks: [group: Self.clock(millis)])
        }
        let done = session("completed", end: 100, at: 5), paused = session("paused", end: nil, at: 9)
        #expect(SyncState.join(done, paused, entity: entity).fields["state"] == .text("completed"))
        let early = session("abandoned", end: 50, at: 1), late = session("completed", end: 100, at: 9)
        #expect(SyncState.join(late, early, entity: entity).fields["endTime"] == .int(50))
    }

    @Test("a retag on one device and the session's end on another both survive: tags are last-writer-wins on their own clock")
    func tagsBesideTheTerminalRule() {
        let entity = SyncEntity.focusSession
        // Device A retags the running session at 9; device B completes it at 5 (with the old tags).
        let retagged = SyncState(
            fields: ["state": .text("active"), "endTime": .null, "tags": .text(#"["essay"]"#)],
            clocks: ["session": Self.clock(2), "tags": Self.clock(9)])
        let completed = SyncState(
            fields: ["state": .text("completed"), "endTime": .int(100), "tags": .text(#"["code"]"#)],
            clocks: ["session": Self.clock(5), "tags": Self.clock(1)])
        for merged in [SyncState.join(retagged, completed, entity: entity), SyncState.join(completed, retagged, entity: entity)] {
            #expect(merged.fields["state"] == .text("completed"))
            #expect(merged.fields["tags"] == .text(#"["essay"]"#))
        }
        // A version from before tags (no group) is whole, and reads as untagged.
        let old = SyncState(fields: ["state": .text("completed")], clocks: ["session": Self.clock(3)])
        #expect(old.isComplete(entity))
    }

    @Test("a timer's delete is final; an intention comes back only with a newer whole insert")
    func deletes() {
        let timer = SyncEntity.timer
        let deleted = SyncState(tomb: Self.clock(5))
        let edit = SyncState(fields: ["name": .text("x")], clocks: ["name": Self.clock(9)], alive: Self.clock(9))
        #expect(SyncState.join(deleted, edit, entity: timer).isDeleted(timer))
        let intention = SyncEntity.intention
        #expect(!SyncState.join(deleted, edit, entity: intention).isDeleted(intention))
        #expect(
            SyncState.join(deleted, SyncState(fields: ["text": .text("x")], clocks: ["text": Self.clock(9)]), entity: intention).isDeleted(
                intention))
    }

    @Test("two sessions started offline: the later start stays open, the other closes at that instant")
    func supersession() throws {
        func open(_ start: Int64, planned: Int64) -> SyncFields {
            [
                "startTime": .int(start), "state": .text("active"), "durationMs": .int(0), "pausedMs": .int(0), "plannedMs": .int(planned),
                "createdAt": .int(start), "timeZone": .text("Europe/Berlin"), "endTime": .null, "pausedAt": .null, "endDay": .null,
                "clockUncertain": .bool(false),
            ]
        }
        let base: Int64 = 1_772_000_000_000
        let (keep, close) = try #require(
            FocusSupersession.resolve(("a", open(base, planned: 1_500_000)), ("b", open(base + 600_000, planned: 1_500_000))))
        #expect(keep.id == "b" && close.id == "a")
        #expect(close.fields["state"] == .text("abandoned") && close.fields["endTime"] == .int(base + 600_000))
        let (_, completed) = try #require(
            FocusSupersession.resolve(("a", open(base, planned: 300_000)), ("b", open(base + 600_000, planned: 1_500_000))))
        #expect(completed.fields["state"] == .text("completed") && completed.fields["endTime"] == .int(base + 300_000))
    }
}
