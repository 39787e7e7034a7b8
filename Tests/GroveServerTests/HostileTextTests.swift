import Foundation
import GroveCore
import GroveStore
import Testing

@testable import GroveServer

/// Every free-text field a write accepts, given text no person types: 5,000 characters, or a NUL.
///
/// Each must be refused with a 4xx problem naming the field, and leave the store as it was: never
/// kept whole (a 5,000-character theme name or font would be stored, synced and drawn on every
/// page), never kept cut short (SQLite reads text as ending at a NUL, so "a\0b" would be saved as
/// "a" and reported as saved).
@Suite("API: oversized and NUL text in every free-text field is refused and changes nothing")
struct HostileTextTests {
    /// A write and the JSON body around one field: `field` is replaced by the hostile value.
    struct Write: CustomStringConvertible {
        var method: String
        var path: String
        var field: String
        var body: [String: Any]
        var description: String { "\(method) \(path) \(field)" }
    }

    static let themeID = "7E000000-0000-4000-8000-000000000001"
    static let intentionID = "7E000000-0000-4000-8000-000000000002"

    static func writes() -> [Write] {
        let theme: [String: Any] = ["name": "Dusk", "backgroundColor": "#000000", "textColor": "#FFFFFF"]
        let intention: [String: Any] = ["text": "Read a chapter", "scope": "day"]
        let app: [String: Any] = [
            "id": "sweep", "displayName": "Sweep", "urlScheme": "sweep://", "iconAssetName": "sweep", "isEnabled": false, "order": 9,
        ]
        let content: [String: Any] = [
            "id": "c-sweep", "type": "quote", "category": "mindfulness", "author": "Someone",
            "text": String(repeating: "Breathe in and notice the moment. ", count: 3),
        ]
        let timer: [String: Any] = ["name": "Tea", "durationInSeconds": 180]
        var writes: [Write] = []
        for field in ["name", "fontName"] {
            writes.append(Write(method: "POST", path: "/api/v1/themes", field: field, body: theme))
            writes.append(Write(method: "PUT", path: "/api/v1/themes/\(themeID)", field: field, body: theme))
        }
        for field in ["text", "customFont", "quote"] {
            writes.append(Write(method: "POST", path: "/api/v1/intentions", field: field, body: intention))
            writes.append(Write(method: "PUT", path: "/api/v1/intentions/\(intentionID)", field: field, body: [:]))
        }
        writes.append(Write(method: "PUT", path: "/api/v1/preferences/default-font", field: "fontName", body: [:]))
        for field in ["displayName", "iconAssetName", "urlScheme", "webURL"] {
            writes.append(Write(method: "POST", path: "/api/v1/pause/apps", field: field, body: app))
            writes.append(
                Write(method: "PUT", path: "/api/v1/pause/apps/youtube", field: field, body: app.merging(["id": "youtube"]) { $1 }))
        }
        for field in ["text", "author"] {
            writes.append(Write(method: "POST", path: "/api/v1/pause/content", field: field, body: content))
        }
        for field in ["name", "notes", "icon"] {
            writes.append(Write(method: "POST", path: "/api/v1/timers", field: field, body: timer))
        }
        return writes
    }

    /// Everything a person keeps, as the API shows it.
    static func snapshot(_ c: Client) async throws -> String {
        var parts: [String] = []
        for path in [
            "/api/v1/themes", "/api/v1/intentions", "/api/v1/preferences", "/api/v1/pause/apps", "/api/v1/pause/content", "/api/v1/timers",
        ] {
            parts.append(try await c.get(path).text)
        }
        return parts.joined(separator: "\n")
    }

    @Test(arguments: ["long", "nul"])
    func everyFreeTextFieldRefusesIt(_ kind: String) async throws {
        let server = try await TestServer()
        try await server.test { c in
            // A custom theme and an intention to change.
            let theme = try await c.post("/api/v1/themes", ##"{"name":"Mine","backgroundColor":"#FFFFFF","textColor":"#000000"}"##)
            #expect(theme.status == 201, "\(theme.text)")
            let themeID = try #require(theme.object["id"] as? String)
            let intention = try await c.post("/api/v1/intentions", #"{"text":"Walk","scope":"day"}"#)
            #expect(intention.status == 201, "\(intention.text)")
            let intentionID = try #require(intention.object["id"] as? String)
            let before = try await Self.snapshot(c)
            let hostile = kind == "long" ? String(repeating: "x", count: 5_000) : "Sans\u{0}serif"
            for write in Self.writes() {
                var body = write.body
                body[write.field] = hostile
                let path = write.path.replacingOccurrences(of: Self.themeID, with: themeID).replacingOccurrences(
                    of: Self.intentionID, with: intentionID)
                let json = String(decoding: try JSONSerialization.data(withJSONObject: body), as: UTF8.self)
                let reply = try await c.request(write.method == "POST" ? .post : .put, path, json: json)
                #expect([400, 413, 422].contains(reply.status), "\(write): \(reply.status) \(reply.text.prefix(300))")
                #expect(reply.problem["field"] as? String == write.field, "\(write): \(reply.text.prefix(300))")
                // The message names the rule; it does not repeat 5,000 characters back.
                #expect((reply.problem["detail"] as? String ?? "").count < 400, "\(write)")
            }
            #expect(try await Self.snapshot(c) == before)
        }
    }
}
