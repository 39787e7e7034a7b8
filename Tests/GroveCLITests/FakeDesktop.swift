import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A desktop of stand-ins for an end-to-end test: a `notify-send` that writes down each notice with
/// whether banners were back when it was sent, and the daemons of `Fixtures/desktop` (gsettings,
/// makoctl, dunstctl) keeping their state in `folder`.
struct FakeDesktop {
    /// Where the daemons keep their state and the notices go.
    let folder: String
    /// `grove`'s environment on this desktop: the stand-ins first on PATH, a real tree in seconds.
    let environment: [String: String]

    init(_ g: Grove, filePath: String = #filePath) throws {
        folder = g.home + "-desktop"
        let bin = g.home + "-bin"
        for path in [g.home, folder, bin] { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) }
        try "#!/bin/sh\necho \"$2 banners=$(cat '\(folder)/banners')\" >> '\(folder)/notices'\n".write(
            toFile: bin + "/notify-send", atomically: true, encoding: .utf8)
        chmod(bin + "/notify-send", 0o755)
        let fakes = URL(fileURLWithPath: filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/desktop").path
        var env = g.environment
        env["PATH"] = "\(bin):\(fakes):/usr/bin:/bin"
        env["GROVE_FAKE_DESKTOP"] = folder
        env["GROVE_HOLD_NOTIFICATIONS"] = nil
        env["GROVE_SHORTEST_TREE"] = "1"  // real trees, grown in seconds
        environment = env
    }

    /// A state file of the stand-ins (`banners`, `paused`, `modes`, `notices`, `log`), trimmed.
    func read(_ name: String) -> String {
        ((try? String(contentsOfFile: folder + "/" + name, encoding: .utf8)) ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
