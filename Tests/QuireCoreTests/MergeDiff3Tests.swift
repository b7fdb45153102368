import Testing

@testable import QuireCore

@Suite struct MergeDiff3Tests {
    let base = text(["one", "two", "three", "four", "five"])

    struct CleanCase: Sendable, CustomTestStringConvertible {
        var name: String, base: [String], local: [String], remote: [String], merged: [String]
        var testDescription: String { name }
    }

    @Test(arguments: [
        CleanCase(
            name: "nothing changed", base: ["a", "b"], local: ["a", "b"], remote: ["a", "b"], merged: ["a", "b"]),
        CleanCase(
            name: "only local changed", base: ["a", "b", "c"], local: ["a", "B", "c"], remote: ["a", "b", "c"],
            merged: ["a", "B", "c"]),
        CleanCase(
            name: "only remote changed", base: ["a", "b", "c"], local: ["a", "b", "c"], remote: ["a", "b", "C"],
            merged: ["a", "b", "C"]),
        CleanCase(
            name: "both changed different lines", base: ["a", "b", "c", "d", "e"],
            local: ["A", "b", "c", "d", "e"], remote: ["a", "b", "c", "d", "E"], merged: ["A", "b", "c", "d", "E"]),
        CleanCase(
            name: "both made the same change", base: ["a", "b", "c"], local: ["a", "X", "c"],
            remote: ["a", "X", "c"], merged: ["a", "X", "c"]),
        CleanCase(
            name: "adjacent lines changed by each side", base: ["a", "b", "c"], local: ["a", "B", "c"],
            remote: ["a", "b", "C"], merged: ["a", "B", "C"]),
        CleanCase(
            name: "insertions at different places", base: ["a", "b", "c"], local: ["x", "a", "b", "c"],
            remote: ["a", "b", "c", "y"], merged: ["x", "a", "b", "c", "y"]),
        CleanCase(
            name: "deletion and an edit elsewhere", base: ["a", "b", "c", "d"], local: ["a", "c", "d"],
            remote: ["a", "b", "c", "D"], merged: ["a", "c", "D"]),
        CleanCase(
            name: "both deleted the same line", base: ["a", "b", "c"], local: ["a", "c"], remote: ["a", "c"],
            merged: ["a", "c"]),
        CleanCase(
            name: "insertion just before a remote edit", base: ["a", "b", "c"], local: ["a", "new", "b", "c"],
            remote: ["a", "B", "c"], merged: ["a", "new", "B", "c"]),
        CleanCase(name: "empty base, one side wrote", base: [], local: [], remote: ["hello"], merged: ["hello"]),
    ])
    func cleanMerges(_ example: CleanCase) {
        let merge = Diff3(base: text(example.base), local: text(example.local), remote: text(example.remote))
        #expect(!merge.hasConflicts)
        #expect(merge.mergedText == text(example.merged))
    }

    @Test func overlappingChangesConflictWithAllThreeVersions() {
        let merge = Diff3(
            base: base, local: text(["one", "TWO", "three", "four", "five"]),
            remote: text(["one", "deux", "three", "four", "FIVE"]))
        #expect(merge.mergedText == nil)
        #expect(
            merge.conflicts == [
                Diff3.Conflict(baseRange: 1..<2, base: ["two\n"], local: ["TWO\n"], remote: ["deux\n"])
            ])
        // The remote's other change merges cleanly around the conflict.
        #expect(merge.text(choosing: .local) == text(["one", "TWO", "three", "four", "FIVE"]))
        #expect(merge.text(choosing: .remote) == text(["one", "deux", "three", "four", "FIVE"]))
        #expect(merge.text(choosing: .both) == text(["one", "TWO", "deux", "three", "four", "FIVE"]))
        #expect(merge.text(choosing: .base) == text(["one", "two", "three", "four", "FIVE"]))
    }

    @Test func differentInsertionsAtTheSamePlaceConflict() {
        let merge = Diff3(
            base: text(["a", "b"]), local: text(["a", "mine", "b"]), remote: text(["a", "theirs", "b"]))
        #expect(merge.conflicts.map(\.baseRange) == [1..<1])
        #expect(merge.conflicts.first?.local == ["mine\n"])
        #expect(merge.conflicts.first?.remote == ["theirs\n"])
    }

    @Test func editAgainstDeletionOfTheSameLinesConflicts() {
        let merge = Diff3(base: text(["a", "b", "c"]), local: text(["a", "c"]), remote: text(["a", "B", "c"]))
        #expect(merge.conflicts == [Diff3.Conflict(baseRange: 1..<2, base: ["b\n"], local: [], remote: ["B\n"])])
    }

    @Test func eachConflictCanBeSettledOnItsOwn() {
        let merge = Diff3(
            base: text(["a", "b", "c", "d", "e"]), local: text(["A1", "b", "c", "d", "E1"]),
            remote: text(["A2", "b", "c", "d", "E2"]))
        #expect(merge.conflicts.count == 2)
        let settled = merge.text { index, _ in index == 0 ? .remote : .lines(["own\n"]) }
        #expect(settled == text(["A2", "b", "c", "d", "own"]))
    }

    @Test func markersShowTheThreeVersions() {
        let merge = Diff3(base: text(["a", "b"]), local: text(["a", "L"]), remote: text(["a", "R"]))
        #expect(
            merge.textWithMarkers()
                == text([
                    "a", "<<<<<<< local", "L", "||||||| base", "b", "=======", "R", ">>>>>>> remote",
                ]))
    }

    @Test func aLastLineWithoutNewlineNeverRunsIntoTheNextLine() {
        // Local drops the final newline while remote appends a line after it.
        let merge = Diff3(base: "a\nb\n", local: "a\nb", remote: "a\nb\nc\n")
        let merged = merge.text(choosing: .both)
        #expect(!merged.contains("bc"))
        #expect(merged.contains("c\n"))
    }

    @Test func windowsLineEndsMergeLikeAnyOther() {
        let merge = Diff3(base: "a\r\nb\r\nc\r\n", local: "A\r\nb\r\nc\r\n", remote: "a\r\nb\r\nC\r\n")
        #expect(merge.mergedText == "A\r\nb\r\nC\r\n")
    }
}
