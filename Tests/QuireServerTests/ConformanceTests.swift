import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import NIOFoundationEssentialsCompat
import QuireCore
import QuireProtocol
import Testing

@testable import QuireServer

/// What the API checker (scripts/api-fuzz.sh) found where the server and openapi.yaml
/// disagreed, pinned down so it stays fixed between runs of the checker.
@Suite struct ConformanceTests {
    @Test func anUndeclaredMethodOnAKnownPathAnswers405WithAllow() async throws {
        try await withHarness(.sqlite) { server in
            let token = try await server.addUser("ann")
            for (method, path, allowed) in [
                (HTTPRequest.Method.trace, SyncProtocol.healthPath, "GET"),
                (.post, SyncProtocol.metricsPath, "GET"),
                (.delete, SyncProtocol.snapshotPath, "GET"),
                (.get, SyncProtocol.syncPath, "POST"),
                (.put, SyncProtocol.syncPath, "POST"),
                (.trace, SyncProtocol.keyringPath, "GET, PUT"),
                (.post, SyncProtocol.keyringPath, "GET, PUT"),
            ] {
                let response = try await server.client.execute(
                    uri: path, method: method, headers: [.authorization: "Bearer \(token)"], body: nil)
                #expect(response.status == .methodNotAllowed, "\(method) \(path): \(response.status)")
                #expect(response.headers[.allow] == allowed, "\(method) \(path)")
                let body = try JSONDecoder().decode(ErrorBody.self, from: Data(buffer: response.body))
                #expect(!body.message.isEmpty)
            }
            // An unknown path is still 404, and the declared methods still answer.
            let unknown = try await server.client.execute(uri: "/v1/nothing", method: .trace, headers: [:], body: nil)
            #expect(unknown.status == .notFound)
            #expect(try await server.send(.get, SyncProtocol.healthPath, token: nil).status == .ok)
        }
    }

    @Test func anEmptyAfterIsMalformedAsTheDocumentSays() async throws {
        try await withHarness(.sqlite) { server in
            let token = try await server.addUser("ann")
            let response = try await server.send(.get, SyncProtocol.snapshotPath + "?after=", token: token)
            let (status, body) = try server.failure(response)
            #expect(status == 400)
            #expect(body.message.contains("after"))
            #expect(try await server.send(.get, SyncProtocol.snapshotPath, token: token).status == .ok)
        }
    }

    @Test func theDocumentSaysWhatACursorIsAndEveryCursorTheServerWritesFitsIt() async throws {
        let pattern = try #require(
            OpenAPIDocument.shared.root["components"]?["schemas"]?["SyncRequest"]?["properties"]?["cursor"]?["pattern"]?
                .string)
        @Sendable func fits(_ cursor: String) throws -> Bool { try Regex(pattern).wholeMatch(in: cursor) != nil }
        #expect(try !fits(""))
        #expect(try !fits("12"))
        try await withHarness(.sqlite) { server in
            let token = try await server.addUser("ann")
            let answer = try await server.sync(
                token, SyncRequest(device: Make.id(), cursor: nil, ops: [Make.create(Make.id(), title: "a")]))
            #expect(try fits(answer.cursor), "\(answer.cursor)")
            #expect(FeedCursor(answer.cursor) != nil)
        }
    }
}
