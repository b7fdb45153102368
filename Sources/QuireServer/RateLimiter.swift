import Synchronization

/// Per-token token buckets, in this process's memory.
///
/// Several processes behind a load balancer each keep their own buckets, so the effective
/// limit there is per process; that bounds abuse, which is all it is for.
final class RateLimiter: Sendable {
    private struct Bucket {
        var tokens: Double
        var updated: ContinuousClock.Instant
    }

    private let limit: RateLimit
    private let buckets = Mutex<[String: Bucket]>([:])

    init(_ limit: RateLimit) {
        self.limit = limit
    }

    /// Takes one request from `key`'s bucket; nil when allowed, else how long to wait.
    func take(_ key: String, now: ContinuousClock.Instant = .now) -> Duration? {
        guard limit.perSecond > 0 else { return nil }
        let capacity = Double(max(1, limit.burst))
        return buckets.withLock { buckets in
            if buckets.count > 100_000 { buckets.removeAll() }
            var bucket = buckets[key] ?? Bucket(tokens: capacity, updated: now)
            let elapsed = now - bucket.updated
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            bucket.tokens = min(capacity, bucket.tokens + max(0, seconds) * limit.perSecond)
            bucket.updated = now
            defer { buckets[key] = bucket }
            if bucket.tokens >= 1 {
                bucket.tokens -= 1
                return nil
            }
            return .milliseconds(Int64(((1 - bucket.tokens) / limit.perSecond * 1000).rounded(.up)))
        }
    }
}
