import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

@testable import QuireServer

/// Says plainly when the PostgreSQL half of the protocol suite does not run, and checks that
/// the test database answers when it does.
@Suite struct PostgreSQLRunTests {
    @Test(.disabled(if: StoreKind.postgresURL == nil, StoreKind.skipMessage))
    func theTestDatabaseIsReachable() async throws {
        try await withHarness(.postgres) { server in
            let response = try await server.send(.get, "/healthz", token: nil)
            #expect(response.status == .ok)
        }
    }
}
