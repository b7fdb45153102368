import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import NIOFoundationEssentialsCompat
import QuireCore
import QuireProtocol
import Synchronization
import Testing

@testable import QuireServer

/// A clock the tests move by hand (retention is measured in days).
final class TestClock: Sendable {
    private let current = Mutex(Date(timeIntervalSince1970: 1_795_341_600))

    func now() -> Date { current.withLock { $0 } }

    func advance(days: Double) {
        current.withLock { $0 = $0.addingTimeInterval(days * 86_400) }
    }
}

/// The real router over a real store, in process, with helpers that speak the protocol and
/// check every answer against `openapi.yaml`.
struct Harness: Sendable {
    let client: any TestClientProtocol
    let store: any SyncStore
    let clock: TestClock

    // MARK: Users

    /// A new user and its token.
    func addUser(_ name: String) async throws -> String {
        try await ServerAdmin(store: store, now: { clock.now() }).addUser(name: name)
    }

    func user(_ token: String) async throws -> UserID {
        try #require(try await store.tokenOwner(tokenHash: Tokens.hash(token))).user
    }

    // MARK: Requests

    /// Sends a request and checks the answer against the OpenAPI document.
    @discardableResult
    func send(
        _ method: HTTPRequest.Method, _ uri: String, token: String?, body: [UInt8]? = nil,
        headers extra: HTTPFields = [:],
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> TestResponse {
        var headers = extra
        if let token { headers[.authorization] = "Bearer \(token)" }
        if body != nil, headers[.contentType] == nil { headers[.contentType] = "application/json" }
        let response = try await client.execute(
            uri: uri, method: method, headers: headers, body: body.map { ByteBuffer(bytes: $0) })
        let path = String(uri.split(separator: "?", maxSplits: 1).first ?? "")
        let problems = OpenAPIDocument.shared.problems(
            path: path, method: method.rawValue, status: Int(response.status.code), body: Array(buffer: response.body))
        #expect(problems.isEmpty, "answer breaks openapi.yaml: \(problems.prefix(5))", sourceLocation: sourceLocation)
        #expect(response.status.code < 500, "a client request got \(response.status)", sourceLocation: sourceLocation)
        return response
    }

    /// POST /v1/sync with an encoded request.
    func post(_ token: String?, _ request: SyncRequest, sourceLocation: SourceLocation = #_sourceLocation) async throws
        -> TestResponse
    {
        try await send(
            .post, SyncProtocol.syncPath, token: token, body: Array(try JSONEncoder().encode(request)),
            sourceLocation: sourceLocation)
    }

    /// POST /v1/sync that must answer 200.
    func sync(_ token: String, _ request: SyncRequest, sourceLocation: SourceLocation = #_sourceLocation) async throws
        -> SyncResponse
    {
        let response = try await post(token, request, sourceLocation: sourceLocation)
        try #require(
            response.status == .ok, "expected 200, got \(response.status): \(String(buffer: response.body))",
            sourceLocation: sourceLocation)
        return try JSONDecoder().decode(SyncResponse.self, from: Data(buffer: response.body))
    }

    /// An error answer's status and body.
    func failure(_ response: TestResponse, sourceLocation: SourceLocation = #_sourceLocation) throws -> (Int, ErrorBody)
    {
        let body = try JSONDecoder().decode(ErrorBody.self, from: Data(buffer: response.body))
        return (Int(response.status.code), body)
    }

    /// GET /v1/snapshot that must answer 200.
    func snapshot(_ token: String, after: String? = nil, limit: Int? = nil) async throws -> SnapshotPage {
        var query: [String] = []
        if let after { query.append("after=\(after)") }
        if let limit { query.append("limit=\(limit)") }
        let uri = SyncProtocol.snapshotPath + (query.isEmpty ? "" : "?" + query.joined(separator: "&"))
        let response = try await send(.get, uri, token: token)
        try #require(response.status == .ok, "snapshot answered \(response.status): \(String(buffer: response.body))")
        return try JSONDecoder().decode(SnapshotPage.self, from: Data(buffer: response.body))
    }

    /// One round for a simulated device: sends its cursor, then keeps the answer's changes
    /// and cursor.
    @discardableResult
    func round(
        _ device: inout DeviceModel, _ token: String, ops: [Op] = [], limit: Int? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> SyncResponse {
        let request = SyncRequest(device: device.id, cursor: device.cursor, limit: limit, ops: ops)
        let response = try await sync(token, request, sourceLocation: sourceLocation)
        device.receive(response, sent: ops)
        return response
    }

    /// Pulls until `more` is false.
    @discardableResult
    func catchUp(_ device: inout DeviceModel, _ token: String, limit: Int? = nil) async throws -> SyncResponse {
        var response = try await round(&device, token, limit: limit)
        while response.more { response = try await round(&device, token, limit: limit) }
        return response
    }
}

/// Runs `test` against a fresh store of `kind` behind the real router.
func withHarness(
    _ kind: StoreKind, configure: (inout ServerConfiguration) -> Void = { _ in },
    _ test: @Sendable (Harness) async throws -> Void
) async throws {
    var configuration = ServerConfiguration()
    configuration.rateLimit = RateLimit(perSecond: 0)
    configuration.addressRateLimit = RateLimit(perSecond: 0)
    configure(&configuration)
    let made = try kind.makeStore()
    defer { made.removeFiles() }
    let clock = TestClock()
    let app = try buildApplication(
        configuration: configuration, store: made.store, logger: quietLogger, now: { clock.now() })
    try await app.test(.router) { client in
        let harness = Harness(client: client, store: made.store, clock: clock)
        do {
            try await test(harness)
        } catch {
            await made.dropSchema()
            throw error
        }
        await made.dropSchema()
    }
}

/// What one device knows: its cursor and the items as the server last sent them.
struct DeviceModel: Sendable {
    let id = UUID().uuidString.lowercased()
    var cursor: String?
    var items: [String: ChangeItem] = [:]
    /// Every change received, in order.
    var received: [ChangeItem] = []

    /// Keeps the answer's changes and cursor, and first what the results of `sent` say: the
    /// server does not send a device's own writes back, so the device applies them itself, as
    /// the real client does (the op's values, the server's revision, version and times; or the
    /// whole item when the op was applied on top of a version the device had not seen).
    mutating func receive(_ response: SyncResponse, sent: [Op] = []) {
        for (op, result) in zip(sent, response.results) where result.status == .applied {
            if let current = result.current {
                items[op.item] = current
                continue
            }
            guard let rev = result.rev else { continue }
            let created = UUIDv7Generator.creationTime(ofID: op.item) ?? Date(timeIntervalSince1970: 0)
            var item =
                items[op.item]?.item(syncState: .synced, doneAt: nil)
                ?? Item(id: op.item, title: "", createdAt: created)
            if op.kind == .delete {
                item.deleted = true
            } else {
                item.deleted = false
                item = (try? item.applying((op.fields ?? [:]).mapValues(\.to), now: Date())) ?? item
            }
            var written = ChangeItem(item)
            written.rev = rev
            written.version = result.version
            written.updatedAt = result.updatedAt ?? written.updatedAt
            written.doneAt = written.done ? result.doneAt : nil
            items[op.item] = written
        }
        for change in response.changes {
            items[change.id] = change
            received.append(change)
        }
        cursor = response.cursor
    }

    /// The state hash of what this device holds.
    var stateHash: String { StateHash(items: items.values).hex }
}

// MARK: - Op builders

enum Make {
    /// A new UUIDv7.
    static func id() -> String {
        var generator = UUIDv7Generator()
        var random = SystemRandomNumberGenerator()
        return generator.next(now: Date(), using: &random)
    }

    static func create(_ item: String, title: String, _ extra: [Field: FieldValue] = [:], op: String = Make.id()) -> Op
    {
        var fields: [Field: FieldChange] = [.title: FieldChange(from: .null, to: .string(title))]
        for (field, value) in extra { fields[field] = FieldChange(from: .null, to: value) }
        return Op(id: op, item: item, kind: .create, baseRev: 0, fields: fields)
    }

    static func update(
        _ item: String, baseRev: Int, _ changes: [Field: (FieldValue, FieldValue)], op: String = Make.id()
    ) -> Op {
        Op(
            id: op, item: item, kind: .update, baseRev: baseRev,
            fields: changes.mapValues { FieldChange(from: $0.0, to: $0.1) })
    }

    static func delete(_ item: String, baseRev: Int, op: String = Make.id()) -> Op {
        Op(id: op, item: item, kind: .delete, baseRev: baseRev)
    }
}

/// A count shared between tasks.
final class SharedCounter: Sendable {
    private let count = Mutex(0)

    func increment() { count.withLock { $0 += 1 } }
    var value: Int { count.withLock { $0 } }
}

extension OpResult {
    /// The result without the version and times the server adds to an applied op, which
    /// depend on the epoch and the clock, and the tombstone a delete's answer carries: for
    /// comparing with `.applied(op, rev:)`.
    var withoutServerFacts: OpResult {
        var copy = self
        copy.version = nil
        copy.createdAt = nil
        copy.updatedAt = nil
        copy.doneAt = nil
        copy.current = copy.status == .applied ? nil : copy.current
        return copy
    }
}
