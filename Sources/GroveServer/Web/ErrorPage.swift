import Foundation
import GroveCore
import Hummingbird

/// The page a person sees when a page request fails (an unknown address, an app that does not exist):
/// the problem in words and a way back, in the site's own layout — never the API's JSON.
struct ErrorPage: Encodable {
    var title: String
    var bare = true
    var heading: String
    var detail: String

    /// Whether `request` is a person's browser asking for a page, not a program calling the API.
    static func wanted(by request: Request) -> Bool {
        let path = request.uri.path
        guard request.method == .get || request.method == .head, !path.hasPrefix("/api/"), !path.hasPrefix("/static/") else { return false }
        return request.headers[.accept].map { $0.contains("text/html") } ?? false
    }

    /// The page for `problem`, with its status; nil when the template cannot render (the caller
    /// answers with the problem itself).
    static func response(_ problem: Problem, templates: WebTemplates) -> Response? {
        let heading = problem.status == 404 ? "Nothing grows here" : problem.title
        guard let text = try? templates.render("error", ErrorPage(title: heading, heading: heading, detail: problem.detail)) else {
            return nil
        }
        var buffer = ByteBuffer()
        buffer.writeString(text)
        return Response(
            status: HTTPResponse.Status(code: problem.status, reasonPhrase: problem.title),
            headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"], body: .init(byteBuffer: buffer))
    }
}
