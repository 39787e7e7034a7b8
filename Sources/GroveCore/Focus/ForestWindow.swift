import Foundation

/// A window of the forest: some days with trees, newest first, each with its trees, and where older
/// days continue. Drawn from per-day totals, so a window costs the days it shows, not the history.
public struct ForestWindow: Sendable, Codable, Equatable {
    /// One day of the forest.
    public struct Day: Sendable, Codable, Equatable {
        /// The local day the trees were planted on.
        public var day: LocalDay
        /// How many trees were planted that day.
        public var trees: Int
        /// How many sessions were abandoned that day: its withered trees.
        public var abandoned: Int
        /// The day's completed sessions, newest first (empty when only the counts were asked for).
        public var sessions: [FocusSession]
        /// The day's abandoned sessions, newest first (empty when only the counts were asked for).
        public var withered: [FocusSession]

        public init(day: LocalDay, trees: Int, abandoned: Int = 0, sessions: [FocusSession] = [], withered: [FocusSession] = []) {
            self.day = day
            self.trees = trees
            self.abandoned = abandoned
            self.sessions = sessions
            self.withered = withered
        }
    }

    /// The days shown, newest first.
    public var days: [Day]
    /// Pass this as `before` for the next, older window; nil when there is nothing older.
    public var older: LocalDay?

    public init(days: [Day], older: LocalDay?) {
        self.days = days
        self.older = older
    }

    /// How many days a window shows unless asked otherwise: two weeks of planting.
    public static let defaultDays = 14
    /// The most days one window shows.
    public static let dayRange = 1...366
}
