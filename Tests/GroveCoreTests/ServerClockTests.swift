import Foundation
import GroveCore
import Testing

@Suite("What a device knows of the server's clock")
struct ServerClockTests {
    let boot = "boot-1"
    let server = Date(timeIntervalSince1970: 1_800_000_000)

    @Test("a wall clock within tolerance is right: no correction, no anchor")
    func withinTolerance() {
        let reading = ClockReading(wall: server.addingTimeInterval(1.5), bootID: boot, sinceBoot: 100)
        #expect(ServerClock.learned(serverTime: server, at: reading) == ServerClock())
    }

    @Test("a fast clock is corrected, and fixing it later changes nothing: the monotonic clock measures since")
    func fixedLaterChangesNothing() {
        let fast = ClockReading(wall: server.addingTimeInterval(2 * 86_400), bootID: boot, sinceBoot: 100)
        let learned = ServerClock.learned(serverTime: server, at: fast)
        #expect(learned.offsetMillis == -2 * 86_400_000)
        // Ten seconds later, still fast, then fixed: the server's time is the same either way.
        let stillFast = ClockReading(wall: fast.wall.addingTimeInterval(10), bootID: boot, sinceBoot: 110)
        let fixed = ClockReading(wall: server.addingTimeInterval(10), bootID: boot, sinceBoot: 110)
        #expect(learned.now(stillFast) == server.addingTimeInterval(10))
        #expect(learned.now(fixed) == server.addingTimeInterval(10))
    }

    @Test("after a reboot the learned offset serves (no monotonic clock in common)")
    func afterAReboot() {
        let fast = ClockReading(wall: server.addingTimeInterval(600), bootID: boot, sinceBoot: 100)
        let learned = ServerClock.learned(serverTime: server, at: fast)
        let rebooted = ClockReading(wall: server.addingTimeInterval(900), bootID: "boot-2", sinceBoot: 5)
        #expect(learned.now(rebooted) == server.addingTimeInterval(300))
        // A monotonic clock that went back (no boot id on this system) is not trusted either.
        #expect(learned.now(ClockReading(wall: server.addingTimeInterval(900))) == server.addingTimeInterval(300))
    }
}
