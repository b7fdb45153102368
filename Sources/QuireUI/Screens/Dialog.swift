import TerminalUI

/// A small box in the middle of the screen asking a yes/no question.
enum Dialog {
    static func render(_ question: AppState.Question, into buffer: inout Buffer) {
        let text: String
        switch question {
        case .discardChanges: text = "Discard unsaved changes?"
        case .dropResolveChoices: text = "Leave and drop the choices made here?"
        case .discardDeadLetter(let letter): text = "Discard the rejected change to \(letter.title)?"
        case .purge(_, let title): text = "Delete “\(title)” for good, on every device?"
        case .replaceFile(_, let path): text = "Replace \(path)?"
        }
        let answer = "y yes   n no"
        let width = min(buffer.width, max(text.displayWidth, answer.displayWidth) + 4)
        let box = buffer.area.centered(Size(width: width, height: 4))
        buffer.fill(box, with: Cell(" ", style: Style(.dialog)))
        Block(borderStyle: Style(.dialog)).render(into: &buffer, area: box)
        let inner = box.inset(horizontal: 2, vertical: 1)
        buffer.put(text, x: inner.x, y: inner.y, style: Style(.dialog), maxWidth: inner.width)
        buffer.put(answer, x: inner.x, y: inner.y + 1, style: Style(.dialog), maxWidth: inner.width)
    }
}
