import HummingbirdCore
import Logging
import NIOCore

/// A child channel whose connection task runs on the connection's own event loop, then hands the
/// channel to `base`.
///
/// Hummingbird runs each connection in a task on Swift's global pool, so every request crossed
/// threads twice on its way in and out: the event loop read it and woke a pool thread to handle it,
/// and the pool thread's answer woke the event loop again to be written. Preferring the event loop
/// as the task's executor lets the loop that read a request go on to handle it, and write the answer
/// with no hop. Handlers that call the store still move to the store's threads
/// (`StoreExecutorMiddleware`) and come back to the loop once.
///
/// Nothing that blocks may run outside those handlers (as it already might not on Swift's pool,
/// whose threads are as few as the loops).
public struct EventLoopAffineChannel<Base: ServerChildChannel>: ServerChildChannel {
    public typealias Value = Base.Value
    let base: Base

    public init(_ base: Base) {
        self.base = base
    }

    public func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        base.setup(channel: channel, logger: logger)
    }

    public func handle(value: Base.Value, logger: Logger) async {
        await withTaskExecutorPreference(EventLoopTaskExecutor(value.channel.eventLoop)) {
            await base.handle(value: value, logger: logger)
        }
    }
}

extension EventLoopAffineChannel: HTTPChannelHandler where Base: HTTPChannelHandler {
    public var responder: HTTPChannelHandler.Responder { base.responder }
}

/// Runs a task's jobs on one event loop. A job enqueued from that loop's own thread (the loop
/// resuming a task that awaited a read) only joins the loop's queue: no other thread is woken.
final class EventLoopTaskExecutor: TaskExecutor {
    private let loop: any EventLoop

    init(_ loop: any EventLoop) {
        self.loop = loop
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        loop.execute { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
