import Foundation

/// The built-in assistant: deterministic, offline, instant.
public struct OfflineAssistant: IntentionAssistant {
    public init() {}

    /// Minimum contrast for generated themes (WCAG 2 AA, normal text).
    public static let minimumContrast = 4.5

    public func rephrase(_ text: String, scope: IntentionScope) async throws -> String {
        Self.rephrased(text, scope: scope)
    }

    /// Rewords an intention with a scope-fitting frame; the same input always gives the same output.
    public static func rephrased(_ text: String, scope: IntentionScope) -> String {
        var core = text.trimmingCharacters(in: .whitespacesAndNewlines)
        while let last = core.last, ".!?".contains(last) { core.removeLast() }
        // Rephrasing a rephrased intention reframes its core instead of nesting frames.
        for frame in IntentionScope.allCases.flatMap(frames(for:)) {
            let prefix = String(frame.prefix { $0 != "%" })
            if core.hasPrefix(prefix) { core = String(core.dropFirst(prefix.count)); break }
        }
        // Drop time words the frame will supply, and a leading "I will"/"I want to"-style subject.
        for phrase in ["today", "this week", "this month", "tonight"] {
            core = core.replacingOccurrences(of: " " + phrase, with: "", options: [.caseInsensitive])
            if core.lowercased().hasPrefix(phrase + " ") { core = String(core.dropFirst(phrase.count + 1)) }
            if core.lowercased().hasPrefix(phrase + ", ") { core = String(core.dropFirst(phrase.count + 2)) }
        }
        for prefix in ["i will ", "i want to ", "i'd like to ", "i would like to ", "i am going to ", "i'm going to ", "i shall ", "to "] {
            if core.lowercased().hasPrefix(prefix) { core = String(core.dropFirst(prefix.count)); break }
        }
        core = core.trimmingCharacters(in: .whitespaces)
        guard let first = core.first else { return text }
        // Lower-case the first letter unless it starts an acronym or the pronoun "I".
        let second = core.dropFirst().first
        if !(second?.isUppercase ?? false) && !(first == "I" && (second == " " || second == "'")) {
            core = first.lowercased() + core.dropFirst()
        }
        let frames = frames(for: scope)
        let frame = frames[Int(stableHash(text) % UInt64(frames.count))]
        return frame.replacingOccurrences(of: "%@", with: core)
    }

    /// Frames that read well whether the intention is a verb phrase ("finish the report") or a noun
    /// phrase ("one page before lunch").
    static func frames(for scope: IntentionScope) -> [String] {
        switch scope {
        case .day:
            [
                "Today, I give my attention to this: %@.", "My one thing for today: %@.",
                "Today I will return, again and again, to this: %@.",
            ]
        case .week: ["This week, I commit to this: %@.", "All week, I come back to this: %@.", "My intention for the week: %@."]
        case .month: ["This month, I am growing toward this: %@.", "All month, I keep this close: %@.", "My intention for the month: %@."]
        }
    }

    public func quote(for text: String, from library: [MindfulnessContent]) async throws -> String? {
        Self.bestQuote(for: text, from: library)
    }

    /// The quote sharing the most words with `text` (ties broken by a stable hash of the pair).
    public static func bestQuote(for text: String, from library: [MindfulnessContent]) -> String? {
        let words = Self.words(text)
        let quotes = library.filter { $0.type == .quote }
        let best = quotes.max { a, b in
            let sa = Self.words(a.text).intersection(words).count, sb = Self.words(b.text).intersection(words).count
            if sa != sb { return sa < sb }
            return stableHash(text + a.id) < stableHash(text + b.id)
        }
        return best.map { q in q.author.map { "\(q.text) — \($0)" } ?? q.text }
    }

    static func words(_ text: String) -> Set<String> {
        let stop: Set<String> = [
            "the", "a", "an", "and", "or", "to", "of", "in", "on", "is", "it", "i", "my", "be", "for", "with", "that", "this", "will",
        ]
        return Set(text.lowercased().split { !$0.isLetter }.map(String.init).filter { $0.count > 2 && !stop.contains($0) })
    }

    public func generateTheme(prompt: String, id: UUID, createdAt: Date) async throws -> IntentionTheme {
        Self.theme(for: prompt, id: id, createdAt: createdAt)
    }

    /// Colour words: named, they decide the hue.
    static let colourHues: [String: Double] = [
        "red": 0, "crimson": 350, "scarlet": 5, "orange": 28, "amber": 40, "gold": 45, "golden": 45, "yellow": 52, "lime": 80,
        "green": 120, "emerald": 140, "mint": 155, "teal": 175, "turquoise": 172, "cyan": 185, "blue": 215, "azure": 205, "navy": 228,
        "indigo": 250, "violet": 270, "purple": 280, "lavender": 265, "magenta": 310, "pink": 330, "rose": 345, "brown": 25,
    ]
    /// Mood and scene words: the hue they call up when no colour is named.
    static let moodHues: [String: Double] = [
        "ocean": 205, "sea": 200, "sky": 205, "ice": 195, "winter": 200, "calm": 190, "rain": 210, "forest": 130, "nature": 110,
        "leaf": 110, "spring": 90, "sun": 40, "sunny": 40, "summer": 38, "sand": 40, "desert": 35, "autumn": 25, "earth": 30,
        "warm": 20, "fire": 10, "flame": 12, "volcano": 8, "lava": 8, "angry": 0, "anger": 0, "rage": 0, "energy": 15,
        "love": 340, "heart": 345, "dream": 270, "magic": 285, "focus": 220, "study": 220, "night": 235, "midnight": 235,
    ]
    /// Words that ask for a dark background (and light text), and for a light one.
    static let darkWords: Set<String> = ["night", "midnight", "dark", "deep", "shadow", "moody", "volcano", "lava", "storm"]
    static let lightWords: Set<String> = ["light", "bright", "pale", "morning", "soft", "pastel", "day", "airy"]

    /// A palette derived from `prompt`: the hue of the first colour word it names, else of its first
    /// mood word, else a hash of it; dark or light as its words ask; the text colour chosen and the
    /// background adjusted until the WCAG contrast is at least 4.5:1. ("angry red volcano at night":
    /// a deep red with white text.)
    public static func theme(for prompt: String, id: UUID, createdAt: Date) -> IntentionTheme {
        let lower = prompt.lowercased()
        let tokens = lower.split { !$0.isLetter }.map(String.init)
        let hash = stableHash(lower)
        let hue = tokens.lazy.compactMap { colourHues[$0] }.first ?? tokens.lazy.compactMap { moodHues[$0] }.first ?? Double(hash % 360)
        let darkAsked = tokens.firstIndex { darkWords.contains($0) }, lightAsked = tokens.firstIndex { lightWords.contains($0) }
        let dark: Bool =
            switch (darkAsked, lightAsked) {
            case let (d?, l?): d > l  // the later word wins: "light by day, dark at night" → dark
            case (_?, nil): true
            case (nil, _?): false
            default: (hash >> 9) % 2 == 0
            }
        var lightness = dark ? 0.28 : 0.9
        let saturation = 0.45 + Double((hash >> 17) % 30) / 100
        var background = hsl(hue, saturation, lightness)
        let text = dark ? "#FFFFFF" : "#1A1A1A"
        while (HexColor.contrastRatio(text, background) ?? 1) < minimumContrast {
            lightness += dark ? -0.03 : 0.02
            background = hsl(hue, saturation, min(1, max(0, lightness)))
        }
        let accent = hsl((hue + 150).truncatingRemainder(dividingBy: 360), 0.7, dark ? 0.7 : 0.35)
        let name = prompt.trimmingCharacters(in: .whitespacesAndNewlines)
        return IntentionTheme(
            id: id, name: name.isEmpty ? "Generated" : String(name.prefix(40)), backgroundColor: background,
            textColor: text, accentColor: accent, isPreset: false, isAIGenerated: true, createdAt: createdAt)
    }

    /// HSL (hue in degrees, s and l 0…1) to `#RRGGBB`.
    static func hsl(_ h: Double, _ s: Double, _ l: Double) -> String {
        let c = (1 - abs(2 * l - 1)) * s
        let x = c * (1 - abs((h / 60).truncatingRemainder(dividingBy: 2) - 1))
        let m = l - c / 2
        let (r, g, b): (Double, Double, Double) =
            switch h {
            case ..<60: (c, x, 0)
            case ..<120: (x, c, 0)
            case ..<180: (0, c, x)
            case ..<240: (0, x, c)
            case ..<300: (x, 0, c)
            default: (c, 0, x)
            }
        return HexColor.string(r: Int(((r + m) * 255).rounded()), g: Int(((g + m) * 255).rounded()), b: Int(((b + m) * 255).rounded()))
    }
}
