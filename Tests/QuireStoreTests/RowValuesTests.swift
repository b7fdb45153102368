import Foundation
import GRDB
import Testing

@testable import QuireStore

/// `RowValues` binds text by pointer, below GRDB: what goes in must come back byte for byte,
/// empty text must stay text (a null pointer would make it NULL), and a statement must be as
/// usable afterwards as if GRDB had bound it.
@Suite struct RowValuesTests {
    private func table() throws -> DatabaseQueue {
        let queue = try DatabaseQueue()
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE t (n INTEGER PRIMARY KEY, a TEXT, b TEXT, c INTEGER, d INTEGER)")
        }
        return queue
    }

    @Test func everyKindOfValueComesBackAsItWent() throws {
        let queue = try table()
        let texts = ["", "héllo ✓ 𝄞 日本語", String(repeating: "long line ", count: 10_000)]
        try queue.write { db in
            var values = RowValues()
            for (index, text) in texts.enumerated() {
                values.append(index)
                values.append(text)
                values.append(nil as String?)
                values.append(Int64.min as Int64?)
                values.append(true)
            }
            values.append(9)
            values.appendNull()
            values.append("" as String?)
            values.append(Int64.max as Int64?)
            values.append(false)
            let rows = Array(repeating: "(?, ?, ?, ?, ?)", count: texts.count + 1).joined(separator: ", ")
            try values.execute(db.makeStatement(sql: "INSERT INTO t (n, a, b, c, d) VALUES \(rows)"))
        }
        // Empty text when it is the only text held: there are no bytes for it to point into.
        try queue.write { db in
            var values = RowValues()
            values.append(10)
            values.append("")
            values.appendNull()
            values.append(7 as Int64?)
            values.append(false)
            try values.execute(db.makeStatement(sql: "INSERT INTO t (n, a, b, c, d) VALUES (?, ?, ?, ?, ?)"))
        }
        #expect(try queue.read { try String.fetchOne($0, sql: "SELECT typeof(a) FROM t WHERE n = 10") } == "text")
        let rows = try queue.read { try Row.fetchAll($0, sql: "SELECT * FROM t WHERE n < 10 ORDER BY n") }
        #expect(rows.count == 4)
        for (index, text) in texts.enumerated() {
            #expect(rows[index]["a"] as String? == text)
            #expect(rows[index]["b"] as String? == nil)
            #expect(rows[index]["c"] as Int64? == Int64.min)
            #expect(rows[index]["d"] as Int64? == 1)
        }
        #expect(rows[3]["n"] as Int? == 9)
        #expect(rows[3]["a"] as String? == nil)
        // Empty text among other text is text, not NULL.
        #expect(try queue.read { try String.fetchOne($0, sql: "SELECT typeof(b) FROM t WHERE n = 9") } == "text")
        #expect(rows[3]["c"] as Int64? == Int64.max)
        #expect(rows[3]["d"] as Int64? == 0)
    }

    @Test func grdbBindsTheStatementAfterUsAndAFailureIsGRDBsError() throws {
        let queue = try table()
        try queue.write { db in
            let statement = try db.cachedStatement(sql: "INSERT INTO t (n, a, b, c, d) VALUES (?, ?, ?, ?, ?)")
            var values = RowValues()
            values.append(1)
            values.append("first")
            values.append("x")
            values.append(1 as Int64?)
            values.append(true)
            try values.execute(statement)
            // GRDB's own binding works on the statement after ours, with nothing of ours left.
            try statement.execute(arguments: [2, "second", nil, nil, nil])
            // The same key again: SQLite refuses the row, and the error comes out as GRDB's.
            let error = #expect(throws: DatabaseError.self) { try values.execute(statement) }
            #expect(error?.resultCode == .SQLITE_CONSTRAINT)
            // GRDB drops a failed statement from its cache (SQLite cannot reset it): ask again.
            let fresh = try db.cachedStatement(sql: "INSERT INTO t (n, a, b, c, d) VALUES (?, ?, ?, ?, ?)")
            #expect(fresh !== statement)
            values.removeAll()
            values.append(3)
            values.append("third")
            values.appendNull()
            values.appendNull()
            values.append(false)
            try values.execute(fresh)
        }
        let titles = try queue.read { try String.fetchAll($0, sql: "SELECT a FROM t ORDER BY n") }
        #expect(titles == ["first", "second", "third"])
        let second = try queue.read { try Row.fetchOne($0, sql: "SELECT b, c, d FROM t WHERE n = 2") }
        #expect(second == ["b": nil, "c": nil, "d": nil])
    }
}
