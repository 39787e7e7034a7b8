import Foundation
import GroveCore
import Testing

@testable import GroveBuildInfo

@Suite("What a build says it is")
struct BuildTests {
    @Test("the commit is 12 hex digits (possibly marked modified) in a checkout, else unknown")
    func commit() {
        #expect(Build.commit.wholeMatch(of: /[0-9a-f]{12}(-modified)?|unknown/) != nil)
    }

    @Test("the version line names the version and the commit")
    func versionLine() {
        #expect(Build.versionLine == "grove \(GroveVersion.number) (commit \(Build.commit))")
        #expect(GroveVersion.number.wholeMatch(of: /\d+\.\d+\.\d+/) != nil)
    }

    @Test("built from this checkout, the commit is its HEAD's")
    func matchesCheckout() throws {
        // The package's directory, from this file's path (Tests/GroveBuildInfoTests/BuildTests.swift).
        let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let git = Process()
        git.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        git.arguments = ["git", "-C", package.path, "rev-parse", "--short=12", "HEAD"]
        let out = Pipe()
        git.standardOutput = out
        git.standardError = FileHandle.nullDevice
        try git.run()
        let head = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).trimmingCharacters(
            in: .whitespacesAndNewlines)
        git.waitUntilExit()
        guard git.terminationStatus == 0, ProcessInfo.processInfo.environment["GROVE_COMMIT"] == nil else { return }
        // Built before the last commit of a running session is possible; the prefix is what matters.
        #expect(Build.commit.hasPrefix(head) || Build.commit.hasSuffix("-modified"))
    }
}
