/// The short ids people read and type: a few hex digits taken from the random end of an
/// item's UUIDv7.
///
/// A UUIDv7 starts with a timestamp, so items made close together share their first
/// characters; its last 15 hex digits are random. A short id is the shortest piece of those
/// random digits that no other item on this device already uses, at least `minimumLength`
/// long. The store gives each item its short id once, when the item first arrives, and keeps
/// it: an id typed yesterday names the same item today, whatever other devices sync in.
/// Two devices usually agree, because each tries the same pieces in the same order.
public enum ShortID {
    /// The shortest short id: as short as the shortest id prefix SPEC accepts.
    public static let minimumLength = 4
    /// The longest piece tried before falling back to longer suffixes; every item of a store
    /// up to 100,000 items finds a free piece this long.
    public static let preferredMaximumLength = 6
    /// How many trailing hex digits of a UUIDv7 are random (`rand_b` without its variant bits).
    static let randomDigits = 15

    /// The pieces to try for `id`, in order: its last 4, 5 and 6 hex digits, then the other
    /// 6-digit windows of the random part, then longer suffixes, then all 32 digits (which
    /// nothing else can hold, ids being unique).
    public static func candidates(for id: String) -> [String] {
        let hex = Array(id.lowercased().utf8.filter { $0 != UInt8(ascii: "-") })
        func piece(_ range: Range<Int>) -> String { String(decoding: hex[range], as: UTF8.self) }
        let random = min(randomDigits, hex.count)
        var result: [String] = []
        for length in minimumLength...preferredMaximumLength where length <= random {
            result.append(piece(hex.count - length..<hex.count))
        }
        if random > preferredMaximumLength {
            for shift in 1...(random - preferredMaximumLength) {
                let end = hex.count - shift
                result.append(piece(end - preferredMaximumLength..<end))
            }
            for length in (preferredMaximumLength + 1)...random {
                result.append(piece(hex.count - length..<hex.count))
            }
        }
        if random < hex.count || result.isEmpty { result.append(piece(0..<hex.count)) }
        return result
    }
}
