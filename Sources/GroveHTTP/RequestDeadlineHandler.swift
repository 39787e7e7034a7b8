import HummingbirdCore
import NIOCore
import NIOHTTPTypes

/// Closes a connection whose client is too slow to send a request, answered or not.
///
/// Hummingbird's idle timeout restarts with every byte read, so a client that sent a large
/// `Content-Length` and then one byte every ten seconds held its connection (and a place under the
/// connection cap) for as long as it liked — even after a route answered without reading the body
/// (`/healthz`, a 404, a 401). Here:
/// - the next request's head must be whole within `head` of the connection's start or of the end of
///   the exchange before it (a drip of header bytes gets no more);
/// - a body must keep coming at `minimumBytes` every `window` until its end (a slow upload of a real
///   export passes; a drip does not), whether or not the route has answered already;
/// - a response that is still streaming (an event stream, a long export) is never timed.
public final class RequestDeadlineHandler: ChannelDuplexHandler, RemovableChannelHandler {
    public typealias InboundIn = HTTPRequestPart
    public typealias InboundOut = HTTPRequestPart
    public typealias OutboundIn = HTTPResponsePart
    public typealias OutboundOut = HTTPResponsePart

    let head: TimeAmount
    let window: TimeAmount
    let minimumBytes: Int
    private var timer: Scheduled<Void>?
    private var reading = false
    private var bytesThisWindow = 0

    /// `head`: how long the next request's head may take; `minimumBytes` per `window`: how slowly a
    /// body may come.
    public init(head: TimeAmount = .seconds(30), window: TimeAmount = .seconds(10), minimumBytes: Int = 1024) {
        self.head = head
        self.window = window
        self.minimumBytes = minimumBytes
    }

    public func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { awaitHead(context) }
    }

    public func channelActive(context: ChannelHandlerContext) {
        awaitHead(context)
        context.fireChannelActive()
    }

    public func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head:
            reading = true
            watchBody(context)
        case .body(let buffer):
            bytesThisWindow += buffer.readableBytes
        case .end:
            reading = false
            // Whatever the response takes (a stream may last hours) is not the client's slowness.
            disarm()
        }
        context.fireChannelRead(data)
    }

    public func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        // Answered with its body still coming: the body's watch goes on. Otherwise the next request.
        if case .end = unwrapOutboundIn(data), !reading { awaitHead(context) }
        context.write(data, promise: promise)
    }

    public func channelInactive(context: ChannelHandlerContext) {
        disarm()
        context.fireChannelInactive()
    }

    public func handlerRemoved(context: ChannelHandlerContext) {
        disarm()
    }

    private func awaitHead(_ context: ChannelHandlerContext) {
        disarm()
        let channel = context.channel
        timer = context.eventLoop.assumeIsolated().scheduleTask(in: head) { channel.close(promise: nil) }
    }

    /// Every `window`, the body must have brought `minimumBytes` (or ended).
    private func watchBody(_ context: ChannelHandlerContext) {
        disarm()
        bytesThisWindow = 0
        let channel = context.channel
        timer = context.eventLoop.assumeIsolated().scheduleTask(in: window) { [weak self] in
            guard let self, self.reading else { return }
            if self.bytesThisWindow < self.minimumBytes {
                channel.close(promise: nil)
            } else {
                self.watchBody(context)
            }
        }
    }

    private func disarm() {
        timer?.cancel()
        timer = nil
    }
}
