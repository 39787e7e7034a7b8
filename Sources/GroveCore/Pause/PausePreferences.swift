import Foundation

/// The Pause room's settings (seed 003's `UserPreferences`, renamed beside seed 004's).
public struct PausePreferences: Equatable, Sendable, Codable {
    /// Singleton identifier.
    public static let singletonID = "user_preferences"
    public static let maxEnabledApps = 10

    public var id: String
    /// Pause length, 15…45 s (default 15).
    public var timerDuration: Int
    /// Content categories shown (default: all).
    public var selectedCategories: Set<MindfulnessContent.ContentCategory>
    /// Ids of gated apps, at most 10.
    public var enabledApps: Set<String>
    public var onboardingCompleted: Bool
    /// Kept from the seed's StoreKit trial; Grove has no paywall.
    public var trialStartDate: Date?
    /// When content packs were last fetched.
    public var lastContentSync: Date?
    /// Privacy preference, off by default (Grove sends nothing anyway).
    public var analyticsOptIn: Bool

    public init(
        timerDuration: Int = 15,
        selectedCategories: Set<MindfulnessContent.ContentCategory> = Set(MindfulnessContent.ContentCategory.allCases),
        enabledApps: Set<String> = [], onboardingCompleted: Bool = false, trialStartDate: Date? = nil,
        lastContentSync: Date? = nil, analyticsOptIn: Bool = false
    ) {
        self.id = Self.singletonID
        self.timerDuration = timerDuration
        self.selectedCategories = selectedCategories
        self.enabledApps = enabledApps
        self.onboardingCompleted = onboardingCompleted
        self.trialStartDate = trialStartDate
        self.lastContentSync = lastContentSync
        self.analyticsOptIn = analyticsOptIn
    }

    public static let `default` = PausePreferences()

    public func validate() throws(PauseValidationError) {
        guard GatewaySession.durationRange.contains(timerDuration) else { throw .timerDuration(timerDuration) }
        guard enabledApps.count <= Self.maxEnabledApps else { throw .tooManyEnabledApps(enabledApps.count) }
        guard !selectedCategories.isEmpty else { throw .noCategories }
        for app in enabledApps where !SocialApp.isValidID(app) { throw .invalidAppID(app) }
    }

    private enum CodingKeys: String, CodingKey {
        case id, timerDuration, selectedCategories, enabledApps, onboardingCompleted, trialStartDate, lastContentSync, analyticsOptIn
    }

    /// Sets are written sorted, so that the same preferences always encode to the same bytes.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(timerDuration, forKey: .timerDuration)
        try c.encode(selectedCategories.sorted(), forKey: .selectedCategories)
        try c.encode(enabledApps.sorted(), forKey: .enabledApps)
        try c.encode(onboardingCompleted, forKey: .onboardingCompleted)
        try c.encodeIfPresent(trialStartDate, forKey: .trialStartDate)
        try c.encodeIfPresent(lastContentSync, forKey: .lastContentSync)
        try c.encode(analyticsOptIn, forKey: .analyticsOptIn)
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            timerDuration: try c.decode(Int.self, forKey: .timerDuration),
            selectedCategories: try c.decode(Set<MindfulnessContent.ContentCategory>.self, forKey: .selectedCategories),
            enabledApps: try c.decodeIfPresent(Set<String>.self, forKey: .enabledApps) ?? [],
            onboardingCompleted: try c.decodeIfPresent(Bool.self, forKey: .onboardingCompleted) ?? false,
            trialStartDate: try c.decodeIfPresent(Date.self, forKey: .trialStartDate),
            lastContentSync: try c.decodeIfPresent(Date.self, forKey: .lastContentSync),
            analyticsOptIn: try c.decodeIfPresent(Bool.self, forKey: .analyticsOptIn) ?? false)
    }
}
