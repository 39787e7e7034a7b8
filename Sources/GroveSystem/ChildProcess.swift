import Foundation

#if canImport(Glibc)
    import Glibc
    private let systemKill = Glibc.kill
#elseif canImport(Darwin)
    import Darwin
    private let systemKill = Darwin.kill
#endif

/// A program Grove starts: with a clean signal mask and default signal handling whatever thread
/// starts it (a thread of Grove's pools blocks most signals, and a child inherits the mask: a program
/// started through the gate ignored SIGTERM, SIGINT and Ctrl-C), and, for helpers Grove waits on, in a
/// process group of its own so that a deadline ends it and everything it started.
public enum ChildProcess {
    /// Why a program could not be started.
    public struct SpawnError: Error, CustomStringConvertible {
        public let path: String
        public let code: Int32
        public var description: String { "could not run \(path): \(String(cString: strerror(code)))" }
    }

    /// Starts `path` with `arguments`. Standard input and error read and write /dev/null unless
    /// given; `standardOutput` is a descriptor to write to (nil: /dev/null). `ownGroup` puts it in a
    /// process group of its own (its pid): a helper, never a program a person works in at a terminal.
    public static func spawn(
        _ path: String, _ arguments: [String], environment: [String: String]? = nil, standardOutput: Int32? = nil,
        inheritStandardStreams: Bool = false, ownGroup: Bool
    ) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if !inheritStandardStreams {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
            if let standardOutput {
                posix_spawn_file_actions_adddup2(&actions, standardOutput, 1)
            } else {
                posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
            }
            posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        }
        // Nothing but its standard streams (after they are set up: the output's source is closed too): a
        // descriptor Grove's parent gave it (Foundation's watch on whether Grove has exited is one)
        // must not be held open by a waiter that outlives Grove.
        closeFrom(3, in: &actions)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigdefault(&attributes, &all)
        var flags = Int32(POSIX_SPAWN_SETSIGMASK) | Int32(POSIX_SPAWN_SETSIGDEF)
        #if canImport(Darwin)
            flags |= Int32(POSIX_SPAWN_CLOEXEC_DEFAULT)
        #endif
        if ownGroup {
            flags |= Int32(POSIX_SPAWN_SETPGROUP)
            posix_spawnattr_setpgroup(&attributes, 0)
        }
        posix_spawnattr_setflags(&attributes, Int16(flags))
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        let variables = environment ?? ProcessInfo.processInfo.environment
        let envp = variables.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in envp { free(pointer) } }
        var pid = pid_t()
        let code = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
        guard code == 0 else { throw SpawnError(path: path, code: code) }
        return pid
    }

    #if canImport(Glibc)
        private typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        /// glibc 2.34's `posix_spawn_file_actions_addclosefrom_np`, which Swift's Glibc module does not declare.
        nonisolated(unsafe) private static let addCloseFrom: CloseFrom? = dlsym(
            UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np"
        )
        .map { unsafeBitCast($0, to: CloseFrom.self) }
    #endif

    /// Has the child close every descriptor from `first` on; where the C library cannot, every open one
    /// is marked close-on-exec instead.
    private static func closeFrom(_ first: Int32, in actions: inout posix_spawn_file_actions_t) {
        #if canImport(Glibc)
            if let addCloseFrom, addCloseFrom(&actions, first) == 0 { return }
            let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
            for descriptor in open.compactMap(Int32.init) where descriptor >= first {
                _ = fcntl(descriptor, F_SETFD, fcntl(descriptor, F_GETFD) | FD_CLOEXEC)
            }
        #endif
    }

    /// Waits for `pid` to end: its exit status, or 128 + the signal that ended it.
    @discardableResult
    public static func wait(_ pid: pid_t) -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { return -1 }
        }
        return exitStatus(status)
    }

    /// A `waitpid` status as a shell says it: the exit code, or 128 + the signal that ended it.
    private static func exitStatus(_ status: Int32) -> Int32 {
        let signal = status & 0x7f
        return signal == 0 ? (status >> 8) & 0xff : 128 + signal
    }

    /// Ends `pid` and its process group (a helper started with `ownGroup`) at once.
    public static func kill(group pid: pid_t) {
        _ = systemKill(-pid, SIGKILL)
        _ = systemKill(pid, SIGKILL)
    }

    /// Waits for `pid` until `deadline`; past it, ends its group and then waits. The status as `wait`
    /// gives it, and whether the deadline ended it.
    public static func wait(_ pid: pid_t, until deadline: ContinuousClock.Instant) -> (status: Int32, killed: Bool) {
        var status: Int32 = 0
        while true {
            let done = waitpid(pid, &status, WNOHANG)
            if done == pid { return (exitStatus(status), false) }
            if done < 0 && errno != EINTR { return (-1, false) }
            if ContinuousClock.now >= deadline {
                kill(group: pid)
                return (wait(pid), true)
            }
            usleep(5_000)
        }
    }
}
