import Foundation
import Testing

/// `grove content source add`: a source is kept only when its pack could be fetched and read.
@Suite("grove content source add")
struct ContentSourceCommandTests {
    @Test("a source whose first fetch fails is refused with the reason, and nothing is kept to retry")
    func failedAddKeepsNothing() async throws {
        let g = Grove()
        // Nothing listens on port 1: refused at once.
        let added = try await g.run("content", "source", "add", "http://127.0.0.1:1/pack.json")
        #expect(added.status == 64, "\(added.err)")
        #expect(added.err.contains("Not added: Could not reach the source"), "\(added.err)")
        let listed = try await g.run("content", "source", "list", "--json").out
        #expect(!listed.contains("127.0.0.1:1"), "\(listed)")
        // Asked to add it without a fetch, it is kept, as asked.
        #expect(try await g.run("content", "source", "add", "http://127.0.0.1:1/pack.json", "--no-fetch").status == 0)
        #expect(try await g.run("content", "source", "list", "--json").out.contains("127.0.0.1:1"))
    }
}
