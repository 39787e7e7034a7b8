import Foundation

/// One person, one account: user names are compared in one canonical form, so that `ada`, `ADA`,
/// `Adá` and a full-width `ａｄａ` name one account (and one throttle count), not four. The form is
/// Unicode compatibility-normalised, then folded for case, width and diacritics, then composed; new
/// accounts are stored under it, and logins and commands look it up.
public enum SyncUserName {
    /// The canonical form of `name` (see the type's comment).
    public static func canonical(_ name: String) -> String {
        name.precomposedStringWithCompatibilityMapping
            .folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
            .lowercased()
            .precomposedStringWithCanonicalMapping
    }

    /// Accounts made before names were canonical, renamed to their canonical form — all but one of
    /// each set whose forms collide (the oldest, by id, keeps its name; the others stay reachable
    /// under their exact names). `users` are (id, name); returns the (id, new name) to write.
    static func renames(_ users: [(id: Int64, name: String)]) -> [(id: Int64, name: String)] {
        var taken = Set(users.map(\.name))
        var renames: [(id: Int64, name: String)] = []
        for user in users.sorted(by: { $0.id < $1.id }) {
            let key = canonical(user.name)
            guard key != user.name, !taken.contains(key) else { continue }
            taken.insert(key)
            renames.append((user.id, key))
        }
        return renames
    }
}
