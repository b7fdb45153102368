/// A filter kept under a name: `work = "project:work status:open"` in the `[views]` section of
/// `config.toml`. The app lists them to switch between (`v`).
///
/// The filter is kept as written and read again each time the view is chosen, so a view such
/// as `due.before:tomorrow` means the day it is chosen, not the day the app opened.
public struct SavedView: Hashable, Sendable {
    public var name: String
    public var filter: String

    public init(name: String, filter: String) {
        self.name = name
        self.filter = filter
    }
}

/// The saved views as the config holds them now, or why they cannot be read.
public struct SavedViewList: Hashable, Sendable {
    public var views: [SavedView]
    /// The file they come from, so an empty list can say where to add one.
    public var configPath: String?
    /// Why the config's views cannot be read (a line that does not parse, a filter that does
    /// not read): the app says so instead of showing a list that is not what the file says.
    public var problem: String?

    public init(views: [SavedView] = [], configPath: String? = nil, problem: String? = nil) {
        self.views = views
        self.configPath = configPath
        self.problem = problem
    }
}
