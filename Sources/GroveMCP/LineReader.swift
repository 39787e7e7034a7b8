import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Newline-delimited messages from a file descriptor (MCP's stdio framing), each at most `limit`
/// bytes: a longer one is skipped to its newline and reported, so no input can make the server hold
/// more than one message's worth of memory.
struct LineReader {
    enum Line: Equatable {
        case line(Data)
        /// A message longer than the limit, skipped whole.
        case tooLong
    }

    let fileDescriptor: Int32
    let limit: Int
    private var buffer: [UInt8] = []
    private var skipping = false
    private var ended = false

    init(fileDescriptor: Int32, limit: Int) {
        self.fileDescriptor = fileDescriptor
        self.limit = limit
    }

    /// The next line without its newline (a last line without one counts), or nil at the end.
    mutating func next() throws -> Line? {
        while true {
            if let newline = buffer.firstIndex(of: 0x0A) {
                let line = buffer[..<newline]
                buffer.removeSubrange(...newline)
                if skipping || line.count > limit {
                    skipping = false
                    return .tooLong
                }
                return .line(Data(line))
            }
            if buffer.count > limit {
                buffer.removeAll(keepingCapacity: true)
                skipping = true
            }
            if ended {
                defer { buffer.removeAll() }
                if skipping {
                    skipping = false
                    return .tooLong
                }
                return buffer.isEmpty ? nil : .line(Data(buffer))
            }
            try fill()
        }
    }

    private mutating func fill() throws {
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let count = chunk.withUnsafeMutableBytes { read(fileDescriptor, $0.baseAddress, $0.count) }
        if count < 0 {
            if errno == EINTR { return }
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }
        if count == 0 { ended = true }
        buffer.append(contentsOf: chunk[..<count])
    }
}
