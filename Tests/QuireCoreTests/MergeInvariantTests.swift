import Foundation
import QuireTestSupport
import Testing

@testable import QuireCore

/// The body merge's promises, checked on thousands of generated cases (`MergeCaseGenerator`),
/// and the same cases through `git merge-file`, an outside merge that has seen decades of use.
///
/// Every failure prints the shrunk case as one line of Swift; `QUIRE_MERGE_SEED=N` replays the
/// cases of one seed only.
@Suite struct MergeInvariantTests {
    /// Cases per run of the invariant test in `make test`.
    static let invariantCases = 10_000
    /// Cases of each generator run through `git merge-file`: one process each, so fewer; enough
    /// that the conflict rate is measured, not sampled noise.
    static let oracleCases = 3_000
    /// How often Quire may conflict where git merges cleanly, per generator. Cases aimed at runs
    /// of identical lines conflict far more: there git often picks one of two readings that
    /// give different text, and Quire does not guess (SPEC, "Merge rules").
    static let conflictRateBound = ["general generator": 0.02, "cases aimed at runs": 0.35]

    @Test func everyGeneratedMergeKeepsItsPromises() {
        var failed = 0
        var conflicts = 0
        let seeds = propertySeeds(count: Self.invariantCases)
        for seed in seeds {
            var generator = MergeCaseGenerator(seed: seed)
            let example = generator.next()
            if Diff3(base: example.base.string, local: example.local.string, remote: example.remote.string)
                .hasConflicts
            {
                conflicts += 1
            }
            guard !Self.failures(of: example).isEmpty else { continue }
            failed += 1
            if failed <= 5 { Self.report(example, seed: seed) }
        }
        #expect(failed == 0, "\(failed) of \(seeds.count) cases broke an invariant")
        #expect(
            seeds.count == 1 || (conflicts > 0 && conflicts < seeds.count),
            "the generator reaches clean merges and conflicts")
    }

    /// How often Quire conflicts where `git merge-file` merges cleanly, on the general
    /// generator's cases and on cases aimed at runs of identical lines (where Quire's invariants
    /// are checked too). One git process per case: `make merge-git` runs it
    /// (`QUIRE_MERGE_GIT=1`), `make test` does not. Where git is clean and Quire conflicts,
    /// the oracle says whether git's text was the one proven text; where git's text is not
    /// proven, git guessed.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["QUIRE_MERGE_GIT"] != nil))
    func gitMergeFileAgreesWithTheMerge() throws {
        let seeds = propertySeeds(count: Self.oracleCases).map { $0 + 1_000_000 }
        let general = seeds.map { seed -> MergeCase in
            var generator = MergeCaseGenerator(seed: seed)
            return generator.next()
        }
        var failed = 0
        for (seed, example) in zip(seeds, general) where !Self.failures(of: example).isEmpty {
            failed += 1
            if failed <= 5 { Self.report(example, seed: seed) }
        }
        #expect(failed == 0, "\(failed) of \(general.count) cases broke an invariant")
        let runs = seeds.map { seed -> (String, String, String) in
            var generator = RunCaseGenerator(seed: seed)
            return generator.next()
        }
        let generated: [(name: String, cases: [(base: String, local: String, remote: String)])] = [
            ("general generator", general.map { ($0.base.string, $0.local.string, $0.remote.string) }),
            ("cases aimed at runs", runs),
        ]
        for (name, cases) in generated {
            let answers = try GitMergeFile.merge(cases)
            var gitClean = 0
            var quireConflicts = 0
            var gitTextNotProven = 0
            var differentText = 0
            for (example, answer) in zip(cases, answers) where answer.conflicts == 0 {
                gitClean += 1
                let merge = Diff3(base: example.base, local: example.local, remote: example.remote)
                if let merged = merge.mergedText {
                    if !merged.utf8.elementsEqual(answer.text.utf8) { differentText += 1 }
                    continue
                }
                quireConflicts += 1
                let verdict = MergeExplanationOracle(base: example.base, local: example.local, remote: example.remote)
                    .verdict
                if verdict != .proven(answer.text) { gitTextNotProven += 1 }
            }
            let rate = Double(quireConflicts) / Double(max(gitClean, 1))
            print(
                "merge vs git, \(name): \(cases.count) cases, git clean in \(gitClean), Quire conflicts in "
                    + "\(quireConflicts) of those (\(String(format: "%.2f", rate * 100))%; git's text not the one "
                    + "proven text in \(gitTextNotProven) of them), different clean text in \(differentText)")
            #expect(gitClean * 3 > cases.count, "a good share of generated cases are ones git merges")
            #expect(
                rate <= Self.conflictRateBound[name]!,
                "\(name): Quire conflicts where git is clean in \(quireConflicts) of \(gitClean)")
        }
    }

    static func report(_ example: MergeCase, seed: UInt64) {
        let small = example.shrunk { failures(of: $0) }
        Issue.record("seed \(seed): \(failures(of: small).joined(separator: "; ")): \(small.repro)")
    }

    /// Every promise a merge of this case breaks, in words (empty when it keeps them all).
    static func failures(of example: MergeCase) -> [String] {
        let (base, local, remote) = (example.base.string, example.local.string, example.remote.string)
        var failures: [String] = []
        func check(_ condition: Bool, _ promise: String) {
            if !condition { failures.append(promise) }
        }
        func same(_ a: String?, _ b: String) -> Bool { a.map { $0.utf8.elementsEqual(b.utf8) } ?? false }

        check(same(Diff3(base: base, local: local, remote: base).mergedText, local), "merge(b, x, b) == x")
        check(same(Diff3(base: base, local: base, remote: remote).mergedText, remote), "merge(b, b, x) == x")
        check(same(Diff3(base: base, local: local, remote: local).mergedText, local), "merge(b, x, x) == x")

        let merge = Diff3(base: base, local: local, remote: remote)
        let swapped = Diff3(base: base, local: remote, remote: local)
        check(merge.hasConflicts == swapped.hasConflicts, "swapping the sides changes whether it conflicts")
        if let merged = merge.mergedText {
            check(same(swapped.mergedText, merged), "swapping the sides changes the clean merge")
        }
        check(
            same(swapped.text(choosing: .remote), merge.text(choosing: .local)),
            "keeping local is not keeping the same side with the sides swapped")

        // One side holds the other's changes and more: the clean merge, or keeping that side
        // in every conflict, gives exactly that side (nothing lost, nothing twice).
        if let extending = example.extending {
            let expected = extending == .local ? local : remote
            check(
                same(merge.text(choosing: extending), expected),
                "a side that extends the other is not what the merge gives")
        }

        // `both` gives the lines two versions share once: as many lines as the two versions
        // have, less their longest common subsequence.
        for conflict in merge.conflicts {
            // Compared as bytes, as the merge compares lines.
            let local = Diff3.tokens(ofLines: conflict.local).map { Array($0.utf8) }
            let remote = Diff3.tokens(ofLines: conflict.remote).map { Array($0.utf8) }
            let union = Diff3.tokens(ofLines: Diff3.union(conflict.local, conflict.remote))
            check(union.count == local.count + remote.count - lcsLength(local, remote), "both repeats a line")
        }

        // The item merge settles the body with the same per-hunk rule as the text.
        if merge.hasConflicts {
            let item = Item(
                id: "0193a9d2-7fff-7000-8000-00000000abcd", title: "t", body: base,
                createdAt: Date(timeIntervalSince1970: 1_790_000_000), rev: 2)
            var mine = item
            mine.body = local
            var theirs = item
            theirs.body = remote
            let itemMerge = ItemMerge(base: item, local: mine, remote: theirs)
            check(itemMerge.conflicts == [.body], "the item merge misses the body conflict")
            for (resolution, choice) in [
                (ItemMerge.Resolution.local, Diff3.Choice.local), (.remote, .remote), (.both, .both),
            ] {
                check(
                    same(itemMerge.resolved(resolution).body, merge.text(choosing: choice)),
                    "resolving the item \(resolution) is not keeping \(resolution) per hunk")
            }
        }
        return failures
    }
}

/// `git merge-file -p` over many cases in one shell: one process per case is the cost, so the
/// loop runs in a single `sh` rather than one `Process` each.
enum GitMergeFile {
    struct Answer {
        var text: String
        /// git's exit status: the number of conflicts.
        var conflicts: Int
    }

    static func merge(_ cases: [(base: String, local: String, remote: String)]) throws -> [Answer] {
        let directory = NSTemporaryDirectory() + "quire-merge-oracle-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        for (index, example) in cases.enumerated() {
            try Data(example.base.utf8).write(to: URL(fileURLWithPath: "\(directory)/\(index).b"))
            try Data(example.local.utf8).write(to: URL(fileURLWithPath: "\(directory)/\(index).l"))
            try Data(example.remote.utf8).write(to: URL(fileURLWithPath: "\(directory)/\(index).r"))
        }
        // Each answer: the merged text, a NUL, the exit status, a NUL (the texts hold no NUL).
        let script = """
            i=0; while [ $i -lt \(cases.count) ]; do
            git merge-file -p "$i.l" "$i.b" "$i.r"; printf '\\000%d\\000' $?; i=$((i+1)); done
            """
        let outputPath = directory + "/answers"
        let process = try SpawnedProcess(
            "/bin/sh", ["-c", "cd '\(directory)' && " + script], output: .file(outputPath))
        process.waitUntilExit()
        let data = try Data(contentsOf: URL(fileURLWithPath: outputPath))
        let fields = data.split(separator: 0, omittingEmptySubsequences: false)
        var answers: [Answer] = []
        var index = 0
        while index + 1 < fields.count && answers.count < cases.count {
            answers.append(
                Answer(
                    text: String(decoding: fields[index], as: UTF8.self),
                    conflicts: Int(String(decoding: fields[index + 1], as: UTF8.self)) ?? -1))
            index += 2
        }
        guard answers.count == cases.count else { throw OracleError.shortOutput(answers.count) }
        return answers
    }

    enum OracleError: Error {
        case shortOutput(Int)
    }
}
