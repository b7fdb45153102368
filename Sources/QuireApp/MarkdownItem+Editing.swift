import QuireCore
import QuireStore

extension MarkdownItem {
    /// The item with what a person saved in its `renderForEditing` file: the fields the file
    /// shows come from it, the rest (id, times, sync state) stay as they were. `E` in the app
    /// and `quire edit` both read an edited file this way.
    public static func applyingEdit(_ text: String, to item: Item) throws(ImportError) -> Item {
        let entry = try parse(text)
        var edited = item
        edited.kind = entry.kind
        edited.title = entry.title
        edited.body = entry.body
        edited.tags = Tags.normalize(entry.tags)
        // A note has no checkbox: its file's `done` means nothing unless it is (or becomes) a task.
        if item.kind == .task || entry.kind == .task { edited.done = entry.done }
        edited.due = entry.due
        edited.priority = entry.priority
        edited.pinned = entry.pinned
        edited.project = entry.project
        edited.recur = entry.recur
        edited.wait = entry.wait
        edited.scheduled = entry.scheduled
        return edited
    }
}
