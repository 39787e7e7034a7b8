import Testing

/// One CPU-heavy test at a time (history sizes, bulk imports, property checks, the simulation).
///
/// Swift Testing starts every test of the process at once; on a two-core machine a few heavy suites
/// starting together with ~500 light ones hold both cores for a minute, and every test that waits on
/// background work then waits behind them. A heavy test queues here (asynchronously: no thread is held
/// while it waits) until the one before it ends, so at most one of them competes with the rest.
public struct HeavyTrait: SuiteTrait, TestTrait, TestScoping {
    public var isRecursive: Bool { true }

    public func scopeProvider(for test: Test, testCase: Test.Case?) -> HeavyTrait? {
        // Each test case queues on its own; a suite as a whole does not hold the gate.
        testCase == nil ? nil : self
    }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        await HeavyGate.shared.enter()
        do {
            try await function()
        } catch {
            await HeavyGate.shared.leave()
            throw error
        }
        await HeavyGate.shared.leave()
    }
}

extension Trait where Self == HeavyTrait {
    /// Runs this suite's or test's cases one heavy test at a time (see `HeavyTrait`).
    public static var heavy: HeavyTrait { HeavyTrait() }
}

/// The process-wide queue of heavy tests: first come, first served.
actor HeavyGate {
    static let shared = HeavyGate()
    private var busy = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    func enter() async {
        guard busy else {
            busy = true
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    func leave() {
        if waiting.isEmpty {
            busy = false
        } else {
            waiting.removeFirst().resume()  // the gate passes straight to the next, still busy
        }
    }
}
