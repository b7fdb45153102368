/// The output of `quire projects` and `quire tags`: one name and its count a line, the counts
/// in one column, or one JSON array of `{"name", "count"}` objects.
enum CountedNames {
    /// `shown` is how each name reads on its line (a project's last part, indented by depth);
    /// JSON always carries the full name.
    static func write(
        _ rows: [(name: String, count: Int)], json: Bool, whenEmpty: String, shown: (String) -> String = { $0 },
        to out: inout Output
    ) throws {
        if json {
            try JSONOutput.encode(&out, rows.map { NameCount(name: $0.name, count: $0.count) })
            return
        }
        guard !rows.isEmpty else {
            out.line(whenEmpty)
            return
        }
        let lines = rows.map { (shown($0.name), $0.count) }
        let width = lines.map { Terminal.width($0.0) }.max() ?? 0
        for (name, count) in lines {
            out.line(name + String(repeating: " ", count: width - Terminal.width(name) + 2) + String(count))
        }
    }
}

/// One row of `--json`.
private struct NameCount: Encodable {
    var name: String
    var count: Int
}
