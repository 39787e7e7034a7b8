import Foundation
import GRDB
import GroveCore

/// A row of `social_app`.
struct SocialAppRecord: FetchableRecord, PersistableRecord {
    static let databaseTableName = "social_app"

    /// The app `id` unless it was retired (removed, its history kept).
    static func live(_ db: Database, id: String) throws -> SocialApp? {
        try SocialAppRecord.fetchOne(
            db.cachedStatement(sql: "SELECT * FROM social_app WHERE id = ? AND retired IS NOT 1"), arguments: [id])?.app
    }
    var app: SocialApp

    init(_ app: SocialApp) { self.app = app }

    init(row: Row) throws {
        app = SocialApp(
            id: row["id"], displayName: row["display_name"], urlScheme: row["url_scheme"], iconAssetName: row["icon_asset_name"],
            isEnabled: row["is_enabled"], order: row["sort_order"], webURL: row["web_url"],
            gatedPaths: (row["gated_paths"] as String?).map { $0.split(separator: "\n").map(String.init) } ?? [],
            // A schedule another Grove wrote and this one cannot read blocks nothing (it is shown as none).
            blockSchedule: (row["block_schedule"] as String?).flatMap { try? BlockSchedule(parsing: $0) },
            blockStrict: row["block_strict"] ?? false,
            focusAllowed: (row["focus_allowed"] as String?).map { $0.split(separator: "\n").map(String.init) } ?? [])
    }

    func encode(to c: inout PersistenceContainer) {
        c["id"] = app.id; c["display_name"] = app.displayName; c["url_scheme"] = app.urlScheme; c["icon_asset_name"] = app.iconAssetName
        c["is_enabled"] = app.isEnabled; c["sort_order"] = app.order; c["web_url"] = app.webURL
        c["gated_paths"] = app.gatedPaths.isEmpty ? nil : app.gatedPaths.joined(separator: "\n")
        c["block_schedule"] = app.blockSchedule?.description; c["block_strict"] = app.blockSchedule == nil ? nil : app.blockStrict
        c["focus_allowed"] = app.focusAllowed.isEmpty ? nil : app.focusAllowed.joined(separator: "\n")
    }
}

/// A row of `mindfulness_content`.
struct ContentRecord: FetchableRecord, PersistableRecord {
    static let databaseTableName = "mindfulness_content"
    var content: MindfulnessContent

    init(_ content: MindfulnessContent) { self.content = content }

    init(row: Row) throws {
        let typeRaw: String = row["type"], categoryRaw: String = row["category"]
        guard let type = MindfulnessContent.ContentType(rawValue: typeRaw),
            let category = MindfulnessContent.ContentCategory(rawValue: categoryRaw)
        else {
            throw InvalidField("type", "Stored content has unknown type or category")
        }
        let lastUsed: Int64? = row["last_used"]
        content = MindfulnessContent(
            id: row["id"], type: type, text: row["text"], category: category, author: row["author"],
            length: row["length"], priority: row["priority"], isBundled: row["is_bundled"],
            lastUsed: lastUsed.map(Date.init(groveMillis:)), timesShown: row["times_shown"])
        // `source_url` is the store's to set (a pack's refresh), so `encode` leaves it alone.
        if row.hasColumn("source_url") { content.source = row["source_url"] }
    }

    func encode(to c: inout PersistenceContainer) {
        c["id"] = content.id; c["type"] = content.type.rawValue; c["text"] = content.text; c["category"] = content.category.rawValue
        c["author"] = content.author; c["length"] = content.length; c["priority"] = content.priority; c["is_bundled"] = content.isBundled
        c["last_used"] = content.lastUsed?.groveMillis; c["times_shown"] = content.timesShown
    }
}

/// A row of `gateway_session`.
struct GatewaySessionRecord: FetchableRecord, PersistableRecord {
    static let databaseTableName = "gateway_session"
    var session: GatewaySession

    init(_ session: GatewaySession) { self.session = session }

    init(row: Row) throws {
        let (zoneID, calendar, storedDay) = row.zoneAndDay
        let status: String? = row["completion_status"], outcome: String? = row["action_outcome"], end: Int64? = row["end_timestamp"]
        var s = GatewaySession(
            id: try row.uuid("id"), appId: row["app_id"], contentId: row["content_id"],
            startTimestamp: Date(groveMillis: row["start_timestamp"]), durationSetting: row["duration_setting"],
            completionStatus: status.flatMap(GatewaySession.CompletionType.init(rawValue:)), timeSpent: row["time_spent"],
            actionOutcome: outcome.flatMap(GatewaySession.ActionType.init(rawValue:)), platform: row["platform"],
            calendar: calendar, endTimestamp: end.map(Date.init(groveMillis:)))
        s.emergencyPass = (row["emergency_pass"] as Bool?) == true ? true : nil
        s.witheredTree = (row["withered_tree"] as Bool?) == true ? true : nil
        s.visitSeconds = row["visit_seconds"]
        s.graceVisits = row["grace_visits"]
        if let storedDay { s.localDay = storedDay }
        s.timeZoneIdentifier = zoneID
        session = s
    }

    func encode(to c: inout PersistenceContainer) {
        c["id"] = session.id.uuidString; c["app_id"] = session.appId; c["content_id"] = session.contentId
        c["start_timestamp"] = session.startTimestamp.groveMillis; c["duration_setting"] = session.durationSetting
        c["completion_status"] = session.completionStatus?.rawValue; c["time_spent"] = session.timeSpent
        c["action_outcome"] = session.actionOutcome?.rawValue; c["platform"] = session.platform
        c["time_zone"] = session.timeZoneIdentifier; c["local_day"] = session.localDay.description
        c["end_timestamp"] = session.endTimestamp?.groveMillis
        c["emergency_pass"] = session.emergencyPass == true ? true : nil
        c["withered_tree"] = session.witheredTree == true ? true : nil
        c["visit_seconds"] = session.visitSeconds
        c["grace_visits"] = session.graceVisits
    }
}

/// A row of `gate_change`.
struct GateChangeRecord: FetchableRecord, PersistableRecord {
    static let databaseTableName = "gate_change"
    var change: GateChange

    init(_ change: GateChange) { self.change = change }

    init(row: Row) throws {
        let (zoneID, calendar, storedDay) = row.zoneAndDay
        let kind: String = row["kind"]
        var change = GateChange(
            id: try row.uuid("id"), appId: row["app_id"], kind: GateChange.Kind(rawValue: kind) ?? .gateOff,
            timestamp: Date(groveMillis: row["timestamp"]), calendar: calendar)
        if let storedDay { change.localDay = storedDay }
        change.timeZoneIdentifier = zoneID
        self.change = change
    }

    func encode(to c: inout PersistenceContainer) {
        c["id"] = change.id.uuidString; c["app_id"] = change.appId; c["kind"] = change.kind.rawValue
        c["timestamp"] = change.timestamp.groveMillis; c["time_zone"] = change.timeZoneIdentifier
        c["local_day"] = change.localDay.description
    }
}

/// The single row of `pause_preferences`; `enabledApps` is read from `social_app.is_enabled`.
struct PausePreferencesRecord: FetchableRecord, PersistableRecord {
    static let databaseTableName = "pause_preferences"
    var preferences: PausePreferences

    init(_ preferences: PausePreferences) { self.preferences = preferences }

    init(row: Row) throws {
        let categoriesJSON: String = row["selected_categories"]
        let raw = (try? JSONDecoder().decode([String].self, from: Data(categoriesJSON.utf8))) ?? []
        let trial: Int64? = row["trial_start_date"], sync: Int64? = row["last_content_sync"]
        preferences = PausePreferences(
            timerDuration: row["timer_duration"],
            selectedCategories: Set(raw.compactMap(MindfulnessContent.ContentCategory.init(rawValue:))),
            onboardingCompleted: row["onboarding_completed"], trialStartDate: trial.map(Date.init(groveMillis:)),
            lastContentSync: sync.map(Date.init(groveMillis:)), analyticsOptIn: row["analytics_opt_in"])
    }

    func encode(to c: inout PersistenceContainer) {
        let categories = preferences.selectedCategories.map(\.rawValue).sorted()
        c["id"] = PausePreferences.singletonID; c["timer_duration"] = preferences.timerDuration
        // A JSON array of plain category names: built by hand, so encoding cannot fail.
        c["selected_categories"] = "[" + categories.map { "\"\($0)\"" }.joined(separator: ",") + "]"
        c["onboarding_completed"] = preferences.onboardingCompleted; c["trial_start_date"] = preferences.trialStartDate?.groveMillis
        c["last_content_sync"] = preferences.lastContentSync?.groveMillis; c["analytics_opt_in"] = preferences.analyticsOptIn
    }
}

extension Row {
    /// A pause's or a gate change's `time_zone` and `local_day`: the zone as stored (UTC's calendar
    /// when this system does not know it) and the stored day, which is the truth even when the zone's
    /// rules have changed since.
    var zoneAndDay: (id: String, calendar: ZonedCalendar, day: LocalDay?) {
        let id: String = self["time_zone"]
        let calendar = ZonedCalendar(identifier: id) ?? ZonedCalendar(timeZone: TimeZone(secondsFromGMT: 0) ?? .current)
        return (id, calendar, LocalDay(self["local_day"] as String))
    }
}
