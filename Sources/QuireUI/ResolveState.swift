import QuireCore

/// The three versions of an item that needs review, as the store keeps them.
public struct ReviewVersions: Hashable, Sendable {
    public var itemID: String
    /// The last version both sides agreed on; nil when both made the item independently.
    public var base: Item?
    /// This device's version (as it is now: the person may have edited it since the merge).
    public var local: Item
    /// The server's version.
    public var remote: Item

    public init(itemID: String, base: Item?, local: Item, remote: Item) {
        self.itemID = itemID
        self.base = base
        self.local = local
        self.remote = remote
    }
}

extension ReviewVersions {
    /// One of the three versions a conflict is shown in.
    public enum Version: String, CaseIterable, Hashable, Sendable {
        case base, local, remote
    }

    /// The item as one version has it; nil for a base that does not exist.
    public subscript(version: Version) -> Item? {
        switch version {
        case .base: base
        case .local: local
        case .remote: remote
        }
    }
}

/// The resolve (diff) screen: an item's conflicts, one row each, and the person's choice for
/// every row. Pure: the final item is computed from the merge and the choices, and accepting
/// turns it into a `ResolvePlan` the runtime writes.
///
/// Accepting while a row has no choice is refused (the screen says how many are left and
/// moves to the first one): a silent default would write a side nobody looked at.
public struct ResolveState: Hashable, Sendable {
    /// One thing to decide.
    public enum Row: Hashable, Sendable {
        /// An edit on one side met a delete on the other.
        case deletion
        /// A field other than the body both sides set differently.
        case field(Field)
        /// One conflicting hunk of the body, counted from 0 in text order.
        case hunk(Int)
    }

    /// Which version settles a row. `both` is only for body hunks (local lines, then remote).
    public enum Choice: String, Hashable, Sendable {
        case local, remote, both

        /// The versions the choice takes.
        public var versions: Set<ReviewVersions.Version> {
            switch self {
            case .local: [.local]
            case .remote: [.remote]
            case .both: [.local, .remote]
            }
        }
    }

    public let versions: ReviewVersions
    public let merge: ItemMerge
    /// The conflicts in screen order: the delete question, then fields, then body hunks.
    public let rows: [Row]
    public private(set) var choices: [Row: Choice]
    /// The body the person wrote with `e`; it settles every body hunk at once.
    public private(set) var editedBody: String?
    /// The index in `rows` of the selected conflict.
    public private(set) var selection: Int
    /// Rows scrolled past where the selected conflict puts the view (PgDn in a long hunk).
    public var scrollOffset: Int = 0
    /// The person asked for the unified view even where side by side would fit.
    public var prefersUnified: Bool
    /// The merged body open in the built-in editor.
    public var bodyEditor: TextArea?
    /// The resolution is on its way to the store; keys wait until it answers.
    public var saving: Bool

    public init(_ versions: ReviewVersions) {
        self.versions = versions
        merge = ItemMerge(base: versions.base, local: versions.local, remote: versions.remote)
        var rows: [Row] = []
        if merge.deleteConflict != nil { rows.append(.deletion) }
        for field in merge.conflicts where field != .body { rows.append(.field(field)) }
        if merge.conflicts.contains(.body) {
            let count = merge.body?.conflicts.count ?? 0
            rows += (0..<count).map(Row.hunk)
        }
        self.rows = rows
        choices = [:]
        editedBody = nil
        selection = 0
        prefersUnified = false
        bodyEditor = nil
        saving = false
    }

    public var itemID: String { versions.itemID }
    public var selectedRow: Row? { rows.indices.contains(selection) ? rows[selection] : nil }

    /// The body's conflicting hunks, in text order.
    public var hunks: [Diff3.Conflict] { merge.body?.conflicts ?? [] }

    // MARK: - Choosing

    public mutating func select(_ index: Int) {
        selection = max(0, min(index, rows.count - 1))
        scrollOffset = 0
    }

    public mutating func moveSelection(by offset: Int) {
        select(selection + offset)
    }

    /// Whether a choice can settle a row: `both` only for body hunks.
    public static func allows(_ choice: Choice, for row: Row) -> Bool {
        if case .hunk = row { return true }
        return choice != .both
    }

    /// Sets the choice for one row; false (and nothing changes) when the choice does not apply.
    /// Choosing a hunk's side drops an edited body: the edit and per-hunk choices cannot both hold.
    @discardableResult
    public mutating func choose(_ choice: Choice, for row: Row) -> Bool {
        guard rows.contains(row), ResolveState.allows(choice, for: row) else { return false }
        if case .hunk = row { editedBody = nil }
        choices[row] = choice
        return true
    }

    /// Settles every row with one side.
    public mutating func chooseAll(_ choice: Choice) {
        if choice != .both { editedBody = nil }
        for row in rows where ResolveState.allows(choice, for: row) { choices[row] = choice }
    }

    /// Sets the merged body from the person's own text; it settles every hunk.
    public mutating func setEditedBody(_ text: String) {
        editedBody = text
        for row in rows { if case .hunk = row { choices[row] = nil } }
    }

    /// Takes over the choices, selection and view of an earlier state of the same item when its
    /// conflicts are still the same; false (and nothing taken) when they changed.
    public mutating func adoptChoices(of earlier: ResolveState) -> Bool {
        prefersUnified = earlier.prefersUnified
        guard earlier.rows == rows, earlier.hunks == hunks else { return false }
        choices = earlier.choices
        editedBody = earlier.editedBody
        bodyEditor = earlier.bodyEditor
        selection = earlier.selection
        scrollOffset = earlier.scrollOffset
        return true
    }

    /// Whether a row is settled (by a choice, or for hunks by an edited body).
    public func isSettled(_ row: Row) -> Bool {
        if case .hunk = row, editedBody != nil { return true }
        return choices[row] != nil
    }

    /// The rows still waiting for a choice.
    public var unsettled: [Row] { rows.filter { !isSettled($0) } }

    // MARK: - The result

    /// The body as the choices make it: the edited text, or each hunk's chosen lines. An
    /// unsettled hunk shows git-style markers, which is also what the editor starts from.
    public var mergedBody: String {
        if let editedBody { return editedBody }
        guard let diff3 = merge.body, merge.conflicts.contains(.body) else { return merge.item.body }
        return diff3.text { index, conflict in
            switch choices[.hunk(index)] {
            case .local?: return .local
            case .remote?: return .remote
            case .both?: return .both
            case nil: return .lines(ResolveState.markers(for: conflict))
            }
        }
    }

    /// The item as the choices settle it, or nil while a row is unsettled.
    public var resolvedItem: Item? {
        guard unsettled.isEmpty else { return nil }
        var result = merge.item
        for row in rows {
            switch row {
            case .deletion:
                let side = choices[row] == .remote ? versions.remote : versions.local
                result.deleted = side.deleted
            case .field(let field):
                result.copy(field, from: choices[row] == .remote ? versions.remote : versions.local)
            case .hunk:
                break
            }
        }
        if merge.conflicts.contains(.body) { result.body = mergedBody }
        return result
    }

    /// How to write the resolution with what the ledger offers: one of its resolutions, then
    /// ordinary edits for the fields where the person chose otherwise. Nil while unsettled.
    public var plan: ResolvePlan? {
        guard let target = resolvedItem else { return nil }
        let candidates: [(ResolvePlan.Step, Item)] = [
            (.keep(.local), merge.resolved(.local)),
            (.keep(.remote), merge.resolved(.remote)),
            (.keep(.both), merge.resolved(.both)),
            (.body(target.body), merge.resolved(body: target.body)),
        ]
        for (step, item) in candidates where item.deleted == target.deleted {
            if target.deleted { return ResolvePlan(itemID: itemID, step: step, fields: [:], expected: target) }
            var fields: [Field: FieldValue] = [:]
            for field in Field.allCases where item.value(of: field) != target.value(of: field) {
                fields[field] = target.value(of: field)
            }
            // A body the ledger can write itself is better than an extra edit of it.
            if fields[.body] != nil { continue }
            return ResolvePlan(itemID: itemID, step: step, fields: fields, expected: target)
        }
        // Unreachable: the last candidate always keeps the item and writes the target body.
        return nil
    }

    /// How `u` takes a written resolution back: the values the item showed before it (this
    /// device's for the conflicting fields), written as an ordinary change.
    public func undoEntry(for plan: ResolvePlan) -> UndoEntry? {
        let before = merge.item
        if plan.expected.deleted && !before.deleted { return .undelete(id: itemID, title: before.title) }
        var fields: [Field: FieldValue] = [:]
        for field in Field.allCases where before.value(of: field) != plan.expected.value(of: field) {
            fields[field] = before.value(of: field)
        }
        return fields.isEmpty ? nil : .revert(id: itemID, title: plan.expected.title, fields: fields)
    }

    /// The lines an unsettled hunk shows in the editor.
    static func markers(for conflict: Diff3.Conflict) -> [String] {
        var lines = ["<<<<<<< local\n"] + conflict.local + ["||||||| base\n"] + conflict.base + ["=======\n"]
        lines += conflict.remote + [">>>>>>> remote\n"]
        // `Diff3.join` adds a newline after a line that lacks one, so a hunk's last line
        // (the text's end) cannot run into the marker after it.
        return lines
    }

    /// Whether a text still holds the markers of an unsettled hunk.
    public static func hasMarkers(_ text: String) -> Bool {
        text.split(separator: "\n").contains { $0 == "<<<<<<< local" || $0 == ">>>>>>> remote" }
    }
}

/// What accepting a resolution writes, in one change: one of the ledger's resolutions (`step`)
/// with `fields` set on top (the fields where the person chose differently from that step).
public struct ResolvePlan: Hashable, Sendable {
    public enum Step: Hashable, Sendable {
        /// One side, or both (`SyncLedger.resolve(_:keeping:body:setting:)`).
        case keep(ItemMerge.Resolution)
        /// The merged body the person wrote, the local side for the rest.
        case body(String)
    }

    public var itemID: String
    public var step: Step
    public var fields: [Field: FieldValue]
    /// The item the write leaves in the store.
    public var expected: Item

    public init(itemID: String, step: Step, fields: [Field: FieldValue], expected: Item) {
        self.itemID = itemID
        self.step = step
        self.fields = fields
        self.expected = expected
    }
}
