import Foundation

/// The OpenAPI 3.1 document shipped with the server.
enum OpenAPIDocument {
    static func yaml() throws -> String {
        guard let url = Bundle.module.url(forResource: "openapi", withExtension: "yaml", subdirectory: "Resources") else {
            throw APIError.notFound("openapi.yaml is missing from the build")
        }
        return try String(contentsOf: url, encoding: .utf8)
    }
}
