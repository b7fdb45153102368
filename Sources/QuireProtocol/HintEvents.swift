/// Reads the hint stream (`GET /v1/hints`, Server-Sent Events) as it arrives, in any pieces.
///
/// Only what Quire's server sends is understood: `event: feed` with `data: {"seq":N}`, comment
/// lines (heartbeats) and `retry:`. Anything else, or a line longer than `maxLine`, is garbage:
/// the caller drops the stream and connects again, rather than trusting a confused one.
public struct HintStreamParser: Sendable {
    /// What one chunk of the stream said.
    public enum Signal: Hashable, Sendable {
        /// The user's feed moved to this sequence number.
        case feed(Int64)
        /// A heartbeat: the stream is alive, nothing moved.
        case heartbeat
    }

    public struct Garbage: Error, Hashable, Sendable, CustomStringConvertible {
        public let description: String
    }

    public static let maxLine = 1_024

    private var line: [UInt8] = []
    private var event = ""
    private var data = ""

    public init() {}

    /// The signals complete in `bytes` (with what earlier chunks left unfinished).
    public mutating func read(_ bytes: some Sequence<UInt8>) throws(Garbage) -> [Signal] {
        var signals: [Signal] = []
        for byte in bytes {
            if byte == UInt8(ascii: "\n") {
                if let signal = try take(line) { signals.append(signal) }
                line.removeAll(keepingCapacity: true)
            } else if byte != UInt8(ascii: "\r") {
                line.append(byte)
                if line.count > Self.maxLine {
                    throw Garbage(description: "a hint line longer than \(Self.maxLine) bytes")
                }
            }
        }
        return signals
    }

    /// Handles one complete line; a blank line ends an event.
    private mutating func take(_ line: [UInt8]) throws(Garbage) -> Signal? {
        guard let text = String(validating: line, as: UTF8.self) else {
            throw Garbage(description: "a hint line that is not UTF-8")
        }
        if text.isEmpty {
            defer { (event, data) = ("", "") }
            if event.isEmpty && data.isEmpty { return nil }
            guard event == "feed", let seq = HintStreamParser.seq(in: data) else {
                throw Garbage(description: "an unknown hint event '\(event)'")
            }
            return .feed(seq)
        }
        if text.hasPrefix(":") { return .heartbeat }
        let (field, value) =
            text.firstIndex(of: ":").map {
                (String(text[..<$0]), String(text[text.index(after: $0)...]).drop { $0 == " " })
            } ?? (text, "")
        switch field {
        case "event": event = String(value)
        case "data": data += String(value)
        case "retry", "id": break
        default: throw Garbage(description: "an unknown hint field '\(field)'")
        }
        return nil
    }

    /// N of `{"seq":N}`.
    private static func seq(in data: String) -> Int64? {
        let prefix = #"{"seq":"#
        guard data.hasPrefix(prefix), data.hasSuffix("}") else { return nil }
        let digits = data.dropFirst(prefix.count).dropLast()
        guard !digits.isEmpty, digits.count <= 18, digits.allSatisfy(\.isASCII) else { return nil }
        return Int64(digits).flatMap { $0 >= 0 ? $0 : nil }
    }
}
