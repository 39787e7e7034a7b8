import ArgumentParser
import GroveCore

// Grove's vocabularies typed straight into options: ArgumentParser refuses anything else with the
// choices listed (exit 64), and completions offer them.

extension Weekday: ExpressibleByArgument {
    /// `mon`, `Monday`, `0`–`6` (Sunday = 0), in any case.
    public init?(argument: String) {
        guard let day = try? Weekday(parsing: argument, field: "day") else { return nil }
        self = day
    }

    /// `sun`, `mon`, …
    public static var allValueStrings: [String] { allCases.map { $0.shortName.lowercased() } }
}

extension MindfulnessContent.ContentCategory: ExpressibleByArgument {
    /// A category in any case.
    public init?(argument: String) {
        guard let category = try? Self(validating: argument) else { return nil }
        self = category
    }
}

extension MindfulnessContent.ContentType: ExpressibleByArgument {
    /// `quote`, `excerpt` or `prompt`, in any case.
    public init?(argument: String) {
        guard let type = try? Self(validating: argument) else { return nil }
        self = type
    }
}
