import Foundation
import Testing
@testable import GroveSystem

@Suite("The desktop: programs on the PATH and notifications")
struct ExecutableTests {
    @Test func findsProgramsOnThePathAndNothingElse() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("grove-path-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let program = dir.appendingPathComponent("notify-send")
        try Data("#!/bin/sh\nexit 0\n".utf8).write(to: program)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: program.path)
        let plain = dir.appendingPathComponent("not-executable")
        try Data().write(to: plain)
        let environment = ["PATH": "/nonexistent:\(dir.path)"]
        #expect(Executable.find("notify-send", environment: environment) == program.path)
        #expect(Executable.find("not-executable", environment: environment) == nil)
        #expect(Executable.find("notify-send", environment: [:]) == nil)
        // A notifier with a working notify-send sends; without one it says so and does nothing.
        #expect(DesktopNotifier(environment: environment).send(title: "Grove", body: "Tree planted"))
        let none = DesktopNotifier(environment: ["PATH": "/nonexistent"])
        #expect(!none.isAvailable)
        #expect(!none.send(title: "Grove", body: "nothing happens"))
    }
}
