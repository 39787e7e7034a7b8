/// Waits until `condition` holds, looking every 5 ms without holding a thread (a blocked cooperative
/// thread, of two on a two-core machine, could keep the awaited work itself from running).
///
/// It has no deadline of its own: a wait that never ends is ended by the test's `.timeLimit`, so that
/// a slow machine makes a test slower, never wrong.
public func eventually(_ condition: () throws -> Bool) async throws {
    while try !condition() {
        try await Task.sleep(for: .milliseconds(5))
    }
}
