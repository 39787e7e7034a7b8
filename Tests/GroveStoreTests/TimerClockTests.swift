import Foundation
import GroveCore
import Testing

@testable import GroveStore

/// A timer is measured like a focus session: the monotonic clock from its last transition, so the
/// wall clock may step (NTP, a clock set by hand, a fast clock corrected) without moving it.
@Suite("Timers and a wall clock that steps")
struct TimerClockTests {
    @Test("a clock step of 2 h forward does not finish a 30-minute timer")
    func stepForward() throws {
        let (db, clock) = try makeStore(at: "2025-05-01T09:00:00Z")
        let focus = try db.timers.create(name: "Deep work", durationInSeconds: 1800)
        try db.timers.start(timerId: focus.id)
        clock.advance(by: 60)
        clock.setWall(clock.now.addingTimeInterval(2 * 3600))
        let run = try #require(try db.timers.run(timerId: focus.id))
        #expect(run.state == .running && run.remaining == 1740)
        // Its due instant is given on the clock as it reads now: 29 minutes from now.
        #expect(run.dueAt == clock.now.addingTimeInterval(1740))
        #expect(try db.timers.notices().due.isEmpty)
        #expect(try db.timers.notices().next == clock.now.addingTimeInterval(1740))
        #expect(try db.timers.claimNotice(timerId: focus.id) == false)
        clock.advance(by: 1740)
        #expect(try db.timers.run(timerId: focus.id)?.state == .finished)
        #expect(try db.timers.notices().due.map(\.timerId) == [focus.id])
        #expect(try db.timers.claimNotice(timerId: focus.id))
        #expect(try db.timers.claimNotice(timerId: focus.id) == false, "announced once")
    }

    @Test("a fast clock corrected back an hour rings on time, not an hour late")
    func fastClockCorrected() throws {
        let (db, clock) = try makeStore(at: "2025-05-01T09:00:00Z")
        let tea = try db.timers.create(name: "Tea", durationInSeconds: 1800)
        clock.setWall(clock.now.addingTimeInterval(3600))  // an hour fast when the timer starts
        try db.timers.start(timerId: tea.id)
        clock.advance(by: 600)
        clock.setWall(clock.now.addingTimeInterval(-3600))  // NTP corrects it
        #expect(try db.timers.run(timerId: tea.id)?.remaining == 1200)
        clock.advance(by: 1200)
        #expect(try db.timers.notices().due.map(\.timerId) == [tea.id])
    }

    @Test("pause and resume across a step keep the time left")
    func pauseAcrossAStep() throws {
        let (db, clock) = try makeStore(at: "2025-05-01T09:00:00Z")
        let tea = try db.timers.create(name: "Tea", durationInSeconds: 1800)
        try db.timers.start(timerId: tea.id)
        clock.advance(by: 600)
        clock.setWall(clock.now.addingTimeInterval(-5 * 3600))
        #expect(try db.timers.pause(timerId: tea.id).remaining == 1200)
        clock.advance(by: 300)
        clock.setWall(clock.now.addingTimeInterval(7 * 3600))
        #expect(try db.timers.resume(timerId: tea.id).remaining == 1200)
        clock.advance(by: 1199)
        #expect(try db.timers.run(timerId: tea.id)?.remaining == 1)
    }

    @Test("after a reboot the wall clock counts, never running backwards")
    func reboot() throws {
        let (db, clock) = try makeStore(at: "2025-05-01T09:00:00Z")
        let tea = try db.timers.create(name: "Tea", durationInSeconds: 1800)
        try db.timers.start(timerId: tea.id)
        clock.advance(by: 600)
        clock.reboot()
        #expect(try db.timers.run(timerId: tea.id)?.remaining == 1200)
        clock.setWall(clock.now.addingTimeInterval(-3600))
        #expect(try db.timers.run(timerId: tea.id)?.remaining == 1800, "a clock behind the start counts from the start")
    }
}

/// The machine's own clock reading: what a session started here is anchored to.
@Suite("The machine's clock")
struct MachineClockTests {
    #if os(Linux)
        @Test("the boot id is the kernel's, whole and without its newline")
        func bootID() throws {
            let file = try String(contentsOfFile: "/proc/sys/kernel/random/boot_id", encoding: .utf8)
            let reading = MachineClock.read()
            #expect(reading.bootID == file.trimmingCharacters(in: .whitespacesAndNewlines))
            #expect(reading.bootID?.count == 36)
            #expect((reading.sinceBoot ?? 0) > 0)
        }
    #endif
}
