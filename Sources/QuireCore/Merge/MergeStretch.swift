/// A stretch of a three-way merge: the lines of base, local and remote between two anchors.
///
/// An anchor is a line found exactly once in each of the three texts, in the same order
/// relative to every other such line in all three. It is the same line in all of them, so
/// every explanation of the merge keeps it on both sides (SPEC, "Merge rules"), and what lies
/// between two anchors merges on its own: the whole merge is its stretches' merges, in order,
/// with the anchors between them. Most lines of a note are written once, so stretches are
/// short, and the search for explanations stays small even in a long body.
struct MergeStretch: Equatable {
    var base: Range<Int>
    var local: Range<Int>
    var remote: Range<Int>

    /// The stretches of three texts given as line ids, in order; an anchor lies between each
    /// two consecutive ones.
    static func stretches(base: [Int], local: [Int], remote: [Int]) -> [MergeStretch] {
        let size = [base.max(), local.max(), remote.max()].compactMap { $0 }.max().map { $0 + 1 } ?? 0
        // Where a line is in each text, when it is there exactly once (-1: not there, -2: more).
        func onlyPositions(_ ids: [Int]) -> [Int] {
            var positions = [Int](repeating: -1, count: size)
            for (index, id) in ids.enumerated() { positions[id] = positions[id] == -1 ? index : -2 }
            return positions
        }
        let (inBase, inLocal, inRemote) = (onlyPositions(base), onlyPositions(local), onlyPositions(remote))
        let unique = base.indices.compactMap { index -> (base: Int, local: Int, remote: Int)? in
            let id = base[index]
            guard inBase[id] == index, inLocal[id] >= 0, inRemote[id] >= 0 else { return nil }
            return (index, inLocal[id], inRemote[id])
        }
        // A unique line keeps its order against every other one on a side when all before it
        // (in the base) come before it there, and all after it come after it.
        func inOrder(_ position: KeyPath<(base: Int, local: Int, remote: Int), Int>) -> [Bool] {
            var before = [Int](repeating: -1, count: unique.count + 1)
            var after = [Int](repeating: Int.max, count: unique.count + 1)
            for index in unique.indices { before[index + 1] = max(before[index], unique[index][keyPath: position]) }
            for index in unique.indices.reversed() {
                after[index] = min(after[index + 1], unique[index][keyPath: position])
            }
            return unique.indices.map { index in
                let here = unique[index][keyPath: position]
                return before[index] < here && here < after[index + 1]
            }
        }
        let (localOrder, remoteOrder) = (inOrder(\.local), inOrder(\.remote))
        let anchors = unique.indices.filter { localOrder[$0] && remoteOrder[$0] }.map { unique[$0] }
        let bounds = [(base: -1, local: -1, remote: -1)] + anchors + [(base.count, local.count, remote.count)]
        return zip(bounds, bounds.dropFirst()).map { before, after in
            MergeStretch(
                base: (before.base + 1)..<after.base, local: (before.local + 1)..<after.local,
                remote: (before.remote + 1)..<after.remote)
        }
    }
}
