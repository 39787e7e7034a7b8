import Foundation

/// Picks what the next pause shows: from the enabled categories, by priority and least-recent use.
///
/// It is stride scheduling: each item's "pass" is `timesShown / priority`, and the item with the lowest
/// pass is shown next, ties going to the least recently used (never-shown first), then the higher
/// priority, then the id. Over many pauses each item appears in proportion to its priority, no item
/// starves, and the same item never repeats while an equal one waits.
public enum ContentRotation {
    public static func next(
        from contents: [MindfulnessContent], categories: Set<MindfulnessContent.ContentCategory>
    ) -> MindfulnessContent? {
        var best: MindfulnessContent?
        for item in contents where categories.contains(item.category) {
            guard let current = best else { best = item; continue }
            if precedes(item, current) { best = item }
        }
        return best
    }

    /// What a pause shows: the next item of the chosen categories; when they have nothing left (their
    /// items deleted), the next of the whole library, so that a pause never fails for want of a category.
    /// nil only when the library is empty.
    public static func forPause(
        from contents: [MindfulnessContent], categories: Set<MindfulnessContent.ContentCategory>
    ) -> MindfulnessContent? {
        next(from: contents, categories: categories) ?? next(from: contents, categories: Set(MindfulnessContent.ContentCategory.allCases))
    }

    static func precedes(_ a: MindfulnessContent, _ b: MindfulnessContent) -> Bool {
        // Compare timesShown/priority exactly by cross-multiplying.
        let pa = a.timesShown * b.priority, pb = b.timesShown * a.priority
        if pa != pb { return pa < pb }
        switch (a.lastUsed, b.lastUsed) {
        case (nil, .some): return true
        case (.some, nil): return false
        case (.some(let x), .some(let y)) where x != y: return x < y
        default: break
        }
        if a.priority != b.priority { return a.priority > b.priority }
        return a.id < b.id
    }

    /// Records that `content` was shown at `now`.
    public static func markShown(_ content: inout MindfulnessContent, at now: Date) {
        content.timesShown += 1
        content.lastUsed = now
    }
}
