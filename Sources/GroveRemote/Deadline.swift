import NIOCore

/// A whole exchange with another server bounded in time: connection, redirects and the body together.
///
/// AsyncHTTPClient's `timeout` bounds the wait for a response's head; a server that then sends its body
/// a byte a second held `intention rephrase` for over a minute. Here the exchange races a timer, and
/// the loser is cancelled (cancelling the request).
enum Deadline {
    /// What `run` throws when `amount` passed first.
    struct Exceeded: Error, Equatable {
        let seconds: Int64
    }

    /// `body`'s result, or `Exceeded` once `amount` has passed.
    static func run<T: Sendable>(within amount: TimeAmount, _ body: @escaping @Sendable () async throws -> T) async throws -> T {
        try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask { try await body() }
            group.addTask {
                try await Task.sleep(nanoseconds: UInt64(max(0, amount.nanoseconds)))
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let result = first else {
                throw Exceeded(seconds: amount.nanoseconds / 1_000_000_000)
            }
            return result
        }
    }
}
