import Foundation
import Mustache

/// The Mustache templates and static files shipped in the module's resources.
struct WebTemplates: Sendable {
    let library: MustacheLibrary
    let staticFiles: [String: StaticFile]

    static func load() async throws -> WebTemplates {
        let library = try await MustacheLibrary(directory: try resource("templates").path)
        var files: [String: StaticFile] = [:]
        let staticDir = try resource("static")
        for name in (try? FileManager.default.contentsOfDirectory(atPath: staticDir.path)) ?? [] where !name.hasPrefix(".") {
            let type =
                name.hasSuffix(".css")
                ? "text/css; charset=utf-8"
                : name.hasSuffix(".js")
                    ? "text/javascript; charset=utf-8"
                    : name.hasSuffix(".svg") ? "image/svg+xml" : "application/octet-stream"
            let url = staticDir.appendingPathComponent(name)
            let modified = (try? FileManager.default.attributesOfItem(atPath: url.path)[.modificationDate] as? Date) ?? nil
            files[name] = StaticFile(data: try Data(contentsOf: url), type: type, modified: modified ?? Date())
        }
        return WebTemplates(library: library, staticFiles: files)
    }

    /// A folder of the module's `Resources` (Foundation on Linux may already treat `Resources/` as the
    /// bundle's resource directory, so ask for it both ways).
    static func resource(_ name: String) throws -> URL {
        guard
            let url = Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Resources")
                ?? Bundle.module.url(forResource: name, withExtension: nil)
        else { throw APIError.notFound("\(name) is missing from the build") }
        return url
    }

    /// Renders `template` with a typed page model (read by field name).
    func render(_ template: String, _ context: some Encodable) throws -> String {
        guard let html = library.render(context, withTemplate: template) else { throw APIError.notFound("No template \(template)") }
        return html
    }
}
