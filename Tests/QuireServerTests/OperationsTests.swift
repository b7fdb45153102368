import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import QuireCore
import QuireProtocol
import Testing

@testable import QuireServer

/// `/healthz`, `/metrics` and the document itself.
@Suite struct OperationsTests {
    @Test(arguments: StoreKind.available)
    func healthAnswersOkWhenTheStoreIsReachable(_ kind: StoreKind) async throws {
        try await withHarness(kind) { server in
            let response = try await server.send(.get, "/healthz", token: nil)
            #expect(response.status == .ok)
            #expect(String(buffer: response.body) == #"{"status":"ok"}"#)
        }
    }

    @Test(arguments: StoreKind.available)
    func metricsCountRequestsAndOpOutcomes(_ kind: StoreKind) async throws {
        try await withHarness(kind) { server in
            let token = try await server.addUser("ann")
            var device = DeviceModel()
            let item = Make.id()
            let create = Make.create(item, title: "a")
            try await server.round(&device, token, ops: [create, Make.update(Make.id(), baseRev: 1, [:])])
            // The replayed create, then a change made on a revision the device never had whose
            // from value does not hold (one made on the create's own base would rest on it).
            try await server.round(
                &device, token, ops: [create, Make.update(item, baseRev: 7, [.title: (.string("z"), .string("b"))])])
            _ = try await server.send(.post, "/v1/sync", token: token, body: Array("{".utf8))

            let response = try await server.send(.get, "/metrics", token: nil)
            #expect(response.status == .ok)
            #expect(response.headers[.contentType]?.hasPrefix("text/plain") == true)
            let text = String(buffer: response.body)
            for line in [
                #"quire_ops_total{status="applied"} 1"#,
                #"quire_ops_total{status="rejected"} 1"#,
                #"quire_ops_total{status="duplicate"} 1"#,
                #"quire_ops_total{status="conflict"} 1"#,
                #"quire_http_requests_total{route="/v1/sync",method="POST",status="200"} 2"#,
                #"quire_http_requests_total{route="/v1/sync",method="POST",status="400"} 1"#,
                "quire_store_errors_total 0",
            ] {
                #expect(text.contains(line), "missing: \(line)")
            }
            #expect(text.contains("quire_http_request_duration_seconds_bucket"))
        }
    }

    @Test func theDocumentDescribesEveryEndpointAndSchema() {
        let document = OpenAPIDocument.shared
        for (path, method, statuses) in [
            ("/v1/sync", "post", [200, 400, 401, 410, 413, 429, 503]),
            ("/v1/snapshot", "get", [200, 400, 401, 429, 503]),
            ("/healthz", "get", [200, 503]),
            ("/metrics", "get", [200]),
        ] {
            for status in statuses {
                if case .failure(let error) = document.responseSchema(path: path, method: method, status: status) {
                    Issue.record("\(error.text)")
                }
            }
        }
        // The checker itself catches what a wrong answer would get wrong.
        let good = JSONValue.object(["error": .string("too_large"), "message": .string("m")])
        #expect(document.problems(good, component: "Error").isEmpty)
        #expect(
            !document.problems(.object(["error": .string("oops"), "message": .string("m")]), component: "Error").isEmpty
        )
        #expect(!document.problems(.object(["error": .string("internal")]), component: "Error").isEmpty)
        #expect(
            !document.problems(
                .object(["error": .string("internal"), "message": .string("m"), "x": .null]), component: "Error"
            ).isEmpty)
        #expect(
            !document.problems(.object(["op": .string("x"), "status": .string("applied")]), component: "OpResult")
                .isEmpty)
    }
}
