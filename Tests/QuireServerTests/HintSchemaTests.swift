import Foundation
import NIOCore
import QuireCore
import QuireProtocol
import QuireTestSupport
import Testing

/// The hint stream's events, as a real server sends them, match what openapi.yaml says of one
/// event (`text/event-stream`'s schema, which schemathesis checks each parsed event against).
@Suite struct HintSchemaTests {
    /// Splits a whole stream into events the way an SSE client does: fields up to a blank
    /// line, comments skipped, and a block without data no event.
    static func events(_ text: String) -> [JSONValue] {
        text.components(separatedBy: "\n\n").compactMap { block in
            var fields: [String: JSONValue] = [:]
            var data: [String] = []
            for line in block.split(separator: "\n") where !line.hasPrefix(":") {
                let parts = line.split(separator: ":", maxSplits: 1).map(String.init)
                let name = parts[0]
                var value = parts.count > 1 ? parts[1] : ""
                if value.hasPrefix(" ") { value.removeFirst() }
                switch name {
                case "data": data.append(value)
                case "retry": if let number = Int(value) { fields["retry"] = .number(Double(number)) }
                default: fields[name] = .string(value)
                }
            }
            guard !data.isEmpty else { return nil }
            fields["data"] = .string(data.joined(separator: "\n"))
            return .object(fields)
        }
    }

    @Test func everyEventOfARealStreamMatchesTheDocumentedSchema() async throws {
        let folder = try ServerProcessTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let db = folder.appendingPathComponent("server.db").path
        let ann = try HintTests.user("ann", db: db)
        // The stream ends after a second, so that it can be read whole.
        let server = try await ServerProcess(serve: ["--db", db, "--rate-limit", "0", "--hint-lifetime", "1"])
        defer { Task { await server.stop() } }
        _ = try await HintTests.push(server.baseURL, token: ann)

        let (status, body) = try await LiveClient.plain.send(
            server.baseURL + SyncProtocol.hintsPath, token: ann, timeout: .seconds(30))
        #expect(status == 200)
        let events = Self.events(String(decoding: body, as: UTF8.self))
        #expect(events == [.object(["event": .string("feed"), "data": .string(#"{"seq":1}"#)])])
        let schema = try #require(
            OpenAPIDocument.shared.root["paths"]?["/v1/hints"]?["get"]?["responses"]?["200"]?["content"]?[
                "text/event-stream"]?["schema"])
        for event in events {
            #expect(OpenAPIDocument.shared.problems(event, schema: schema, at: "$") == [])
        }
        // A heartbeat-only or garbled event would not pass: the schema says something.
        let wrong = JSONValue.object(["event": .string("message"), "data": .string("hello")])
        #expect(OpenAPIDocument.shared.problems(wrong, schema: schema, at: "$").count >= 2)
    }
}
