import Foundation
import GRDB
import GroveCore

/// A set is a choice even when the value does not change (SYNC.md "A set is recorded even when the
/// value does not change"): the capture triggers see only changed values, so the operations that set
/// a field mark it here, and it gets the transaction's clock like any change.
enum SyncChoice {
    /// Marks the groups holding `fields` (wire names) of one row as chosen in this transaction. Does
    /// nothing in a store that does not sync (there is no clock to give).
    static func record(_ db: Database, _ entity: SyncEntity, id: String, fields: some Sequence<String>) throws {
        let bits = fields.compactMap(entity.groupIndex(ofField:)).reduce(0) { $0 | (1 << $1) }
        guard bits != 0, try db.cachedExists("SELECT 1 FROM sync_state") else { return }
        try db.cachedExecute(
            """
            INSERT INTO sync_outbox (entity, entity_id, dirty, fresh) VALUES (?, ?, ?, ?)
            ON CONFLICT (entity, entity_id) WHERE mutation_id IS NULL DO UPDATE SET dirty = dirty | excluded.dirty, fresh = fresh | excluded.fresh
            """, [entity.name, entity.singleton ?? id, bits, bits])
    }

    /// The fields `change` assigns, whatever they held: it runs once more on `probe`, a copy in which
    /// every field differs from the stored value, and each field it then alters is one it assigns. (A
    /// field it leaves alone keeps the probe's value; one it sets to the stored value moves off it.)
    /// A change that refuses the probe assigns nothing this way: what it altered is captured anyway.
    static func assigned<Value>(
        by change: (inout Value) throws -> Void, probe: Value, fields: [(wire: String, differs: @Sendable (Value, Value) -> Bool)]
    ) -> [String] {
        var after = probe
        guard (try? change(&after)) != nil else { return [] }
        return fields.filter { $0.differs(probe, after) }.map(\.wire)
    }
}

extension FocusPreferences {
    /// A copy whose every synced field differs (see `SyncChoice.assigned`).
    var syncProbe: FocusPreferences {
        var probe = self
        probe.focusDuration += 1
        probe.shortBreakDuration += 1
        probe.longBreakDuration += 1
        probe.longBreakInterval += 1
        return probe
    }

    static let syncFields: [(wire: String, differs: @Sendable (FocusPreferences, FocusPreferences) -> Bool)] = [
        ("focusMs", { $0.focusDuration != $1.focusDuration }), ("shortBreakMs", { $0.shortBreakDuration != $1.shortBreakDuration }),
        ("longBreakMs", { $0.longBreakDuration != $1.longBreakDuration }),
        ("longBreakInterval", { $0.longBreakInterval != $1.longBreakInterval }),
    ]
}

extension PausePreferences {
    var syncProbe: PausePreferences {
        var probe = self
        probe.timerDuration += 1
        probe.selectedCategories = Set(MindfulnessContent.ContentCategory.allCases).subtracting(selectedCategories)
        probe.onboardingCompleted.toggle()
        probe.trialStartDate = trialStartDate == nil ? Date(timeIntervalSince1970: 0) : nil
        probe.analyticsOptIn.toggle()
        return probe
    }

    static let syncFields: [(wire: String, differs: @Sendable (PausePreferences, PausePreferences) -> Bool)] = [
        ("timerDuration", { $0.timerDuration != $1.timerDuration }),
        ("selectedCategories", { $0.selectedCategories != $1.selectedCategories }),
        ("onboardingCompleted", { $0.onboardingCompleted != $1.onboardingCompleted }),
        ("trialStartDate", { $0.trialStartDate != $1.trialStartDate }),
        ("analyticsOptIn", { $0.analyticsOptIn != $1.analyticsOptIn }),
    ]
}

extension UserPreferences {
    var syncProbe: UserPreferences {
        var probe = self
        probe.onboardingCompleted.toggle()
        probe.defaultThemeId = defaultThemeId == nil ? UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1)) : nil
        probe.defaultFont = defaultFont == nil ? "probe" : nil
        probe.timeZoneIdentifier = timeZoneIdentifier == nil ? "UTC" : nil
        probe.firstWeekday = firstWeekday % 7 + 1
        let shift = { (time: TimeOfDay?) in
            time.flatMap { TimeOfDay(hour: ($0.hour + 1) % 24, minute: $0.minute) } ?? TimeOfDay(hour: 0, minute: 0)
        }
        var n = probe.notificationSettings
        n.dailyEnabled.toggle(); n.dailyTime = shift(n.dailyTime)
        n.weeklyEnabled.toggle(); n.weeklyTime = shift(n.weeklyTime); n.weeklyDay = n.weeklyDay % 7 + 1
        n.monthlyEnabled.toggle(); n.monthlyTime = shift(n.monthlyTime); n.monthlyDay = n.monthlyDay % 31 + 1
        probe.notificationSettings = n
        return probe
    }

    static let syncFields: [(wire: String, differs: @Sendable (UserPreferences, UserPreferences) -> Bool)] = [
        ("onboardingCompleted", { $0.onboardingCompleted != $1.onboardingCompleted }),
        ("defaultThemeId", { $0.defaultThemeId != $1.defaultThemeId }),
        ("defaultFont", { $0.defaultFont != $1.defaultFont }), ("timeZone", { $0.timeZoneIdentifier != $1.timeZoneIdentifier }),
        ("firstWeekday", { $0.firstWeekday != $1.firstWeekday }),
        (
            "dailyEnabled",
            {
                ($0.notificationSettings.dailyEnabled, $0.notificationSettings.dailyTime) != (
                    $1.notificationSettings.dailyEnabled, $1.notificationSettings.dailyTime
                )
            }
        ),
        (
            "weeklyEnabled",
            {
                let a = $0.notificationSettings, b = $1.notificationSettings
                return a.weeklyEnabled != b.weeklyEnabled || a.weeklyTime != b.weeklyTime || a.weeklyDay != b.weeklyDay
            }
        ),
        (
            "monthlyEnabled",
            {
                let a = $0.notificationSettings, b = $1.notificationSettings
                return a.monthlyEnabled != b.monthlyEnabled || a.monthlyTime != b.monthlyTime || a.monthlyDay != b.monthlyDay
            }
        ),
    ]
}
