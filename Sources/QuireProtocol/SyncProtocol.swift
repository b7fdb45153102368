import QuireCore

/// Constants of the sync protocol that client and server share.
///
/// The version travels in every request (`protocol`); a server refuses a version it does not
/// speak with `unsupported_protocol`, so an old client learns to upgrade instead of guessing.
public enum SyncProtocol {
    /// The protocol version this build speaks.
    public static let version = 1

    /// `POST`: one whole round (push results, then a page of changes).
    public static let syncPath = "/v1/sync"
    /// `GET ?after=ID&limit=N`: pages of items (tombstones too) for a device that must resync.
    public static let snapshotPath = "/v1/snapshot"
    /// `GET`: a Server-Sent Events stream of "the feed moved to N" hints for live sync.
    public static let hintsPath = "/v1/hints"
    /// `GET` the account's key ring, `PUT` a new version of it (SPEC: End-to-end encryption).
    public static let keyringPath = "/v1/keyring"
    /// `GET`: 200 when the server's store is reachable.
    public static let healthPath = "/healthz"
    /// `GET`: Prometheus text.
    public static let metricsPath = "/metrics"

    /// The one request content coding a server may accept besides none. A server that takes
    /// gzip-compressed request bodies says so in every answer with `Accept-Encoding: gzip`
    /// (RFC 7694); a client compresses only for a server that said so, so a server without it
    /// never receives a body it cannot read.
    public static let requestCoding = "gzip"
    /// Bodies smaller than this go uncompressed: gzip's own header and trailer cost more than
    /// it saves on a lone small op.
    public static let compressionThreshold = 1024
}

/// The default bounds a server enforces; a server may be configured with other values and
/// answers `413 too_large` (or `400` for a page limit) when a request exceeds them.
///
/// Clients use these to cut their outbox into batches that fit.
public enum SyncLimits {
    /// Largest request body, in bytes.
    public static let maxRequestBytes = 8 << 20
    /// Most operations in one request.
    public static let maxOpsPerBatch = 1000
    /// Largest item: the UTF-8 bytes of its title, body and tags together. The body alone is
    /// also bounded by `Validation.maxBodyBytes` (1 MiB).
    public static let maxItemBytes = Validation.maxItemBytes
    /// Page size used when a request gives no `limit`.
    public static let defaultPageLimit = 500
    /// Largest `limit` a request may ask for; larger (or below 1) is `400 bad_request`.
    public static let maxPageLimit = 5000
}
