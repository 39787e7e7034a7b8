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
    }

    @Test(arguments: cases.indices)
    func socialAppOwnsAsTheExtensionDoes(_ index: Int) {
        let c = Self.cases[index]
        let app = SocialApp(id: "app", displayName: "App", urlScheme: "app://", webURL: c.webURL)
        #expect(app.owns(c.address) == c.owns, "\(c.address) for \(c.webURL)")
    }
}
