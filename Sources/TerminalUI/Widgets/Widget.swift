/// Something that draws itself into an area of a buffer.
///
/// Widgets are values built fresh for every frame from the app state; they keep no state
/// between frames, so the same state always draws the same cells.
public protocol Widget {
    func render(into buffer: inout Buffer, area: Rect)
}
