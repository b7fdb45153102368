import GRDB
import QuireCore

/// `ItemOrder` in SQL, over alias `item`: the same order as `ItemOrder.precedes`.
extension ItemOrder {
    /// The ORDER BY terms; ties go to the newer item.
    var sql: String {
        switch self {
        case .due: "item.due IS NULL, item.due, item.id DESC"
        case .priority: "\(Self.priorityRank("item.priority")) DESC, item.id DESC"
        case .created: "item.createdAt DESC, item.id DESC"
        case .updated: "item.updatedAt DESC, item.id DESC"
        }
    }

    /// True for the rows that come before the row aliased `target` in this order: how many
    /// there are is that row's place in the list.
    var comesBeforeTarget: String {
        switch self {
        case .due:
            """
            ((item.due IS NOT NULL AND (target.due IS NULL OR item.due < target.due))
              OR (item.due IS target.due AND item.id > target.id))
            """
        case .priority:
            """
            (\(Self.priorityRank("item.priority")) > \(Self.priorityRank("target.priority"))
              OR (item.priority = target.priority AND item.id > target.id))
            """
        case .created:
            "(item.createdAt > target.createdAt OR (item.createdAt = target.createdAt AND item.id > target.id))"
        case .updated:
            "(item.updatedAt > target.updatedAt OR (item.updatedAt = target.updatedAt AND item.id > target.id))"
        }
    }

    private static func priorityRank(_ column: String) -> String {
        "CASE \(column) WHEN 'high' THEN 3 WHEN 'medium' THEN 2 WHEN 'low' THEN 1 ELSE 0 END"
    }
}
