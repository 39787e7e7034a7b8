import Foundation
import GroveStore
import Testing

@testable import GroveSync

@Suite("Background sync: back-off with jitter")
struct BackgroundSyncTests {
    static func service(jitter: Double) throws -> BackgroundSync<ContinuousClock> {
        let database = try AppDatabase.inMemory()
        return BackgroundSync(
            database: database, makeTransport: { throw CancellationError() }, makeEngine: { throw CancellationError() },
            clock: ContinuousClock(), jitter: { jitter })
    }

    @Test func waitsDoubleUpToAMinuteEachBetweenHalfAndAllOfIt() throws {
        let low = try Self.service(jitter: 0), high = try Self.service(jitter: 0.999)
        #expect(
            [1, 2, 3, 4, 7, 8, 50].map { low.backOff(after: $0) }
                == [0.5, 1, 2, 4, 30, 30, 30].map { Duration.milliseconds(Int64($0 * 1000)) })
        #expect(high.backOff(after: 1) > .milliseconds(990) && high.backOff(after: 1) < .seconds(1))
        #expect(high.backOff(after: 9) <= .seconds(60) && high.backOff(after: 9) > .seconds(59))
        #expect(low.backOff(after: 9, cap: 30) == .seconds(15))
    }
}
