import GRDB
import GRDBSQLite

/// The values of a multi-row INSERT, kept as SQLite takes them and bound without a copy.
///
/// Why not `StatementArguments`: a first pull or an import writes every item, its history
/// version and (for an import) its create op, 100k rows of 17 columns each per 100k items.
/// Through `StatementArguments` each value was boxed as an existential, converted to a
/// `DatabaseValue`, checked, then copied again by SQLite (`SQLITE_TRANSIENT`): a fifth of a
/// first pull's time. Here text goes into one byte buffer and is bound with `SQLITE_STATIC`
/// pointers into it, valid while `execute` runs.
struct RowValues {
    private enum Value {
        case null
        case integer(Int64)
        /// Bytes `start ..< start + count` of `bytes`.
        case text(start: Int, count: Int)
    }

    private var values: [Value] = []
    /// Every text value's UTF-8 bytes, one after another.
    private var bytes: [UInt8] = []

    mutating func append(_ text: String) {
        let start = bytes.count
        bytes.append(contentsOf: text.utf8)
        values.append(.text(start: start, count: bytes.count - start))
    }

    mutating func append(_ text: String?) {
        if let text { append(text) } else { values.append(.null) }
    }

    mutating func append(_ number: Int) { values.append(.integer(Int64(number))) }
    mutating func append(_ number: Int64?) { values.append(number.map(Value.integer) ?? .null) }
    mutating func append(_ flag: Bool) { values.append(.integer(flag ? 1 : 0)) }
    mutating func appendNull() { values.append(.null) }

    /// Somewhere for empty text to point when no text is held at all.
    private static var noText: UnsafePointer<UInt8> { ("" as StaticString).utf8Start }

    mutating func removeAll() {
        values.removeAll(keepingCapacity: true)
        bytes.removeAll(keepingCapacity: true)
    }

    /// Runs `statement` once with these values bound to its parameters in order; there must be
    /// exactly as many values as parameters.
    func execute(_ statement: Statement) throws {
        let sqliteStatement = statement.sqliteStatement
        precondition(Int(sqlite3_bind_parameter_count(sqliteStatement)) == values.count, "one value per parameter")
        // GRDB checks its own arguments before it runs a statement: tell it there are none to
        // check, then bind below it. `execute()` without arguments keeps these bindings.
        statement.setUncheckedArguments(StatementArguments())
        try bytes.withUnsafeBufferPointer { raw in
            // Empty text needs a pointer all the same: SQLite binds a null pointer as NULL.
            let base = raw.baseAddress ?? Self.noText
            defer { sqlite3_clear_bindings(sqliteStatement) }
            for (offset, value) in values.enumerated() {
                let index = Int32(offset + 1)
                let code: Int32
                switch value {
                case .null:
                    code = sqlite3_bind_null(sqliteStatement, index)
                case .integer(let number):
                    code = sqlite3_bind_int64(sqliteStatement, index, number)
                case .text(let start, let count):
                    let text = UnsafeRawPointer(base + start).assumingMemoryBound(to: CChar.self)
                    code = sqlite3_bind_text(sqliteStatement, index, text, Int32(count), nil)
                }
                guard code == SQLITE_OK else { throw DatabaseError(resultCode: ResultCode(rawValue: code)) }
            }
            try statement.execute()
        }
    }
}
