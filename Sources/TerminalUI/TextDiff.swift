/// A line diff for humans, used when a snapshot does not match.
public enum TextDiff {
    /// Lines only in `expected` start with `-`, lines only in `actual` with `+`, common lines
    /// with two spaces; computed from the longest common subsequence of lines.
    public static func lines(expected: String, actual: String) -> String {
        let old = expected.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let new = actual.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var lcs = Array(repeating: Array(repeating: 0, count: new.count + 1), count: old.count + 1)
        for i in stride(from: old.count - 1, through: 0, by: -1) {
            for j in stride(from: new.count - 1, through: 0, by: -1) {
                lcs[i][j] = old[i] == new[j] ? lcs[i + 1][j + 1] + 1 : max(lcs[i + 1][j], lcs[i][j + 1])
            }
        }
        var output: [String] = []
        var i = 0
        var j = 0
        while i < old.count || j < new.count {
            if i < old.count, j < new.count, old[i] == new[j] {
                output.append("  " + old[i])
                i += 1
                j += 1
            } else if i < old.count, j == new.count || lcs[i + 1][j] >= lcs[i][j + 1] {
                output.append("- " + old[i])
                i += 1
            } else {
                output.append("+ " + new[j])
                j += 1
            }
        }
        return output.joined(separator: "\n")
    }
}
