/// The bytes that bind a sealed value or a MAC to where it belongs, laid out so no two different
/// places give the same bytes: a fixed label ended by a zero byte, the format, then fixed-width
/// numbers and length-prefixed strings (big-endian), as QuireCrypto's documentation shows.
/// Built in one buffer sized up front: a pull builds one for every field of every item.
struct AssociatedData {
    private(set) var bytes: [UInt8]

    init(label: StaticString, capacity: Int = 0) {
        bytes = []
        bytes.reserveCapacity(label.utf8CodeUnitCount + 2 + capacity)
        bytes += UnsafeBufferPointer(start: label.utf8Start, count: label.utf8CodeUnitCount)
        bytes += [0, QuireCrypto.formatVersion]
    }

    /// A key id: 4 bytes, big-endian.
    mutating func append(_ number: UInt32) {
        bytes += [UInt8(number >> 24), UInt8(number >> 16 & 0xff), UInt8(number >> 8 & 0xff), UInt8(number & 0xff)]
    }

    /// A chunk's index: 8 bytes, big-endian.
    mutating func append(_ number: UInt64) {
        append(UInt32(number >> 32))
        append(UInt32(number & 0xffff_ffff))
    }

    /// A flag: one byte, 1 or 0.
    mutating func append(_ flag: Bool) {
        bytes.append(flag ? 1 : 0)
    }

    /// An id or a name: its UTF-8 length (4 bytes, big-endian), then its UTF-8.
    mutating func append(_ text: String) {
        append(UInt32(text.utf8.count))
        bytes += text.utf8
    }

    /// Bytes with no length in front: only ever the last part.
    mutating func appendRaw(_ raw: some Sequence<UInt8>) {
        bytes += raw
    }

    // The labels in use; each names one purpose, so bytes made for one are never valid for another.

    /// The labels of a sealed value's place and of a MAC's.
    static let fieldLabel: StaticString = "quire.field"
    static let macLabel: StaticString = "quire.mac"

    static func field(keyID: UInt32, item: String, field: String) -> [UInt8] {
        place(label: fieldLabel, keyID: keyID, item: item, field: field)
    }

    static func dataKey(id: UInt32) -> [UInt8] {
        var data = AssociatedData(label: "quire.data-key", capacity: 4)
        data.append(id)
        return data.bytes
    }

    /// A data key wrapped under the one current before it (a rotation's chain): bound to both
    /// ids, so a server cannot hand a device one key in place of another.
    static func chainedKey(id: UInt32, from: UInt32) -> [UInt8] {
        var data = AssociatedData(label: "quire.chained-key", capacity: 8)
        data.append(from)
        data.append(id)
        return data.bytes
    }

    /// A file's key wrapped under a data key: bound to the key id and the file's content hash,
    /// so a wrapped key opens only in a reference to the content it was made for.
    static func fileKey(keyID: UInt32, contentHash: String) -> [UInt8] {
        var data = AssociatedData(label: "quire.file-key", capacity: 8 + contentHash.utf8.count)
        data.append(keyID)
        data.append(contentHash)
        return data.bytes
    }

    /// Chunk `index` of a file, and whether it is the last: what keeps chunks in their place.
    static func chunk(index: UInt64, isLast: Bool) -> [UInt8] {
        var data = AssociatedData(label: "quire.chunk", capacity: 9)
        data.append(index)
        data.append(isLast)
        return data.bytes
    }

    /// What goes before a sealed chunk's bytes in its address's hash.
    static let chunkAddress = AssociatedData(label: "quire.chunk-address").bytes

    /// What a file's address hashes: its content hash and its wrapped key.
    static func fileAddress(contentHash: String, wrappedKey: String) -> [UInt8] {
        var data = AssociatedData(
            label: "quire.file-address", capacity: 8 + contentHash.utf8.count + wrappedKey.utf8.count)
        data.append(contentHash)
        data.append(wrappedKey)
        return data.bytes
    }

    static let ringKeyUnderPassphrase = AssociatedData(label: "quire.ring-key.passphrase").bytes
    static let ringKeyUnderRecoveryKey = AssociatedData(label: "quire.ring-key.recovery").bytes

    private static func place(label: StaticString, keyID: UInt32, item: String, field: String) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: placeCount(label: label, item: item, field: field)) { buffer, written in
            written = writePlace(label: label, keyID: keyID, item: item, field: field, into: buffer)
        }
    }

    /// The bytes a value's place takes: the label, its zero and the format, the key id, and the
    /// item and the field with their lengths.
    static func placeCount(label: StaticString, item: String, field: String) -> Int {
        label.utf8CodeUnitCount + 2 + 4 + 4 + item.utf8.count + 4 + field.utf8.count
    }

    /// Writes a value's place at the start of `buffer` (which holds at least `placeCount` bytes)
    /// and returns how many bytes it took: the same bytes `field` and `mac` make, without an
    /// array of their own, as a pull needs two for every field of every item.
    static func writePlace(
        label: StaticString, keyID: UInt32, item: String, field: String, into buffer: UnsafeMutableBufferPointer<UInt8>
    ) -> Int {
        var written = 0
        func write(_ bytes: some Collection<UInt8>) {
            written += UnsafeMutableBufferPointer(rebasing: buffer[written...]).initialize(fromContentsOf: bytes)
        }
        func write(byte: UInt8) {
            buffer[written] = byte
            written += 1
        }
        func write(_ number: UInt32) {
            write(byte: UInt8(truncatingIfNeeded: number >> 24))
            write(byte: UInt8(truncatingIfNeeded: number >> 16))
            write(byte: UInt8(truncatingIfNeeded: number >> 8))
            write(byte: UInt8(truncatingIfNeeded: number))
        }
        write(UnsafeBufferPointer(start: label.utf8Start, count: label.utf8CodeUnitCount))
        write(byte: 0)
        write(byte: QuireCrypto.formatVersion)
        write(keyID)
        write(UInt32(item.utf8.count))
        write(item.utf8)
        write(UInt32(field.utf8.count))
        write(field.utf8)
        return written
    }
}

extension AssociatedData {
    /// Zeroes the bytes (a recovery key's checksum message holds the key).
    mutating func zeroBytes() {
        wipe(&bytes)
    }
}
