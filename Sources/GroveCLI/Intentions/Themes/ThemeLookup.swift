import ArgumentParser
import Foundation
import GroveCore
import GroveStore

enum ThemeLookup {
    static func find(_ reference: String, in db: AppDatabase) throws -> IntentionTheme {
        let themes = try db.themes.all()
        if let match = themes.first(where: { $0.name.caseInsensitiveCompare(reference) == .orderedSame }) { return match }
        let prefix = themes.filter { $0.id.uuidString.lowercased().hasPrefix(reference.lowercased()) }
        if reference.count >= 4, prefix.count == 1 { return prefix[0] }
        throw InvalidField("theme", "No theme named \"\(reference)\" (see `grove theme list`)")
    }
}
