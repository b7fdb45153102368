import Foundation
import QuireCore
import QuireProtocol
import Testing

/// The hand-written request, result and item JSON must say exactly what the `Codable` forms
/// say, and the server's fast reader must read back exactly what the writer wrote.
@Suite struct CompactWireTests {
    /// Text with everything an escaper can get wrong: quotes, backslashes, every control
    /// character, a slash, non-ASCII letters, an emoji, and U+2028.
    static func text(_ random: inout SeededRandom) -> String {
        let pieces = [
            "", "Buy milk", "\"", "\\", "/", "ünïcödé", "😀", "\u{2028}", "a\nb", "\t", "{\"sha256\":1}",
            String(UnicodeScalar(UInt8.random(in: 0...31, using: &random))),
        ]
        return (0..<Int.random(in: 0...4, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
    }

    static func value(_ random: inout SeededRandom) -> FieldValue {
        switch Int.random(in: 0...4, using: &random) {
        case 0: .null
        case 1: .string(text(&random))
        case 2: .bool(Bool.random(using: &random))
        case 3: .strings((0..<Int.random(in: 0...3, using: &random)).map { _ in text(&random) })
        default: .sha256(String(repeating: "0f", count: 32))
        }
    }

    static func request(_ random: inout SeededRandom) -> SyncRequest {
        let ops = (0..<Int.random(in: 0...20, using: &random)).map { index -> Op in
            let kind = [OpKind.create, .update, .delete].randomElement(using: &random)!
            var fields: [Field: FieldChange]?
            if kind != .delete {
                var chosen: [Field: FieldChange] = [:]
                for field in Field.allCases where Bool.random(using: &random) {
                    chosen[field] = FieldChange(from: value(&random), to: value(&random))
                }
                fields = chosen
            }
            return Op(
                id: UUID().uuidString.lowercased(), item: "item-\(index % 5)", kind: kind,
                baseRev: Int.random(in: 0...Int.max, using: &random), fields: fields)
        }
        return SyncRequest(
            device: UUID().uuidString.lowercased(), cursor: Bool.random(using: &random) ? nil : text(&random),
            limit: Bool.random(using: &random) ? nil : Int.random(in: 1...5000, using: &random), ops: ops)
    }

    static func item(_ random: inout SeededRandom) -> ChangeItem {
        ChangeItem(
            id: UUID().uuidString.lowercased(), rev: Int.random(in: 0...1_000_000, using: &random),
            deleted: Bool.random(using: &random), kind: Bool.random(using: &random) ? .note : .task,
            title: text(&random), body: text(&random), tags: [text(&random), text(&random)],
            done: Bool.random(using: &random), due: Bool.random(using: &random) ? nil : Day("2026-11-22"),
            priority: Priority.allCases.randomElement(using: &random)!, pinned: Bool.random(using: &random),
            attachments: (0..<Int.random(in: 0...2, using: &random)).map { _ in attachment(&random) },
            createdAt: Date(
                timeIntervalSince1970: Double(Int64.random(in: 0...4_000_000_000_000, using: &random)) / 1000),
            updatedAt: Date(
                timeIntervalSince1970: Double(Int64.random(in: 0...4_000_000_000_000, using: &random)) / 1000))
    }

    /// A file reference with a name that has spaces, quotes or emoji, with or without a key.
    static func attachment(_ random: inout SeededRandom) -> AttachedFile {
        let names = ["tickets.pdf", "photo of the sink.jpg", "\"quoted\" ünï 😀.txt", "back\\slash"]
        return AttachedFile(
            name: names.randomElement(using: &random)!, size: Int64.random(in: 0...(1 << 40), using: &random),
            mediaType: "application/pdf",
            hash: (0..<32).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &random)) }.joined(),
            wrappedKey: Bool.random(using: &random) ? "a2V5LWJ5dGVz_-" : nil)
    }

    @Test(arguments: [1, 2, 3, 4, 5] as [UInt64])
    func theWrittenRequestReadsBackTheSameBothWays(seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        for _ in 0..<200 {
            let request = Self.request(&random)
            let bytes = request.compactJSON()
            #expect(try JSONDecoder().decode(SyncRequest.self, from: Data(bytes)) == request, "seed \(seed)")
            #expect(bytes.withUnsafeBufferPointer(SyncRequest.readCompact) == request, "seed \(seed)")
        }
    }

    @Test func anyOtherShapeIsLeftToTheFullDecoder() throws {
        var random = SeededRandom(seed: 9)
        let request = Self.request(&random)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let pretty = [UInt8](try encoder.encode(request))
        #expect(pretty.withUnsafeBufferPointer(SyncRequest.readCompact) == nil)
        let compact = request.compactJSON()
        for cut in [1, compact.count / 2, compact.count - 1] {
            #expect(Array(compact[..<cut]).withUnsafeBufferPointer(SyncRequest.readCompact) == nil, "cut at \(cut)")
        }
        let otherVersion = Array(
            String(decoding: compact, as: UTF8.self)
                .replacingOccurrences(of: "{\"protocol\":1,", with: "{\"protocol\":2,").utf8)
        #expect(otherVersion.withUnsafeBufferPointer(SyncRequest.readCompact) == nil)
        let unknownKey = Array(String(decoding: compact, as: UTF8.self).dropLast().utf8) + Array(",\"extra\":1}".utf8)
        #expect(unknownKey.withUnsafeBufferPointer(SyncRequest.readCompact) == nil)
    }

    @Test func theWrittenItemAndResultsDecodeAsTheyWereMade() throws {
        var random = SeededRandom(seed: 11)
        for _ in 0..<300 {
            let item = Self.item(&random)
            let decoded = try JSONDecoder().decode(ChangeItem.self, from: Data(item.compactJSON().utf8))
            #expect(decoded == item)
            let results: [OpResult] = [
                .applied("a", rev: item.rev), .conflict("b", current: item), .skipped("c"),
                .rejected("d", reason: Self.text(&random)),
                .applied("e", item: item, exact: Bool.random(using: &random), created: Bool.random(using: &random)),
            ]
            for result in results {
                #expect(try JSONDecoder().decode(OpResult.self, from: Data(result.compactJSON().utf8)) == result)
            }
        }
    }

    @Test func timesAreWrittenToTheMillisecondTheyHold() {
        // 0x0193a9d27fff ms: a Double of seconds sits a hair below .119; it is still .119.
        #expect(Timestamp.string(from: Date(timeIntervalSince1970: 1_733_720_965.119)) == "2024-12-09T05:09:25.119Z")
        #expect(Timestamp.string(from: Date(timeIntervalSince1970: 1_733_720_965.1194)) == "2024-12-09T05:09:25.119Z")
        #expect(Timestamp.string(from: Date(timeIntervalSince1970: -0.001)) == "1969-12-31T23:59:59.999Z")
        var random = SeededRandom(seed: 3)
        for _ in 0..<1000 {
            let milliseconds = Int64.random(in: -2_000_000_000_000...250_000_000_000_000, using: &random)
            let date = Date(timeIntervalSince1970: Double(milliseconds) / 1000)
            let text = Timestamp.string(from: date)
            #expect(Timestamp.date(from: text) == date, "\(text) from \(milliseconds) ms")
            #expect(
                text == date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: .gmt))
                    || milliseconds % 1000 != 0, "\(text)")
        }
    }

    /// An answer as `quire-server` writes it: results and stored item documents spliced in.
    static func serverAnswer(_ response: SyncResponse) -> [UInt8] {
        var bytes = Array("{\"results\":[".utf8)
        for (index, result) in response.results.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            result.appendCompactJSON(to: &bytes)
        }
        bytes += Array("],\"changes\":[".utf8)
        for (index, item) in response.changes.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            bytes += Array(item.compactJSON().utf8)
        }
        bytes += Array("],\"cursor\":".utf8)
        CompactJSON.appendString(response.cursor, to: &bytes)
        bytes += Array((response.more ? ",\"more\":true" : ",\"more\":false").utf8)
        bytes += Array(",\"epoch\":".utf8)
        CompactJSON.appendString(response.epoch, to: &bytes)
        bytes += Array(",\"stateHash\":".utf8)
        CompactJSON.appendString(response.stateHash, to: &bytes)
        bytes.append(UInt8(ascii: "}"))
        return bytes
    }

    @Test(arguments: [21, 22, 23] as [UInt64])
    func theServersAnswerReadsBackTheSameBothWays(seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        for _ in 0..<100 {
            let changes = (0..<Int.random(in: 0...12, using: &random)).map { _ in Self.item(&random) }
            let results = (0..<Int.random(in: 0...6, using: &random)).map { index -> OpResult in
                switch index % 4 {
                case 0 where Bool.random(using: &random):
                    .applied("op-\(index)", item: Self.item(&random), exact: true, created: Bool.random(using: &random))
                case 0: .applied("op-\(index)", rev: Int.random(in: 1...1000, using: &random))
                case 1: .conflict("op-\(index)", current: Self.item(&random))
                case 2: .skipped("op-\(index)")
                default: .rejected("op-\(index)", reason: Self.text(&random))
                }
            }
            let response = SyncResponse(
                results: results, changes: changes, cursor: "42.5b0c2f4e", more: Bool.random(using: &random),
                epoch: "5b0c2f4e", stateHash: String(repeating: "9f", count: 32))
            let bytes = Self.serverAnswer(response)
            #expect(try JSONDecoder().decode(SyncResponse.self, from: Data(bytes)) == response, "seed \(seed)")
            #expect(bytes.withUnsafeBufferPointer(SyncResponse.readCompact) == response, "seed \(seed)")
        }
        // Another writer's shape is left to the full decoder.
        var random2 = SeededRandom(seed: seed)
        let other = SyncResponse(
            results: [], changes: [Self.item(&random2)], cursor: "1", more: false, epoch: "e", stateHash: "h")
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        #expect(Array(try encoder.encode(other)).withUnsafeBufferPointer(SyncResponse.readCompact) == nil)
    }
}
