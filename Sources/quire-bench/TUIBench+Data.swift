import Foundation
import QuireCore
import QuireStore

/// The benchmark store: notes and tasks with tags, due dates, priorities and short bodies,
/// words from a small vocabulary so searches match many items.
enum TUIBenchData {
    static let vocabulary = [
        "alpha", "garden", "invoice", "meeting", "review", "draft", "travel", "budget", "recipe", "music",
        "project", "client", "weekly", "idea", "doctor", "bike", "paint", "order", "letter", "school",
    ]

    static func seed(path: String, count: Int) throws {
        let store = try AppDatabase.open(path: path)
        var random = SeededRandom(seed: 7)
        func words(_ n: Int) -> String {
            (0..<n).map { _ in vocabulary[Int(random.next() % UInt64(vocabulary.count))] }.joined(separator: " ")
        }
        var ids = UUIDv7Generator()
        let start = Date().addingTimeInterval(-Double(count) * 60)
        var batch: [ImportEntry] = []
        for index in 0..<count {
            let created = start.addingTimeInterval(Double(index) * 60)
            let kind: ItemKind = index % 3 == 0 ? .task : .note
            let title = words(4)
            batch.append(
                ImportEntry(
                    id: ids.next(now: created, using: &random), kind: kind,
                    title: title.prefix(1).uppercased() + title.dropFirst(), body: words(25),
                    tags: [vocabulary[index % 5]], done: kind == .task && index % 2 == 0,
                    due: kind == .task && index % 4 == 0
                        ? Day(year: 2026, month: 1 + index % 12, day: 1 + index % 28) : nil,
                    priority: Priority.allCases[index % 4], pinned: index % 20_000 == 0,
                    createdAt: created, updatedAt: created))
            if batch.count == 10_000 {
                _ = try store.importItems(batch)
                batch.removeAll(keepingCapacity: true)
            }
        }
        if !batch.isEmpty { _ = try store.importItems(batch) }
    }
}
