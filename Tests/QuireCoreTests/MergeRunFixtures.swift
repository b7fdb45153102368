import Foundation
import Testing

/// The five body merges an outside check found losing or repeating a line where both sides
/// change at or inside a run of identical lines (issue 27): base, local, remote, a correct
/// clean merge (`git merge-file` agrees), and what Quire gave. Read from the shared fixture
/// file beside the checkout (`../shared/fixtures/merge-runs.json`), never copied here.
struct MergeRunFixture: Sendable, CustomTestStringConvertible {
    var note: String
    var base: String
    var local: String
    var remote: String
    var expected: String
    var quireGave: String
    var testDescription: String { note }

    /// Where the shared fixtures are: beside the checkout this file is in.
    static let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(
            "shared/fixtures/merge-runs.json"
        )
        .path

    /// Every case of the file; empty when it cannot be read (`theSharedFixturesAreRead` says so).
    static let all: [MergeRunFixture] = (try? read()) ?? []

    static func read() throws -> [MergeRunFixture] {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let cases = try #require(root["cases"] as? [[String: Any]])
        return try cases.map { entry in
            func text(_ key: String) throws -> String { try #require(entry[key] as? String, "no \(key)") }
            let gave = try #require(entry["quireGave"] as? [String: Any])
            return MergeRunFixture(
                note: try text("note"), base: try text("base"), local: try text("local"), remote: try text("remote"),
                expected: try text("expected"), quireGave: try #require(gave["a_body"] as? String))
        }
    }
}

@Suite struct MergeRunFixtureFileTests {
    /// The parameterized fixture test runs no case when the file is missing: this one fails then.
    @Test func theSharedFixturesAreRead() throws {
        let fixtures = try MergeRunFixture.read()
        #expect(fixtures.count == 5, "\(MergeRunFixture.path)")
    }
}
