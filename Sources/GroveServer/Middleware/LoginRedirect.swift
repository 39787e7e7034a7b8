import Foundation

/// Where the login page may send a person afterwards: a path on this server, nothing else.
enum LoginRedirect {
    /// `next` when it is a plain absolute path (`/focus`), else `/`. Refuses `//evil`, `/\\evil`,
    /// schemes, control characters and anything a browser could read as another host.
    static func safe(_ next: String?) -> String {
        guard let next, next.hasPrefix("/"), next.count <= 2048 else { return "/" }
        let second = next.dropFirst().first
        guard second != "/", second != "\\" else { return "/" }
        guard !next.unicodeScalars.contains(where: { $0 == "\\" || $0.value < 0x20 || $0.value == 0x7F || $0 == " " }) else { return "/" }
        guard let components = URLComponents(string: next), components.host == nil, components.scheme == nil else { return "/" }
        return next
    }
}
