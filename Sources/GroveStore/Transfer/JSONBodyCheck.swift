/// What `JSONDecoder` lets pass in a request body and Grove refuses: one field given twice in an
/// object (Foundation keeps one of the two, silently), and a text longer than any field holds.
public enum JSONBodyCheck {
    /// Why a body was refused: the field (innermost) and the rule.
    public struct Refusal: Error, Sendable {
        public let field: String
        public let message: String
    }

    /// Nil when `bytes` is one JSON value with neither fault; else the first found. Meant for bodies
    /// `JSONDecoder` accepted (its own message says better what is wrong with one it did not).
    public static func refusal(in bytes: [UInt8]) -> Refusal? {
        var given = false
        var reader = JSONStreamReader(read: {
            defer { given = true }
            return given ? nil : bytes
        })
        do {
            _ = try reader.value()
            return nil
        } catch let failure as JSONStreamReader.Failure {
            return Refusal(field: failure.field ?? "body", message: failure.description)
        } catch {
            return nil
        }
    }
}
