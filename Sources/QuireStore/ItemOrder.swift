import GRDB
import QuireCore

/// Orders a listing may ask for instead of the list's own (pinned first, then newest first):
/// `quire list --sort`. An asked-for order is the whole order, pins included.
public enum ItemOrder: String, CaseIterable, Sendable {
    /// Soonest due first; items without a due date last.
    case due
    /// High, medium, low, none.
    case priority
    /// Newest first.
    case created
    /// Most recently changed first.
    case updated

    /// The ORDER BY terms over alias `item`; ties go to the newer item.
    var sql: String {
        switch self {
        case .due: "item.due IS NULL, item.due, item.id DESC"
        case .priority:
            "CASE item.priority WHEN 'high' THEN 3 WHEN 'medium' THEN 2 WHEN 'low' THEN 1 ELSE 0 END DESC, item.id DESC"
        case .created: "item.createdAt DESC, item.id DESC"
        case .updated: "item.updatedAt DESC, item.id DESC"
        }
    }
}

extension AppDatabase {
    /// Items matching `filter` in `order`, at most `limit` of them.
    public func items(matching filter: ItemFilter, sortedBy order: ItemOrder, limit: Int? = nil) throws(StoreError)
        -> [Item]
    {
        try read { db in
            let (condition, arguments) = try filter.forWaiting(in: db).whereClause()
            var all = arguments
            all += [limit ?? -1]
            let sql = """
                SELECT \(ItemRow.select(from: "item")) FROM item WHERE \(condition) ORDER BY \(order.sql) LIMIT ?
                """
            return try Row.fetchAll(db, sql: sql, arguments: all).map { try ItemRow.decode($0) }
        }
    }
}
