import GRDB

/// Where a store's schema stands against the migrations this version registers.
enum MigrationState: Equatable {
    /// Every registered migration has run, and nothing else.
    case complete
    /// Some registered migrations have not run yet.
    case due
    /// A migration this version does not know has run: a newer Quire wrote the store.
    case superseded
}

extension DatabaseMigrator {
    /// The schema's state from one read of the migrations table. Every command opens the store,
    /// and GRDB's `hasBeenSuperseded` and `hasCompletedMigrations` each read the table again.
    func state(_ db: Database) throws -> MigrationState {
        let applied = try appliedIdentifiers(db)
        let registered = Set(migrations)
        if !applied.isSubset(of: registered) { return .superseded }
        return applied == registered ? .complete : .due
    }
}
