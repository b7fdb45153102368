import Foundation
import QuireCore
import QuireStore

#if canImport(Glibc)
    import Glibc
#endif

/// Buffered standard output: commands append bytes and the buffer goes out in large writes,
/// which keeps `quire list --json` of ten thousand items at a handful of system calls.
///
/// Owned by the command that runs on the main thread; not shared.
struct Output {
    private var buffer: [UInt8] = []
    private let descriptor: Int32

    init(descriptor: Int32 = STDOUT_FILENO) {
        self.descriptor = descriptor
        buffer.reserveCapacity(1 << 16)
    }

    mutating func write(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= 1 << 16 { flush() }
    }

    mutating func line(_ text: String = "") {
        write(text)
        buffer.append(10)
    }

    /// Appends bytes through a closure that writes straight into the buffer.
    mutating func append(_ body: (inout [UInt8]) -> Void) {
        body(&buffer)
        if buffer.count >= 1 << 16 { flush() }
    }

    mutating func flush() {
        var offset = 0
        while offset < buffer.count {
            let written = buffer[offset...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                break
            }
            offset += written
        }
        buffer.removeAll(keepingCapacity: true)
    }
}

/// JSON documents on stdout, as `--json` promises: one document and nothing else.
enum JSONOutput {
    /// Writes items as one JSON array, one item per line, streaming from `produce`.
    static func items(_ out: inout Output, _ produce: ((Item) -> Void) throws -> Void) rethrows {
        out.write("[")
        var first = true
        try produce { item in
            out.append { bytes in
                bytes.append(contentsOf: first ? [10] : [44, 10])
                ItemJSON.append(item, to: &bytes)
            }
            // The first item goes out at once: a script reading the stream (`| head`, `| jq
            // --stream`) starts on it while the rest is read, whatever the store's size.
            if first { out.flush() }
            first = false
        }
        out.line(first ? "]" : "\n]")
    }

    /// Writes one item.
    static func item(_ out: inout Output, _ item: Item) {
        out.append { ItemJSON.append(item, to: &$0) }
        out.line()
    }

    /// Writes any `Encodable` value (small documents: history, status), keys sorted and
    /// pretty-printed, with `Item`s in their SPEC shape.
    static func encode(_ out: inout Output, _ value: some Encodable) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = try encoder.encode(value)
        out.append { $0.append(contentsOf: data) }
        out.line()
    }
}

/// One line on stderr.
enum StandardError {
    static func line(_ text: String) {
        var bytes = Array(text.utf8)
        bytes.append(10)
        _ = bytes.withUnsafeBytes { Glibc.write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }
}
