import Foundation
import GroveSync
import Testing

/// A PostgreSQL failure reaches a device in words, with the status that tells it to wait (a full disk
/// is a 507, not a bare 500), and readiness says a full disk until a write succeeds.
@Suite("PostgreSQL failures in words")
struct DatabaseFailureTests {
    @Test func aFullDiskIs507AndExhaustedResources503() {
        #expect(DatabaseFailure.status(sqlState: "53100") == 507)
        #expect(DatabaseFailure.summary(sqlState: "53100").contains("disk is full"))
        for busy in ["53200", "53300", "08006", "57P03"] { #expect(DatabaseFailure.status(sqlState: busy) == 503, "\(busy)") }
        for other in ["23505", "42P01", nil] { #expect(DatabaseFailure.status(sqlState: other) == 500) }
        #expect(DatabaseFailure.summary(sqlState: "23505").contains("SQLSTATE 23505"))
    }

    @Test func readinessRemembersAFullDiskUntilAWriteSucceeds() {
        let latch = DiskFullLatch()
        #expect(!latch.isFull)
        latch.record(status: 507)
        #expect(latch.isFull)
        latch.record(status: 503)  // another failure says nothing about the disk
        #expect(latch.isFull)
        latch.record(status: nil)
        #expect(!latch.isFull)
    }
}
