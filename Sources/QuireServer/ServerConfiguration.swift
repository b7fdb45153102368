import Foundation
import QuireProtocol

/// Where the server keeps its data.
public enum StoreLocation: Sendable, Hashable {
    /// An SQLite file (created when missing).
    case sqlite(path: String)
    /// A PostgreSQL database shared by any number of server processes.
    case postgres(url: String)
}

/// Everything `quire-server serve` can be told; the defaults are SPEC.md's.
public struct ServerConfiguration: Sendable {
    public var host = "127.0.0.1"
    /// 0 picks a free port (the log line "listening on …" says which).
    public var port = 8080
    public var store = StoreLocation.sqlite(path: "./quire-server.db")
    /// How long a write to a SQLite store waits for the database's lock (another process
    /// holding it, a backup tool) before its request is answered 503 and the device retries.
    public var sqliteBusyTimeout: TimeInterval = SQLiteStore.defaultBusyTimeout
    /// PEM files; both or neither.
    public var tlsCertificatePath: String?
    public var tlsKeyPath: String?
    /// Tombstones and idempotency records older than this are purged.
    public var retentionDays = 90
    /// How often the retention purge runs while serving.
    public var purgeInterval: Duration = .seconds(3600)
    public var limits = RequestLimits()
    public var connections = ConnectionLimits()
    public var rateLimit = RateLimit()
    /// Unauthenticated requests (`/healthz` and 401 answers) per client address.
    public var addressRateLimit = RateLimit(perSecond: 5, burst: 20)
    /// Serve `/metrics` on this address and port instead of the main one (port 0 picks one;
    /// the log says which).
    public var metricsListen: (host: String, port: Int)?
    /// When set, `/metrics` answers only `Authorization: Bearer <this>`.
    public var metricsToken: String?
    /// Hint streams (`GET /v1/hints`) one user may hold at once.
    public var hintStreamsPerUser = 16
    /// Hint streams this process holds at once, for all users.
    public var hintStreams = 2_000
    /// How long a hint stream stays open before the server ends it (the device reconnects).
    public var hintLifetime: Duration = .seconds(30 * 60)

    /// Bounds of the live-sync hint streams.
    var hints: HintHub.Limits {
        var limits = HintHub.Limits()
        limits.perUser = hintStreamsPerUser
        limits.total = hintStreams
        limits.lifetime = hintLifetime
        return limits
    }
    /// Most pooled connections per process (PostgreSQL only).
    public var postgresConnections = 16

    public init() {}
}

/// The bounds on what one request may carry or ask for.
public struct RequestLimits: Sendable, Hashable {
    public var maxRequestBytes = 8 << 20
    public var maxOpsPerBatch = 1000
    public var maxItemBytes = SyncLimits.maxItemBytes
    public var defaultPageLimit = 500
    public var maxPageLimit = 5000
    /// A page stops growing once its items pass this many bytes (it always carries one).
    public var maxPageBytes = 4 << 20
    /// Bytes one user's stored rows may take (item documents, tombstones until purged,
    /// remembered answers); 0 for no limit. See `PushPlanner.quotaBytes`.
    public var userQuotaBytes: Int64 = 1 << 30
    /// The largest attached file (`--max-attachment-mb`, SPEC's default 100 MiB).
    public var maxAttachmentBytes: Int64 = 100 << 20
    /// Bytes of attachment chunks one account may store; 0 for no limit.
    public var attachmentQuotaBytes: Int64 = 10 << 30

    public init() {}
}

/// Per-token request rate: a bucket of `burst` requests refilled at `perSecond`.
public struct RateLimit: Sendable, Hashable {
    /// Requests per second per token; 0 turns rate limiting off.
    public var perSecond: Double = 50
    public var burst: Int = 100

    public init(perSecond: Double = 50, burst: Int = 100) {
        self.perSecond = perSecond
        self.burst = burst
    }
}
