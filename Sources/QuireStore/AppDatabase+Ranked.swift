import Foundation
import GRDB
import QuireCore

extension AppDatabase {
    /// The `limit` most urgent items among those `filter` admits (`Urgency`: `quire next`,
    /// `quire list --sort urgency`), most urgent first. Reads only the scored columns of every
    /// match, then the full rows of the few listed: `quire next` over 100k open tasks decodes ten.
    public func mostUrgent(matching filter: ItemFilter, limit: Int, today: Day, now: Date = Date())
        throws(StoreError) -> [Item]
    {
        guard limit > 0 else { return [] }
        let best = try read { db -> [String] in
            let (condition, arguments) = try filter.forWaiting(in: db).whereClause(in: db)
            let rows = try Row.fetchCursor(
                db, sql: Self.urgencyScanSQL(filter, condition: condition),
                arguments: arguments)
            var kept: [(score: Double, due: Day?, id: String)] = []
            while let row = try rows.next() {
                let due = (row[1] as String?).flatMap(Day.init)
                let score = Urgency.score(
                    due: due, priority: Priority(rawValue: row[2]) ?? .none,
                    createdAt: StoreTime.date(from: row[3]) ?? .distantPast, today: today, now: now)
                kept.append((score, due, row[0]))
                // Trim now and then, so a million matches never sit in memory at once.
                if kept.count >= max(4 * limit, 1024) {
                    kept.sort(by: Urgency.precedes)
                    kept.removeLast(kept.count - limit)
                }
            }
            kept.sort(by: Urgency.precedes)
            return kept.prefix(limit).map(\.id)
        }
        var items: [Item] = []
        for id in best {
            if let item = try item(id) { items.append(item) }
        }
        return items
    }

    /// The scan `mostUrgent` scores: the scored columns of every match. Open tasks only (`quire
    /// next`): the covering index of exactly those rows, read without a look at the table (at a
    /// million items, 30 to 100 ms instead of 330 to 800 for the query alone, sqlite3 on a
    /// loaded machine; see BENCHMARKS.md).
    static func urgencyScanSQL(_ filter: ItemFilter, condition: String) -> String {
        let source = filter.admitsOnlyOpenTasks ? "item INDEXED BY item_open_tasks" : "item"
        return "SELECT item.id, item.due, item.priority, item.createdAt FROM \(source) WHERE \(condition)"
    }
}
