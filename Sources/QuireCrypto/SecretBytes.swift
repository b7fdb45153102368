import CSodium

/// Key material in memory of its own, wiped with `sodium_memzero` when the last reference goes.
///
/// Swift arrays and `Data` are copied, grown and freed behind the code's back, so a key kept in
/// one leaves copies in freed memory; this buffer is allocated once, never grows, and is zeroed
/// before it is freed. `@unchecked Sendable`: the bytes are written during `init` only and read
/// only afterwards, so sharing it between threads is safe.
final class SecretBytes: @unchecked Sendable {
    private let buffer: UnsafeMutableBufferPointer<UInt8>

    /// Allocates `count` zeroed bytes and lets `fill` write them; a failing `fill` leaves nothing
    /// behind (the bytes are wiped before the error goes on).
    init<Failure: Error>(
        count: Int, initializingWith fill: (UnsafeMutableBufferPointer<UInt8>) throws(Failure) -> Void
    ) throws(Failure) {
        let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: count)
        buffer.initialize(repeating: 0)
        do {
            try fill(buffer)
        } catch {
            Self.wipe(buffer)
            throw error
        }
        self.buffer = buffer
    }

    /// `count` random bytes from `random`.
    convenience init(random count: Int, from random: some RandomSource) {
        self.init(count: count) { random.fill($0) }
    }

    /// A copy of `bytes` (the caller wipes its own copy when it can).
    convenience init(copying bytes: some Collection<UInt8>) {
        self.init(count: bytes.count) { _ = $0.initialize(fromContentsOf: bytes) }
    }

    deinit { Self.wipe(buffer) }

    var count: Int { buffer.count }

    func withUnsafeBytes<Result, Failure: Error>(
        _ body: (UnsafeBufferPointer<UInt8>) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try body(UnsafeBufferPointer(buffer))
    }

    /// Whether `other` holds the same bytes, in time that does not depend on where they differ
    /// (`sodium_memcmp`), so a comparison leaks nothing of the secret.
    func constantTimeEquals(_ other: [UInt8]) -> Bool {
        guard other.count == buffer.count else { return false }
        return other.withUnsafeBytes { sodium_memcmp(buffer.baseAddress, $0.baseAddress, buffer.count) == 0 }
    }

    private static func wipe(_ buffer: UnsafeMutableBufferPointer<UInt8>) {
        sodium_memzero(buffer.baseAddress, buffer.count)
        buffer.deallocate()
    }
}

/// Zeroes an array that held secret bytes before it is released (`sodium_memzero`).
func wipe(_ bytes: inout [UInt8]) {
    bytes.withUnsafeMutableBytes { sodium_memzero($0.baseAddress, $0.count) }
}
