import Foundation
import GroveCore
import GroveStore
import Testing

@testable import GroveRemote

/// Where the assistant's model comes from: the environment over the store, each bad value named.
/// (The assistant over a real HTTP server is in `GroveServerTests/AssistantTests.swift`.)
@Suite("The assistant's configuration")
struct AssistantConfigurationTests {
    @Test func configurationComesFromTheEnvironmentAndBadValuesNameTheVariable() throws {
        #expect(try AssistantConfiguration.from(environment: [:]) == nil)
        let config = try AssistantConfiguration.from(environment: [
            "GROVE_ASSISTANT_URL": "http://127.0.0.1:11434/v1", "GROVE_ASSISTANT_MODEL": "llama3.2",
        ])
        #expect(config == AssistantConfiguration(baseURL: "http://127.0.0.1:11434/v1", model: "llama3.2"))
        #expect {
            try AssistantConfiguration.from(environment: ["GROVE_ASSISTANT_URL": "ftp://x", "GROVE_ASSISTANT_MODEL": "m"])
        } throws: {
            ($0 as? InvalidField)?.field == "GROVE_ASSISTANT_URL"
        }
        #expect { try AssistantConfiguration.from(environment: ["GROVE_ASSISTANT_URL": "http://127.0.0.1:1/v1"]) } throws: {
            ($0 as? InvalidField)?.field == "GROVE_ASSISTANT_MODEL"
        }
    }

    @Test func theEnvironmentWinsOverTheStoredModelWhoseKeyIsReadFromItsFile() throws {
        let keyFile = FileManager.default.temporaryDirectory.appendingPathComponent("grove-key-\(UUID().uuidString)").path
        try "sk-from-file\n".write(toFile: keyFile, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: keyFile) }
        let stored = StoredAssistant(url: "http://127.0.0.1:11434/v1", model: "llama3.2", apiKeyFile: keyFile)
        let (fromStore, source) = try #require(try AssistantConfiguration.resolve(environment: [:], stored: stored))
        #expect(
            source == .store
                && fromStore == AssistantConfiguration(baseURL: "http://127.0.0.1:11434/v1", model: "llama3.2", apiKey: "sk-from-file"))
        let env = ["GROVE_ASSISTANT_URL": "http://127.0.0.1:8081/v1", "GROVE_ASSISTANT_MODEL": "qwen"]
        #expect(try AssistantConfiguration.resolve(environment: env, stored: stored)?.1 == .environment)
        #expect(try AssistantConfiguration.resolve(environment: [:], stored: nil) == nil)
        var gone = stored
        gone.apiKeyFile = keyFile + "-missing"
        #expect { try AssistantConfiguration.resolve(environment: [:], stored: gone) } throws: {
            ($0 as? InvalidField)?.field == "api-key-file"
        }
        #expect { try StoredAssistant(url: "ollama", model: "m").validate() } throws: { ($0 as? InvalidField)?.field == "url" }
        #expect { try StoredAssistant(url: "http://h/v1", model: " ").validate() } throws: { ($0 as? InvalidField)?.field == "model" }
    }
}
