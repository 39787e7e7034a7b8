import Foundation

/// The rules a synced value obeys (SYNC.md "The server checks values by the core's rules"), said once
/// for every field of every entity from the same constants the rooms validate with — so that the
/// server refuses what every device's store would refuse, instead of storing it to be parked on every
/// device forever. Type checks come first (`SyncMutation.state(of:)`); these say what a value may be.
public enum SyncValueRules {
    /// One field's rule: nil when the value is fine, else the message.
    typealias Rule = @Sendable (SyncValue) -> String?

    /// Checks each value a put carries.
    public static func checkFields(_ entity: SyncEntity, _ fields: SyncFields) throws(InvalidField) {
        for (wire, value) in fields where value != .null {
            if let rule = rules[entity.name]?[wire], let message = rule(value) {
                throw InvalidField("fields.\(wire)", "\(wire): \(message)")
            }
        }
    }

    /// Checks the rules that tie the fields of a whole, live row together.
    public static func checkRow(_ entity: SyncEntity, _ state: SyncState) throws(InvalidField) {
        guard state.isComplete(entity), !state.isDeleted(entity) else { return }
        if let (field, message) = rowRule(entity, state.fields) { throw InvalidField("fields.\(field)", message) }
    }

    // MARK: Building blocks

    static func int(_ range: ClosedRange<Int>) -> Rule { int(Int64(range.lowerBound)...Int64(range.upperBound)) }

    static func int(_ range: ClosedRange<Int64>) -> Rule {
        { value in value.int.map { range.contains($0) } == true ? nil : "must be between \(range.lowerBound) and \(range.upperBound)" }
    }

    static func text(_ lengths: ClosedRange<Int>, blankAllowed: Bool = false) -> Rule {
        { value in
            guard let text = value.text else { return "must be text" }
            if !lengths.contains(text.count) { return "has \(lengths.lowerBound) to \(lengths.upperBound) characters" }
            if !blankAllowed, text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { return "cannot be empty" }
            if text.unicodeScalars.contains(where: { $0.value == 0 }) { return "cannot contain a NUL character" }
            return nil
        }
    }

    static func oneOf(_ values: [String]) -> Rule {
        { value in value.text.map(values.contains) == true ? nil : "is one of \(values.joined(separator: ", "))" }
    }

    static func matching(_ description: String, _ test: @escaping @Sendable (String) -> Bool) -> Rule {
        { value in value.text.map(test) == true ? nil : "must be \(description)" }
    }

    /// An instant in milliseconds, 1970 to the end of 9999.
    static let instant = int(0...253_402_300_799_999)
    static let day = matching("a day (YYYY-MM-DD)") { LocalDay($0) != nil }
    static let time = matching("a time of day (HH:MM)") { TimeOfDay($0) != nil }
    static let zone = matching("an IANA time zone") { TimeZone(identifier: $0) != nil }
    static let color = matching("a colour #RRGGBB") { HexColor.isValid($0) }
    static let font = matching("a font stack or a family name of at most \(FontStack.maximumNameLength) letters") {
        FontStack.isStorable($0)
    }
    static let webURL = matching("an http(s) address of at most \(SocialApp.maxURLLength) characters") { SocialApp.isValidWebURL($0) }
    static let id = text(1...128)
    static let categories = MindfulnessContent.ContentCategory.allCases.map(\.rawValue)

    // MARK: The rules

    static let rules: [String: [String: Rule]] = [
        "theme": [
            "name": text(1...IntentionTheme.maxNameLength), "backgroundColor": color, "textColor": color, "accentColor": color,
            "fontName": font, "createdAt": instant,
        ],
        "content": [
            "type": oneOf(MindfulnessContent.ContentType.allCases.map(\.rawValue)),
            "text": text(MindfulnessContent.textLengthRange), "category": oneOf(categories),
            "author": text(0...MindfulnessContent.maxAuthorLength, blankAllowed: true),
            "length": int(
                Int64(MindfulnessContent.readingLengthRange.lowerBound)...Int64(MindfulnessContent.readingLengthRange.upperBound)),
            "priority": int(Int64(MindfulnessContent.priorityRange.lowerBound)...Int64(MindfulnessContent.priorityRange.upperBound)),
            "sourceUrl": matching("an http(s) address of at most \(ContentSource.maxURLLength) characters") {
                ($0.hasPrefix("https://") || $0.hasPrefix("http://")) && $0.utf8.count <= ContentSource.maxURLLength
            },
        ],
        "app": [
            "displayName": text(1...SocialApp.maxNameLength),
            "urlScheme": matching("a scheme such as youtube://") { SocialApp.isValidScheme($0) },
            "iconAssetName": text(0...SocialApp.maxNameLength, blankAllowed: true), "sortOrder": int(0...Int64(Int32.max)),
            "webUrl": webURL,
            "gatedPaths": matching("paths such as /shorts, one per line, at most \(SocialApp.maxGatedPaths)") { text in
                let paths = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
                return paths.count <= SocialApp.maxGatedPaths && Set(paths).count == paths.count
                    && paths.allSatisfy { SocialApp.normalizedPath($0) == $0 }
            },
            "blockSchedule": matching("a schedule such as mon-fri 09:00-12:00, as Grove writes it") { text in
                (try? BlockSchedule(parsing: text))?.description == text
            },
            "focusAllowed": matching("* or focus tags, one per line, as Grove keeps them") { text in
                let entries = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
                return entries == [SocialApp.everySession] || (try? FocusTags.normalized(entries)) == entries
            },
        ],
        "timer": [
            "name": text(1...100), "durationInSeconds": int(1...Int64(NamedTimer.maxDuration)), "icon": text(1...100), "colorHex": color,
            "notes": text(0...2000, blankAllowed: true), "createdAt": instant, "updatedAt": instant,
        ],
        "todo": [
            "timerId": id, "text": text(1...500), "orderKey": matching("an order key") { OrderKey.isValid($0) },
            "createdAt": instant, "updatedAt": instant,
        ],
        "intention": [
            "scope": oneOf(IntentionScope.allCases.map(\.rawValue)), "date": day, "text": text(1...Intention.maxTextLength),
            "createdAt": instant, "updatedAt": instant, "themeId": id, "customFont": font, "quote": text(0...2000, blankAllowed: true),
        ],
        "userPreferences": [
            "defaultThemeId": id, "defaultFont": font, "dailyTime": time, "weeklyTime": time, "monthlyTime": time,
            "weeklyDay": int(NotificationSettings.weekdays), "monthlyDay": int(NotificationSettings.monthDays), "timeZone": zone,
            "firstWeekday": int(NotificationSettings.weekdays),
        ],
        "focusPreferences": [
            "focusMs": int(1000...14_400_000), "shortBreakMs": int(1000...3_600_000), "longBreakMs": int(1000...7_200_000),
            "longBreakInterval": int(1...12),
        ],
        "pausePreferences": [
            "timerDuration": int(Int64(GatewaySession.durationRange.lowerBound)...Int64(GatewaySession.durationRange.upperBound)),
            "selectedCategories": matching("a JSON list of content categories") { text in
                guard let list = try? JSONDecoder().decode([String].self, from: Data(text.utf8)) else { return false }
                return list.allSatisfy(categories.contains)
            },
            "trialStartDate": instant,
        ],
        "focusSession": [
            "startTime": instant, "endTime": instant, "state": oneOf(["active", "paused", "completed", "abandoned"]),
            "durationMs": int(0...14_400_000), "pausedMs": int(0...Int64(FocusSession.maxPausedDuration * 1000)),
            "plannedMs": int(1000...14_400_000), "pausedAt": instant, "createdAt": instant, "timeZone": zone, "endDay": day,
            "tags": matching("a JSON list of 1 to \(FocusTags.maxCount) tags") { text in
                guard let tags = try? JSONDecoder().decode([String].self, from: Data(text.utf8)) else { return false }
                return (try? FocusTags.validateStored(tags)) != nil && !tags.isEmpty
            },
        ],
        "gatewaySession": [
            "appId": id, "contentId": id, "startTimestamp": instant,
            "durationSetting": int(Int64(GatewaySession.durationRange.lowerBound)...Int64(GatewaySession.durationRange.upperBound)),
            "completionStatus": oneOf(["completed", "exited", "force_quit", "timeout"]), "timeSpent": int(0...50),
            "actionOutcome": oneOf(["proceed_to_app", "exit_to_home", "deepen_pause"]), "timeZone": zone, "localDay": day,
            "endTimestamp": instant, "visitSeconds": int(0...Int64(GatewaySession.maxVisitSeconds)),
            "graceVisits": int(0...Int64(GatewaySession.maxGraceVisits)),
        ],
        "accountRestore": [
            "asOf": instant, "appliedAt": instant, "deviceName": text(1...100), "rowsChanged": int(0...Int64(Int32.max)),
        ],
        "gateChange": [
            "appId": id, "kind": oneOf(GateChange.Kind.allCases.map(\.rawValue)), "timestamp": instant, "timeZone": zone, "localDay": day,
        ],
    ]

    /// Rules between fields of a whole row (the CHECKs every device's table has).
    static func rowRule(_ entity: SyncEntity, _ fields: SyncFields) -> (String, String)? {
        switch entity.name {
        case "focusSession":
            let state = fields["state"]?.text ?? ""
            let terminal = state == "completed" || state == "abandoned"
            if (fields["durationMs"]?.int ?? 0) > (fields["plannedMs"]?.int ?? 0) {
                return ("durationMs", "Focus time must be between 0 and the session length")
            }
            if terminal != (fields["endTime"]?.int != nil && fields["endDay"]?.text != nil) {
                return ("endTime", "A session has endTime and endDay exactly when it is completed or abandoned")
            }
            if (state == "paused") != (fields["pausedAt"]?.int != nil) {
                return ("pausedAt", "pausedAt is set exactly when a session is paused")
            }
            if let end = fields["endTime"]?.int, let start = fields["startTime"]?.int, end < start {
                return ("endTime", "A session must end after it starts")
            }
        case "theme":
            if let text = fields["textColor"]?.text, let background = fields["backgroundColor"]?.text,
                let ratio = HexColor.contrastRatio(text, background), ratio < IntentionTheme.absoluteContrast
            {
                return ("textColor", IntentionValidationError.unreadableTheme(ratio: ratio, overridable: false).message)
            }
        case "gatewaySession":
            if let spent = fields["timeSpent"]?.int, let setting = fields["durationSetting"]?.int, spent > setting + 5 {
                return ("timeSpent", "timeSpent is at most the pause's length and 5 s")
            }
        default: break
        }
        return nil
    }
}
