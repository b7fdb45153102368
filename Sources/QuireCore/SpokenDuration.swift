/// A length of time as the status bar and progress lines say it: `8s`, `1m 5s`, `2m`,
/// `2h 3m`, `1h` (whole seconds; a part that is zero is left out).
public enum SpokenDuration {
    public static func text(seconds: Int) -> String {
        if seconds < 60 { return "\(seconds)s" }
        if seconds < 3600 {
            let rest = seconds % 60
            return rest == 0 ? "\(seconds / 60)m" : "\(seconds / 60)m \(rest)s"
        }
        let minutes = (seconds % 3600) / 60
        return minutes == 0 ? "\(seconds / 3600)h" : "\(seconds / 3600)h \(minutes)m"
    }
}
