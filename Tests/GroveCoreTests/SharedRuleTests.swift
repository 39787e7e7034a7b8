import Foundation
import Testing

@testable import GroveCore

/// Rules that a face outside Swift repeats (the browser extension's `gate.js`): both sides are held to one
/// file of cases, `extension/owns-cases.json`, which `Tests/Browser/test_extension.py` runs in Chromium.
@Suite struct SharedRuleTests {
    struct Case: Decodable { var webURL: String; var address: String; var owns: Bool }
    struct Cases: Decodable { var cases: [Case] }

    static let cases: [Case] = {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("extension/owns-cases.json")
        guard let data = try? Data(contentsOf: file), let decoded = try? JSONDecoder().decode(Cases.self, from: data) else { return [] }
        return decoded.cases
    }()

    @Test func theCaseFileIsRead() {
        #expect(Self.cases.count >= 10)
        #expect(Self.pathCases.count >= 20)
    }

    struct PathCase: Decodable { var webURL: String; var gatedPaths: [String]; var address: String; var gates: Bool }
    struct PathCases: Decodable { var cases: [PathCase] }

    static let pathCases: [PathCase] = {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("extension/gates-cases.json")
        guard let data = try? Data(contentsOf: file), let decoded = try? JSONDecoder().decode(PathCases.self, from: data) else { return [] }
        return decoded.cases
    }()

    @Test(arguments: pathCases.indices)
    func socialAppGatesPathsAsTheExtensionDoes(_ index: Int) throws {
        let c = Self.pathCases[index]
        let app = SocialApp(id: "app", displayName: "App", urlScheme: "app://", webURL: c.webURL, gatedPaths: c.gatedPaths)
        try app.validate()
        #expect(app.gates(c.address) == c.gates, "\(c.address) for \(c.webURL) \(c.gatedPaths)")
    }

    struct FocusCase: Decodable {
        let focusAllowed: [String]
        let tags: [String]
        let allowed: Bool
    }
    struct FocusCases: Decodable { let cases: [FocusCase] }

    static let focusCases: [FocusCase] = {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("extension/focus-allowed-cases.json")
        guard let data = try? Data(contentsOf: file), let decoded = try? JSONDecoder().decode(FocusCases.self, from: data) else {
            return []
        }
        return decoded.cases
    }()

    @Test("the allowlist during focus answers as the extension's allowedDuring does")
    func focusAllowlistAsTheExtension() {
        #expect(Self.focusCases.count >= 10, "the case file was read")
        for c in Self.focusCases {
            let app = SocialApp(id: "app", displayName: "App", urlScheme: "app://", focusAllowed: c.focusAllowed)
            #expect(app.isAllowed(duringSessionTagged: c.tags) == c.allowed, "\(c.focusAllowed) during \(c.tags)")
        }
    }

    @Test("paths are kept in one form, and what is not a path is refused by name")
    func pathsNormalized() throws {
        #expect(SocialApp.normalizedPath("/Shorts/") == "/shorts")
        #expect(SocialApp.normalizedPath("reels") == "/reels")
        #expect(SocialApp.normalizedPath("/r//all/./") == "/r/all")
        for bad in ["", "/", "/a b", "/shorts?x=1", "/shorts#top", "/\u{7}", String(repeating: "a", count: 300)] {
            #expect(SocialApp.normalizedPath(bad) == nil, "\(bad)")
        }
        let app = SocialApp(id: "app", displayName: "App", urlScheme: "app://", webURL: "https://a.example/", gatedPaths: ["/Shorts/"])
        #expect(app.normalizingPaths().gatedPaths == ["/shorts"])
        #expect(throws: PauseValidationError.self) { try app.validate() }
        let noSite = SocialApp(id: "app", displayName: "App", urlScheme: "app://", gatedPaths: ["/shorts"])
        #expect(throws: PauseValidationError.self) { try noSite.validate() }
        let many = SocialApp(
            id: "app", displayName: "App", urlScheme: "app://", webURL: "https://a.example/", gatedPaths: (0...20).map { "/p\($0)" })
        #expect(throws: PauseValidationError.self) { try many.validate() }
    }

    @Test(arguments: cases.indices)
    func socialAppOwnsAsTheExtensionDoes(_ index: Int) {
        let c = Self.cases[index]
        let app = SocialApp(id: "app", displayName: "App", urlScheme: "app://", webURL: c.webURL)
        #expect(app.owns(c.address) == c.owns, "\(c.address) for \(c.webURL)")
    }
}
