import Foundation
import GroveCore
import GroveStore
import Testing

@testable import GroveServer

/// Rules finer than a site through the API and the Settings page: the paths kept in one form, what
/// is not a path refused by name, and the extension's list carrying them.
@Suite("Gated paths through the API and Settings")
struct GatedPathsAPITests {
    @Test func setShownAndRefusedByName() async throws {
        let server = try await TestServer()
        let database = server.database
        try database.pause.setAppEnabled(id: "youtube", true)
        try await server.test { client in
            let set = try await client.put("/api/v1/pause/apps/youtube/paths", #"{"gatedPaths":["/Shorts/","feed/trending"]}"#)
            #expect(set.status == 200 && set.object["gatedPaths"] as? [String] == ["/shorts", "/feed/trending"], "\(set.text)")
            // What the extension reads.
            let apps = try await client.get("/api/v1/pause/apps").array
            #expect(apps.first { $0["id"] as? String == "youtube" }?["gatedPaths"] as? [String] == ["/shorts", "/feed/trending"])
            let page = try await client.get("/settings").text
            #expect(page.contains("Only: /shorts") && page.contains("data-api=\"PUT /api/v1/pause/apps/youtube/paths\""))
            for bad in [#"["/"]"#, #"["/a b"]"#, #"["/x?y=1"]"#, #"["/x","/X/"]"#] {
                let refused = try await client.put("/api/v1/pause/apps/youtube/paths", #"{"gatedPaths":\#(bad)}"#)
                #expect(refused.status == 422 && refused.object["field"] as? String == "gatedPaths", "\(bad): \(refused.text)")
            }
            #expect(try await client.put("/api/v1/pause/apps/nope/paths", #"{"gatedPaths":[]}"#).status == 404)
            // Refused changes changed nothing; an empty list gates the whole site again.
            #expect(try database.pause.app(id: "youtube")?.gatedPaths == ["/shorts", "/feed/trending"])
            let whole = try await client.put("/api/v1/pause/apps/youtube/paths", #"{"gatedPaths":[]}"#)
            #expect(whole.object["gatedPaths"] as? [String] == [])
            #expect(try await client.get("/settings").text.contains("Whole site"))
            // Paths belong to a site: an app without one cannot have them.
            let added = try await client.post("/api/v1/pause/apps", #"{"id":"game","displayName":"Game","gatedPaths":["/x"]}"#)
            #expect(added.status == 422 && added.object["field"] as? String == "gatedPaths")
        }
    }
}
