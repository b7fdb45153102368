import QuireCore

/// Ticking a task box (`- [ ]`) of a note's text from the item view (SPEC: Markdown): `]` and
/// `[` pick a box, the status bar says which, and `b` ticks or unticks it (`x` too on a note,
/// which has no checkbox of its own for `x` to toggle). The tick is an
/// edit of the body that starts from the text on screen, so it goes the editor's way and
/// merges with whatever changed meanwhile ("every write path has a base").
extension AppState {
    mutating func taskBoxCommand(_ command: Command) -> [Effect] {
        guard let item = list.selectedItem else { return [] }
        let boxes = TaskBox.boxes(in: item.body)
        guard !boxes.isEmpty else {
            notice = .info("No task boxes (- [ ]) in this text")
            return []
        }
        let current = min(selectedBox ?? 0, boxes.count - 1)
        switch command {
        case .nextBox: selectedBox = selectedBox == nil ? 0 : (current + 1) % boxes.count
        case .previousBox:
            selectedBox = selectedBox == nil ? boxes.count - 1 : (current + boxes.count - 1) % boxes.count
        case .tickBox:
            selectedBox = current
            let body = TaskBox.toggling(boxes[current], in: item.body)
            return [.write(.edit(id: item.id, before: [.body: .string(item.body)], after: [.body: .string(body)]))]
        default: return []
        }
        let box = boxes[selectedBox ?? 0]
        notice = .info(
            "Task box \((selectedBox ?? 0) + 1)/\(boxes.count): \(box.checked ? "[x]" : "[ ]") \(box.text) · "
                + (item.kind == .note ? "x ticks it" : "b ticks it")
        )
        return []
    }
}
