import Foundation

/// How long to wait before retrying after failures: exponential backoff with full jitter.
///
/// After the n-th failure in a row the wait is uniformly random in
/// `0...min(cap, base · 2^(n-1))`: 1 s, 2 s, 4 s … capped at 60 s. The randomness spreads
/// the retries of many devices after an outage, so they do not all come back in one wave;
/// the random source is passed in so tests can fix it.
public struct SyncBackoff: Hashable, Sendable {
    /// The ceiling of the first wait.
    public var base: TimeInterval
    /// The largest ceiling.
    public var cap: TimeInterval

    public init(base: TimeInterval = 1, cap: TimeInterval = 60) {
        self.base = base
        self.cap = cap
    }

    /// The ceiling of the wait after `failures` failures in a row (at least one).
    public func ceiling(failures: Int) -> TimeInterval {
        let exponent = min(max(failures, 1) - 1, 30)
        return min(cap, base * Double(1 << exponent))
    }

    /// A wait after `failures` failures in a row, in `0..<ceiling`.
    ///
    /// Takes exactly one word from the source (its top 53 bits as a fraction), so that any
    /// source, even one that always answers the same word, gives an answer at once.
    public func delay(failures: Int, using random: inout some RandomNumberGenerator) -> TimeInterval {
        let fraction = Double(random.next() >> 11) * 0x1p-53
        return fraction * ceiling(failures: failures)
    }
}
