import Foundation

/// The week's one way through a scheduled block (issue 40): whether it is left, the visit it let
/// through when it is not, and when the next one comes (the start of the next calendar week, in the
/// configured zone and first weekday).
public struct EmergencyPass: Codable, Sendable, Equatable {
    /// Whether this week's pass is still there.
    public var available: Bool
    /// The pause that used it this week (its app and instant), if one did.
    public var usedBy: GatewaySession?
    /// When the next week, and with it a new pass, begins.
    public var nextAt: Date

    public init(available: Bool, usedBy: GatewaySession?, nextAt: Date) {
        self.available = available
        self.usedBy = usedBy
        self.nextAt = nextAt
    }

    /// Passes a week.
    public static let perWeek = 1
}
