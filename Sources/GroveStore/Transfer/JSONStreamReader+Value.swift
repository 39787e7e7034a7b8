/// What `JSONStreamReader` hands back: a small value read whole, or where and why reading failed.
extension JSONStreamReader {
    /// A JSON value small enough to hold: one session, say.
    enum Value {
        case string(String)
        case number(Double)
        case bool(Bool)
        case null
        case object([(String, Value)])
        case array([Value])
    }

    /// What went wrong, and where (byte offset in the document).
    struct Failure: Error, CustomStringConvertible {
        var message: String
        var offset: Int
        /// The field whose value failed, innermost first, when known.
        var field: String?
        var description: String { "\(field.map { "\($0): " } ?? "")\(message) at byte \(offset)" }
    }

    /// "16 MiB", "512 KiB", "100 bytes".
    static func sizeText(_ bytes: Int) -> String {
        bytes >= 1 << 20 && bytes % (1 << 20) == 0
            ? "\(bytes >> 20) MiB" : bytes >= 1 << 10 && bytes % (1 << 10) == 0 ? "\(bytes >> 10) KiB" : "\(bytes) bytes"
    }
}
