extension Day {
    /// The heading the agenda puts over the tasks due on this day, the same in `quire agenda`
    /// and the app's agenda view: `Overdue`, `Today · Thu 2026-11-26`, `Tomorrow · Fri
    /// 2026-11-27`, then `Sat 2026-11-28`.
    public func agendaHeading(today: Day) -> String {
        let names = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
        let named = "\(names[weekday - 1]) \(self)"
        switch ordinal - today.ordinal {
        case ..<0: return "Overdue"
        case 0: return "Today · " + named
        case 1: return "Tomorrow · " + named
        default: return named
        }
    }
}
