import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import QuireCore
import QuireProtocol
import Testing

@testable import QuireServer

/// Thousands of random and mutated request bodies: never a 5xx, never a crash, and a request
/// that is refused leaves the store exactly as it was.
@Suite struct FuzzTests {

    /// Valid requests to start mutating from.
    static func seeds(items: [String]) -> [[UInt8]] {
        let device = Make.id()
        let requests = [
            SyncRequest(
                device: device, cursor: nil, limit: 10,
                ops: [Make.create(Make.id(), title: "seed", [.tags: .strings(["a"]), .due: .string("2026-01-01")])]),
            SyncRequest(
                device: device, cursor: nil,
                ops: [
                    Make.update(
                        items[0], baseRev: 1,
                        [
                            .title: (.string("base"), .string("edited")),
                            .body: (.sha256(ContentHash.sha256Hex("")), .string("b")),
                        ])
                ]),
            SyncRequest(device: device, cursor: nil, ops: [Make.delete(items[1], baseRev: 1)]),
            SyncRequest(device: device, cursor: nil, limit: 1),
        ]
        return requests.map { Array(try! JSONEncoder().encode($0)) }
    }

    static let fragments: [String] = [
        "null", "true", "false", "0", "-1", "1e999", "99999999999999999999", "\"\"", "\"x\"", "[]", "{}", "[[[[",
        "\"\\u0000\"", "\"\\ud800\"", "{\"sha256\":\"zz\"}", "\"0193a9d2-7fff-7000-8000-00000000abcd\"", "2.5",
        "\"2026-02-30\"",
        "{\"from\":null,\"to\":\"x\"}", "\"é\"", "\"\u{1F600}\"",
    ]

    static func mutate(_ seed: [UInt8], _ random: inout SeededRandom) -> [UInt8] {
        var bytes = seed
        switch Int.random(in: 0..<8, using: &random) {
        case 0:  // flip random bytes
            for _ in 0..<Int.random(in: 1...4, using: &random) where !bytes.isEmpty {
                bytes[Int.random(in: 0..<bytes.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
            }
        case 1:  // truncate
            bytes = Array(bytes.prefix(Int.random(in: 0...bytes.count, using: &random)))
        case 2:  // replace a JSON value after some colon with a fragment
            let colons = bytes.indices.filter { bytes[$0] == UInt8(ascii: ":") }
            if let colon = colons.randomElement(using: &random) {
                let end =
                    bytes[(colon + 1)...].firstIndex { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "}") }
                    ?? bytes.count
                bytes.replaceSubrange((colon + 1)..<end, with: Array(fragments.randomElement(using: &random)!.utf8))
            }
        case 3:  // duplicate a slice
            if bytes.count > 2 {
                let start = Int.random(in: 0..<bytes.count - 1, using: &random)
                let end = Int.random(in: start..<bytes.count, using: &random)
                bytes.insert(contentsOf: bytes[start..<end], at: end)
            }
        case 4:  // delete a slice
            if bytes.count > 2 {
                let start = Int.random(in: 0..<bytes.count - 1, using: &random)
                bytes.removeSubrange(start..<Int.random(in: start..<bytes.count, using: &random))
            }
        case 5:  // insert invalid UTF-8 or control bytes
            let junk: [[UInt8]] = [[0xFF], [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0x00], [0xF4, 0x90, 0x80, 0x80]]
            bytes.insert(
                contentsOf: junk.randomElement(using: &random)!, at: Int.random(in: 0...bytes.count, using: &random))
        case 6:  // swap a key name for another
            let keys = [
                "protocol", "device", "cursor", "limit", "ops", "op", "item", "kind", "baseRev", "fields", "from", "to",
                "title", "body", "tags",
            ]
            var text = String(decoding: bytes, as: UTF8.self)
            if let from = keys.randomElement(using: &random), let to = keys.randomElement(using: &random),
                let range = text.range(of: "\"\(from)\"")
            {
                text.replaceSubrange(range, with: "\"\(to)\"")
            }
            bytes = Array(text.utf8)
        default:  // pure noise
            bytes = (0..<Int.random(in: 0...64, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
        }
        return bytes
    }

    @Test(arguments: StoreKind.available)
    func randomAndMutatedBodiesNeverCauseA5xxAndRefusedOnesChangeNothing(_ kind: StoreKind) async throws {
        let rounds = kind == .sqlite ? 3000 : 1000
        try await withHarness(kind) { server in
            let token = try await server.addUser("fuzz")
            let user = try await server.user(token)
            let items = [Make.id(), Make.id()]
            _ = try await server.sync(
                token, SyncRequest(device: Make.id(), cursor: nil, ops: items.map { Make.create($0, title: "base") }))
            let seeds = Self.seeds(items: items)
            let seed = UInt64.random(in: 0...UInt64.max)
            var random = SeededRandom(seed: seed)
            var statuses: [Int: Int] = [:]
            var stats = try await server.store.stats(user: user)
            for round in 0..<rounds {
                let body = Self.mutate(seeds.randomElement(using: &random)!, &random)
                let response = try await server.client.execute(
                    uri: "/v1/sync", method: .post, headers: [.authorization: "Bearer \(token)"],
                    body: .init(bytes: body))
                let status = Int(response.status.code)
                statuses[status, default: 0] += 1
                #expect(
                    status < 500, "seed \(seed) round \(round): \(status) for \(String(decoding: body, as: UTF8.self))")
                let problems = OpenAPIDocument.shared.problems(
                    path: "/v1/sync", method: "POST", status: status, body: Array(buffer: response.body))
                #expect(problems.isEmpty, "seed \(seed) round \(round): \(problems.prefix(3))")
                let now = try await server.store.stats(user: user)
                if status != 200 {
                    #expect(
                        now == stats, "seed \(seed) round \(round): a refused request (\(status)) changed the store")
                }
                stats = now
            }
            // The mutations reach both the refusals and the protocol itself.
            #expect((statuses[400] ?? 0) > rounds / 4)
            #expect((statuses[200] ?? 0) > 0)
        }
    }
}
