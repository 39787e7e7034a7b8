import ArgumentParser
import GroveCore

/// `--tag NAME` (repeatable, or comma-separated): what a session is for.
struct TagOptions: ParsableArguments {
    @Option(
        name: .long, help: ArgumentHelp("What the session is for (repeatable, or comma-separated: --tag essay,reading).", valueName: "tag"),
        completion: Completions.tags)
    var tag: [String] = []

    /// The tags in stored form, or the rule one breaks (exit 64).
    func tags() throws -> [String] {
        // "essay," is a list with one tag; a lone "" is an empty tag, said as such.
        try FocusTags.normalized(tag.flatMap { raw in raw.contains(",") ? raw.split(separator: ",").map(String.init) : [raw] })
    }
}

/// `--tag NAME` on a read: one tag's sessions only.
struct TagFilter: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Only the sessions with this tag.", valueName: "tag"), completion: Completions.tags) var tag:
        String?

    /// The tag, trimmed and checked by the tag rules; nil for all sessions.
    func checked() throws -> String? { try tag.map(FocusTags.filter) }
}
