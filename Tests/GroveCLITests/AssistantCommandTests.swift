import Foundation
import Testing

@Suite("grove assistant, end to end")
struct AssistantCommandTests {
    @Test func setStatusAndUnsetAModelThatDoesNotAnswer() async throws {
        let g = Grove()
        #expect(try await g.run("assistant", "status").out.hasPrefix("Offline assistant"))
        #expect(try await g.run("assistant", "--json").object()["source"] as? String == "offline")
        let bad = try await g.run("assistant", "set", "--url", "ollama", "--model", "llama3.2")
        #expect(bad.status == 64 && bad.err.contains("url must be an http(s) URL"), "\(bad.err)")
        let noKey = try await g.run(
            "assistant", "set", "--url", "http://127.0.0.1:9/v1", "--model", "m", "--api-key-file", "/nonexistent/key")
        #expect(noKey.status == 64 && noKey.err.contains("api-key-file must be a readable file"))
        // Port 9 (discard) has nobody listening here: the status says so, the offline assistant stands in.
        #expect(try await g.run("assistant", "set", "--url", "http://127.0.0.1:9/v1", "--model", "tiny").status == 0)
        let status = try await g.run("assistant", "status", "--json").object()
        #expect(status["source"] as? String == "store" && status["model"] as? String == "tiny" && status["answering"] as? Bool == false)
        #expect(try await g.run("assistant", "status").out.contains("Not answering"))
        // Rephrasing still works: offline.
        #expect(try await g.run("intention", "set", "finish the essay").status == 0)
        let rephrased = try await g.run("intention", "rephrase")
        #expect(rephrased.status == 0 && !rephrased.out.contains("worded by"), "\(rephrased.out)")
        // The environment wins over the stored choice.
        let env = try await g.run(
            ["assistant", "--json"], environment: ["GROVE_ASSISTANT_URL": "http://127.0.0.1:9/v2", "GROVE_ASSISTANT_MODEL": "qwen"]
        ).object()
        #expect(env["source"] as? String == "environment" && env["model"] as? String == "qwen")
        #expect(try await g.run("assistant", "unset").status == 0)
        #expect(try await g.run("assistant", "--json").object()["source"] as? String == "offline")
    }
}
