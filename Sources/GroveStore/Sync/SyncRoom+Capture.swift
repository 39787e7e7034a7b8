import Foundation
import GRDB
import GroveCore

extension AppDatabase {
    // MARK: Linking

    /// Gives the values nobody chose — a one-row table's defaults, a preset app as Grove ships it —
    /// the unchosen clock (SYNC.md "Defaults are not edits"): they still travel, so that the server's
    /// row is whole, but any choice a person made on any device beats them.
    static func unstampDefaults(_ db: Database) throws {
        let entities = SyncEntity.all.filter { $0.singleton != nil } + [SyncEntity.app]
        let defaults = try pristine.get().read { pristine in
            try entities.flatMap { entity in
                try String.fetchAll(
                    pristine, sql: entity.singleton.map { "SELECT '\($0)'" } ?? "SELECT \(entity.keyColumn) FROM \(entity.table)"
                )
                .compactMap { id in try SyncRows.fields(pristine, entity, id: id).map { (entity, id, $0) } }
            }
        }
        for (entity, id, shipped) in defaults {
            guard let fields = try SyncRows.fields(db, entity, id: id) else { continue }
            for (index, group) in entity.groups.enumerated() where group.fields.allSatisfy({ fields[$0.wire] == shipped[$0.wire] }) {
                try db.cachedExecute(
                    "UPDATE sync_clock SET hlc = ? WHERE entity = ? AND entity_id = ? AND grp = ?",
                    [HLC.unchosen.description, entity.name, id, index])
            }
            // A row every device has from the start was not made by anyone either.
            try db.cachedExecute(
                "UPDATE sync_clock SET hlc = ? WHERE entity = ? AND entity_id = ? AND grp = ?",
                [HLC.unchosen.description, entity.name, id, SyncEntity.aliveBit])
        }
    }

    /// Queues every synced row as a whole insert; gives rows without clocks their bootstrap clock.
    static func queueEverything(_ db: Database, node: String, keepClocks: Bool) throws {
        for entity in SyncEntity.all { try queueRows(db, entity, node: node, keepClocks: keepClocks) }
        // Deletes this device made and the server may not have: queue their tombstones again.
        if keepClocks { try queueOwnDeletions(db) }
    }

    // MARK: Stamping

    /// Gives the changes captured in this transaction their clock, before it commits: one tick of
    /// the device's clock for the whole transaction (so the data and its clock commit together).
    /// Costs one indexed read when nothing was captured, and nothing at all unless linked.
    static func stampCapturedChanges(_ db: Database, reading: ClockReading) throws {
        guard try db.cachedExists("SELECT 1 FROM sync_outbox WHERE fresh <> 0 LIMIT 1"),
            let row = try db.cachedRow("SELECT hlc, \(serverClockColumns) FROM sync_state"),
            let previous = HLC(row["hlc"] as String)
        else { return }
        let clock = previous.tick(now: serverClock(row).now(reading)).description
        try db.cachedExecute(
            """
            INSERT INTO sync_clock (entity, entity_id, grp, hlc)
            SELECT o.entity, o.entity_id, b.bit, ? FROM sync_outbox o JOIN sync_bit b ON (o.fresh >> b.bit) & 1 WHERE o.fresh <> 0
            ON CONFLICT (entity, entity_id, grp) DO UPDATE SET hlc = excluded.hlc
            """, [clock])
        // A person enabling or disabling an app decides for it: it is no longer held back by the limit.
        try db.cachedExecute(
            """
            DELETE FROM sync_clock WHERE grp = \(Self.heldBackBit) AND entity = 'app'
                AND entity_id IN (SELECT entity_id FROM sync_outbox WHERE entity = 'app' AND fresh & \(1 << 3))
            """)
        try db.cachedExecute("UPDATE sync_outbox SET fresh = 0 WHERE fresh <> 0")
        try db.cachedExecute("UPDATE sync_state SET hlc = ?", [clock])
    }

    static let serverClockColumns = "clock_offset_ms, clock_anchor_ms, clock_anchor_boot, clock_anchor_since"

    /// The server's clock as `sync_state` remembers it (a row with `serverClockColumns`).
    static func serverClock(_ row: Row) -> ServerClock {
        let anchor: ServerClock.Anchor? =
            if let millis = row["clock_anchor_ms"] as Int64?, let boot = row["clock_anchor_boot"] as String?,
                let since = row["clock_anchor_since"] as Double?
            {
                ServerClock.Anchor(serverMillis: millis, bootID: boot, sinceBoot: since)
            } else { nil }
        return ServerClock(offsetMillis: row["clock_offset_ms"], anchor: anchor)
    }

    /// The server's time now, as this device knows it (`ServerClock`).
    static func serverNow(_ db: Database, _ reading: ClockReading) throws -> Date {
        guard let row = try db.cachedRow("SELECT \(serverClockColumns) FROM sync_state") else { return reading.wall }
        return serverClock(row).now(reading)
    }

    static func save(_ serverClock: ServerClock, hlc: HLC, _ db: Database) throws {
        try db.cachedExecute(
            """
            UPDATE sync_state SET clock_offset_ms = ?, clock_anchor_ms = ?, clock_anchor_boot = ?, clock_anchor_since = ?, hlc = ?
            """,
            [
                serverClock.offsetMillis, serverClock.anchor?.serverMillis, serverClock.anchor?.bootID, serverClock.anchor?.sinceBoot,
                hlc.description,
            ])
    }

    /// Takes the server's time from an answer (SYNC.md "Clocks are bounded both ways"), in the
    /// transaction that takes the answer: the device's clock moves past it (a slow device's next edit
    /// still comes after everything the server had), and what this device knows of the server's clock
    /// is learned anew each time (`ServerClock`) — a clock that is fast or slow is corrected, and one
    /// that is fixed later is stamped right from its next edit on.
    static func observeServerTime(_ db: Database, _ serverTime: Date, reading: ClockReading) throws {
        guard let row = try db.cachedRow("SELECT hlc, \(serverClockColumns) FROM sync_state"), let clock = HLC(row["hlc"] as String) else {
            return
        }
        let learned = ServerClock.learned(serverTime: serverTime, at: reading)
        let next = Swift.max(clock, HLC(millis: serverTime.groveMillis, counter: 0, node: clock.node))
        guard learned != serverClock(row) || next != clock else { return }
        try save(learned, hlc: next, db)
    }

    /// Marks an app enabled elsewhere but held back here by the ten-app limit (see `resolveEnabledApps`).
    static let heldBackBit = 27

    // MARK: Status

    static func syncDevice(_ db: Database) throws -> SyncDevice? {
        guard let row = try db.cachedRow("SELECT * FROM sync_state") else { return nil }
        let id: String = row["device_id"]
        return SyncDevice(
            serverURL: row["server_url"], user: row["user_name"],
            deviceId: UUID(uuidString: id) ?? UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)),
            deviceName: row["device_name"], tokenFile: row["token_file"], cursor: row["cursor"],
            lastMutationId: row["last_mutation_id"], ackedMutationId: row["acked_mutation_id"],
            lastSuccess: (row["last_success"] as Int64?).map { Date(timeIntervalSince1970: Double($0) / 1000) },
            lastError: row["last_error"], awaitingKey: row["awaiting_key"] ?? false,
            keysBehind: (row["keys_behind"] as Bool?) == true ? (row["keys_kept_at"] as Int64?).map { Date(groveMillis: $0) } : nil,
            serverKeyId: row["server_key_id"])
    }

}

extension SyncRoom {
    /// Links the store to a server as `device` and queues every synced row for the first push, each
    /// with the clock of its last change where the row has one (else the smallest clock), so that an
    /// old copy never beats newer edits made on devices that synced all along.
    public func begin(_ device: SyncDevice) throws {
        try write { db in
            if let server = try String.fetchOne(db.cachedStatement(sql: "SELECT server_url FROM sync_state")) {
                throw SyncStoreError.alreadyLoggedIn(server: server)
            }
            try db.cachedExecute(
                """
                INSERT INTO sync_state (id, server_url, user_name, device_id, device_name, token_file, hlc, store_marker)
                VALUES (1, ?, ?, ?, ?, ?, ?, ?)
                """,
                [
                    device.serverURL, device.user, device.deviceId.uuidString, device.deviceName, device.tokenFile,
                    HLC.zero(node: device.node).description, environment.uuid().uuidString,
                ])
            try SyncCapture.install(db)
            try AppDatabase.queueEverything(db, node: device.node, keepClocks: false)
            try AppDatabase.unstampDefaults(db)
        }
    }

    /// Unlinks the store: forgets the server, the cursor, the outbox and the clocks (data stays).
    public func end() throws {
        try write { db in
            for table in ["sync_state", "sync_outbox", "sync_clock", "sync_inbox", "sync_unseen"] {
                try db.execute(sql: "DELETE FROM \(table)")
            }
            try SyncCapture.remove(db)
        }
    }

    /// Starts over with the server as a new device (a cloned store, a restored server): every row is
    /// queued again with the clocks it has, mutation ids start at `lastMutationId + 1`, the cursor at 0.
    /// Nothing local is lost: pending changes are part of "every row".
    public func restart(deviceId: UUID, lastMutationId: Int64) throws {
        try write { db in
            guard try Bool.fetchOne(db.cachedStatement(sql: "SELECT 1 FROM sync_state")) == true else { throw SyncStoreError.notLoggedIn }
            try db.cachedExecute("DELETE FROM sync_outbox")
            try db.cachedExecute("DELETE FROM sync_inbox")
            // A new device id is a new clock node: keep the clock's time, change its name.
            let node = HLC.node(for: deviceId)
            let old = try String.fetchOne(db.cachedStatement(sql: "SELECT hlc FROM sync_state")).flatMap(HLC.init) ?? HLC.zero(node: node)
            try db.cachedExecute(
                """
                UPDATE sync_state SET device_id = ?, cursor = 0, cursor_checksum = '', last_mutation_id = ?, acked_mutation_id = ?, hlc = ?
                """,
                [
                    deviceId.uuidString, lastMutationId, lastMutationId,
                    HLC(millis: old.millis, counter: old.counter, node: node).description,
                ])
            try AppDatabase.queueEverything(db, node: HLC.node(for: deviceId), keepClocks: true)
        }
    }

    /// Queues every row again as a whole insert with the clocks it has, keeping the device, its ids and
    /// its cursor: what a device does when the account becomes encrypted (every value goes out again,
    /// sealed, and replaces its plain copy on the server).
    public func resendEverything() throws {
        try write { db in
            guard let device = try AppDatabase.syncDevice(db) else { throw SyncStoreError.notLoggedIn }
            try AppDatabase.queueEverything(db, node: HLC.node(for: device.deviceId), keepClocks: true)
        }
    }

    /// The link to the server, or nil when the store does not sync.
    public func device() throws -> SyncDevice? {
        try writer.snapshotRead { db in try AppDatabase.syncDevice(db) }
    }

    public func status() throws -> SyncStatus? {
        try writer.snapshotRead { db in
            guard let device = try AppDatabase.syncDevice(db) else { return nil }
            let pending = try Int.fetchOne(db.cachedStatement(sql: "SELECT count(*) FROM sync_outbox")) ?? 0
            let parked = try Int.fetchOne(db.cachedStatement(sql: "SELECT count(*) FROM sync_inbox")) ?? 0
            let refused = try Int.fetchOne(db.cachedStatement(sql: "SELECT count(*) FROM sync_refusal")) ?? 0
            let clock = try String.fetchOne(db.cachedStatement(sql: "SELECT hlc FROM sync_state")) ?? ""
            return SyncStatus(
                device: device, pendingMutations: pending, parkedChanges: parked, refusedChanges: refused,
                refusals: refused > 0 ? try AppDatabase.refusals(db, limit: 20) : [], clock: clock,
                keyId: try String.fetchOne(db.cachedStatement(sql: "SELECT key_id FROM sync_state")))
        }
    }

    /// Records how a sync attempt ended (`grove sync status`'s last success and last error).
    public func recordAttempt(error: String?) throws {
        try write { db in
            if let error {
                try db.cachedExecute("UPDATE sync_state SET last_error = ?", [String(error.prefix(500))])
            } else {
                try db.cachedExecute("UPDATE sync_state SET last_error = NULL, last_success = ?", [environment.now().groveMillis])
            }
        }
    }

    /// Moves this device's clock by `offsetMillis` and re-stamps every pending clock that is ahead of
    /// `serverTime` by more than the allowed drift (the server refused them: this machine's clock is wrong).
    public func restampAhead(of serverTime: Date) throws {
        let reading = environment.clockReading()
        let limit = HLC(millis: serverTime.groveMillis + HLC.maxDrift, counter: .max, node: "ffffffffffffffff").description
        try write { db in
            guard let device = try AppDatabase.syncDevice(db) else { throw SyncStoreError.notLoggedIn }
            var clock = HLC(millis: serverTime.groveMillis, counter: 0, node: device.node)
            try AppDatabase.save(ServerClock.learned(serverTime: serverTime, at: reading), hlc: clock, db)
            try db.cachedExecute("UPDATE sync_clock SET hlc = ? WHERE hlc > ?", [clock.description, limit])
            // Sealed mutations carry their clocks: seal them again from the rows.
            let sealed = try db.cachedRows("SELECT id, payload FROM sync_outbox WHERE mutation_id IS NOT NULL")
            for row in sealed {
                guard let payload = (row["payload"] as String?).map({ Data($0.utf8) }),
                    var mutation = try? JSONDecoder().decode(SyncMutation.self, from: payload), mutation.hlc.description > limit
                else { continue }
                clock = clock.tick(now: serverTime)
                mutation.clocks = mutation.clocks?.mapValues { $0.description > limit ? clock : $0 }
                mutation.alive = mutation.alive.flatMap { $0.description > limit ? nil : $0 }
                // The mutation's clock is still the newest it carries (clocks within the drift stay).
                mutation.hlc = ([clock] + Array(mutation.clocks?.values ?? [:].values) + [mutation.alive].compactMap { $0 }).max() ?? clock
                try db.cachedExecute(
                    "UPDATE sync_outbox SET payload = ? WHERE id = ?",
                    [String(decoding: try SyncWire.encoder().encode(mutation), as: UTF8.self), row["id"] as Int64])
            }
            try db.cachedExecute("UPDATE sync_state SET hlc = ?", [clock.description])
        }
    }
}
