import Hummingbird

/// What a proxy in front says about the client: the last `X-Forwarded-For` entry, the one the
/// nearest proxy added itself (earlier entries are the client's to write). Believed only from a proxy
/// the server trusts; each server decides which.
public enum ForwardedFor {
    /// The last entry of the last `X-Forwarded-For` header, or nil (none, empty, or longer than an
    /// IPv6 address can be).
    public static func client(in request: Request) -> String? {
        guard let header = request.headers.last(where: { $0.name.canonicalName == "x-forwarded-for" })?.value,
            let last = header.split(separator: ",").last?.trimmingCharacters(in: .whitespaces), !last.isEmpty, last.count <= 45
        else { return nil }
        return last
    }
}
