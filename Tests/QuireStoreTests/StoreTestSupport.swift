import Foundation
import GRDB
import QuireCore
import QuireTestSupport

@testable import QuireStore

/// Helpers shared by the store tests: a fresh on-disk store with a deterministic clock and ids,
/// and raw row counts to check invariants against.
enum StoreFixture {
    static func make(seed: UInt64 = 7) throws -> AppDatabase {
        try AppDatabase.temporary(environment: .deterministic(seed: seed))
    }

    static func count(_ store: AppDatabase, _ sql: String, _ arguments: StatementArguments = []) throws -> Int {
        try store.writer.read { try Int.fetchOne($0, sql: sql, arguments: arguments) ?? 0 }
    }

    static func execute(_ store: AppDatabase, _ sql: String, _ arguments: StatementArguments = []) throws {
        try store.writer.write { try $0.execute(sql: sql, arguments: arguments) }
    }

    /// A directory of its own under the temporary folder; the caller removes it.
    static func directory() throws -> String {
        try makeTemporaryDirectory("quire-store-test")
    }

    /// Waits for `condition` to hold, checking every few milliseconds, up to `seconds`.
    static func wait(upTo seconds: Double = 5, until condition: () -> Bool) -> Bool {
        waitUntil(timeout: seconds, every: 0.002, condition)
    }
}

/// A value several threads may set and read.
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func get() -> Value { lock.withLock { value } }
    func update(_ body: (inout Value) -> Void) { lock.withLock { body(&value) } }
}
