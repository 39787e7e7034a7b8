import Foundation

/// The icons a timer can wear: the seed's SF Symbol names, each with a word a person types and reads,
/// and the id of its drawing in Grove's own icon set (`/static/icons.svg`: no emoji or symbol font is
/// needed to see it). A name not in the list (synced from an iPhone) is kept, and shows as the timer.
public enum TimerIcon {
    public struct Choice: Sendable, Hashable {
        /// The stored name (an SF Symbol name, as the seed stores it).
        public let name: String
        /// The word shown and typed (`--icon book`).
        public let label: String
        /// The symbol's id in `icons.svg`.
        public let symbol: String
        /// The label as typed and printed in the terminal (`book`).
        public var word: String { label.lowercased() }
    }

    public static let choices: [Choice] = [
        Choice(name: "timer", label: "Timer", symbol: "icon-timer"),
        Choice(name: "figure.run", label: "Running", symbol: "icon-run"),
        Choice(name: "book.fill", label: "Book", symbol: "icon-book"),
        Choice(name: "cup.and.saucer.fill", label: "Coffee", symbol: "icon-cup"),
        Choice(name: "sparkles", label: "Sparkles", symbol: "icon-sparkles"),
        Choice(name: "leaf.fill", label: "Leaf", symbol: "icon-leaf"),
        Choice(name: "fork.knife", label: "Cooking", symbol: "icon-cooking"),
        Choice(name: "laptopcomputer", label: "Laptop", symbol: "icon-laptop"),
        Choice(name: "dumbbell.fill", label: "Weights", symbol: "icon-weights"),
        Choice(name: "bed.double.fill", label: "Rest", symbol: "icon-rest"),
    ]

    /// The words a person types, in the list's order (`--icon book`; completions and messages list them).
    public static let words = choices.map(\.word)

    /// The choice an icon name stands for (the timer's for one this list does not know).
    public static func choice(_ name: String) -> Choice { choices.first { $0.name == name } ?? choices[0] }

    /// The word the terminal shows for a stored name: its label's (`book`), or the name itself for a
    /// symbol Grove does not draw (`alarm.fill`, kept as given; the web draws the timer's icon for it).
    public static func word(for name: String) -> String { choices.first { $0.name == name }?.word ?? name }

    /// The stored name for what a person typed: a label in any case (`book`), one of the stored names
    /// (`book.fill`), or any other symbol name (the seed's `icon` is any SF Symbol: `alarm.fill` is kept
    /// as given). Only text that is no symbol's name (spaces, punctuation) is refused, with the words.
    public static func name(validating text: String, field: String = "icon") throws -> String {
        let typed = text.trimmingCharacters(in: .whitespaces).lowercased()
        // Empty, too long or with a NUL: the seed's own rule (`NamedTimer.validate`) says so in its words.
        if typed.isEmpty || text.storedLength > 100 || text.containsNUL { return text }
        if let choice = choices.first(where: { $0.word == typed || $0.name == typed }) { return choice.name }
        guard
            text.unicodeScalars.allSatisfy({ $0.isASCII && (CharacterSet.alphanumerics.contains($0) || ".-_".unicodeScalars.contains($0)) })
        else {
            throw InvalidField(
                field,
                "\(field) must be one of \(words.joined(separator: ", ")) or a symbol's name such as alarm.fill (letters, digits, dots; got \(text.quotedForMessage))"
            )
        }
        return text
    }
}
