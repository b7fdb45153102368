import CSodium

/// Where the random bytes of keys, salts and nonces come from: the system's generator in use,
/// a fixed sequence in the tests that pin the sealed format byte for byte.
public protocol RandomSource: Sendable {
    /// Fills `buffer` with bytes no one can predict.
    func fill(_ buffer: UnsafeMutableBufferPointer<UInt8>)
}

/// The operating system's generator, through libsodium's `randombytes_buf` (`getrandom` on
/// Linux).
public struct SystemRandom: RandomSource {
    public init() {}

    public func fill(_ buffer: UnsafeMutableBufferPointer<UInt8>) {
        Sodium.ready()
        guard let start = buffer.baseAddress else { return }
        randombytes_buf(start, buffer.count)
    }
}
