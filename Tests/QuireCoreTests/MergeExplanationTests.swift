import Foundation
import Testing

@testable import QuireCore

/// Every clean body merge can explain itself: `MergeExplanationOracle`, a brute-force search
/// over alignments that shares no code with the merge, must prove the text `Diff3` gives.
///
/// Run exhaustively over short texts from a two- and a three-line alphabet, on random cases
/// aimed at runs of identical lines, on the general generator's cases and on the five cases of
/// issue 27. `QUIRE_MERGE_EXHAUSTIVE_LINES=N` (default 3) sets the longest two-line-alphabet
/// text; `make merge-soak` raises it, and the number of generated cases.
@Suite struct MergeExplanationTests {
    /// What a batch of cases showed.
    struct Tally: CustomStringConvertible {
        var cases = 0
        var clean = 0
        /// Clean merges the oracle does not prove (must stay 0).
        var unexplained = 0
        /// Conflicts where the oracle proves one text.
        var conflictsWhereProven = 0
        var failures: [String] = []

        var description: String {
            "\(cases) cases, \(clean) clean, \(unexplained) clean but unexplained, "
                + "\(cases - clean) conflicts (\(conflictsWhereProven) where one text is proven)"
        }

        mutating func judge(base: String, local: String, remote: String) {
            cases += 1
            let merge = Diff3(base: base, local: local, remote: remote)
            let verdict = MergeExplanationOracle(base: base, local: local, remote: remote).verdict
            guard let merged = merge.mergedText else {
                if case .proven = verdict { conflictsWhereProven += 1 }
                return
            }
            clean += 1
            if case .proven(let text) = verdict, text.utf8.elementsEqual(merged.utf8) { return }
            unexplained += 1
            if failures.count < 5 {
                failures.append(
                    "clean \(swiftLiteral(merged)) but the oracle says \(verdict) for "
                        + "Diff3(base: \(swiftLiteral(base)), local: \(swiftLiteral(local)), "
                        + "remote: \(swiftLiteral(remote)))")
            }
        }

        func expectAllExplained(_ what: String) {
            print("merge explanations, \(what): \(self)")
            for failure in failures { Issue.record("\(failure)") }
            #expect(unexplained == 0, "\(what): \(unexplained) of \(clean) clean merges unexplained")
        }
    }

    /// Every text of up to `length` lines over `alphabet`; with `endings`, also each non-empty
    /// one without its final newline.
    static func texts(of alphabet: [String], upTo length: Int, endings: Bool) -> [String] {
        var sequences: [[String]] = [[]]
        var last: [[String]] = [[]]
        for _ in 0..<length {
            last = last.flatMap { prefix in alphabet.map { prefix + [$0] } }
            sequences += last
        }
        return sequences.flatMap { lines -> [String] in
            let text = lines.map { $0 + "\n" }.joined()
            return endings && !lines.isEmpty ? [text, String(text.dropLast())] : [text]
        }
    }

    static var exhaustiveLength: Int {
        ProcessInfo.processInfo.environment["QUIRE_MERGE_EXHAUSTIVE_LINES"].flatMap { Int($0) } ?? 3
    }

    /// Judges every base, local and remote drawn from `texts`.
    static func judgeEveryTriple(of texts: [String], _ what: String) {
        var tally = Tally()
        for base in texts {
            for local in texts {
                for remote in texts { tally.judge(base: base, local: local, remote: remote) }
            }
        }
        tally.expectAllExplained(what)
    }

    @Test func everyMergeOfShortTextsOverTwoLinesIsExplained() {
        let length = Self.exhaustiveLength
        Self.judgeEveryTriple(
            of: Self.texts(of: ["a", "b"], upTo: length, endings: true), "two-line alphabet up to \(length) lines")
    }

    @Test func everyMergeOfShortTextsOverThreeLinesIsExplained() {
        let length = max(Self.exhaustiveLength - 1, 2)
        Self.judgeEveryTriple(
            of: Self.texts(of: ["a", "b", ""], upTo: length, endings: false),
            "three-line alphabet up to \(length) lines")
    }

    @Test func mergesAroundRunsOfIdenticalLinesAreExplained() {
        var tally = Tally()
        for seed in propertySeeds(count: 4_000) {
            var generator = RunCaseGenerator(seed: seed)
            let example = generator.next()
            tally.judge(base: example.base, local: example.local, remote: example.remote)
        }
        tally.expectAllExplained("cases aimed at runs")
    }

    @Test func generatedMergesAreExplained() {
        var tally = Tally()
        for seed in propertySeeds(count: 2_000) {
            var generator = MergeCaseGenerator(seed: seed)
            let example = generator.next()
            tally.judge(base: example.base.string, local: example.local.string, remote: example.remote.string)
        }
        tally.expectAllExplained("general generator")
    }

    /// Issue 27's cases: the merge gives git's clean text or conflicts, never the lost or
    /// repeated line it once gave; swapping the sides changes nothing.
    @Test(arguments: MergeRunFixture.all)
    func aRunCaseFromTheOutsideCheckMergesRightOrConflicts(_ fixture: MergeRunFixture) {
        for (local, remote) in [(fixture.local, fixture.remote), (fixture.remote, fixture.local)] {
            let merge = Diff3(base: fixture.base, local: local, remote: remote)
            if let merged = merge.mergedText {
                #expect(Array(merged.utf8) == Array(fixture.expected.utf8))
            }
            #expect(merge.mergedText.map { Array($0.utf8) } != Array(fixture.quireGave.utf8))
        }
    }

    @Test func theOracleJudgesTheCasesItWasWrittenFor() {
        typealias Oracle = MergeExplanationOracle
        // Both sides deleted one copy of a run, and remote wrote a line elsewhere: deleting the
        // first or the second `x` is one change, made alike.
        #expect(Oracle(base: "x\nx\nb\n", local: "x\nb\n", remote: "x\nb\nB\n").verdict == .proven("x\nb\nB\n"))
        // But remote may have deleted the `{` and the first `o`, or the `{` alone and the copy
        // local deleted: one `o` or two are left (issue 27's first case, made small).
        #expect(isAmbiguous(Oracle(base: "{\no\no\n", local: "{\no\n", remote: "o\n").verdict))
        // Remote deleting `o` and one of the two `r`s, or rewriting the first `r o`: the `r`
        // local deleted is deleted once or twice (the second case, made small).
        #expect(isAmbiguous(Oracle(base: "r\no\nr\nr\n", local: "r\no\nr\n", remote: "X\nr\nr\n").verdict))
        // Two sides' insertions at one place explain nothing.
        #expect(Oracle(base: "a\nb\n", local: "a\nx\nb\n", remote: "a\ny\nb\n").verdict == .unexplained)
        // A line rewritten on one side and the same line written beside it on the other: the
        // one explanation writes `x` twice into one run, which may as well be one change.
        #expect(
            Oracle(base: "a\nb\nc\n", local: "a\nx\nc\n", remote: "a\nb\nx\nc\n").verdict
                == .onlyByOwnCopies("a\nx\nx\nc\n"))
        // Lines after a line that ends the text without a newline explain nothing.
        #expect(Oracle(base: "a\nb\n", local: "a\nb", remote: "a\nb\nc\n").verdict == .unexplained)
        #expect(Oracle(base: "a\nb", local: "A\nb", remote: "a\nb\n").verdict == .proven("A\nb\n"))
        // The same text on both sides is one change, however its alignments could differ.
        #expect(Oracle(base: "a\nb\na\nb\n", local: "a\nb\n", remote: "a\nb\n").verdict == .proven("a\nb\n"))
    }

    func isAmbiguous(_ verdict: MergeExplanationOracle.Verdict) -> Bool {
        if case .ambiguous = verdict { return true }
        return false
    }
}

/// Random cases around runs of identical lines: both sides at one place inside a run, one
/// side's edit a superset of the other's, the same edit on both sides plus one more, one copy
/// of a repeated line deleted next to the other side's change, runs of blank lines.
struct RunCaseGenerator {
    var random: SeededRandom

    init(seed: UInt64) {
        random = SeededRandom(seed: seed)
    }

    /// A base of at most eight lines: a run of three or four equal lines (often blank) among
    /// a few others.
    mutating func base() -> (lines: [String], run: Range<Int>) {
        let repeated = Bool.random(using: &random) ? "" : ["x", "}", "- [ ]"].randomElement(using: &random)!
        let others = ["a", "b", repeated]
        let before = (0..<Int.random(in: 0...2, using: &random)).map { _ in others.randomElement(using: &random)! }
        let after = (0..<Int.random(in: 0...2, using: &random)).map { _ in others.randomElement(using: &random)! }
        let count = Int.random(in: 3...4, using: &random)
        return (before + Array(repeating: repeated, count: count) + after, before.count..<(before.count + count))
    }

    /// One edit at `at` (clamped): insert, delete or replace a line; `fresh` lines are new.
    mutating func edited(_ lines: [String], at: Int, fresh: String) -> [String] {
        var lines = lines
        let at = min(max(at, 0), lines.count)
        let line = Bool.random(using: &random) ? fresh : lines.randomElement(using: &random) ?? fresh
        switch Int.random(in: 0..<3, using: &random) {
        case 0: lines.insert(line, at: at)
        case 1 where at < lines.count: lines.remove(at: at)
        default: if at < lines.count { lines[at] = line } else { lines.append(line) }
        }
        return lines
    }

    mutating func near(_ run: Range<Int>) -> Int {
        Int.random(in: (run.lowerBound - 1)...(run.upperBound + 1), using: &random)
    }

    mutating func next() -> (base: String, local: String, remote: String) {
        let (base, run) = base()
        var local: [String]
        var remote: [String]
        switch Int.random(in: 0..<4, using: &random) {
        case 0:
            // Both sides at the same place inside the run.
            let at = Int.random(in: run, using: &random)
            local = edited(base, at: at, fresh: "L")
            remote = edited(base, at: at, fresh: "R")
        case 1:
            // One side's edit a superset of the other's.
            local = edited(base, at: near(run), fresh: "S")
            remote = edited(local, at: near(run), fresh: "R")
        case 2:
            // The same edit on both sides, and one more on each or on one.
            let shared = edited(base, at: near(run), fresh: "S")
            local = Bool.random(using: &random) ? shared : edited(shared, at: near(run), fresh: "L")
            remote = edited(shared, at: near(run), fresh: "R")
        default:
            // One copy deleted next to the other side's change.
            local = base
            local.remove(at: Int.random(in: run, using: &random))
            remote = edited(base, at: Bool.random(using: &random) ? run.lowerBound : run.upperBound, fresh: "R")
        }
        if Bool.random(using: &random) { swap(&local, &remote) }
        func text(_ lines: [String]) -> String { lines.map { $0 + "\n" }.joined() }
        return (text(base), text(local), text(remote))
    }
}
