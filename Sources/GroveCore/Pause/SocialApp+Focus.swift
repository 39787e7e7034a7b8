import Foundation

/// The allowlist while a tree grows (issue 40): apps that never wither it, for every session or for
/// sessions with some tags. Forest keeps one; Grove keeps it on each gated app, so that one rule, in
/// the core, answers every face and the extension.
extension SocialApp {
    /// `focusAllowed`'s entry for "every focus session".
    public static let everySession = "*"

    /// Whether this app opens through its gate during a session with `tags` without withering the tree.
    public func isAllowed(duringSessionTagged tags: [String]) -> Bool {
        if focusAllowed.contains(Self.everySession) { return true }
        let allowed = Set(focusAllowed.map(FocusTags.folded))
        return tags.contains { allowed.contains(FocusTags.folded($0)) }
    }

    /// The stored form of an allowlist: `[everySession]` when `always`, else the tags as a session
    /// keeps them (trimmed, each once whatever its case, sorted, at most ten); refused naming `tags`.
    public static func focusAllowed(always: Bool, tags: [String]) throws -> [String] {
        always ? [everySession] : try FocusTags.normalized(tags)
    }

    /// Throws unless `entries` is an allowlist as `focusAllowed(always:tags:)` makes one.
    static func validateFocusAllowed(_ entries: [String]) throws(PauseValidationError) {
        if entries == [everySession] || entries.isEmpty { return }
        guard (try? FocusTags.normalized(entries)) == entries else {
            throw .inconsistentRecord(field: "focusAllowed", rule: "focusAllowed is * or up to ten focus tags, each once, sorted")
        }
    }
}
