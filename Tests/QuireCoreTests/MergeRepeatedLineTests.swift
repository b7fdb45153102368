import Foundation
import Testing

@testable import QuireCore

/// The merges that once lost or repeated a line, and the resolutions that once dropped a
/// one-sided change, at the level of the merge itself (the same cases run end to end in
/// `MergeEndToEndTests`).
@Suite struct MergeRepeatedLineTests {
    struct Row: Sendable, CustomTestStringConvertible {
        var name: String, base: String, local: String, remote: String, merged: String
        var testDescription: String { name }
    }

    @Test(arguments: [
        Row(
            name: "a line both deleted from a run is deleted once", base: "b\na\na\n", local: "L\nb\na\n",
            remote: "b\na\n", merged: "L\nb\na\n"),
        Row(
            name: "a run shortened on both sides keeps its other lines", base: "a\nb\nb\nb",
            local: "L1 new\na\nb\nb", remote: "a\nb\nb", merged: "L1 new\na\nb\nb"),
        Row(
            name: "re-encoded accents are a change", base: "caf\u{E9}\nend\n", local: "cafe\u{301}\nend\n",
            remote: "caf\u{E9}\nend\nmore\n", merged: "cafe\u{301}\nend\nmore\n"),
        Row(
            name: "a final newline added while the other side edits above", base: "a\nb",
            local: "A\nb", remote: "a\nb\n", merged: "A\nb\n"),
    ])
    func mergesCleanlyToTheRightText(_ row: Row) {
        let merge = Diff3(base: row.base, local: row.local, remote: row.remote)
        #expect(merge.mergedText.map { Array($0.utf8) } == Array(row.merged.utf8))
        let swapped = Diff3(base: row.base, local: row.remote, remote: row.local)
        #expect(swapped.mergedText.map { Array($0.utf8) } == Array(row.merged.utf8))
    }

    /// Each side wrote `- bread` over one of two blank lines, and one side also rewrote the
    /// line above: the laptop may have rewritten `- milk` and a blank as `- oat milk` and added
    /// `- bread` below, which keeps `- bread` twice. Which blank each changed is a guess, so
    /// the merge asks; it never writes `- bread` twice.
    @Test func aLineBothWroteOverOneOfTwoBlankLinesIsAsked() {
        let base = "# Shopping\n- milk\n\n\n- eggs\n"
        let local = "# Shopping\n- oat milk\n\n- bread\n- eggs\n"
        let remote = "# Shopping\n- milk\n\n- bread\n- eggs\n"
        for (mine, theirs) in [(local, remote), (remote, local)] {
            let merge = Diff3(base: base, local: mine, remote: theirs)
            #expect(merge.hasConflicts)
            #expect(merge.text(choosing: .local) == mine)
            #expect(merge.text(choosing: .remote) == theirs)
        }
    }

    @Test func aDroppedFinalNewlineAgainstAppendedLinesConflicts() {
        let merge = Diff3(base: "a\nb\n", local: "a\nb", remote: "a\nb\nc\n")
        #expect(merge.hasConflicts)
        #expect(merge.text(choosing: .local) == "a\nb")
        #expect(merge.text(choosing: .remote) == "a\nb\nc\n")
    }

    func resolveCase() -> ItemMerge {
        let base = Item(
            id: "0193a9d2-7fff-7000-8000-00000000abcd", title: "Letters", body: "a\nb\nc\nd\ne\nf",
            createdAt: Date(timeIntervalSince1970: 1_790_000_000), rev: 2)
        var local = base
        local.body = "a\nb\nc\nd\nE-laptop\nf"
        var remote = base
        remote.body = "a\nb\nc\nd\nE-phone\nf\ng-phone-added"
        remote.rev = 3
        return ItemMerge(base: base, local: local, remote: remote)
    }

    @Test func keepingOneSideReplacesOnlyTheLinesBothChanged() {
        let merge = resolveCase()
        #expect(merge.conflicts == [.body])
        #expect(merge.body?.conflicts.count == 1)
        #expect(merge.resolved(.local).body == "a\nb\nc\nd\nE-laptop\nf\ng-phone-added")
        #expect(merge.resolved(.remote).body == "a\nb\nc\nd\nE-phone\nf\ng-phone-added")
    }

    @Test func keepingBothNeverRepeatsAnUnchangedLine() {
        #expect(resolveCase().resolved(.both).body == "a\nb\nc\nd\nE-laptop\nE-phone\nf\ng-phone-added")
        let union = Diff3.union(["x\n", "same\n", "L\n"], ["y\n", "same\n", "R\n"])
        #expect(union == ["x\n", "y\n", "same\n", "L\n", "R\n"])
    }

    @Test func hunksAreSettledOneByOneWithTheSameRuleAsTheCommandLine() {
        let merge = resolveCase()
        #expect(merge.resolvedBody { _ in .local } == merge.resolved(.local).body)
        #expect(merge.resolvedBody { _ in .both } == merge.resolved(.both).body)
    }
}
