import Foundation

/// A gate loosened, kept as it happened: the gate's own integrity figures (`PauseWeek.gatesOff`,
/// `PauseWeek.blocksLoosened`) count these, so that a week of fewer pauses is not simply a week with
/// the gate switched off. Kept, like pauses, for 30 days.
public struct GateChange: Identifiable, Hashable, Sendable, Codable {
    public enum Kind: String, Codable, CaseIterable, Sendable {
        /// The app's gate was switched off: it opens without a pause.
        case gateOff = "gate_off"
        /// The app's scheduled block was removed.
        case blockOff = "block_off"
        /// A strict block was made one that can be changed at any time.
        case strictOff = "strict_off"
    }

    public var id: UUID
    public var appId: String
    public var kind: Kind
    public var timestamp: Date
    /// Zone and local day in which it happened: the figures are per local day and week.
    public var timeZoneIdentifier: String
    public var localDay: LocalDay

    public init(id: UUID, appId: String, kind: Kind, timestamp: Date, calendar: ZonedCalendar) {
        self.id = id
        self.appId = appId
        self.kind = kind
        self.timestamp = timestamp
        self.timeZoneIdentifier = calendar.timeZone.identifier
        self.localDay = calendar.localDay(of: timestamp)
    }

    /// How `new` loosens the gate of `old` (the same app as stored before a save): its gate switched
    /// off, its block removed, its strict mode dropped. A changed schedule is neither (it may as well
    /// be tighter), nor is anything done to an app whose gate was already off.
    public static func loosenings(from old: SocialApp, to new: SocialApp) -> [Kind] {
        var kinds: [Kind] = []
        if old.isEnabled && !new.isEnabled { kinds.append(.gateOff) }
        if old.blockSchedule != nil && new.blockSchedule == nil {
            kinds.append(.blockOff)
        } else if old.blockStrict && !new.blockStrict && new.blockSchedule != nil {
            kinds.append(.strictOff)
        }
        return kinds
    }
}

/// How many times each app's gate was loosened on one local day (what the store counts in SQL).
public struct GateChangeCounts: Hashable, Sendable {
    public var date: LocalDay
    public var appId: String
    public var gatesOff: Int
    /// Blocks removed or made not strict.
    public var blocksLoosened: Int

    public init(date: LocalDay, appId: String, gatesOff: Int, blocksLoosened: Int) {
        self.date = date
        self.appId = appId
        self.gatesOff = gatesOff
        self.blocksLoosened = blocksLoosened
    }
}
