import TerminalUI

/// The unlock prompt, as a box in the middle of the screen: what it asks for, the typed text as
/// dots (a passphrase is never drawn), and the keys, wrapped to fit a small terminal.
enum UnlockDialog {
    /// Draws the box; answers where the cursor goes (nil while unlocking).
    static func render(_ prompt: UnlockPrompt, into buffer: inout Buffer) -> Point? {
        let heading = "Unlock this device (encrypted account)"
        let keys =
            prompt.unlocking
            ? "Unlocking…" : "Enter unlock · Tab \(prompt.recoveryKey ? "passphrase" : "recovery key") · Esc leave"
        let width = min(buffer.width, max(heading.displayWidth, keys.displayWidth, 40) + 4)
        let textWidth = max(1, width - 4)
        let headingRows = WordWrap.lines(heading, width: textWidth)
        let keyRows = WordWrap.lines(keys, width: textWidth)
        let height = min(buffer.height, headingRows.count + keyRows.count + 3)
        let box = buffer.area.centered(Size(width: width, height: height))
        buffer.fill(box, with: Cell(" ", style: Style(.dialog)))
        Block(borderStyle: Style(.dialog)).render(into: &buffer, area: box)
        let inner = box.inset(horizontal: 2, vertical: 1)
        var y = inner.y
        for row in headingRows {
            buffer.put(row, x: inner.x, y: y, style: Style(.dialog, bold: true), maxWidth: inner.width)
            y += 1
        }
        let fieldY = y
        let label = prompt.label + ": "
        buffer.put(label, x: inner.x, y: fieldY, style: Style(.dialog), maxWidth: inner.width)
        let fieldWidth = max(1, inner.width - label.displayWidth)
        // The dots stand for the characters, the cursor where it is among them.
        var dots = TextField(String(repeating: "•", count: prompt.field.characters.count))
        dots.moveToStart()
        for _ in 0..<prompt.field.cursor { dots.moveRight() }
        let visible = dots.visible(width: fieldWidth)
        let fieldX = inner.x + label.displayWidth
        buffer.put(visible.text, x: fieldX, y: fieldY, style: Style(.dialog), maxWidth: fieldWidth)
        for (offset, row) in keyRows.enumerated() {
            buffer.put(row, x: inner.x, y: fieldY + 1 + offset, style: Style(.dialog), maxWidth: inner.width)
        }
        return prompt.unlocking ? nil : Point(x: fieldX + visible.cursorX, y: fieldY)
    }
}
