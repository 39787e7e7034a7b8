import Foundation
import GroveStore
import Hummingbird

/// A read-write file in the temporary directory, unlinked at once: nothing is left behind whatever
/// happens to the request, and it is gone when the handle closes.
private func unlinkedTemporaryFile(_ prefix: String) throws -> FileHandle {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)").path
    let descriptor = open(path, O_RDWR | O_CREAT | O_EXCL, 0o600)
    guard descriptor >= 0 else { throw CocoaError(.fileWriteUnknown) }
    unlink(path)
    return FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
}

/// An export written to a temporary file that is unlinked at once (nothing is left behind, whatever
/// happens to the request), then read back in chunks for the response.
final class ExportFile: @unchecked Sendable {
    private let handle: FileHandle
    /// The export's length in bytes.
    let size: Int

    init(format: ExportFormat, tag: String? = nil, database: AppDatabase) throws {
        let handle = try unlinkedTemporaryFile("grove-export")
        do {
            var written = 0
            try database.transfer.export(as: format, tag: tag) { chunk in
                try handle.write(contentsOf: chunk)
                written += chunk.count
            }
            try handle.seek(toOffset: 0)
            self.handle = handle
            size = written
        } catch {
            try? handle.close()
            throw error
        }
    }

    /// The next chunk, or nil at the end.
    func next() throws -> Data? {
        guard let chunk = try handle.read(upToCount: 1 << 17), !chunk.isEmpty else { return nil }
        return chunk
    }

    func close() { try? handle.close() }
}

/// A request body written to an unlinked temporary file as it arrives, then read back in chunks.
final class SpooledBody: @unchecked Sendable {
    private let handle: FileHandle

    init() throws {
        handle = try unlinkedTemporaryFile("grove-import")
    }

    func append(_ chunk: ByteBuffer) throws {
        try handle.write(contentsOf: Data(chunk.readableBytesView))
    }

    /// Reads what was written from the start, 64 KiB at a time.
    func reader() throws -> () throws -> [UInt8]? {
        try handle.seek(toOffset: 0)
        return { [handle] in try handle.read(upToCount: 1 << 16).map(Array.init) }
    }

    func close() { try? handle.close() }
}
