import Foundation
import Testing

@testable import QuireCore

/// `JSONValueReader` must read what Foundation's `JSONSerialization` reads, or give up: the
/// import trusts it to never accept text Foundation refuses, nor decode a value otherwise.
/// Foundation is the oracle; texts are generated from a seed, and a failing one is shrunk a
/// byte at a time before it is reported.
@Suite struct JSONValueReaderTests {
    /// The reader's answer, and Foundation's (nil when it refuses the text).
    static func answers(_ bytes: [UInt8]) -> (reader: JSONValue?, foundation: JSONValue?) {
        let reader = bytes.withUnsafeBufferPointer(JSONValueReader.value(of:))
        let object = try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])
        return (reader, object.flatMap { JSONValue(foundation: $0) })
    }

    /// What is wrong with the reader's answer to `bytes`; nil when nothing is.
    static func problem(_ bytes: [UInt8]) -> String? {
        let (reader, foundation) = answers(bytes)
        guard let reader else { return nil }
        guard let foundation else { return "accepted text that Foundation refuses" }
        return reader == foundation ? nil : "decoded \(reader), Foundation \(foundation)"
    }

    /// The shortest text, found by dropping bytes, that still has a problem.
    static func shrunk(_ bytes: [UInt8]) -> [UInt8] {
        var current = bytes
        var progress = true
        while progress {
            progress = false
            for width in [8, 4, 2, 1] {
                var start = 0
                while start + width <= current.count {
                    var candidate = current
                    candidate.removeSubrange(start..<start + width)
                    if problem(candidate) != nil {
                        current = candidate
                        progress = true
                    } else {
                        start += 1
                    }
                }
            }
        }
        return current
    }

    static func report(_ bytes: [UInt8], seed: UInt64) {
        let small = shrunk(bytes)
        Issue.record(
            "seed \(seed): \(problem(small) ?? "?"): bytes \(small) (\(String(decoding: small, as: UTF8.self)))")
    }

    @Test func readsGeneratedJSONAsFoundationDoes() {
        var taken = 0
        var failed = 0
        for seed in UInt64(1)...3_000 {
            var generator = JSONTextGenerator(seed: seed)
            let text = generator.text()
            if Self.problem(text.bytes) != nil {
                failed += 1
                if failed <= 3 { Self.report(text.bytes, seed: seed) }
                continue
            }
            let (reader, _) = Self.answers(text.bytes)
            if reader != nil { taken += 1 }
            // Only surrogate escapes, repeated keys and deep nesting are left to Foundation.
            if reader == nil, !text.leavesToFoundation, failed <= 3 {
                failed += 1
                Issue.record("seed \(seed): gave up on plain JSON: \(String(decoding: text.bytes, as: UTF8.self))")
            }
        }
        #expect(failed == 0)
        #expect(taken > 2_000, "the reader read \(taken) of 3,000 texts itself")
    }

    @Test func neverAcceptsWhatFoundationRefuses() {
        var refusedByFoundation = 0
        var failed = 0
        for seed in UInt64(1)...3_000 {
            var generator = JSONTextGenerator(seed: seed)
            let bytes = generator.mutated(generator.text().bytes)
            if Self.answers(bytes).foundation == nil { refusedByFoundation += 1 }
            if Self.problem(bytes) != nil {
                failed += 1
                if failed <= 3 { Self.report(bytes, seed: seed) }
            }
        }
        #expect(failed == 0)
        #expect(refusedByFoundation > 1_000, "only \(refusedByFoundation) of 3,000 edited texts were invalid")
    }

    @Test(arguments: [
        #"{"a": "\ud83d\ude00"}"#,  // a surrogate pair
        #"{"a": 1, "a": 2}"#,  // a repeated key
        #"{"a": 1e400}"#,  // beyond a Double
        String(repeating: "[", count: 40) + String(repeating: "]", count: 40),
        #"{"a": 1,}"#,  // a trailing comma, which Foundation takes
    ])
    func leavesTheRareCasesToFoundation(_ text: String) {
        #expect(Self.answers(Array(text.utf8)).reader == nil)
    }

    @Test(arguments: [
        "{\"a\": \"tab\there\"}",  // a raw control character in a string
        "{\"a\": 01}",
        "{\"a\": -}",
        "{\"a\": 1.}",
        "{\"a\": .5}",
        "{\"a\": tru}",
        "{\"a\": \"\\x\"}",
        "{\"a\" 1}",
        "[1 2]",
        "{\"a\": 1} x",
    ])
    func refusesInvalidJSON(_ text: String) {
        let (reader, foundation) = Self.answers(Array(text.utf8))
        #expect(reader == nil && foundation == nil)
    }

    @Test func refusesInvalidUTF8() {
        let bytes: [UInt8] = Array("{\"a\": \"".utf8) + [0xC3, 0x28] + Array("\"}".utf8)
        #expect(Self.answers(bytes).reader == nil)
    }

    @Test func decodesEveryEscapeAndBooleansApartFromNumbers() {
        let text = #"{"s": "\"\\\/\b\f\n\r\t\u00e9\u0000é😀", "t": true, "one": 1, "n": null, "l": [-0.5e2, {}]}"#
        let value = Self.answers(Array(text.utf8)).reader
        #expect(
            value
                == .object([
                    "s": .string("\"\\/\u{8}\u{C}\n\r\té\u{0}é😀"), "t": .bool(true), "one": .number(1), "n": .null,
                    "l": .array([.number(-50), .object([:])]),
                ]))
    }
}

/// Generates JSON texts from a seed: objects, arrays, strings with escapes and non-ASCII
/// text, numbers in every form JSON allows, spaces between tokens.
struct JSONTextGenerator {
    var random: SeededRandom
    /// Whether the text holds something the reader leaves to Foundation on purpose.
    private(set) var leavesToFoundation = false

    init(seed: UInt64) {
        random = SeededRandom(seed: seed)
    }

    struct Text {
        var bytes: [UInt8]
        var leavesToFoundation: Bool
    }

    mutating func text() -> Text {
        leavesToFoundation = false
        var bytes: [UInt8] = []
        space(&bytes)
        value(&bytes, depth: 0)
        space(&bytes)
        return Text(bytes: bytes, leavesToFoundation: leavesToFoundation)
    }

    /// The text with one to three bytes changed, inserted or removed.
    mutating func mutated(_ bytes: [UInt8]) -> [UInt8] {
        var bytes = bytes
        let alphabet = Array(#"{}[]":,\ -+.eE0123456789tfnul"#.utf8) + [0x00, 0x09, 0x0A, 0x1F, 0x80, 0xC3, 0xFF]
        for _ in 0..<Int.random(in: 1...3, using: &random) {
            let position = bytes.isEmpty ? 0 : Int.random(in: 0..<bytes.count, using: &random)
            switch Int.random(in: 0..<3, using: &random) {
            case 0 where !bytes.isEmpty: bytes[position] = alphabet.randomElement(using: &random)!
            case 1: bytes.insert(alphabet.randomElement(using: &random)!, at: position)
            default: if !bytes.isEmpty { bytes.remove(at: position) }
            }
        }
        return bytes
    }

    private mutating func value(_ bytes: inout [UInt8], depth: Int) {
        let kind = depth > 3 ? Int.random(in: 2..<7, using: &random) : Int.random(in: 0..<7, using: &random)
        switch kind {
        case 0:
            bytes.append(UInt8(ascii: "{"))
            space(&bytes)
            var keys: Set<String> = []
            for index in 0..<Int.random(in: 0...4, using: &random) {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                space(&bytes)
                let key = word()
                if !keys.insert(key).inserted { leavesToFoundation = true }
                string(key, &bytes)
                space(&bytes)
                bytes.append(UInt8(ascii: ":"))
                space(&bytes)
                value(&bytes, depth: depth + 1)
                space(&bytes)
            }
            bytes.append(UInt8(ascii: "}"))
        case 1:
            bytes.append(UInt8(ascii: "["))
            space(&bytes)
            for index in 0..<Int.random(in: 0...4, using: &random) {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                space(&bytes)
                value(&bytes, depth: depth + 1)
                space(&bytes)
            }
            bytes.append(UInt8(ascii: "]"))
        case 2, 3:
            string(text(), &bytes)
        case 4:
            number(&bytes)
        default:
            bytes.append(contentsOf: ["true", "false", "null"].randomElement(using: &random)!.utf8)
        }
    }

    private mutating func word() -> String {
        ["title", "body", "tags", "done", "a", "é", "due", ""].randomElement(using: &random)!
    }

    private mutating func text() -> String {
        let pieces = ["plain", " ", "é", "😀", "\"", "\\", "/", "\n", "\t", "\u{8}", "\u{1F}", "\u{7F}", "中文", "\u{0}"]
        return (0..<Int.random(in: 0...6, using: &random)).map { _ in pieces.randomElement(using: &random)! }
            .joined()
    }

    /// `text` as a JSON string literal, each character escaped one of the ways JSON allows.
    private mutating func string(_ text: String, _ bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        for scalar in text.unicodeScalars {
            let forced = scalar.value < 0x20 || scalar == "\"" || scalar == "\\"
            let escaped = Int.random(in: 0..<4, using: &random) < 2
            switch scalar.value {
            case 0x10000... where escaped:
                // A surrogate pair: valid JSON, left to Foundation.
                leavesToFoundation = true
                let value = scalar.value - 0x10000
                for unit in [0xD800 + (value >> 10), 0xDC00 + (value & 0x3FF)] {
                    bytes.append(contentsOf: String(format: "\\u%04x", unit).utf8)
                }
            case ..<0x10000 where escaped:
                bytes.append(contentsOf: String(format: "\\u%04X", scalar.value).utf8)
            default:
                switch scalar {
                case "\"": bytes.append(contentsOf: #"\""#.utf8)
                case "\\": bytes.append(contentsOf: #"\\"#.utf8)
                case "\n": bytes.append(contentsOf: #"\n"#.utf8)
                case "\t": bytes.append(contentsOf: #"\t"#.utf8)
                case "\u{8}": bytes.append(contentsOf: #"\b"#.utf8)
                case "/" where Bool.random(using: &random): bytes.append(contentsOf: #"\/"#.utf8)
                case _ where forced: bytes.append(contentsOf: String(format: "\\u%04x", scalar.value).utf8)
                default: bytes.append(contentsOf: String(scalar).utf8)
                }
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private mutating func number(_ bytes: inout [UInt8]) {
        var text = Bool.random(using: &random) ? "-" : ""
        text += Bool.random(using: &random) ? "0" : String(Int.random(in: 1...99_999, using: &random))
        if Bool.random(using: &random) { text += "." + String(Int.random(in: 0...999, using: &random)) }
        if Int.random(in: 0..<3, using: &random) == 0 {
            text +=
                ["e", "E"].randomElement(using: &random)! + ["", "+", "-"].randomElement(using: &random)!
                + String(Int.random(in: 0...30, using: &random))
        }
        bytes.append(contentsOf: text.utf8)
    }

    private mutating func space(_ bytes: inout [UInt8]) {
        for _ in 0..<Int.random(in: 0...2, using: &random) {
            bytes.append([0x20, 0x09, 0x0A, 0x0D].randomElement(using: &random)!)
        }
    }
}
