import Foundation

#if os(Linux)
    /// glibc's `ssize_t getrandom(void *buffer, size_t length, unsigned int flags)` (not in Swift's Glibc module).
    @_silgen_name("getrandom") private func systemGetRandom(_ buffer: UnsafeMutableRawPointer?, _ length: Int, _ flags: UInt32) -> Int
#endif

extension UUID {
    /// A random (version 4, RFC 9562) id: 16 bytes from one `getrandom(2)` on Linux, the system's
    /// generator elsewhere.
    ///
    /// Foundation's `UUID()` on Linux opens, reads and closes `/dev/urandom` for every id: three
    /// system calls and a file descriptor per write a server acknowledges, and per wait of a signal.
    public static func random() -> UUID {
        var bytes: (UInt64, UInt64) = (0, 0)
        withUnsafeMutableBytes(of: &bytes) { raw in
            #if os(Linux)
                if systemGetRandom(raw.baseAddress, raw.count, 0) == raw.count { return }
            #endif
            var generator = SystemRandomNumberGenerator()
            raw.storeBytes(of: generator.next() as UInt64, toByteOffset: 0, as: UInt64.self)
            raw.storeBytes(of: generator.next() as UInt64, toByteOffset: 8, as: UInt64.self)
        }
        return withUnsafeMutableBytes(of: &bytes) { raw in
            raw[6] = (raw[6] & 0x0F) | 0x40  // version 4
            raw[8] = (raw[8] & 0x3F) | 0x80  // the RFC's variant
            return UUID(
                uuid: (
                    raw[0], raw[1], raw[2], raw[3], raw[4], raw[5], raw[6], raw[7], raw[8], raw[9], raw[10], raw[11], raw[12], raw[13],
                    raw[14], raw[15]
                ))
        }
    }
}
