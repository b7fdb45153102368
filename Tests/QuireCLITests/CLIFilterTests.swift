import Foundation
import Testing

/// `quire list FILTER…` and `quire search`, on the built binary: the filter language of SPEC's
/// Filters, a bad term as one line that changes nothing, and `-tag` read as a term, not a flag.
@Suite struct CLIFilterTests {
    /// Three items; the day is fixed by TZ=UTC and the dates are written in full.
    func threeItems(_ cli: QuireCLI) throws -> (milk: String, fence: String, reading: String) {
        let milk = try cli.add("Buy milk", "--task", "--tag", "home", "--due", "2026-11-27")
        let fence = try cli.add("Garden fence", "--task", "--tag", "Garden", "--priority", "h", "--due", "2026-11-29")
        let reading = try cli.add("Reading notes", "--tag", "reading list", "--body", "milk prices")
        return (milk, fence, reading)
    }

    func ids(_ cli: QuireCLI, _ arguments: String...) throws -> [String] { try cli.listedIDs(arguments) }

    @Test func termsNarrowAndCombine() throws {
        let cli = try QuireCLI()
        defer { cli.remove() }
        let (milk, fence, reading) = try threeItems(cli)
        #expect(try ids(cli, "+home") == [milk])
        #expect(try ids(cli, "+garden") == [fence])
        #expect(try ids(cli, "-home") == [reading, fence])
        #expect(try ids(cli, "#Home", "kind:task") == [milk])
        #expect(try ids(cli, "+reading list") == [reading])
        #expect(try ids(cli, "milk") == [reading, milk])
        #expect(try ids(cli, "milk", "kind:task") == [milk])
        #expect(try ids(cli, "(+home or +garden)", "priority:high") == [fence])
        #expect(try ids(cli, "+home", "or", "+garden", "priority:high") == [fence, milk])
        #expect(try ids(cli, "due.before:2026-11-29") == [milk])
        #expect(try ids(cli, "due.after:2026-11-27") == [fence])
        #expect(try ids(cli, "due:none") == [reading])
        #expect(try ids(cli, "--tasks", "milk") == [milk])
    }

    @Test(arguments: [
        ["foo:bar"], ["kind:idea"], ["due:2026-02-30"], ["(+home"], ["or", "+home"], ["--bogus"], ["project:home..x"],
    ])
    func aBadTermIsOneLineAndExitsOne(_ arguments: [String]) throws {
        let cli = try QuireCLI()
        defer { cli.remove() }
        _ = try threeItems(cli)
        let before = try cli.snapshot()
        let result = try cli.run(["list"] + arguments)
        #expect(result.status == 1, "\(arguments): \(result.stderr)")
        #expect(result.oneErrorLine, "\(arguments): \(result.stderr)")
        #expect(result.stdout.isEmpty)
        #expect(try cli.snapshot() == before)
    }

    @Test func searchRanksTheWordsAndNarrowsByTheTerms() throws {
        let cli = try QuireCLI()
        defer { cli.remove() }
        let (milk, _, reading) = try threeItems(cli)
        func found(_ arguments: String...) throws -> [String] {
            (try cli.json(["search"] + arguments + ["--json"]) as? [[String: Any]] ?? []).compactMap {
                $0["id"] as? String
            }
        }
        // The title match ranks above the body match, whatever their age.
        #expect(try found("milk") == [milk, reading])
        #expect(try found("milk", "-home") == [reading])
        #expect(try found("mil", "kind:task") == [milk])
        #expect(try found("+reading list") == [reading])
        let empty = try cli.run("search", "   ")
        #expect(empty.status == 1 && empty.oneErrorLine)
    }
}
