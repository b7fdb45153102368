/// How much of an area one part of a split takes.
public enum Constraint: Hashable, Sendable {
    /// Exactly this many cells (less if there is not enough room).
    case length(Int)
    /// This share of the whole, in percent.
    case percentage(Int)
    /// At least this many cells, plus a share of what is left over.
    case min(Int)
    /// What is left over, shared with other `.fill` and `.min` parts.
    case fill
}

/// The direction of a split.
public enum Axis: Sendable {
    case horizontal
    case vertical
}

extension Rect {
    /// Splits this rectangle into consecutive parts along an axis.
    ///
    /// Fixed lengths and percentages are honoured first, in order, until the room runs out;
    /// `.min` and `.fill` parts share what is left. The parts always tile the rectangle exactly.
    public func split(_ axis: Axis, _ constraints: [Constraint]) -> [Rect] {
        let total = axis == .horizontal ? width : height
        var sizes = Array(repeating: 0, count: constraints.count)
        var remaining = total
        var flexible: [Int] = []
        for (index, constraint) in constraints.enumerated() {
            switch constraint {
            case .length(let n):
                sizes[index] = Swift.min(Swift.max(0, n), remaining)
            case .percentage(let p):
                sizes[index] = Swift.min(total * Swift.max(0, p) / 100, remaining)
            case .min(let n):
                sizes[index] = Swift.min(Swift.max(0, n), remaining)
                flexible.append(index)
            case .fill:
                flexible.append(index)
            }
            remaining -= sizes[index]
        }
        if !flexible.isEmpty, remaining > 0 {
            let share = remaining / flexible.count
            var extra = remaining % flexible.count
            for index in flexible {
                sizes[index] += share + (extra > 0 ? 1 : 0)
                if extra > 0 { extra -= 1 }
            }
        }
        var result: [Rect] = []
        var offset = 0
        for size in sizes {
            switch axis {
            case .horizontal: result.append(Rect(x: x + offset, y: y, width: size, height: height))
            case .vertical: result.append(Rect(x: x, y: y + offset, width: width, height: size))
            }
            offset += size
        }
        return result
    }
}
