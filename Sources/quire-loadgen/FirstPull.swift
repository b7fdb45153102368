import ArgumentParser
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import QuireCore
import QuireProtocol

/// `quire-loadgen first-pull`: seeds one user with N items, then times a new device pulling
/// them all from a null cursor.
struct FirstPull: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "first-pull", abstract: "Seed N items, then time a new device's first full pull.")

    @OptionGroup var target: Target

    @Option(help: "Items to seed and pull.")
    var items = 100_000

    @Option(help: "Page size of the pull.")
    var limit = 5000

    @Option(help: "Label for the printed row.")
    var label = "server"

    func validate() throws {
        guard (1...1_000_000).contains(items) else { throw ValidationError("--items must be from 1 to 1000000") }
        guard (1...5000).contains(limit) else { throw ValidationError("--limit must be from 1 to 5000") }
    }

    func run() async throws {
        let token = try String(contentsOfFile: target.tokens, encoding: .utf8)
            .split(whereSeparator: \.isNewline).map(String.init).first { !$0.isEmpty }
        guard let token else { throw ValidationError("no token in \(target.tokens)") }
        let client = HTTPClient(eventLoopGroupProvider: .singleton)
        do {
            try await measure(client: client, token: token)
            try await client.shutdown()
        } catch {
            try? await client.shutdown()
            throw error
        }
    }

    func measure(client: HTTPClient, token: String) async throws {
        let url = target.url + SyncProtocol.syncPath

        var generator = UUIDv7Generator()
        var random = SystemRandomNumberGenerator()
        var seeded = 0
        let seeder = UUID().uuidString.lowercased()
        var seedCursor: String?
        while seeded < items {
            let count = min(1000, items - seeded)
            let ops = (0..<count).map { _ -> Op in
                let id = generator.next(now: Date(), using: &random)
                return Op(
                    id: generator.next(now: Date(), using: &random), item: id, kind: .create, baseRev: 0,
                    fields: [
                        .title: FieldChange(from: .null, to: .string("Seeded note \(id.suffix(8))")),
                        .body: FieldChange(
                            from: .null,
                            to: .string("A body of a typical length for a note, with a second line.\n- and a list item")
                        ),
                        .tags: FieldChange(from: .null, to: .strings(["seed", "bench"])),
                    ])
            }
            let answer = try await Self.round(
                client, url: url, token: token, SyncRequest(device: seeder, cursor: seedCursor, limit: 1, ops: ops))
            seedCursor = answer.cursor
            seeded += count
        }

        let device = UUID().uuidString.lowercased()
        var cursor: String?
        var received = 0
        var hashes = StateHash()
        let started = ContinuousClock.now
        var answer: SyncResponse
        repeat {
            answer = try await Self.round(
                client, url: url, token: token, SyncRequest(device: device, cursor: cursor, limit: limit))
            received += answer.changes.count
            for change in answer.changes where !change.deleted { hashes.toggle(id: change.id, rev: change.rev) }
            cursor = answer.cursor
        } while answer.more
        let elapsed = ContinuousClock.now - started
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let verified = hashes.hex == answer.stateHash ? "yes" : "NO"
        print(
            "| \(label) | \(received) | \(String(format: "%.2f s", seconds)) | \(Int(Double(received) / seconds)) | \(verified) |"
        )
    }

    static func round(_ client: HTTPClient, url: String, token: String, _ body: SyncRequest) async throws
        -> SyncResponse
    {
        var exchange = DeviceExchange(client: client, url: url, token: token)
        let (status, answer, bytes) = try await exchange.sync(body, timeout: .seconds(120))
        guard let answer else {
            throw ValidationError("the server answered \(status.code): \(String(buffer: bytes))")
        }
        return answer
    }
}
