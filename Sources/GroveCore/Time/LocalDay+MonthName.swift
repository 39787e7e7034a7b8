import Foundation

extension LocalDay {
    private static let monthNames = [
        "January", "February", "March", "April", "May", "June", "July", "August", "September",
        "October", "November", "December",
    ]

    /// "November" for 11 (the number itself outside 1…12): every face's month in words.
    public static func monthName(_ month: Int) -> String {
        monthNames.indices.contains(month - 1) ? monthNames[month - 1] : "\(month)"
    }

    /// "Nov" for 11: a card's or a heatmap's month.
    public static func shortMonthName(_ month: Int) -> String {
        monthNames.indices.contains(month - 1) ? String(monthNames[month - 1].prefix(3)) : "\(month)"
    }
}
