import GroveSync

extension RecoveryCode {
    /// Shows the code the only time it is shown (`grove sync encrypt`, and a login that encrypts).
    func print() {
        Swift.print("Recovery code — write it down now; it is shown only this once, and opens your data if you forget the passphrase:")
        Swift.print("  " + words.prefix(9).joined(separator: " "))
        Swift.print("  " + words.dropFirst(9).joined(separator: " "))
    }
}
