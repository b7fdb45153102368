import Foundation
import Synchronization

@testable import QuireCrypto

/// A predictable random source (SplitMix64 from a seed): pins sealed values byte for byte.
final class FixedRandom: RandomSource {
    private let state: Mutex<UInt64>

    init(seed: UInt64) { state = Mutex(seed) }

    func fill(_ buffer: UnsafeMutableBufferPointer<UInt8>) {
        state.withLock { state in
            for index in buffer.indices {
                state &+= 0x9e37_79b9_7f4a_7c15
                var mixed = state
                mixed = (mixed ^ (mixed >> 30)) &* 0xbf58_476d_1ce4_e5b9
                mixed = (mixed ^ (mixed >> 27)) &* 0x94d0_49bb_1331_11eb
                buffer[index] = UInt8(truncatingIfNeeded: mixed ^ (mixed >> 31))
            }
        }
    }
}

/// What the key ring and field tests share: Argon2id's smallest limits, so a test takes
/// milliseconds (the passphrase protects nothing here), and data keys made from known bytes.
enum TestKeys {
    static let fast = KDFParameters.minimum

    /// Data keys with the given ids, key n being the bytes first+n, first+n+1, …; the last is
    /// current.
    static func dataKeys(_ ids: [UInt32], first: Int = 0) -> DataKeys {
        let keys = ids.map { id in
            let material = (0..<32).map { UInt8(truncatingIfNeeded: first + Int(id) + $0) }
            return DataKey(id: id, material: SecretBytes(copying: material))
        }
        return DataKeys(currentID: ids.last!, keys: keys)
    }

    static func json(_ text: String) -> Data { Data(text.utf8) }
}
