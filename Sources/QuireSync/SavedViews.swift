import Foundation
import QuireCore

/// Saved views live in `[views]` of `config.toml`, one `name = "filter"` line each, in the
/// order written. Their names are the person's own, so any bare key is allowed there; their
/// filters are checked by `check()` as the app and `quire sync` start, so a typo is reported
/// with its line instead of becoming a view that shows nothing.
extension SyncSettings {
    static let viewsSection = "views"

    /// The views the config holds now (read each time: an edit of the file shows at once).
    public func savedViews() -> SavedViewList {
        guard let data = FileManager.default.contents(atPath: configPath) else {
            return SavedViewList(configPath: configPath)
        }
        do {
            let file = try ConfigFile(parsing: data)
            try SyncSettings.checkViews(in: file)
            let views = file.entries.filter { $0.section == SyncSettings.viewsSection }
                .map { SavedView(name: $0.key, filter: $0.value) }
            return SavedViewList(views: views, configPath: configPath)
        } catch {
            return SavedViewList(configPath: configPath, problem: "\(configPath): \(error)")
        }
    }

    /// Throws for the first view whose filter does not read (SPEC: Filters), naming its line.
    /// Only the words are checked here: dates in words are read against any day alike.
    static func checkViews(in file: ConfigFile) throws(ConfigFileError) {
        let calendar = FilterCalendar.utc(today: Day(year: 2000, month: 1, day: 1)!)
        for entry in file.entries where entry.section == viewsSection {
            do {
                _ = try Filter.parse(entry.value, calendar: calendar)
            } catch {
                throw ConfigFileError(line: entry.line, "holds the view '\(entry.key)', which does not read: \(error)")
            }
        }
    }
}
