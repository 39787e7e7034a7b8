import Foundation

/// A contribution-graph year: one column per week, one row per weekday, each day's trees as a level
/// 0–4. The CLI draws it in block characters and the web in SVG; both read this one grid.
public struct YearHeatmap: Sendable, Equatable {
    /// One day of the grid.
    public struct Cell: Sendable, Equatable {
        public var day: LocalDay
        /// Column (0 = the first week shown) and row (0 = the week's first day).
        public var week: Int
        public var row: Int
        public var trees: Int
        /// 0 (none) … 4 (four trees or more).
        public var level: Int { min(4, trees) }
    }

    /// The first and last day shown; the first is the start of its week.
    public var start: LocalDay
    public var end: LocalDay
    /// The week's first day (Sunday = 0), which row 0 shows.
    public var firstWeekday: Int
    /// Every day from `start` through `end`, week by week.
    public var cells: [Cell]
    /// How many week columns there are.
    public var weeks: Int { start.days(to: end) / 7 + 1 }

    /// The year up to `today`: from the start of the week 364 days back.
    public init(totals: [DailyFocusTotals], today: LocalDay, firstWeekday: Int) {
        let start = Self.start(today: today, firstWeekday: firstWeekday)
        let trees = Dictionary(totals.map { ($0.day, $0.trees) }, uniquingKeysWith: +)
        var cells: [Cell] = []
        var day = start
        while day <= today {
            let offset = start.days(to: day)
            cells.append(Cell(day: day, week: offset / 7, row: offset % 7, trees: trees[day] ?? 0))
            day = day.adding(days: 1)
        }
        self.start = start
        self.end = today
        self.firstWeekday = firstWeekday
        self.cells = cells
    }

    /// A month's name above the week column in which it begins.
    public struct MonthLabel: Sendable, Equatable {
        public var week: Int
        public var name: String
    }

    /// The months along the top, as both faces print them: each above the column holding its 1st
    /// ("Dec", "Jan"…); the first column's month too when three weeks or more are left before the next
    /// label, so that two never overlap.
    public var monthLabels: [MonthLabel] {
        var labels: [MonthLabel] = []
        for week in 0..<weeks {
            // A column ending on the 1st–7th of a month holds that month's 1st.
            let last = start.adding(days: 7 * week + 6)
            if last.day <= 7 { labels.append(MonthLabel(week: week, name: LocalDay.shortMonthName(last.month))) }
        }
        if labels.first?.week != 0, (labels.first?.week ?? weeks) >= 3 {
            labels.insert(MonthLabel(week: 0, name: LocalDay.shortMonthName(start.month)), at: 0)
        }
        return labels
    }

    /// The first day a `YearHeatmap` for `today` shows (read its totals from here on).
    public static func start(today: LocalDay, firstWeekday: Int) -> LocalDay {
        today.adding(days: -364).startOfWeek(firstWeekday: firstWeekday)
    }
}
