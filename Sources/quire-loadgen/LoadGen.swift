import ArgumentParser
import Foundation

/// `quire-loadgen`: drives a running `quire-server` on loopback and reports throughput and
/// latency. Bounded in time and in request count; it refuses non-loopback hosts.
@main
struct LoadGen: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "quire-loadgen",
        abstract: "Load generator for quire-server (loopback only).",
        subcommands: [Devices.self, FirstPull.self])
}

/// Where the server is and who to be.
struct Target: ParsableArguments {
    @Option(help: "Server base URL on loopback, e.g. http://127.0.0.1:8080.")
    var url: String

    @Option(help: "File with one bearer token per line (one per simulated user).")
    var tokens: String

    func validate() throws {
        guard let host = URLHost.of(url), ["127.0.0.1", "localhost", "::1", "[::1]"].contains(host) else {
            throw ValidationError("--url must point at loopback (127.0.0.1, localhost or ::1)")
        }
    }
}

enum URLHost {
    static func of(_ url: String) -> String? {
        guard let schemeEnd = url.range(of: "://") else { return nil }
        let rest = url[schemeEnd.upperBound...]
        let authority = rest.split(separator: "/", maxSplits: 1).first.map(String.init) ?? ""
        if authority.hasPrefix("[") { return authority.split(separator: "]").first.map { $0 + "]" } }
        return authority.split(separator: ":").first.map(String.init)
    }
}
