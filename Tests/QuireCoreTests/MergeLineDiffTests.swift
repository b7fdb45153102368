import Testing

@testable import QuireCore

@Suite struct MergeLineDiffTests {
    @Test(arguments: ["", "a", "a\n", "a\nb", "a\nb\n", "\n\n", "a\r\nb\r\n", "naïve\n日本語\n👍🏽 ok"])
    func linesKeepTheirNewlinesAndJoinBackExactly(_ text: String) {
        let lines = LineDiff.lines(of: text)
        #expect(lines.joined() == text)
        #expect(lines.dropLast().allSatisfy { $0.utf8.last == UInt8(ascii: "\n") })
        #expect(lines.allSatisfy { !$0.isEmpty })
    }

    @Test func windowsLineEndsSplitIntoLines() {
        #expect(LineDiff.lines(of: "a\r\nb\r\n") == ["a\r\n", "b\r\n"])
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var old: String, new: String, hunks: [LineDiff.Hunk]
        var testDescription: String { "\(old.debugDescription) -> \(new.debugDescription)" }
    }

    @Test(arguments: [
        Case(old: "", new: "", hunks: []),
        Case(old: "a\nb\n", new: "a\nb\n", hunks: []),
        Case(old: "", new: "a\n", hunks: [.init(old: 0..<0, new: 0..<1)]),
        Case(old: "a\n", new: "", hunks: [.init(old: 0..<1, new: 0..<0)]),
        Case(old: "a\nb\nc\n", new: "a\nB\nc\n", hunks: [.init(old: 1..<2, new: 1..<2)]),
        Case(old: "a\nb\nc\n", new: "a\nc\n", hunks: [.init(old: 1..<2, new: 1..<1)]),
        Case(old: "a\nc\n", new: "a\nb\nc\n", hunks: [.init(old: 1..<1, new: 1..<2)]),
        Case(
            old: "a\nb\nc\nd\ne\n", new: "A\nb\nc\nd\nE\n",
            hunks: [.init(old: 0..<1, new: 0..<1), .init(old: 4..<5, new: 4..<5)]),
        Case(old: "a\nb", new: "a\nb\n", hunks: [.init(old: 1..<2, new: 1..<2)]),
    ])
    func hunksOfSmallEdits(_ example: Case) {
        #expect(LineDiff.hunks(from: example.old, to: example.new) == example.hunks)
    }

    /// Random sequences over a tiny alphabet (many repeated lines, the hard case for a diff):
    /// the script must rebuild the new text, keep equal lines paired, and be as short as the
    /// longest common subsequence allows.
    @Test func scriptsAreCorrectAndShortestOnRandomInput() {
        for seed in propertySeeds(count: 600) {
            var random = SeededRandom(seed: seed)
            let alphabet = Int.random(in: 1...4, using: &random)
            let old = (0..<Int.random(in: 0...24, using: &random)).map { _ in
                Int.random(in: 0..<alphabet, using: &random)
            }
            let new = (0..<Int.random(in: 0...24, using: &random)).map { _ in
                Int.random(in: 0..<alphabet, using: &random)
            }
            let hunks = LineDiff.hunks(from: old, to: new)
            #expect(applyHunks(hunks, old: old, new: new) == new, "seed \(seed)")
            let changed = hunks.reduce(0) { $0 + $1.old.count + $1.new.count }
            #expect(changed == old.count + new.count - 2 * lcsLength(old, new), "seed \(seed): not shortest")
            for (first, second) in zip(hunks, hunks.dropFirst()) {
                #expect(first.old.upperBound < second.old.lowerBound, "seed \(seed): hunks touch")
                #expect(first.new.upperBound < second.new.lowerBound, "seed \(seed): hunks touch")
            }
            #expect(hunks.allSatisfy { !($0.old.isEmpty && $0.new.isEmpty) }, "seed \(seed)")
        }
    }

    @Test func longTextsWithFewChangesGiveExactlyThoseChanges() {
        let old = (0..<20_000).map { "line \($0)\n" }
        var new = old
        new[10] = "changed\n"
        new.remove(at: 15_000)
        new.insert("added\n", at: 19_000)
        let hunks = LineDiff.hunks(from: old.joined(), to: new.joined())
        #expect(
            hunks == [
                .init(old: 10..<11, new: 10..<11),
                .init(old: 15_000..<15_001, new: 15_000..<15_000),
                .init(old: 19_001..<19_001, new: 19_000..<19_001),
            ])
    }

    /// A text rewritten from top to bottom exceeds the search's cost cap; the script must
    /// still be correct.
    @Test func completeRewritesBeyondTheCostCapStayCorrect() {
        var random = SeededRandom(seed: 7)
        let old = (0..<6_000).map { _ in Int.random(in: 0..<1_000_000, using: &random) }
        let new = (0..<6_000).map { _ in Int.random(in: 0..<1_000_000, using: &random) }
        let hunks = LineDiff.hunks(from: old, to: new)
        #expect(applyHunks(hunks, old: old, new: new) == new)
    }
}
