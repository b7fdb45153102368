import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import NIOFoundationEssentialsCompat
import QuireCore
import QuireProtocol
import Testing

@testable import QuireServer

/// Every kind of bad input gets a clear 4xx with SPEC's error body, and changes nothing.
@Suite struct BadInputTests {
    static let device = "0193a9d2-7c1e-7b5e-9f3a-1c2d3e4f5a6b"
    static let opID = "0193a9d2-8000-7000-8000-000000000001"
    static let itemID = "0193a9d2-7fff-7000-8000-00000000abcd"

    /// A body, what it should answer, and a word the message must contain.
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let body: [UInt8]
        let status: Int
        let code: ErrorCode
        let mentions: String
        var testDescription: String { name }

        init(_ name: String, _ body: String, _ status: Int = 400, _ code: ErrorCode = .badRequest, mentions: String) {
            self.init(name, Array(body.utf8), status, code, mentions: mentions)
        }

        init(_ name: String, _ body: [UInt8], _ status: Int = 400, _ code: ErrorCode = .badRequest, mentions: String) {
            self.name = name
            self.body = body
            self.status = status
            self.code = code
            self.mentions = mentions
        }
    }

    static func op(_ extra: String) -> String {
        #"{"protocol":1,"device":"\#(device)","cursor":null,"ops":[\#(extra)]}"#
    }

    static let validOp =
        #"{"op":"\#(opID)","item":"\#(itemID)","kind":"create","baseRev":0,"fields":{"title":{"from":null,"to":"x"}}}"#

    static let cases: [Case] = [
        Case("empty body", "", mentions: "empty"),
        Case("not JSON", "hello", mentions: "JSON"),
        Case("truncated JSON", String(op(validOp).dropLast(3)), mentions: "JSON"),
        Case("a list instead of an object", "[1,2]", mentions: "body"),
        Case("invalid UTF-8", [0x7B, 0x22, 0x70, 0xFF, 0xFE, 0x22, 0x3A, 0x31, 0x7D], mentions: "UTF-8"),
        Case(
            "invalid UTF-8 inside a string",
            Array(#"{"protocol":1,"device":""#.utf8) + [0xC3, 0x28] + Array(#""}"#.utf8), mentions: "UTF-8"),
        Case("missing protocol", #"{"device":"\#(device)"}"#, mentions: "protocol"),
        Case("protocol as a string", #"{"protocol":"1","device":"\#(device)"}"#, mentions: "protocol"),
        Case(
            "unknown protocol", #"{"protocol":2,"device":"\#(device)"}"#, 400, .unsupportedProtocol,
            mentions: "version 2"),
        Case("missing device", #"{"protocol":1}"#, mentions: "device"),
        Case("device not a UUID", #"{"protocol":1,"device":"phone"}"#, mentions: "device"),
        Case("device as a number", #"{"protocol":1,"device":7}"#, mentions: "device"),
        Case("negative limit", #"{"protocol":1,"device":"\#(device)","limit":-5}"#, mentions: "limit"),
        Case("zero limit", #"{"protocol":1,"device":"\#(device)","limit":0}"#, mentions: "limit"),
        Case("huge limit", #"{"protocol":1,"device":"\#(device)","limit":1000000000}"#, mentions: "limit"),
        Case("limit beyond 64 bits", #"{"protocol":1,"device":"\#(device)","limit":1e400}"#, mentions: "JSON"),
        Case("fractional limit", #"{"protocol":1,"device":"\#(device)","limit":2.5}"#, mentions: "limit"),
        Case("cursor as a number", #"{"protocol":1,"device":"\#(device)","cursor":5}"#, mentions: "cursor"),
        Case("empty cursor", #"{"protocol":1,"device":"\#(device)","cursor":""}"#, mentions: "cursor"),
        Case("cursor of another form", #"{"protocol":1,"device":"\#(device)","cursor":"12"}"#, mentions: "cursor"),
        Case("ops as an object", #"{"protocol":1,"device":"\#(device)","ops":{}}"#, mentions: "ops"),
        Case("op missing its id", op(#"{"item":"\#(itemID)","kind":"create","baseRev":0}"#), mentions: "op"),
        Case("op id not a UUID", op(#"{"op":"1","item":"\#(itemID)","kind":"create","baseRev":0}"#), mentions: "op"),
        Case(
            "item id not a UUID", op(#"{"op":"\#(opID)","item":"../x","kind":"create","baseRev":0}"#), mentions: "item"),
        Case(
            "unknown op kind", op(#"{"op":"\#(opID)","item":"\#(itemID)","kind":"merge","baseRev":0}"#),
            mentions: "kind"),
        Case(
            "negative baseRev", op(#"{"op":"\#(opID)","item":"\#(itemID)","kind":"update","baseRev":-1}"#),
            mentions: "baseRev"),
        Case(
            "huge baseRev",
            op(#"{"op":"\#(opID)","item":"\#(itemID)","kind":"update","baseRev":99999999999999999999}"#),
            mentions: "baseRev"),
        Case(
            "unknown field",
            op(
                #"{"op":"\#(opID)","item":"\#(itemID)","kind":"create","baseRev":0,"fields":{"colour":{"from":null,"to":"red"}}}"#
            ), mentions: "fields"),
        Case(
            "field change missing to",
            op(#"{"op":"\#(opID)","item":"\#(itemID)","kind":"create","baseRev":0,"fields":{"title":{"from":null}}}"#),
            mentions: "to"),
        Case(
            "field value an object",
            op(
                #"{"op":"\#(opID)","item":"\#(itemID)","kind":"create","baseRev":0,"fields":{"title":{"from":null,"to":{"a":1}}}}"#
            ), mentions: "title"),
        Case(
            "field value a number",
            op(
                #"{"op":"\#(opID)","item":"\#(itemID)","kind":"create","baseRev":0,"fields":{"title":{"from":null,"to":5}}}"#
            ), mentions: "title"),
        Case("deeply nested JSON", String(repeating: "[", count: 100_000), mentions: "JSON"),
        Case(
            "unknown key in an op",
            op(
                #"{"op":"\#(opID)","item":"\#(itemID)","kind":"create","baseRev":0,"colour":"red","fields":{"title":{"from":null,"to":"x"}}}"#
            ), mentions: "'ops[0].colour'"),
        Case(
            "unknown key in a field change",
            op(
                #"{"op":"\#(opID)","item":"\#(itemID)","kind":"create","baseRev":0,"fields":{"title":{"from":null,"to":"x","by":"me"}}}"#
            ), mentions: "'ops[0].fields.title.by'"),
        Case(
            "op kind drop", op(#"{"op":"\#(opID)","item":"\#(itemID)","kind":"drop","baseRev":0}"#),
            mentions: "'ops[0].kind'"),
    ]

    @Test(arguments: StoreKind.available)
    func everyBadInputAnswers4xxWithAMessageAndChangesNothing(_ kind: StoreKind) async throws {
        try await withHarness(kind) { server in
            let token = try await server.addUser("ann")
            let user = try await server.user(token)
            let before = try await server.store.stats(user: user)
            for bad in Self.cases {
                let response = try await server.send(.post, "/v1/sync", token: token, body: bad.body)
                let (status, body) = try server.failure(response)
                #expect(status == bad.status, "\(bad.name): \(status) \(body.message)")
                #expect(body.error == bad.code, "\(bad.name): \(body.error)")
                #expect(body.message.localizedCaseInsensitiveContains(bad.mentions), "\(bad.name): '\(body.message)'")
                #expect(!body.message.contains("\n"), "\(bad.name): message spans lines")
                // Messages are for the client's person, never the server's Swift types.
                #expect(
                    !body.message.contains("Cannot initialize") && !body.message.contains("OpKind"),
                    "\(bad.name): '\(body.message)'")
            }
            #expect(try await server.store.stats(user: user) == before)
        }
    }

    @Test(arguments: StoreKind.available)
    func sizeLimitsAnswer413(_ kind: StoreKind) async throws {
        try await withHarness(
            kind,
            configure: {
                $0.limits.maxRequestBytes = 3 << 20
                $0.limits.maxOpsPerBatch = 50
            }
        ) { server in
            let token = try await server.addUser("ann")
            let user = try await server.user(token)
            let device = Make.id()

            let tooMany = SyncRequest(
                device: device, cursor: nil, ops: (0..<51).map { _ in Make.create(Make.id(), title: "x") })
            var (status, body) = try server.failure(try await server.post(token, tooMany))
            #expect((status, body.error) == (413, .tooLarge))
            #expect(body.message.contains("51"))

            let bigBody = String(repeating: "b", count: Validation.maxBodyBytes + 1)
            let bigItem = SyncRequest(
                device: device, cursor: nil, ops: [Make.create(Make.id(), title: "x", [.body: .string(bigBody)])])
            (status, body) = try server.failure(try await server.post(token, bigItem))
            #expect((status, body.error) == (413, .tooLarge))
            #expect(body.message.contains("body"))

            let bigTitle = String(repeating: "t", count: 70 << 10)
            let wide = SyncRequest(
                device: device, cursor: nil,
                ops: [
                    Make.create(
                        Make.id(), title: bigTitle,
                        [.body: .string(String(repeating: "b", count: Validation.maxBodyBytes))])
                ])
            (status, body) = try server.failure(try await server.post(token, wide))
            #expect((status, body.error) == (413, .tooLarge))

            let huge = Array(repeating: UInt8(ascii: " "), count: 3 << 20 + 1)
            (status, body) = try server.failure(try await server.send(.post, "/v1/sync", token: token, body: huge))
            #expect((status, body.error) == (413, .tooLarge))

            #expect(try await server.store.stats(user: user).seq == 0)

            // A body of exactly 1 MiB is fine.
            let fits = SyncRequest(
                device: device, cursor: nil,
                ops: [
                    Make.create(
                        Make.id(), title: "x", [.body: .string(String(repeating: "b", count: Validation.maxBodyBytes))])
                ])
            #expect(try await server.sync(token, fits).results.first?.status == .applied)
        }
    }

    @Test(arguments: StoreKind.available)
    func badSnapshotQueriesAnswer400(_ kind: StoreKind) async throws {
        try await withHarness(kind) { server in
            let token = try await server.addUser("ann")
            for query in [
                "limit=0", "limit=-1", "limit=abc", "limit=100000", "after=nope", "limit=99999999999999999999999",
            ] {
                let (status, body) = try server.failure(
                    try await server.send(.get, "/v1/snapshot?\(query)", token: token))
                #expect(status == 400, "\(query)")
                #expect(body.error == .badRequest)
            }
        }
    }

    @Test(arguments: StoreKind.available)
    func missingUnknownAndRevokedTokensAnswer401(_ kind: StoreKind) async throws {
        try await withHarness(kind) { server in
            let token = try await server.addUser("ann")
            let request = Array(try JSONEncoder().encode(SyncRequest(device: Make.id(), cursor: nil)))
            for header in [nil, "Bearer", "Basic abc", "Bearer qt_not-a-real-token", "bearer  " + token + "x"]
                as [String?]
            {
                var headers: HTTPFields = [:]
                if let header { headers[.authorization] = header }
                let response = try await server.send(.post, "/v1/sync", token: nil, body: request, headers: headers)
                let (status, body) = try server.failure(response)
                #expect((status, body.error) == (401, .unauthorized), "\(header ?? "none")")
                #expect(response.headers[.wwwAuthenticate] == "Bearer")
            }
            #expect(try await server.send(.get, "/v1/snapshot", token: "qt_wrong").status == .unauthorized)
            #expect(try await server.post(token, SyncRequest(device: Make.id(), cursor: nil)).status == .ok)

            let revoked = try await ServerAdmin(store: server.store, now: { Date() }).revokeTokens(userName: "ann")
            #expect(revoked == 1)
            #expect(try await server.post(token, SyncRequest(device: Make.id(), cursor: nil)).status == .unauthorized)
            let fresh = try await ServerAdmin(store: server.store, now: { Date() }).addToken(userName: "ann")
            #expect(try await server.post(fresh, SyncRequest(device: Make.id(), cursor: nil)).status == .ok)
        }
    }

    @Test(arguments: StoreKind.available)
    func aTokenOverItsRateGets429WithRetryAfter(_ kind: StoreKind) async throws {
        // One token per 100 s: a slow machine cannot refill the bucket between the requests below.
        try await withHarness(kind, configure: { $0.rateLimit = RateLimit(perSecond: 0.01, burst: 3) }) { server in
            let ann = try await server.addUser("ann")
            let bob = try await server.addUser("bob")
            let request = SyncRequest(device: Make.id(), cursor: nil)
            let started = Date()
            for _ in 0..<3 { #expect(try await server.post(ann, request).status == .ok) }
            let limited = try await server.post(ann, request)
            let (status, body) = try server.failure(limited)
            #expect((status, body.error) == (429, .rateLimited))
            let retryAfter = try #require(limited.headers[.retryAfter].flatMap { Int($0) })
            // The wait until the next token at 0.01/s: 100 s less what the requests took (a busy
            // machine can take seconds over them).
            let lowest = Int((100 - Date().timeIntervalSince(started)).rounded(.down)) - 1
            #expect((lowest...100).contains(retryAfter), "the wait until the next token at 0.01/s")
            // Another token has its own bucket.
            #expect(try await server.post(bob, request).status == .ok)
        }
    }

    @Test(arguments: StoreKind.available)
    func unknownRoutesAndMethodsGetJSONErrors(_ kind: StoreKind) async throws {
        try await withHarness(kind) { server in
            let missing = try await server.client.execute(uri: "/v2/sync", method: .post)
            #expect(missing.status == .notFound)
            #expect(try JSONDecoder().decode(ErrorBody.self, from: Data(buffer: missing.body)).error == .notFound)
            let wrongMethod = try await server.client.execute(uri: "/v1/sync", method: .get)
            #expect(wrongMethod.status.code < 500)
            #expect((try? JSONDecoder().decode(ErrorBody.self, from: Data(buffer: wrongMethod.body))) != nil)
        }
    }

    @Test func aTransferCodingOtherThanChunkedAnswers501() async throws {
        try await withHarness(.sqlite) { server in
            let token = try await server.addUser("ann")
            // Not through `server.send`, which holds every answer to a client request under 500.
            let response = try await server.client.execute(
                uri: "/v1/sync", method: .post,
                headers: [.authorization: "Bearer \(token)", .transferEncoding: "gzip, chunked"],
                body: ByteBuffer(string: Self.op(Self.validOp)))
            let (status, body) = try server.failure(response)
            #expect(status == 501)
            #expect(body.message.contains("gzip, chunked"))
            #expect(try await server.store.stats(user: try await server.user(token)).seq == 0)
        }
    }
}
