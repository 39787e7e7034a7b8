import Foundation

/// A window of the forest: some days with trees, newest first, each with its trees, and where older
/// days continue. Drawn from per-day totals, so a window costs the days it shows, not the history.
public struct ForestWindow: Sendable, Encodable, Equatable {
    /// One day of the forest.
    public struct Day: Sendable, Encodable, Equatable {
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

        /// The day's trees not drawn: a day draws its `treesDrawnPerDay` newest (a day of a thousand
        /// imported sessions would otherwise cost a thousand rows and a thousand glyphs); 0 when only
        /// the counts were asked for.
        public var notDrawn: Int {
            sessions.isEmpty && withered.isEmpty ? 0 : max(0, trees + abandoned - sessions.count - withered.count)
        }

        public init(day: LocalDay, trees: Int, abandoned: Int = 0, sessions: [FocusSession] = [], withered: [FocusSession] = []) {
            self.day = day
            self.trees = trees
            self.abandoned = abandoned
            self.sessions = sessions
            self.withered = withered
        }

        private enum CodingKeys: String, CodingKey { case day, trees, abandoned, sessions, withered, notDrawn }

        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(day, forKey: .day)
            try c.encode(trees, forKey: .trees)
            try c.encode(abandoned, forKey: .abandoned)
            try c.encode(sessions, forKey: .sessions)
            try c.encode(withered, forKey: .withered)
            try c.encode(notDrawn, forKey: .notDrawn)
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
    /// The most trees (completed and withered) a day of a window draws, newest first: more than any day
    /// of real sessions holds (144 ten-minute trees fill a day), so a window costs at most its days
    /// times this, whatever the history.
    public static let treesDrawnPerDay = 150
}
