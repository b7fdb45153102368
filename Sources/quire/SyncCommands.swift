import ArgumentParser

extension Quire {
    /// The subcommands that talk to a sync server (`sync`, `status`, `conflicts`, `resolve`,
    /// `remote`). They are listed here, apart from the local commands, and share the same
    /// plumbing: `StoreAccess.open()`, `ItemIDs`, `JSONOutput`, `Output` and `CLIFailure`
    /// (whose exit codes include SPEC's 3, 4 and 5 for sync outcomes).
    static let syncCommands: [any ParsableCommand.Type] = [
        SyncCommand.self, StatusCommand.self, ConflictsCommand.self, ResolveCommand.self, RemoteCommand.self,
        EncryptionCommand.self,
    ]
}
