import Foundation
import Testing

@testable import QuireCore

/// Properties of the three-way merges over hundreds of random cases. Each failure names its
/// seed; `QUIRE_MERGE_SEED=N swift test --filter MergePropertyTests` replays just that case.
@Suite struct MergePropertyTests {
    /// Texts over a tiny alphabet, so that lines repeat and the diffs have choices to make.
    func randomText(using random: inout SeededRandom) -> String {
        let lines = (0..<Int.random(in: 0...12, using: &random)).map { _ in
            ["x", "y", "z", ""].randomElement(using: &random)!
        }
        var text = lines.map { $0 + "\n" }.joined()
        if Bool.random(using: &random) && !text.isEmpty { text.removeLast() }
        return text
    }

    @Test func mergingAVersionWithItselfOrWithTheBaseGivesThatVersion() {
        for seed in propertySeeds(count: 500) {
            var random = SeededRandom(seed: seed)
            let base = randomText(using: &random)
            let version = randomText(using: &random)
            #expect(Diff3(base: base, local: version, remote: version).mergedText == version, "seed \(seed)")
            #expect(Diff3(base: base, local: base, remote: version).mergedText == version, "seed \(seed)")
            #expect(Diff3(base: base, local: version, remote: base).mergedText == version, "seed \(seed)")
            #expect(Diff3(base: base, local: base, remote: base).mergedText == base, "seed \(seed)")
        }
    }

    /// On a base of distinct lines, each side makes random edits that bring in fresh lines, so
    /// every edit can be told apart in the result. The merge must match a model built straight
    /// from the edits: colliding edits grouped into conflicts, every other edit applied.
    @Test func twoSidedEditsMergeExactlyAsTheModelSays() {
        var sawConflict = false
        var sawCleanTwoSided = false
        for seed in propertySeeds(count: 800) {
            var random = SeededRandom(seed: seed)
            let base = (0..<Int.random(in: 0...14, using: &random)).map { "base\($0)" }
            let localEdits = randomEdits(baseCount: base.count, tag: "L", maxEdits: 3, using: &random)
            let remoteEdits = randomEdits(baseCount: base.count, tag: "R", maxEdits: 3, using: &random)
            let merge = Diff3(
                base: text(base), local: text(apply(localEdits, to: base)),
                remote: text(apply(remoteEdits, to: base)))
            let model = MergeModel(base: base, local: localEdits, remote: remoteEdits)
            let context = "seed \(seed): local \(localEdits) remote \(remoteEdits)"

            #expect(merge.conflicts.count == model.conflicts.count, "\(context)")
            #expect(merge.text(choosing: .local) == text(model.text(choosingLocal: true)), "\(context)")
            #expect(merge.text(choosing: .remote) == text(model.text(choosingLocal: false)), "\(context)")
            for (found, expected) in zip(merge.conflicts, model.conflicts) {
                #expect(found.baseRange == expected.range, "\(context)")
                #expect(found.local == expected.local.map { $0 + "\n" }, "\(context)")
                #expect(found.remote == expected.remote.map { $0 + "\n" }, "\(context)")
            }
            // One-sided edits, and edits that collide with nothing, are always in the result.
            let settledEitherWay = [merge.text(choosing: .local), merge.text(choosing: .remote)]
            for edit in model.uncontested {
                for settled in settledEitherWay {
                    let lines = Set(LineDiff.lines(of: settled))
                    #expect(edit.lines.allSatisfy { lines.contains($0 + "\n") }, "\(context): lost \(edit)")
                    #expect(base[edit.range].allSatisfy { !lines.contains($0 + "\n") }, "\(context): kept \(edit)")
                }
            }
            if !localEdits.isEmpty && !remoteEdits.isEmpty {
                if merge.hasConflicts { sawConflict = true } else { sawCleanTwoSided = true }
            }
        }
        #expect(sawConflict && sawCleanTwoSided, "the generator must reach both outcomes")
    }

    @Test func itemMergeOfAVersionWithItselfOrWithTheBaseGivesThatVersion() {
        for seed in propertySeeds(count: 400) {
            var random = SeededRandom(seed: seed)
            let base = randomItem(using: &random)
            let version = randomEdit(of: base, using: &random)
            for merge in [
                ItemMerge(base: base, local: version, remote: version),
                ItemMerge(base: base, local: base, remote: version),
                ItemMerge(base: base, local: version, remote: base),
            ] {
                #expect(merge.item.fieldValues == version.fieldValues, "seed \(seed)")
                #expect(merge.item.deleted == version.deleted, "seed \(seed)")
                #expect(!merge.needsReview, "seed \(seed)")
            }
        }
    }

    @Test func itemMergeTakesOneSidedChangesAndConflictsOnlyOnFieldsBothSetDifferently() {
        var conflictsSeen = Set<Field>()
        for seed in propertySeeds(count: 600) {
            var random = SeededRandom(seed: seed)
            let base = randomItem(using: &random)
            let local = randomEdit(of: base, using: &random)
            let remote = randomEdit(of: base, using: &random)
            let merge = ItemMerge(base: base, local: local, remote: remote)
            let context = "seed \(seed)"
            for field in Field.allCases {
                let (b, l, r) = (base.value(of: field), local.value(of: field), remote.value(of: field))
                let got = merge.item.value(of: field)
                if l == b { #expect(got == r, "\(context): \(field) changed only remotely") }
                if r == b { #expect(got == l, "\(context): \(field) changed only locally") }
                if merge.conflicts.contains(field) {
                    conflictsSeen.insert(field)
                    #expect(l != b && r != b && l != r, "\(context): \(field) conflicts without a two-sided change")
                    #expect(got == l, "\(context): a conflicting field keeps the local value")
                } else if field != .body && field != .tags && field != .attachments && l != b && r != b {
                    #expect(l == r && got == l, "\(context): \(field) set differently but no conflict")
                }
            }
            #expect(!merge.conflicts.contains(.tags), "\(context): tags never conflict")
            #expect(!merge.conflicts.contains(.attachments), "\(context): attachments never conflict")
            #expect(merge.conflicts == merge.conflicts.sorted(), "\(context)")
        }
        #expect(conflictsSeen.isSuperset(of: [.title, .body, .due, .priority]))
    }

    // MARK: - Random items

    func randomItem(using random: inout SeededRandom) -> Item {
        Item(
            id: "0193a9d2-7fff-7000-8000-00000000abcd",
            kind: Bool.random(using: &random) ? .note : .task,
            title: ["Milk", "Bread", "Call Ann"].randomElement(using: &random)!,
            body: text((0..<Int.random(in: 0...6, using: &random)).map { "line \($0)" }),
            tags: ["home", "work", "errand", "later"].filter { _ in Bool.random(using: &random) },
            done: Bool.random(using: &random),
            due: Bool.random(using: &random) ? nil : Day("2026-12-0\(Int.random(in: 1...9, using: &random))"),
            priority: Priority.allCases.randomElement(using: &random)!,
            pinned: Bool.random(using: &random),
            createdAt: Date(timeIntervalSince1970: 1_790_000_000),
            rev: 3, syncState: .synced
        )
    }

    /// A copy with a random subset of fields set to random values (often the same ones two
    /// sides would pick, so that equal two-sided changes are covered too).
    func randomEdit(of item: Item, using random: inout SeededRandom) -> Item {
        var copy = item
        let now = Date(timeIntervalSince1970: 1_790_000_100)
        for field in Field.allCases where Int.random(in: 0..<3, using: &random) == 0 {
            switch field {
            case .kind: copy.kind = Bool.random(using: &random) ? .note : .task
            case .title: copy.title = ["Milk", "Oat milk", "Soy milk"].randomElement(using: &random)!
            case .body:
                var lines = LineDiff.lines(of: copy.body)
                let index = Int.random(in: 0...lines.count, using: &random)
                if index < lines.count && Bool.random(using: &random) {
                    lines[index] = "edited \(Int.random(in: 0..<2, using: &random))\n"
                } else {
                    lines.insert("added \(Int.random(in: 0..<2, using: &random))\n", at: index)
                }
                copy.body = lines.joined()
            case .tags:
                var tags = Set(copy.tags)
                let tag = ["home", "work", "errand", "later", "new"].randomElement(using: &random)!
                if tags.contains(tag) { tags.remove(tag) } else { tags.insert(tag) }
                copy.tags = Tags.normalize(tags)
            case .done: try? copy.set(.done, to: .bool(!copy.done), now: now)
            case .due:
                copy.due = Bool.random(using: &random) ? nil : Day("2027-01-0\(Int.random(in: 1...3, using: &random))")
            case .priority: copy.priority = Priority.allCases.randomElement(using: &random)!
            case .pinned: copy.pinned.toggle()
            case .project: copy.project = [nil, "home", "home.garden", "Work"].randomElement(using: &random)!
            case .recur:
                copy.recur = [nil, "weekly", "monthly@31", "3d"].randomElement(using: &random)!.flatMap(Recurrence.init)
            case .wait:
                copy.wait = Bool.random(using: &random) ? nil : Day("2027-02-0\(Int.random(in: 1...3, using: &random))")
            case .scheduled:
                copy.scheduled =
                    Bool.random(using: &random) ? nil : Day("2027-03-0\(Int.random(in: 1...3, using: &random))")
            case .attachments:
                var files = Set(copy.attachments)
                let name = ["a.pdf", "b.png", "c.txt"].randomElement(using: &random)!
                let file = AttachedFile(
                    name: name, size: 3, mediaType: "text/plain",
                    hash: String(repeating: "\(name.count % 10)", count: 64))
                if files.contains(file) { files.remove(file) } else { files.insert(file) }
                copy.attachments = Attachments.normalize(files)
            }
        }
        return copy
    }
}

/// The expected merge, computed straight from the generated edits (not from any diff).
struct MergeModel {
    struct ConflictRegion {
        var range: Range<Int>
        var local: [String]
        var remote: [String]
    }

    let base: [String]
    /// Groups of colliding edits in base order, each as (local edits, remote edits).
    private(set) var groups: [(range: Range<Int>, local: [RegionEdit], remote: [RegionEdit])] = []

    init(base: [String], local: [RegionEdit], remote: [RegionEdit]) {
        self.base = base
        // Union-find over all edits by the collision rule.
        let all = local.map { (edit: $0, isLocal: true) } + remote.map { (edit: $0, isLocal: false) }
        var parent = Array(all.indices)
        func root(_ i: Int) -> Int {
            var i = i
            while parent[i] != i { i = parent[i] }
            return i
        }
        for i in all.indices {
            for j in all.indices
            where i < j && all[i].isLocal != all[j].isLocal && all[i].edit.collides(with: all[j].edit) {
                parent[root(i)] = root(j)
            }
        }
        var members: [Int: [Int]] = [:]
        for i in all.indices { members[root(i), default: []].append(i) }
        groups = members.values.map { indices in
            let edits = indices.map { all[$0] }
            let start = edits.map(\.edit.range.lowerBound).min()!
            let end = edits.map(\.edit.range.upperBound).max()!
            return (start..<end, edits.filter(\.isLocal).map(\.edit), edits.filter { !$0.isLocal }.map(\.edit))
        }
        .sorted { ($0.range.lowerBound, $0.range.upperBound) < ($1.range.lowerBound, $1.range.upperBound) }
    }

    private func versions(of group: (range: Range<Int>, local: [RegionEdit], remote: [RegionEdit])) -> (
        [String], [String]
    ) {
        (apply(group.local, to: base, within: group.range), apply(group.remote, to: base, within: group.range))
    }

    var conflicts: [ConflictRegion] {
        groups.compactMap { group in
            let (local, remote) = versions(of: group)
            guard !group.local.isEmpty, !group.remote.isEmpty, local != remote else { return nil }
            return ConflictRegion(range: group.range, local: local, remote: remote)
        }
    }

    /// Edits that collide with nothing of the other side.
    var uncontested: [RegionEdit] {
        groups.filter { $0.local.isEmpty || $0.remote.isEmpty }.flatMap { $0.local + $0.remote }
    }

    func text(choosingLocal: Bool) -> [String] {
        var result: [String] = []
        var position = 0
        for group in groups {
            result += base[position..<group.range.lowerBound]
            let (local, remote) = versions(of: group)
            if group.remote.isEmpty {
                result += local
            } else if group.local.isEmpty {
                result += remote
            } else {
                result += choosingLocal ? local : remote
            }
            position = group.range.upperBound
        }
        result += base[position...]
        return result
    }
}
