import Foundation

/// Where the web app's files are (templates, static files, the OpenAPI document), found without
/// `Bundle.module`, which ends the process when its folder is not beside the executable, as in an
/// installed package. The folder holds `templates/`, `static/` and `openapi.yaml`.
enum ServerResources {
    /// SwiftPM's name for the module's resource bundle, copied beside every built executable.
    static let bundleName = "Grove_GroveServer.resources"

    /// The places looked in, in order: `$GROVE_RESOURCES`; the bundle beside the executable (a
    /// build; the test runner's folder for tests); `../share/grove/resources` from the executable's
    /// folder (the Debian package: /usr/bin/grove and /usr/share/grove/resources).
    static func candidates(
        environment: [String: String] = ProcessInfo.processInfo.environment, executable: URL? = executableURL()
    ) -> [URL] {
        var places: [URL] = []
        if let path = environment["GROVE_RESOURCES"], !path.isEmpty { places.append(URL(fileURLWithPath: path)) }
        let folders = [executable?.deletingLastPathComponent(), Bundle.main.bundleURL].compactMap { $0?.standardizedFileURL }
        for folder in folders.enumerated().filter({ !folders[..<$0.offset].contains($0.element) }).map(\.element) {
            let bundle = folder.appendingPathComponent(bundleName)
            places += [bundle.appendingPathComponent("Resources"), bundle]
        }
        if let folder = executable?.deletingLastPathComponent() {
            places.append(folder.deletingLastPathComponent().appendingPathComponent("share/grove/resources"))
        }
        return places
    }

    /// The first candidate that holds the templates.
    static let directory: URL? = candidates().first {
        FileManager.default.fileExists(atPath: $0.appendingPathComponent("templates/layout.mustache").path)
    }

    /// `name` inside the resources folder, or an error naming where Grove looked.
    static func url(_ name: String) throws -> URL {
        guard let directory else {
            let looked = candidates().map(\.path).joined(separator: ", ")
            throw ResourcesMissing(message: "the web app's files (\(name)) are not installed: looked in \(looked); set GROVE_RESOURCES")
        }
        return directory.appendingPathComponent(name)
    }

    /// This process's executable, links resolved (`/proc/self/exe` on Linux).
    static func executableURL() -> URL? {
        #if os(Linux)
            if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
                return URL(fileURLWithPath: path)
            }
        #endif
        return Bundle.main.executableURL?.resolvingSymlinksInPath()
    }
}

/// The web app's files cannot be found (a broken install).
struct ResourcesMissing: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
