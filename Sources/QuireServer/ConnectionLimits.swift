import Foundation
import Logging

#if canImport(Glibc)
    import Glibc
#endif

/// How long one connection may take and how many may be open: what keeps one client from
/// holding the server's descriptors or memory (SPEC "Limits"; `quire-server serve --help`).
public struct ConnectionLimits: Sendable, Hashable {
    /// A connection with no request in progress, or whose request head has not all arrived,
    /// is closed after this long without a complete request part (Hummingbird's idle timeout).
    /// Longer than the client's pooled-connection idle time, so a client never sends on a
    /// connection the server is closing.
    public var idleTimeout: Duration = .seconds(75)
    /// A request's body must all arrive within this long after its head.
    public var bodyTimeout: Duration = .seconds(60)
    /// A response write that makes no progress for this long (a client that does not read)
    /// closes the connection, freeing the answer it held.
    public var writeTimeout: Duration = .seconds(60)
    /// Open connections at once; past it new ones wait in the listen queue. Lowered at start
    /// to what the descriptor limit allows.
    public var maxConnections = 4096
    /// Open connections from one client address; further ones are closed at once, so one
    /// client cannot take the room other clients (and `/healthz`) need.
    public var maxConnectionsPerAddress = 256

    /// Descriptors kept for the store, logs and backups when the connection cap is derived
    /// from the descriptor limit.
    static let reservedDescriptors = 128

    public init() {}

    /// The limits with the connection cap lowered to what the process's descriptor limit
    /// allows, after raising the soft limit to the hard one (a server needs descriptors, and
    /// the default soft limit of 1024 is a desktop's). Says so in the log when it lowers it.
    func fittingDescriptorLimit(logger: Logger) -> ConnectionLimits {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return self }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 { limit = raised }
        }
        let descriptors = Int(clamping: limit.rlim_cur)
        let room = max(1, descriptors - Self.reservedDescriptors)
        var fitted = self
        if maxConnections > room {
            logger.warning(
                "the descriptor limit is \(descriptors): connections are capped at \(room), not \(maxConnections)")
            fitted.maxConnections = room
        }
        fitted.maxConnectionsPerAddress = min(fitted.maxConnectionsPerAddress, fitted.maxConnections)
        return fitted
    }
}
