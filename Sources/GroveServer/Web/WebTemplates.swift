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

    /// A folder or file of the web app's resources.
    static func resource(_ name: String) throws -> URL { try ServerResources.url(name) }

    /// Renders `template` with a typed page model (read by field name).
    func render(_ template: String, _ context: some Encodable) throws -> String {
        guard let html = library.render(context, withTemplate: template) else { throw APIError.notFound("No template \(template)") }
        return html
    }
}
