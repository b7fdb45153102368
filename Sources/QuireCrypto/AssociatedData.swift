/// The bytes that bind a sealed value or a MAC to where it belongs, laid out so no two different
/// places give the same bytes: a fixed label ended by a zero byte, the format, then fixed-width
/// numbers and length-prefixed strings (big-endian), as QuireCrypto's documentation shows.
struct AssociatedData {
    private(set) var bytes: [UInt8]

    init(label: String) {
        bytes = Array(label.utf8) + [0, QuireCrypto.formatVersion]
    }

    /// A key id: 4 bytes, big-endian.
    func appending(_ number: UInt32) -> AssociatedData {
        var copy = self
        copy.bytes += [
            UInt8(number >> 24), UInt8(number >> 16 & 0xff), UInt8(number >> 8 & 0xff), UInt8(number & 0xff),
        ]
        return copy
    }

    /// An id or a name: its UTF-8 length (4 bytes, big-endian), then its UTF-8.
    func appending(_ text: String) -> AssociatedData {
        appending(UInt32(text.utf8.count)).appendingRaw(Array(text.utf8))
    }

    /// Bytes with no length in front: only ever the last part (a MAC's value).
    func appendingRaw(_ raw: some Sequence<UInt8>) -> AssociatedData {
        var copy = self
        copy.bytes += raw
        return copy
    }

    // The labels in use; each names one purpose, so bytes made for one are never valid for another.

    static func field(keyID: UInt32, item: String, field: String) -> [UInt8] {
        AssociatedData(label: "quire.field").appending(keyID).appending(item).appending(field).bytes
    }

    static func mac(keyID: UInt32, item: String, field: String) -> AssociatedData {
        AssociatedData(label: "quire.mac").appending(keyID).appending(item).appending(field)
    }

    static func dataKey(id: UInt32) -> [UInt8] {
        AssociatedData(label: "quire.data-key").appending(id).bytes
    }

    static let ringKeyUnderPassphrase = AssociatedData(label: "quire.ring-key.passphrase").bytes
    static let ringKeyUnderRecoveryKey = AssociatedData(label: "quire.ring-key.recovery").bytes
}
