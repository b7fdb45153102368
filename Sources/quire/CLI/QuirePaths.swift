import Foundation

/// Where Quire keeps its files (SPEC "Files and environment"), resolved from the environment.
///
/// - data directory: `$QUIRE_HOME`, else `$XDG_DATA_HOME/quire`, else `~/.local/share/quire`
/// - database: `<data>/quire.db`
/// - config: `$QUIRE_HOME/config.toml` when `QUIRE_HOME` is set, else
///   `$XDG_CONFIG_HOME/quire/config.toml` (default `~/.config/quire/`)
/// - credentials: `credentials` beside the config
///
/// Empty variables count as unset, as the XDG specification says.
struct QuirePaths: Sendable {
    var dataDirectory: String
    var configDirectory: String

    var database: String { dataDirectory + "/quire.db" }
    var config: String { configDirectory + "/config.toml" }
    var credentials: String { configDirectory + "/credentials" }

    init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        func value(_ name: String) -> String? {
            guard let text = environment[name], !text.isEmpty else { return nil }
            return text
        }
        let home = value("HOME") ?? NSHomeDirectory()
        if let quireHome = value("QUIRE_HOME") {
            let trimmed = quireHome.count > 1 && quireHome.hasSuffix("/") ? String(quireHome.dropLast()) : quireHome
            dataDirectory = trimmed
            configDirectory = trimmed
        } else {
            dataDirectory = (value("XDG_DATA_HOME") ?? home + "/.local/share") + "/quire"
            configDirectory = (value("XDG_CONFIG_HOME") ?? home + "/.config") + "/quire"
        }
    }
}
