import Foundation

/// The OpenAPI 3.1 document shipped with the server.
enum OpenAPIDocument {
    static func yaml() throws -> String {
        try String(contentsOf: try ServerResources.url("openapi.yaml"), encoding: .utf8)
    }
}
