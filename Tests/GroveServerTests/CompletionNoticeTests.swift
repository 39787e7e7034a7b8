import Foundation
import GroveCore
import Testing

@testable import GroveServer

/// The web page announces a completed session itself (a browser notification): its words and link must
/// be the core's, which the CLI and the server's desktop notice use.
@Suite struct CompletionNoticeTests {
    @Test func thePageAnnouncesATreeInTheCoresWordsAndLinksToTheForest() async throws {
        let templates = try await WebTemplates.load()
        let script = String(decoding: try #require(templates.staticFiles["focus.js"]).data, as: UTF8.self)
        #expect(script.contains(#"notify("\#(CompletionNotice.title)", "\#(CompletionNotice.body)", "\#(CompletionNotice.link)""#))
        #expect(script.contains(#"notify("\#(BreakNotice.title)", "\#(BreakNotice.body)", "\#(BreakNotice.link)""#))
    }
}
