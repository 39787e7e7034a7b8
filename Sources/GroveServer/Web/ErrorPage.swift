import Foundation
import Hummingbird

/// The page a person sees when a page request fails (an unknown address, an app that does not exist):
/// the problem in words and a way back, never the API's JSON.
enum ErrorPage {
    /// Whether `request` is a person's browser asking for a page, not a program calling the API.
    static func wanted(by request: Request) -> Bool {
        let path = request.uri.path
        guard request.method == .get || request.method == .head, !path.hasPrefix("/api/"), !path.hasPrefix("/static/") else { return false }
        return request.headers[.accept].map { $0.contains("text/html") } ?? false
    }

    static func response(_ problem: Problem) -> Response {
        let heading = problem.status == 404 ? "Nothing grows here" : problem.title
        let text = """
            <!doctype html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(escape(heading)) · Grove</title>
            <link rel="stylesheet" href="/static/app.css">
            <link rel="icon" href="/static/tree.svg" type="image/svg+xml">
            </head>
            <body class="bare">
            <main id="main" class="error-page">
            <h1>\(escape(heading))</h1>
            <p data-testid="error-detail">\(escape(problem.detail))</p>
            <p><a href="/">Back to Today</a> · <a href="/settings">Settings</a></p>
            </main>
            </body>
            </html>
            """
        var buffer = ByteBuffer()
        buffer.writeString(text)
        let status = HTTPResponse.Status(code: problem.status, reasonPhrase: problem.title)
        return Response(status: status, headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"], body: .init(byteBuffer: buffer))
    }

    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(character)
            }
        }
        return out
    }
}
