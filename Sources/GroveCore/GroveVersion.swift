/// Grove's version (semantic versioning): `grove --version`, the `User-Agent` of every request Grove
/// sends, the sync server's `grove_build_info`.
public enum GroveVersion {
    /// This release.
    public static let number = "0.9.0"
    /// What Grove calls itself to the servers it asks (model assistants, content packs, sync).
    public static let userAgent = "grove/\(number)"
}
