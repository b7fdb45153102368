import Foundation
import GRDB
import QuireCore

// MARK: - Writes

/// Local changes. Each public method is one transaction that writes the item row, a new
/// version in the item's history and the outbox operation carrying the change, or nothing.
///
/// Outbox rules (see `OutboxFold` for updates):
/// - An update folds into the item's latest op when that op was never sent (`pending` with no
///   attempts). An op that went out once may already be applied on the server, which will answer
///   its replay as it did the first time: anything folded into it would be lost.
/// - Deleting an item the server has never heard of (revision 0, and its only ops never sent:
///   the create and what folded into it) removes those ops instead of queueing a delete: the
///   item becomes a local tombstone and nothing travels.
/// - Restoring an item whose latest op is a never-sent delete removes that delete. Otherwise
///   restore queues a `create` carrying every field, against the tombstone's revision: the
///   server revives the item with those values.
extension AppDatabase {
    /// Creates an item and queues its `create` op.
    @discardableResult
    public func create(_ new: NewItem) throws(StoreError) -> Item {
        try write { db in
            let now = self.now()
            let id = environment.newID(now)
            let item = Item(
                id: id, kind: new.kind, title: try Validation.title(new.title),
                body: try Self.bodyLinkingByID(Validation.body(new.body), in: db), tags: new.tags, due: new.due,
                priority: new.priority,
                pinned: new.pinned, project: try Validation.project(new.project ?? ""), recur: new.recur,
                wait: new.wait, scheduled: new.scheduled, createdAt: UUIDv7Generator.creationTime(ofID: id) ?? now,
                updatedAt: now, syncState: .pending)
            try Validation.size(of: item)
            try Validation.recurrence(of: item)
            try insertCreated(item, now: now, in: db)
            return item
        }
    }

    /// Writes a new item with its `create` op and its first history version.
    private func insertCreated(_ item: Item, now: Date, in db: Database) throws {
        let opID = environment.newID(now)
        try ItemRow.insert(item, in: db)
        try Outbox.insert(opID: opID, item: item, kind: .create, fields: item.creationFields, createdAt: now, in: db)
        try History.insert(item, origin: .local, opID: opID, at: now, in: db)
    }

    /// Sets fields of one item (by full id) and queues an update, folded when possible.
    ///
    /// Values are checked as `Item.set(_:to:now:)` does. A change that sets every field to the
    /// value it already has writes nothing and returns the item as it was.
    @discardableResult
    public func update(_ id: String, fields: [Field: FieldValue]) throws(StoreError) -> Item {
        try write { db in
            let before = try existingItem(id, in: db)
            return try recordUpdate(before, fields: fields, origin: .local, in: db)
        }
    }

    /// Like `update(_:fields:)`, with the values computed from the item as it is inside the
    /// transaction (for changes relative to the current value, such as adding a tag).
    @discardableResult
    public func update(_ id: String, computing values: (Item) -> [Field: FieldValue]) throws(StoreError) -> Item {
        try write { db in
            let before = try existingItem(id, in: db)
            return try recordUpdate(before, fields: values(before), origin: .local, in: db)
        }
    }

    /// Marks tasks done (or open again); all of them in one transaction, or none when one of
    /// them is a note or deleted. Tasks already in that state are returned unchanged.
    @discardableResult
    public func setDone(_ ids: [String], _ done: Bool) throws(StoreError) -> [Item] {
        try write { db in
            try ids.map { id in
                let before = try existingItem(id, in: db)
                guard before.kind == .task else { throw StoreError.notATask(id: before.id, title: before.title) }
                return try recordUpdate(before, fields: [.done: .bool(done)], origin: .local, in: db)
            }
        }
    }

    /// Pins or unpins items; pinned items sort first.
    @discardableResult
    public func setPinned(_ ids: [String], _ pinned: Bool) throws(StoreError) -> [Item] {
        try write { db in
            try ids.map { id in
                try recordUpdate(try existingItem(id, in: db), fields: [.pinned: .bool(pinned)], origin: .local, in: db)
            }
        }
    }

    /// Deletes items: each becomes a tombstone that `restore(_:)` brings back.
    @discardableResult
    public func delete(_ ids: [String]) throws(StoreError) -> [Item] {
        try write { db in
            try ids.map { id in
                guard let before = try ItemRow.fetch(id: id, in: db) else { throw StoreError.notFound(id: id) }
                return try recordDelete(before, undoing: nil, in: db)
            }
        }
    }

    /// Brings deleted items back with the fields they had.
    @discardableResult
    public func restore(_ ids: [String]) throws(StoreError) -> [Item] {
        try write { db in
            try ids.map { id in
                guard let before = try ItemRow.fetch(id: id, in: db) else { throw StoreError.notFound(id: id) }
                return try recordRestore(before, undoing: nil, in: db)
            }
        }
    }

    /// Makes a live item a tombstone, queues the delete (or drops ops the server never saw) and
    /// records the version; `undoing` is the history entry this delete takes back, if any.
    func recordDelete(_ before: Item, undoing: Int64?, in db: Database) throws -> Item {
        guard !before.deleted else { return before }
        let now = self.now()
        var after = before
        after.deleted = true
        after.updatedAt = now
        let ops = try Outbox.entries(for: before.id, in: db)
        var opID: String?
        if before.rev == 0, ops.first?.op.kind == .create, ops.allSatisfy(\.wasNeverSent) {
            try Outbox.remove(ops.map(\.seq), in: db)
        } else if before.rev > 0 || !ops.isEmpty {
            opID = environment.newID(now)
            try Outbox.insert(opID: opID!, item: before, kind: .delete, fields: nil, createdAt: now, in: db)
        }
        after.syncState = try settledState(after, in: db)
        try ItemRow.update(after, in: db)
        try History.insert(after, origin: .local, opID: opID, at: now, undoing: undoing, in: db)
        return after
    }

    /// Brings a tombstone back: drops its never-sent delete or queues a `create` with every
    /// field; `undoing` is the history entry this restore takes back, if any.
    func recordRestore(_ before: Item, undoing: Int64?, in db: Database) throws -> Item {
        guard before.deleted else { return before }
        let now = self.now()
        var after = before
        after.deleted = false
        after.updatedAt = now
        var opID: String?
        if let latest = try Outbox.entries(for: before.id, in: db).last, latest.wasNeverSent, latest.op.kind == .delete
        {
            try Outbox.remove([latest.seq], in: db)
            after = try serverCopyWhenNothingWaits(after, in: db)
        } else {
            opID = environment.newID(now)
            try Outbox.insert(
                opID: opID!, item: after, kind: .create, fields: before.revivalFields, createdAt: now, in: db)
        }
        after.syncState = try settledState(after, in: db)
        try ItemRow.update(after, in: db)
        try History.insert(after, origin: .local, opID: opID, at: now, undoing: undoing, in: db)
        return after
    }

    /// Imports items in one transaction: all of them or, on the first error, none.
    public func importItems(_ entries: [ImportEntry]) throws(StoreError) -> ImportSummary {
        var remaining = entries.makeIterator()
        do {
            return try importItems { remaining.next() }
        } catch let error as StoreError {
            throw error
        } catch {
            preconditionFailure("entries in memory cannot fail to be read: \(error)")
        }
    }

    /// Imports the entries `next` hands out, one at a time, in one transaction: all of them or,
    /// on the first error, none.
    ///
    /// Why a function and not an array: an import file is read while it is written, so memory
    /// holds one batch (see `ImportBatch`), never the whole file. An entry whose id is already
    /// here updates that item as a local change would.
    /// - Throws: the `ImportError` that `next` threw (nothing is written), or a `StoreError`.
    public func importItems(from next: () throws(ImportError) -> ImportEntry?) throws -> ImportSummary {
        var unreadable: ImportError?
        do {
            return try write { db in
                var summary = ImportSummary()
                var batch = ImportBatch()
                let now = self.now()
                var group: [ImportEntry] = []
                var ended = false
                while !ended {
                    // Entries are read a group at a time, so that one statement tells which of
                    // their ids are here already: a lookup per entry was a twentieth of an import.
                    // A group is bounded in text as a batch is, so that memory stays flat with
                    // long notes. An unreadable entry ends the group; those before it are written
                    // first, as they would have been one by one.
                    group.removeAll(keepingCapacity: true)
                    var groupBytes = 0
                    var readError: ImportError?
                    do throws(ImportError) {
                        while group.count < Self.importGroupSize, groupBytes < ImportBatch.maximumBytes {
                            guard let entry = try next() else {
                                ended = true
                                break
                            }
                            group.append(entry)
                            groupBytes += entry.title.utf8.count + entry.body.utf8.count
                        }
                    } catch {
                        readError = error
                        ended = true
                    }
                    // What may be here: ids in the store or in the batch as the group starts
                    // (`known`), and ids of the group's own earlier entries (`seen`). Any other
                    // id is new, and needs no lookup.
                    let ids = group.compactMap { $0.id?.lowercased() }
                    var known = try ItemRow.existingIDs(ids, in: db)
                    known.formUnion(ids.filter(batch.contains))
                    var seen = Set<String>()
                    for entry in group {
                        if let id = entry.id?.lowercased() {
                            defer { seen.insert(id) }
                            if known.contains(id) || seen.contains(id) {
                                // A second entry for an id of this batch updates what the first created.
                                if batch.contains(id) { try batch.flush(in: db) }
                                if let existing = try ItemRow.fetch(id: id, in: db) {
                                    if existing.deleted {
                                        summary.skippedDeleted += 1
                                        continue
                                    }
                                    let after = try recordUpdate(
                                        existing, fields: entry.fieldValues, origin: .import, in: db)
                                    if after == existing { summary.unchanged += 1 } else { summary.updated += 1 }
                                    continue
                                }
                            }
                        }
                        let item = try importedItem(entry, now: now)
                        batch.append(
                            item, opID: item.deleted ? nil : environment.newID(now), createFields: item.creationFields,
                            at: now)
                        summary.created += 1
                        if batch.isFull { try batch.flush(in: db) }
                    }
                    if let readError {
                        unreadable = readError
                        throw readError
                    }
                }
                try batch.flush(in: db)
                return summary
            }
        } catch {
            if let unreadable { throw unreadable }
            throw error
        }
    }

    /// How many entries an import reads before it looks up their ids (see `importItems`).
    static let importGroupSize = 1000

    // MARK: - Building blocks (inside a write transaction)

    func existingItem(_ id: String, in db: Database) throws -> Item {
        guard let item = try ItemRow.fetch(id: id, in: db) else { throw StoreError.notFound(id: id) }
        guard !item.deleted else { throw StoreError.deleted(id: item.id, title: item.title) }
        return item
    }

    /// Applies `fields` to a live item, folds or queues the op, writes row and history.
    func recordUpdate(
        _ before: Item, fields: [Field: FieldValue], origin: ChangeOrigin, undoing: Int64? = nil, in db: Database
    ) throws -> Item {
        let now = self.now()
        var fields = fields
        if origin == .local, undoing == nil, case .string(let body)? = fields[.body] {
            fields[.body] = .string(try Self.bodyLinkingByID(body, in: db))
        }
        var after = try before.applying(fields, now: now)
        let changes = after.changes(since: before)
        if changes.isEmpty { return before }
        try Validation.size(of: after)
        if origin == .local && undoing == nil { try Validation.recurrence(of: after) }
        after.updatedAt = now
        // Made first, so that the completion is the newer action: `quire undo` reopens the
        // occurrence, and only an undo after that takes the next one away.
        if origin == .local && !before.done && after.done { try bringUpNextOccurrence(after: after, now: now, in: db) }
        let opID = try foldOrQueue(before, changes: changes, now: now, in: db)
        if opID == nil { after = try serverCopyWhenNothingWaits(after, in: db) }
        after.syncState = try settledState(after, in: db)
        try ItemRow.update(after, in: db)
        try History.insert(after, origin: origin, opID: opID, at: now, undoing: undoing, in: db)
        if changes[.title] != nil { try rewriteLinks(renaming: before, to: after, in: db) }
        return after
    }

    /// The one place a completed occurrence of a recurring task brings up the next: every
    /// local way of completing a task (`quire done`, `quire edit`, the app's `x`, its details
    /// line and editor, an undo that completes again) writes through `recordUpdate`, and so
    /// here. The next occurrence is `Item.nextOccurrence`, whose id is derived from the
    /// completed one: when it is here already (completed before, reopened, completed again;
    /// or pulled from a device that completed it first), nothing is made, even if it was
    /// deleted since. What sync and import bring never makes one: the device that completed
    /// the occurrence made it, and it travels as an item of its own.
    private func bringUpNextOccurrence(after completed: Item, now: Date, in db: Database) throws {
        guard let next = completed.nextOccurrence(now: now), try ItemRow.fetch(id: next.id, in: db) == nil else {
            return
        }
        try insertCreated(next, now: now, in: db)
    }

    /// A local change that cancels the only op waiting for an item (a toggle toggled back, a
    /// delete restored before it was sent) leaves nothing to travel: the server keeps the version
    /// this device last had from it, so the item becomes that version again, byte for byte, its
    /// times included. Every path that can empty an item's outbox ends here, so no copy keeps a
    /// time of its own that no op will ever bring to the server.
    func serverCopyWhenNothingWaits(_ item: Item, in db: Database) throws -> Item {
        guard let version = item.serverVersion, try Outbox.entries(for: item.id, in: db).isEmpty else { return item }
        let sql = """
            SELECT \(ItemRow.versionColumns)
            FROM itemVersion WHERE itemId = ? AND serverVersion = ? ORDER BY seq DESC LIMIT 1
            """
        guard let row = try Row.fetchOne(db.cachedStatement(sql: sql), arguments: [item.id, version.description])
        else { return item }
        var server = try ItemRow.decode(row)
        // Only when the change truly undid the waiting one: other values would be an edit that
        // must not be dropped (and an op would be waiting for it).
        guard server.hasSameContent(as: item) else { return item }
        server.syncState = item.syncState
        return server
    }

    /// Folds `changes` into the item's latest op when it was never sent, else queues an update.
    /// Returns the id of the op that now carries the change (nil when folding cancelled it out).
    private func foldOrQueue(_ before: Item, changes: [Field: FieldChange], now: Date, in db: Database) throws
        -> String?
    {
        if let latest = try Outbox.entries(for: before.id, in: db).last,
            latest.wasNeverSent, latest.op.kind != .delete
        {
            if let merged = OutboxFold.fold(kind: latest.op.kind, existing: latest.op.fields ?? [:], changes: changes) {
                try Outbox.setFields(merged, seq: latest.seq, in: db)
                return latest.op.id
            }
            try Outbox.remove([latest.seq], in: db)
            return nil
        }
        let opID = environment.newID(now)
        try Outbox.insert(opID: opID, item: before, kind: .update, fields: changes, createdAt: now, in: db)
        return opID
    }

    /// The badge an item shows after a local change, by the rule sync follows too (`SyncBadge`).
    func settledState(_ item: Item, in db: Database) throws -> SyncState {
        let needsReview =
            try Bool.fetchOne(
                db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM conflict WHERE itemId = ?)"), arguments: [item.id]
            ) ?? false
        return SyncBadge.state(needsReview: needsReview, ops: try Outbox.entries(for: item.id, in: db).map(\.standing))
    }

    /// The item an import entry describes, checked as a new item is.
    private func importedItem(_ entry: ImportEntry, now: Date) throws -> Item {
        if let id = entry.id, !UUIDv7Generator.isValid(id) {
            throw StoreError.invalidPrefix(id)
        }
        // Created when its id says, as the server will take it; an entry without an id gets one
        // made at its creation time, so that the time survives the trip.
        let written = entry.createdAt.map(StoreTime.truncated)
        let id =
            entry.id?.lowercased() ?? written.map { UUIDv7Generator.id(environment.newID(now), retimedTo: $0) }
            ?? environment.newID(now)
        let created = UUIDv7Generator.creationTime(ofID: id) ?? written ?? now
        var item = Item(
            id: id, kind: entry.kind,
            title: try Validation.title(entry.title), body: try Validation.body(entry.body), tags: entry.tags,
            done: entry.kind == .task && entry.done, due: entry.due, priority: entry.priority,
            pinned: entry.pinned, project: try Validation.project(entry.project ?? ""), recur: entry.recur,
            wait: entry.wait, scheduled: entry.scheduled, createdAt: created,
            updatedAt: entry.updatedAt.map(StoreTime.truncated) ?? created,
            deleted: entry.deleted, syncState: entry.deleted ? .synced : .pending)
        if item.done { item.doneAt = entry.doneAt.map(StoreTime.truncated) ?? item.updatedAt }
        return try Validation.size(of: item)
    }
}

// MARK: - Table helpers

/// Statements on the `itemVersion` table (an item's history).
enum History {
    /// The version's own bookkeeping, then the item columns from `kind` to `rev` (no badge).
    static let columns =
        ["itemId", "recordedAt", "origin", "opId"] + ItemRow.columns[1..<14] + ["serverVersion"]
        + ItemRow.columns[16...]
    static let insertSQL =
        "INSERT INTO itemVersion (\(columns.joined(separator: ", "))) VALUES (\(columns.map { _ in "?" }.joined(separator: ", ")))"

    /// Appends the values of `columns` for one version; `recorded` is the time as the store
    /// writes it.
    static func append(
        _ item: Item, origin: ChangeOrigin, opID: String?, recorded: String, to values: inout RowValues
    ) {
        values.append(item.id)
        values.append(recorded)
        values.append(origin.rawValue)
        values.append(opID)
        ItemRow.appendContent(item, to: &values)
        // Only a version pulled from the server is a server version; another (a local edit, a
        // merge) rests on one but is not it, until the server acknowledges it as exactly that.
        values.append(origin == .remote ? item.serverVersion?.description : nil)
        ItemRow.appendPlanning(item, to: &values)
    }

    static let undoingInsertSQL =
        "INSERT INTO itemVersion (\(columns.joined(separator: ", ")), undoes) VALUES (\(columns.map { _ in "?" }.joined(separator: ", ")), ?)"

    /// Records a version; `undoing` is the seq of the version whose action this one takes back.
    static func insert(
        _ item: Item, origin: ChangeOrigin, opID: String?, at time: Date, undoing: Int64? = nil, in db: Database
    ) throws {
        var values = RowValues()
        append(item, origin: origin, opID: opID, recorded: StoreTime.string(from: time), to: &values)
        if let undoing {
            values.append(undoing)
            try values.execute(db.cachedStatement(sql: undoingInsertSQL))
        } else {
            try values.execute(db.cachedStatement(sql: insertSQL))
        }
    }
}
