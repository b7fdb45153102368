/// The machine-readable part of every error answer.
public enum ErrorCode: String, Codable, Sendable, Hashable, CaseIterable {
    /// 400: malformed JSON, wrong types, missing fields, bad ids or limits.
    case badRequest = "bad_request"
    /// 401: no token, or a token the server does not know (or that was revoked).
    case unauthorized
    /// 403: the token is known but may not do this.
    case forbidden
    /// 404: no such endpoint.
    case notFound = "not_found"
    /// 413: the request, the batch or an item is too large.
    case tooLarge = "too_large"
    /// 429: slow down; the `Retry-After` header says for how many seconds.
    case rateLimited = "rate_limited"
    /// 410: the cursor is older than the retention horizon or from another epoch; read the
    /// snapshot and reconcile.
    case resyncRequired = "resync_required"
    /// 400: the request's `protocol` version is one this server does not speak.
    case unsupportedProtocol = "unsupported_protocol"
    /// 5xx: the server failed (its store is unreachable, for example); retry with backoff.
    case `internal`
}

/// `{"error": CODE, "message": TEXT}`: the body of every non-200 answer.
public struct ErrorBody: Hashable, Codable, Sendable, Error {
    public var error: ErrorCode
    /// One line for a person: what was wrong and, where it helps, what to do.
    public var message: String
    /// The account's key ring version, in a refusal of values sealed under a data key older
    /// than the ring's current one (409): the device learns the new key from that ring and
    /// seals its queue again. Absent from every other answer.
    public var keyring: Int?

    public init(_ error: ErrorCode, _ message: String, keyring: Int? = nil) {
        self.error = error
        self.message = message
        self.keyring = keyring
    }
}
