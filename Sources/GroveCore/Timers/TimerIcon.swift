import Foundation

/// The icons a timer can wear: the seed's SF Symbol names, each with the glyph the terminal and the
/// web draw for it (no symbol font on Linux). A name not in the list (synced from an iPhone) still
/// shows, as the plain timer glyph.
public enum TimerIcon {
    public struct Choice: Sendable, Hashable {
        public let name: String
        public let glyph: String
        public let label: String
    }

    public static let choices: [Choice] = [
        Choice(name: "timer", glyph: "⏱", label: "Timer"),
        Choice(name: "figure.run", glyph: "🏃", label: "Running"),
        Choice(name: "book.fill", glyph: "📖", label: "Book"),
        Choice(name: "cup.and.saucer.fill", glyph: "☕", label: "Coffee"),
        Choice(name: "sparkles", glyph: "✨", label: "Sparkles"),
        Choice(name: "leaf.fill", glyph: "🍃", label: "Leaf"),
        Choice(name: "fork.knife", glyph: "🍴", label: "Cooking"),
        Choice(name: "laptopcomputer", glyph: "💻", label: "Laptop"),
        Choice(name: "dumbbell.fill", glyph: "🏋", label: "Weights"),
        Choice(name: "bed.double.fill", glyph: "🛏", label: "Rest"),
    ]

    /// The glyph for an icon name (the timer glyph for one this list does not know).
    public static func glyph(_ name: String) -> String { choices.first { $0.name == name }?.glyph ?? "⏱" }
}
