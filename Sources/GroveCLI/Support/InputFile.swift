import Foundation

/// Files a command reads because the user named them (`grove import FILE`, `grove content import FILE`).
enum InputFile {
    /// The largest file read at once: far above any real export, well below what would exhaust memory.
    static let maxBytes = 512 << 20

    /// The bytes of the regular file at `path`, or a usage error (exit 64) naming the argument. Devices,
    /// pipes and directories are refused before reading: `/dev/zero` would never end.
    static func read(_ given: String, argument: String = "file") throws -> Data {
        let path = try regularFile(given, argument: argument, maxBytes: maxBytes)
        do { return try Data(contentsOf: URL(fileURLWithPath: path)) } catch { throw CLIError.usage("cannot read \(path)") }
    }

    /// The resolved path of the regular file `given` names, for commands that stream it (any size
    /// unless `maxBytes` says otherwise), or a usage error naming the argument.
    static func regularFile(_ given: String, argument: String = "file", maxBytes: Int? = nil) throws -> String {
        // Links are followed to what they name; that must be a regular file.
        let path = URL(fileURLWithPath: CLIEnvironment.current.resolve(given)).resolvingSymlinksInPath().path
        let attributes: [FileAttributeKey: Any]
        do { attributes = try FileManager.default.attributesOfItem(atPath: path) } catch {
            throw CLIError.usage("cannot read \(path): no such file")
        }
        guard attributes[.type] as? FileAttributeType == .typeRegular else {
            throw CLIError.usage("\(argument) must be a regular file (got \(path))")
        }
        if let maxBytes {
            guard let size = attributes[.size] as? Int, size <= maxBytes else {
                throw CLIError.usage("\(argument) is larger than 512 MiB: \(path)")
            }
        }
        return path
    }
}
