import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The terminal bell.
public enum TerminalBell {
    public static func ring() { Output.write(Data(utf8: "\u{07}")) }
}
