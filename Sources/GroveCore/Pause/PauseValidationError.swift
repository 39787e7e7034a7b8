/// Why a Pause-room value was refused (seed 003's validation rules).
public enum PauseValidationError: GroveValidationError, Equatable {
    /// An app id that is not lowercase alphanumeric with hyphens.
    case invalidAppID(String)
    /// An app with no display name.
    case emptyDisplayName
    /// A URL scheme without "://" or with an invalid scheme name.
    case invalidURLScheme(String)
    /// A web URL that is not an absolute http(s) URL.
    case invalidWebURL(String)
    /// A negative display order.
    case invalidOrder
    /// Text over its field's limit (an app's name, icon, scheme or web URL; content's author).
    case textTooLong(field: String, limit: Int, length: Int)
    /// A content id that is empty or has characters outside letters, digits, "-", "_" and ".".
    case invalidContentID(String)
    /// Content text shorter than 50 or longer than 750 characters.
    case contentTextLength(Int)
    /// Reading length outside 10…60 seconds.
    case contentReadingLength(Int)
    /// Priority outside 1…10.
    case contentPriority(Int)
    /// Pause length outside 15…45 seconds.
    case durationSetting(Int)
    /// The preferences' pause length (`timerDuration`) outside 15-45 seconds.
    case timerDuration(Int)
    /// Time spent exceeds the pause length plus the 5 s grace period.
    case timeSpentTooLong(timeSpent: Int, limit: Int)
    /// Negative time spent.
    case negativeTimeSpent
    /// The session names an app that does not exist.
    case unknownApp(String)
    /// The session names content that does not exist.
    case unknownContent(String)
    /// More than 10 apps enabled at once.
    case tooManyEnabledApps(Int)
    /// No content category enabled.
    case noCategories
    /// Every content item was deleted: a pause has nothing to show.
    case noContent
    /// The gateway session was already finished.
    case sessionAlreadyFinished
    /// A pause asked for in front of an app whose gate is switched off.
    case appNotGated(String)
    /// A pause asked for while a tree grows: the app waits behind it, as in Forest (the app's name).
    case treeGrowing(String)
    /// A finished session needs a status and an outcome that agree.
    case outcomeMismatch(String)
    /// Text with a NUL character.
    case nulCharacter(field: String)
    /// A content source that is not an absolute http(s) URL with a host (no credentials, no fragment).
    case invalidContentSource(String)
    /// A content source added twice.
    case duplicateContentSource(String)
    /// No content source with this URL.
    case unknownContentSource(String)
    /// A gated path that is not one, or one too many (`rule` says which).
    case invalidGatedPath(path: String, rule: String)
    /// A block schedule that cannot be read (`rule` says why).
    case invalidBlockSchedule(String, rule: String)
    /// A gated app asked for during its scheduled block (the app's name, and when the block ends, as
    /// the person's clock reads it).
    case blocked(String, until: String)
    /// The week's emergency pass was used already (when the next one comes).
    case emergencyPassUsed(next: String)
    /// A strict block in force: its schedule, its app's gate and the app itself stay until it ends.
    case strictBlock(String, until: String)
    /// A visit report for a pause that did not end with Proceed: there was no visit to measure.
    case notProceeded
    /// A visit report outside its bounds (`field` is `seconds` or `graceVisits`; `rule` says which bound).
    case invalidVisit(field: String, rule: String)
    /// A stored record (imported, synced) whose own fields disagree or break a rule: a pause's zone, local day and end, a counter below zero.
    case inconsistentRecord(field: String, rule: String)

    public var field: String {
        switch self {
        case .invalidAppID, .unknownApp, .appNotGated, .treeGrowing, .blocked, .strictBlock: "appId"
        case .invalidBlockSchedule: "block"
        case .emergencyPassUsed: "emergency"
        case .emptyDisplayName: "displayName"
        case .invalidURLScheme: "urlScheme"
        case .invalidWebURL: "webURL"
        case .invalidGatedPath: "gatedPaths"
        case .invalidOrder: "order"
        case .textTooLong(let field, _, _): field
        case .invalidContentID, .unknownContent: "contentId"
        case .contentTextLength: "text"
        case .contentReadingLength: "length"
        case .contentPriority: "priority"
        case .durationSetting: "durationSetting"
        case .timerDuration: "timerDuration"
        case .timeSpentTooLong, .negativeTimeSpent: "timeSpent"
        case .tooManyEnabledApps: "enabledApps"
        case .noCategories: "selectedCategories"
        case .noContent: "contentId"
        case .sessionAlreadyFinished: "completionStatus"
        case .outcomeMismatch: "actionOutcome"
        case .inconsistentRecord(let field, _): field
        case .notProceeded: "actionOutcome"
        case .invalidVisit(let field, _): field
        case .nulCharacter(let field): field
        case .invalidContentSource, .duplicateContentSource, .unknownContentSource: "url"
        }
    }

    public var message: String {
        switch self {
        case .invalidAppID(let id): "App id must be lowercase letters, digits and hyphens (got \(id.quotedForMessage))"
        case .emptyDisplayName: "App name cannot be empty"
        case .invalidURLScheme(let s): "URL scheme must be a scheme name followed by \"://\" (got \(s.quotedForMessage))"
        case .invalidWebURL(let u): "Web URL must be an absolute http or https URL (got \(u.quotedForMessage))"
        case .invalidOrder: "Order cannot be negative"
        case .invalidGatedPath(let path, let rule): "\(rule) (got \(path.quotedForMessage))"
        case .textTooLong(let field, let limit, let length): "\(field) cannot exceed \(limit) characters (got \(length))"
        case .invalidContentID(let id): "Content id must be letters, digits, \"-\", \"_\" or \".\" (got \(id.quotedForMessage))"
        case .contentTextLength(let n): "Content text must be 50-750 characters (got \(n))"
        case .contentReadingLength(let n): "Reading length must be 10-60 seconds (got \(n))"
        case .contentPriority(let n): "Priority must be 1-10 (got \(n))"
        case .durationSetting(let n), .timerDuration(let n): "Pause duration must be 15-45 seconds (got \(n))"
        case .timeSpentTooLong(let t, let limit): "Time spent cannot exceed the pause duration plus 5 seconds (\(t) > \(limit))"
        case .negativeTimeSpent: "Time spent cannot be negative"
        case .unknownApp(let id): "No app with id \(id.quotedForMessage)"
        case .unknownContent(let id): "No content with id \(id.quotedForMessage)"
        case .tooManyEnabledApps(let n): "At most 10 apps can be enabled (got \(n))"
        case .noCategories: "At least one content category must be selected"
        case .noContent: "There is no content left to show: add your own (grove content add) or a content pack (grove content source add)"
        case .sessionAlreadyFinished: "This pause has already ended"
        case .appNotGated(let id): "\"\(id)\" is not gated: switch it on first (`grove apps enable \(id)`, or Settings)"
        case .treeGrowing(let name):
            "A tree is growing: \(name) waits until the focus session ends, or until you let the tree wither (`grove focus abandon`)"
        case .invalidBlockSchedule(let text, let rule): "\(rule) (got \(text.quotedForMessage))"
        case .blocked(let name, let until):
            "\(name) is blocked until \(until) by its schedule; the week's emergency pass lets one visit through"
        case .emergencyPassUsed(let next): "This week's emergency pass is used; the next one comes \(next)"
        case .strictBlock(let name, let until):
            "\(name) is in a strict block until \(until): its schedule, its gate and the app stay as they are until then"
        case .outcomeMismatch(let rule): rule
        case .inconsistentRecord(_, let rule): rule
        case .notProceeded: "Only a pause that ended with Proceed is followed by a visit to measure"
        case .invalidVisit(_, let rule): rule
        case .nulCharacter(let field): "\(field) cannot contain a NUL character"
        case .invalidContentSource(let url):
            "A content source must be an absolute http or https URL with a host, no user name and no #fragment, at most \(ContentSource.maxURLLength) characters (got \(url.quotedForMessage))"
        case .duplicateContentSource(let url): "\(url) is already a content source"
        case .unknownContentSource(let url): "No content source \(url)"
        }
    }
}
