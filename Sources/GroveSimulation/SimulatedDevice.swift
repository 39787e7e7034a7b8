import Foundation
import GroveCore
import GroveStore
import GroveSync

/// One device of the simulation: its own in-memory store, skewed clock and id source.
public final class SimulatedDevice: @unchecked Sendable {
    public let name: String
    public let clock: TestClock
    public let database: AppDatabase
    public var engine: SyncEngine
    private let ids: IDSource

    /// Counting ids that differ per device (and per seed).
    final class IDSource: @unchecked Sendable {
        let lock = NSLock()
        var counter: UInt64 = 0
        let prefix: UInt64
        init(prefix: UInt64) { self.prefix = prefix }
        func next() -> UUID {
            lock.withLock {
                counter += 1
                var bytes = [UInt8](repeating: 0, count: 16)
                withUnsafeBytes(of: prefix.bigEndian) { for (i, b) in $0.enumerated() { bytes[i] = b } }
                withUnsafeBytes(of: counter.bigEndian) { for (i, b) in $0.enumerated() { bytes[8 + i] = b } }
                bytes[6] = (bytes[6] & 0x0F) | 0x40
                bytes[8] = (bytes[8] & 0x3F) | 0x80
                return UUID(
                    uuid: (
                        bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                        bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
                    ))
            }
        }
    }

    public init(
        name: String, start: Date, skew: TimeInterval, idPrefix: UInt64, zone: TimeZone, service: SyncService, network: SimulatedNetwork,
        credentials: DeviceCredentials, user: String, cachesCaller: Bool = false,
        beforeLink: (AppDatabase) throws -> Void = { _ in }
    ) throws {
        self.name = name
        clock = TestClock(start.addingTimeInterval(skew))
        let ids = IDSource(prefix: idPrefix)
        self.ids = ids
        let clock = clock
        let environment = GroveEnvironment(
            now: { clock.now }, uuid: { ids.next() }, systemTimeZone: { zone },
            clockReading: { ClockReading(wall: clock.now, bootID: clock.bootID, sinceBoot: clock.sinceBoot) })
        database = try AppDatabase.inMemory(environment: environment)
        try database.intentions.changePreferences { $0.timeZoneIdentifier = zone.identifier }
        try beforeLink(database)
        try database.sync.begin(
            SyncDevice(
                serverURL: "sim://server", user: user, deviceId: credentials.deviceId, deviceName: name,
                tokenFile: "", cursor: 0, lastMutationId: 0, ackedMutationId: 0))
        let transport = SimulatedTransport(service: service, token: credentials.token, network: network, cachesCaller: cachesCaller)
        engine = SyncEngine(database: database, transport: transport) { credentials in
            SimulatedTransport(service: service, token: credentials.token, network: network, cachesCaller: cachesCaller)
        }
    }
}
