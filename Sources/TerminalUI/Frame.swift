/// What one render produces: the cells of the screen and where the cursor shows (nil: hidden).
public struct Frame: Hashable, Sendable {
    public var buffer: Buffer
    public var cursor: Point?

    public init(buffer: Buffer, cursor: Point? = nil) {
        self.buffer = buffer
        self.cursor = cursor
    }
}
