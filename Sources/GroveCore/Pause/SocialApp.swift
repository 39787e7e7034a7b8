import Foundation

/// An app or web site that Grove puts a mindful pause in front of (seed 003).
///
/// Grove adds `webURL` so that a web site can be gated as well as an app's URL scheme.
public struct SocialApp: Identifiable, Hashable, Sendable, Codable {
    /// Lowercase letters, digits and hyphens, e.g. "instagram".
    public var id: String
    public var displayName: String
    /// A custom URL scheme including "://", e.g. "instagram://".
    public var urlScheme: String
    public var iconAssetName: String
    /// Whether the user gates this app; new apps start disabled.
    public var isEnabled: Bool
    /// Position in the hub.
    public var order: Int
    /// Where "Proceed" goes on the web or desktop, e.g. https://www.instagram.com/.
    public var webURL: String?
    /// The parts of the site that are gated while the rest is not (`/shorts`, `/reels`), normalized
    /// (`normalizedPath`); empty: the whole site.
    public var gatedPaths: [String]
    /// When the app is blocked outright (`mon-fri 09:00-12:00`), in the configured zone; nil: never.
    public var blockSchedule: BlockSchedule?
    /// Whether a block in force also holds the app's own settings: its schedule, its gate and the
    /// app itself stay until the block ends (only the week's emergency pass gets through).
    public var blockStrict: Bool
    /// While a tree grows, this app opens through its gate without withering it: for every session
    /// (`everySession`), or for sessions with one of these tags; empty: it waits behind the tree.
    public var focusAllowed: [String]

    public init(
        id: String, displayName: String, urlScheme: String, iconAssetName: String? = nil, isEnabled: Bool = false, order: Int = 0,
        webURL: String? = nil, gatedPaths: [String] = [], blockSchedule: BlockSchedule? = nil, blockStrict: Bool = false,
        focusAllowed: [String] = []
    ) {
        self.focusAllowed = focusAllowed
        self.gatedPaths = gatedPaths
        self.blockSchedule = blockSchedule
        self.blockStrict = blockStrict && blockSchedule != nil
        self.id = id
        self.displayName = displayName
        self.urlScheme = urlScheme
        self.iconAssetName = iconAssetName ?? id
        self.isEnabled = isEnabled
        self.order = order
        self.webURL = webURL
    }

    /// The most characters an app's name, icon name and URL scheme may have.
    public static let maxNameLength = 100
    /// The most characters a web URL may have (as a content source's).
    public static let maxURLLength = ContentSource.maxURLLength

    public func validate() throws(PauseValidationError) {
        guard Self.isValidID(id) else { throw .invalidAppID(id) }
        for (field, value) in [("displayName", displayName), ("iconAssetName", iconAssetName), ("webURL", webURL ?? "")]
        where value.containsNUL {
            throw .nulCharacter(field: field)
        }
        guard !displayName.trimmingCharacters(in: .whitespaces).isEmpty else { throw .emptyDisplayName }
        for (field, value, limit) in [
            ("displayName", displayName, Self.maxNameLength), ("iconAssetName", iconAssetName, Self.maxNameLength),
            ("urlScheme", urlScheme, Self.maxNameLength), ("webURL", webURL ?? "", Self.maxURLLength),
        ] where value.storedLength > limit {
            throw .textTooLong(field: field, limit: limit, length: value.storedLength)
        }
        guard Self.isValidScheme(urlScheme) else { throw .invalidURLScheme(urlScheme) }
        if let webURL, !Self.isValidWebURL(webURL) { throw .invalidWebURL(webURL) }
        guard order >= 0 else { throw .invalidOrder }
        try Self.validateGatedPaths(gatedPaths, webURL: webURL)
        try Self.validateFocusAllowed(focusAllowed)
    }

    /// Lowercase alphanumeric words joined by single hyphens, 1…64 characters.
    public static func isValidID(_ id: String) -> Bool {
        guard (1...64).contains(id.storedLength), !id.hasPrefix("-"), !id.hasSuffix("-"), !id.contains("--") else { return false }
        return id.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }
    }

    /// A scheme name (RFC 3986: a letter, then letters, digits, "+", "-" or ".") followed by "://".
    public static func isValidScheme(_ scheme: String) -> Bool {
        guard let range = scheme.range(of: "://"), range.upperBound == scheme.endIndex else { return false }
        let name = scheme[..<range.lowerBound]
        guard let first = name.unicodeScalars.first, ("a"..."z").contains(first) || ("A"..."Z").contains(first) else { return false }
        return name.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || "+-.".unicodeScalars.contains($0)
        }
    }

    /// An absolute http(s) URL with a host.
    public static func isValidWebURL(_ string: String) -> Bool {
        guard let url = URL(string: string), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = url.host, !host.isEmpty
        else { return false }
        return true
    }

    /// Whether `address` is one of this app's pages: an http(s) URL on the host of its web URL or a
    /// subdomain of it (`m.youtube.com` for `www.youtube.com`'s app). A gate sends a person on only to
    /// such an address, so that its link can never be turned into a redirect to anywhere.
    public func owns(_ address: String) -> Bool {
        guard let webURL, let home = URL(string: webURL)?.host?.lowercased(), let url = URL(string: address),
            let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", url.user == nil, url.password == nil,
            let host = url.host?.lowercased(), !host.isEmpty
        else { return false }
        let site = home.hasPrefix("www.") ? String(home.dropFirst(4)) : home
        return host == home || host == site || host.hasSuffix("." + site)
    }

    private enum CodingKeys: String, CodingKey {
        case id, displayName, urlScheme, iconAssetName, isEnabled, order, webURL, gatedPaths, blockSchedule, blockStrict, focusAllowed
    }

    /// The URL scheme an app gets when none is given: its id and "://" (every face, the same).
    public static func defaultScheme(for id: String) -> String { "\(id)://" }

    /// Clients may leave out the URL scheme (`defaultScheme(for:)`), the icon (defaults to the id),
    /// `isEnabled` (false), `order` (0), `gatedPaths` (none: the whole site) and the block (none).
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let id = try c.decode(String.self, forKey: .id)
        self.init(
            id: id, displayName: try c.decode(String.self, forKey: .displayName),
            urlScheme: try c.decodeIfPresent(String.self, forKey: .urlScheme) ?? Self.defaultScheme(for: id),
            iconAssetName: try c.decodeIfPresent(String.self, forKey: .iconAssetName),
            isEnabled: try c.decodeIfPresent(Bool.self, forKey: .isEnabled) ?? false,
            order: try c.decodeIfPresent(Int.self, forKey: .order) ?? 0,
            webURL: try c.decodeIfPresent(String.self, forKey: .webURL),
            gatedPaths: try c.decodeIfPresent([String].self, forKey: .gatedPaths) ?? [],
            blockSchedule: try c.decodeIfPresent(BlockSchedule.self, forKey: .blockSchedule),
            blockStrict: try c.decodeIfPresent(Bool.self, forKey: .blockStrict) ?? false,
            focusAllowed: try c.decodeIfPresent([String].self, forKey: .focusAllowed) ?? [])
    }

    /// The apps the hub offers out of the box (disabled until chosen).
    public static let known: [SocialApp] = [
        SocialApp(id: "instagram", displayName: "Instagram", urlScheme: "instagram://", order: 0, webURL: "https://www.instagram.com/"),
        SocialApp(id: "tiktok", displayName: "TikTok", urlScheme: "tiktok://", order: 1, webURL: "https://www.tiktok.com/"),
        SocialApp(id: "x", displayName: "X", urlScheme: "twitter://", order: 2, webURL: "https://x.com/"),
        SocialApp(id: "facebook", displayName: "Facebook", urlScheme: "fb://", order: 3, webURL: "https://www.facebook.com/"),
        SocialApp(id: "youtube", displayName: "YouTube", urlScheme: "youtube://", order: 4, webURL: "https://www.youtube.com/"),
        SocialApp(id: "reddit", displayName: "Reddit", urlScheme: "reddit://", order: 5, webURL: "https://www.reddit.com/"),
        SocialApp(id: "snapchat", displayName: "Snapchat", urlScheme: "snapchat://", order: 6, webURL: "https://www.snapchat.com/"),
        SocialApp(id: "linkedin", displayName: "LinkedIn", urlScheme: "linkedin://", order: 7, webURL: "https://www.linkedin.com/"),
    ]
}
