import Foundation
import HTTPTypes
import Hummingbird
import Mustache

/// The Mustache templates and static files shipped in the module's resources.
struct WebTemplates: Sendable {
    let library: MustacheLibrary
    let staticFiles: [String: StaticFile]
    /// The service worker (`/sw.js`), with this build's version written in: the hash of every static
    /// file, so that any change to them installs a new worker and a new cache.
    let serviceWorker: StaticFile

    /// The service worker's source among the static files, served at the root instead (its scope).
    static let serviceWorkerName = "sw.js"

    static func load() async throws -> WebTemplates {
        let library = try await MustacheLibrary(directory: try resource("templates").path)
        var files: [String: StaticFile] = [:]
        let staticDir = try resource("static")
        for name in (try? FileManager.default.contentsOfDirectory(atPath: staticDir.path)) ?? [] where !name.hasPrefix(".") {
            let url = staticDir.appendingPathComponent(name)
            let modified = (try? FileManager.default.attributesOfItem(atPath: url.path)[.modificationDate] as? Date) ?? nil
            files[name] = StaticFile(data: try Data(contentsOf: url), type: contentType(of: name), modified: modified ?? Date())
        }
        guard let worker = files.removeValue(forKey: serviceWorkerName) else { throw APIError.notFound("No \(serviceWorkerName)") }
        let source = String(decoding: worker.data, as: UTF8.self).replacingOccurrences(
            of: "__GROVE_SHELL_VERSION__", with: version(of: files))
        return WebTemplates(
            library: library, staticFiles: files,
            serviceWorker: StaticFile(data: Data(source.utf8), type: worker.type, modified: worker.modified))
    }

    /// The version of a build's static files: a hash of their names and contents.
    static func version(of files: [String: StaticFile]) -> String {
        String(StaticFile.fnv1a(files.keys.sorted().map { $0 + (files[$0]?.etag ?? "") }.joined().utf8), radix: 16)
    }

    /// A static file's media type, by its extension.
    static func contentType(of name: String) -> String {
        switch name.split(separator: ".").last ?? "" {
        case "css": "text/css; charset=utf-8"
        case "js": "text/javascript; charset=utf-8"
        case "svg": "image/svg+xml"
        case "png": "image/png"
        case "webmanifest": "application/manifest+json"
        default: "application/octet-stream"
        }
    }

    /// A folder or file of the web app's resources.
    static func resource(_ name: String) throws -> URL { try ServerResources.url(name) }

    /// Renders `template` with a typed page model (read by field name).
    func render(_ template: String, _ context: some Encodable) throws -> String {
        guard let html = library.render(context, withTemplate: template) else { throw APIError.notFound("No template \(template)") }
        return html
    }

    /// A page: `template` rendered with `model`, as HTML that no cache keeps.
    func page(_ template: String, _ model: some Encodable, status: HTTPResponse.Status = .ok) throws -> Response {
        var buffer = ByteBuffer()
        buffer.writeString(try render(template, model))
        return Response(
            status: status, headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"], body: .init(byteBuffer: buffer))
    }
}
