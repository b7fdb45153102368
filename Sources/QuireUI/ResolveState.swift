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
    /// A text field in conflict the person is writing a value of their own for.
    public var fieldEditor: FieldEditor?
    /// Values the person wrote for text fields in conflict (each settles its row).
    public private(set) var editedFields: [Field: String] = [:]
    /// The whole item as the choices make it is shown instead of the conflicts (`p`).
    public var showsPreview = false
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
        if case .field(let field) = row { editedFields[field] = nil }
        choices[row] = choice
        return true
    }

    /// Settles every row with one side.
    public mutating func chooseAll(_ choice: Choice) {
        if choice != .both {
            editedBody = nil
            editedFields = [:]
        }
        for row in rows where ResolveState.allows(choice, for: row) { choices[row] = choice }
    }

    /// The fields a person can write a value of their own for, as one line of text.
    public static func isEditableText(_ field: Field) -> Bool { field == .title || field == .tags }

    /// A field's value as the one line the field editor starts from and reads back.
    public static func text(of field: Field, in item: Item) -> String {
        field == .tags ? item.tags.map(DetailsLine.tagWord).joined(separator: " ") : item.title
    }

    /// Settles a text field in conflict with the person's own value. Returns why not (and
    /// changes nothing) when the field is not one in conflict or the value is not valid for it.
    @discardableResult
    public mutating func setEditedField(_ field: Field, _ text: String) -> String? {
        guard rows.contains(.field(field)), ResolveState.isEditableText(field) else {
            return "\(field.rawValue) is not a text field in conflict"
        }
        var probe = merge.item
        do {
            try probe.set(field, to: ResolveState.value(of: field, from: text), now: probe.updatedAt)
        } catch {
            return error.description
        }
        editedFields[field] = text
        choices[.field(field)] = nil
        return nil
    }

    /// The value a line of text gives a field: tags as words, `#` optional.
    static func value(of field: Field, from text: String) -> FieldValue {
        guard field == .tags else { return .string(text) }
        let words = text.split(whereSeparator: \.isWhitespace).map {
            $0.hasPrefix("#") ? String($0.dropFirst()) : String($0)
        }
        return .strings(words.filter { !$0.isEmpty })
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
        editedFields = earlier.editedFields
        fieldEditor = earlier.fieldEditor
        showsPreview = earlier.showsPreview
        selection = earlier.selection
        scrollOffset = earlier.scrollOffset
        return true
    }

    /// Whether anything was chosen or written here (leaving asks first).
    public var hasChoices: Bool {
        !choices.isEmpty || editedBody != nil || !editedFields.isEmpty
    }

    /// Whether a row is settled (by a choice, or for hunks by an edited body).
    public func isSettled(_ row: Row) -> Bool {
        if case .hunk = row, editedBody != nil { return true }
        if case .field(let field) = row, editedFields[field] != nil { return true }
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
        return previewItem
    }

    /// The item as the choices so far make it: rows still unsettled show this device's value
    /// (the body, git-style markers), as the screen's preview shows it before accepting.
    public var previewItem: Item {
        var result = merge.item
        for row in rows {
            switch row {
            case .deletion:
                let side = choices[row] == .remote ? versions.remote : versions.local
                result.deleted = side.deleted
            case .field(let field):
                if let text = editedFields[field] {
                    try? result.set(field, to: ResolveState.value(of: field, from: text), now: result.updatedAt)
                } else {
                    result.copy(field, from: choices[row] == .remote ? versions.remote : versions.local)
                }
            case .hunk:
                break
            }
        }
        if merge.conflicts.contains(.body) { result.body = mergedBody }
        return result
    }

    /// The lines of the person's edited body that stand where each conflicting hunk was: the
    /// text between the unchanged stretches around the hunk, found in order. Nil for a hunk
    /// whose surroundings the edit changed (the screen then shows the edited body whole).
    public var editedHunkLines: [[String]?] {
        guard let editedBody, let chunks = merge.body?.chunks else { return [] }
        let edited = LineDiff.lines(of: editedBody)
        var result: [[String]?] = []
        var position = 0
        var open: Int?  // where the text of the hunk being looked for starts
        var aligned = true
        for chunk in chunks {
            switch chunk {
            case .conflict:
                result.append(nil)
                open = aligned ? position : nil
            case .clean(let lines):
                guard aligned, let start = ResolveState.find(lines, in: edited, from: position) else {
                    aligned = false
                    continue
                }
                if let from = open, let last = result.indices.last { result[last] = Array(edited[from..<start]) }
                open = nil
                position = start + lines.count
            }
        }
        if aligned, let from = open, let last = result.indices.last { result[last] = Array(edited[from...]) }
        return result
    }

    /// Where `lines` first stand together in `text` at or after `start`.
    private static func find(_ lines: [String], in text: [String], from start: Int) -> Int? {
        guard !lines.isEmpty else { return start }
        guard text.count - lines.count >= start else { return nil }
        for index in start...(text.count - lines.count)
        where text[index..<(index + lines.count)].elementsEqual(lines, by: { $0.utf8.elementsEqual($1.utf8) }) {
            return index
        }
        return nil
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
            if target.deleted {
                return ResolvePlan(itemID: itemID, step: step, fields: [:], expected: target, seen: versions)
            }
            var fields: [Field: FieldValue] = [:]
            for field in Field.allCases where item.value(of: field) != target.value(of: field) {
                fields[field] = target.value(of: field)
            }
            // A body the ledger can write itself is better than an extra edit of it.
            if fields[.body] != nil { continue }
            return ResolvePlan(itemID: itemID, step: step, fields: fields, expected: target, seen: versions)
        }
        // Unreachable: the last candidate always keeps the item and writes the target body.
        return nil
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

/// A text field in conflict open for the person's own value (`e` on its row).
public struct FieldEditor: Hashable, Sendable {
    public var field: Field
    public var input: TextField

    public init(field: Field, text: String) {
        self.field = field
        input = TextField(text)
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
    /// The versions the screen showed when the person chose: if the item moves before the
    /// write, the store carries what moved onto `expected` (or asks the person to look again).
    public var seen: ReviewVersions?

    public init(
        itemID: String, step: Step, fields: [Field: FieldValue], expected: Item, seen: ReviewVersions? = nil
    ) {
        self.itemID = itemID
        self.step = step
        self.fields = fields
        self.expected = expected
        self.seen = seen
    }
}
