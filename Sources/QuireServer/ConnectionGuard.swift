import HummingbirdCore
import Logging
import NIOCore
import NIOHTTPTypes
import Synchronization

/// The total connection cap, as Hummingbird's accept loop asks it: past `limit` the server
/// stops accepting (new connections wait in the listen queue) and says so once in the log.
struct ConnectionCap: AvailableConnectionsDelegate {
    let limit: Int
    let logger: Logger
    private var open = 0
    private var full = false

    init(limit: Int, logger: Logger) {
        self.limit = limit
        self.logger = logger
    }

    mutating func connectionOpened() {
        open += 1
        if open >= limit, !full {
            full = true
            logger.warning("connection cap reached: \(open) open; new connections wait until one closes")
        }
    }

    mutating func connectionClosed() {
        open -= 1
        if full, open < limit {
            full = false
            logger.notice("below the connection cap again: \(open) open")
        }
    }

    func isAcceptingNewConnections() -> Bool { open < limit }
}

/// Open connections per client address, shared by every connection's `ConnectionGuard`.
final class AddressTally: Sendable {
    private struct State {
        var open: [String: Int] = [:]
        var lastWarning: ContinuousClock.Instant?
    }

    let limit: Int
    private let logger: Logger
    private let state = Mutex(State())

    init(limit: Int, logger: Logger) {
        self.limit = limit
        self.logger = logger
    }

    /// Counts a new connection from `address`; false (and nothing counted) when the address
    /// already holds `limit`. A refusal is logged at most every 10 seconds.
    func admit(_ address: String) -> Bool {
        let (admitted, warn) = state.withLock { state -> (Bool, Bool) in
            let count = state.open[address, default: 0]
            guard count >= limit else {
                state.open[address] = count + 1
                return (true, false)
            }
            let now = ContinuousClock.now
            if let last = state.lastWarning, now - last < .seconds(10) { return (false, false) }
            state.lastWarning = now
            return (false, true)
        }
        if warn {
            logger.warning("per-address connection cap reached: \(address) holds \(limit); closing its new connections")
        }
        return admitted
    }

    func release(_ address: String) {
        state.withLock { state in
            let count = state.open[address, default: 1] - 1
            state.open[address] = count > 0 ? count : nil
        }
    }
}

/// Per-connection bounds Hummingbird's idle timeout leaves open: a request body that trickles
/// in (each byte resets the idle timer), a response nobody reads, and the per-address cap.
/// One per connection, after HTTP decoding; confined to the connection's event loop.
final class ConnectionGuard: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let limits: ConnectionLimits
    private let tally: AddressTally
    private let logger: Logger
    private var address: String?
    private var bodyDeadline: Scheduled<Void>?
    private var writeCheck: Scheduled<Void>?
    private var pendingWrites = 0
    private var lastWriteProgress = NIODeadline.now()
    /// Bytes waiting in the socket's buffer at the last look.
    private var lastBuffered: Int?

    init(limits: ConnectionLimits, tally: AddressTally, logger: Logger) {
        self.limits = limits
        self.tally = tally
        self.logger = logger
    }

    func handlerAdded(context: ChannelHandlerContext) {
        guard let remote = context.channel.remoteAddress?.ipAddress else { return }
        guard tally.admit(remote) else {
            context.close(promise: nil)
            return
        }
        address = remote
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        if let address { tally.release(address) }
        address = nil
        bodyDeadline?.cancel()
        writeCheck?.cancel()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head:
            bodyDeadline?.cancel()
            bodyDeadline = context.eventLoop.assumeIsolated().scheduleTask(in: TimeAmount(limits.bodyTimeout)) {
                self.logger.debug("a request body did not arrive in time; closing the connection")
                context.close(promise: nil)
            }
        case .end:
            bodyDeadline?.cancel()
            bodyDeadline = nil
        case .body:
            break
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let written = promise ?? context.eventLoop.makePromise()
        if pendingWrites == 0 { lastWriteProgress = .now() }
        pendingWrites += 1
        written.futureResult.assumeIsolated().whenComplete { _ in
            self.pendingWrites -= 1
            self.lastWriteProgress = .now()
        }
        if writeCheck == nil { scheduleWriteCheck(context) }
        context.write(data, promise: written)
    }

    /// While writes are pending, looks a few times per `writeTimeout` whether they moved (a
    /// write completed, or fewer bytes wait in the socket's buffer than at the last look: a
    /// slow reader of a large answer is still reading) and closes the connection once they
    /// have not for `writeTimeout`.
    private func scheduleWriteCheck(_ context: ChannelHandlerContext) {
        let every = TimeAmount.nanoseconds(TimeAmount(limits.writeTimeout).nanoseconds / 4)
        writeCheck = context.eventLoop.assumeIsolated().scheduleTask(in: every) {
            self.writeCheck = nil
            guard self.pendingWrites > 0 else {
                self.lastBuffered = nil
                return
            }
            let buffered = try? context.channel.syncOptions?.getOption(.bufferedWritableBytes)
            if let buffered, let last = self.lastBuffered, buffered < last { self.lastWriteProgress = .now() }
            self.lastBuffered = buffered
            if NIODeadline.now() - self.lastWriteProgress >= TimeAmount(self.limits.writeTimeout) {
                self.logger.debug("an answer was not read in time; closing the connection")
                context.close(promise: nil)
            } else {
                self.scheduleWriteCheck(context)
            }
        }
    }
}
