import Foundation

/// Text put into a URL's query by the pages (a tag in `/stats?tag=`): everything but letters and
/// digits percent-encoded, so that `&`, `#`, `+` and spaces survive the round trip.
enum QueryText {
    static func encode(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
    }
}
