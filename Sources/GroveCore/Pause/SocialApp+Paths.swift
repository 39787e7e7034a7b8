import Foundation

/// Rules finer than a site: an app may gate some of its site's paths (`youtube.com/shorts`,
/// `instagram.com/reels`) while the rest opens without a pause. The same rule runs in the browser
/// extension (`gates` in `extension/gate.js`); `extension/gates-cases.json` holds both to one set of cases.
extension SocialApp {
    /// The most paths one app may gate.
    public static let maxGatedPaths = 20
    /// The most characters a gated path may have.
    public static let maxPathLength = 200

    /// Whether a visit to `address` meets this app's pause: one of its pages (`owns`), and — when the
    /// app gates some paths only — at or under one of them. The path is compared as a server reads it:
    /// percent-decoded, dot segments resolved, repeated slashes as one, letters in any case; a path
    /// that cannot be decoded is gated (a disguise, not a page of the site's own).
    public func gates(_ address: String) -> Bool {
        guard owns(address) else { return false }
        guard !gatedPaths.isEmpty else { return true }
        guard let components = URLComponents(string: address), let path = Self.comparablePath(components.percentEncodedPath) else {
            return true
        }
        return gatedPaths.contains { path == $0 || path.hasPrefix($0 + "/") }
    }

    /// A path as typed (`/Shorts/`, `shorts`) in the form it is kept and compared in (`/shorts`), or
    /// nil when it is not a path of a site: empty, the whole site (`/`), with a query, a fragment,
    /// a space or a control character, or too long.
    public static func normalizedPath(_ text: String) -> String? {
        var typed = text.trimmingCharacters(in: .whitespaces)
        if !typed.hasPrefix("/") { typed = "/" + typed }
        guard typed.count <= maxPathLength,
            !typed.unicodeScalars.contains(where: {
                $0.properties.isWhitespace || $0.value < 0x20 || $0.value == 0x7F || $0 == "?" || $0 == "#"
            })
        else { return nil }
        guard let path = comparablePath(typed), path != "/" else { return nil }
        return path
    }

    /// Percent-decoded, dot segments resolved, empty segments dropped, lowercased; nil when the
    /// percent-encoding is malformed.
    static func comparablePath(_ encoded: String) -> String? {
        guard let decoded = encoded.removingPercentEncoding else { return nil }
        var segments: [Substring] = []
        for segment in decoded.split(separator: "/", omittingEmptySubsequences: true) {
            switch segment {
            case ".": continue
            case "..": _ = segments.popLast()
            default: segments.append(segment)
            }
        }
        return ("/" + segments.joined(separator: "/")).lowercased()
    }

    /// The app with its paths as typed in the form they are kept (`/Shorts/` → `/shorts`); a path that
    /// is not one stays as it came, for `validate` to refuse by name.
    public func normalizingPaths() -> SocialApp {
        var app = self
        app.gatedPaths = gatedPaths.map { Self.normalizedPath($0) ?? $0 }
        return app
    }

    /// Checks an app's gated paths: each in its normalized form, at most `maxGatedPaths`, none twice,
    /// and only on an app with a web address (paths belong to a site).
    static func validateGatedPaths(_ paths: [String], webURL: String?) throws(PauseValidationError) {
        guard !paths.isEmpty else { return }
        guard webURL != nil else { throw .invalidGatedPath(path: paths[0], rule: "Gated paths need the app's web address") }
        guard paths.count <= maxGatedPaths else {
            throw .invalidGatedPath(path: paths[maxGatedPaths], rule: "An app gates at most \(maxGatedPaths) paths (got \(paths.count))")
        }
        var seen = Set<String>()
        for path in paths {
            guard normalizedPath(path) == path else {
                throw .invalidGatedPath(
                    path: path,
                    rule:
                        "A gated path is a part of the site like /shorts: no query, fragment or space, not / (the whole site), at most \(maxPathLength) characters, lowercase"
                )
            }
            guard seen.insert(path).inserted else { throw .invalidGatedPath(path: path, rule: "\(path) is gated already") }
        }
    }
}
