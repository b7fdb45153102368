import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The server a device syncs with.
public struct SyncRemote: Hashable, Sendable {
    public var url: String
    public var token: String

    public init(url: String, token: String) {
        self.url = url
        self.token = token
    }
}

/// Where the remote is configured: `url` in the `[remote]` section of `config.toml`, the token
/// in the `credentials` file beside it (mode 0600, never printed, never logged).
///
/// Only the `[remote]` section is read and rewritten; the rest of `config.toml` is kept line
/// for line. Values are TOML basic strings.
public struct SyncSettings: Sendable {
    public let configPath: String
    public let credentialsPath: String

    public init(configPath: String, credentialsPath: String) {
        self.configPath = configPath
        self.credentialsPath = credentialsPath
    }

    /// The configured remote, or nil when there is none (or its token is missing).
    public func remote() -> SyncRemote? {
        guard let url = remoteURL(), let token = SyncSettings.value(of: "token", inSection: "remote", of: read(credentialsPath))
        else { return nil }
        return SyncRemote(url: url, token: token)
    }

    /// The configured URL, even without a token.
    public func remoteURL() -> String? {
        SyncSettings.value(of: "url", inSection: "remote", of: read(configPath))
    }

    /// True when a token is stored.
    public var hasToken: Bool {
        SyncSettings.value(of: "token", inSection: "remote", of: read(credentialsPath)) != nil
    }

    /// Stores the remote: the URL in the config, the token in the credentials file (0600).
    public func setRemote(_ remote: SyncRemote) throws(SyncSettingsError) {
        try SyncSettings.checkURL(remote.url)
        guard !remote.token.isEmpty, !remote.token.contains(where: { $0.isNewline || $0 == " " }) else {
            throw SyncSettingsError("the token is empty or has spaces or line breaks in it")
        }
        try makeDirectory(of: configPath)
        try makeDirectory(of: credentialsPath)
        let config = SyncSettings.replacingSection("remote", in: read(configPath), with: ["url = \(SyncSettings.quoted(remote.url))"])
        try write(config, to: configPath, mode: 0o644)
        let credentials = "# Quire's sync credentials: keep this file private.\n[remote]\ntoken = \(SyncSettings.quoted(remote.token))\n"
        try write(credentials, to: credentialsPath, mode: 0o600)
    }

    /// Forgets the remote and its token.
    public func removeRemote() throws(SyncSettingsError) {
        if let text = read(configPath) {
            try write(SyncSettings.replacingSection("remote", in: text, with: nil), to: configPath, mode: 0o644)
        }
        if FileManager.default.fileExists(atPath: credentialsPath) {
            do {
                try FileManager.default.removeItem(atPath: credentialsPath)
            } catch {
                throw SyncSettingsError("cannot remove \(credentialsPath): \(error.localizedDescription)")
            }
        }
    }

    /// A URL the transport can use: http or https with a host.
    public static func checkURL(_ text: String) throws(SyncSettingsError) {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
              let host = url.host, !host.isEmpty
        else { throw SyncSettingsError("'\(text)' is not an http:// or https:// URL") }
    }

    // MARK: - Files

    private func read(_ path: String) -> String? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    private func makeDirectory(of path: String) throws(SyncSettingsError) {
        let directory = (path as NSString).deletingLastPathComponent
        guard !directory.isEmpty, !FileManager.default.fileExists(atPath: directory) else { return }
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        } catch {
            throw SyncSettingsError("cannot create \(directory): \(error.localizedDescription)")
        }
    }

    /// Writes through a temporary file created with `mode`, then renames it into place, so the
    /// file is never seen half written and a secret never exists with wider permissions.
    private func write(_ text: String, to path: String, mode: mode_t) throws(SyncSettingsError) {
        let temporary = path + ".tmp-\(getpid())"
        let fd = open(temporary, O_CREAT | O_TRUNC | O_WRONLY | O_CLOEXEC, mode)
        guard fd >= 0 else { throw SyncSettingsError("cannot write \(path): \(String(cString: strerror(errno)))") }
        fchmod(fd, mode)
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                let reason = String(cString: strerror(errno))
                close(fd)
                unlink(temporary)
                throw SyncSettingsError("cannot write \(path): \(reason)")
            }
            offset += written
        }
        fsync(fd)
        close(fd)
        guard rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw SyncSettingsError("cannot write \(path): \(reason)")
        }
    }

    // MARK: - The little TOML it needs

    /// The string value of `key` in `[section]`, or nil.
    static func value(of key: String, inSection section: String, of text: String?) -> String? {
        guard let text else { return nil }
        var current = ""
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = String(raw).trimmingWhitespace()
            if line.hasPrefix("[") {
                current = line.dropFirst().prefix { $0 != "]" }.trimmingCharacters(in: .whitespaces)
                continue
            }
            guard current == section, let equals = line.firstIndex(of: "=") else { continue }
            guard line[..<equals].trimmingCharacters(in: .whitespaces) == key else { continue }
            let value = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            return unquoted(value).flatMap { $0.isEmpty ? nil : $0 }
        }
        return nil
    }

    /// The text with `[section]` replaced by `lines` (or removed when nil), other lines kept.
    static func replacingSection(_ section: String, in text: String?, with lines: [String]?) -> String {
        var kept: [String] = []
        var inSection = false
        for raw in (text ?? "").split(separator: "\n", omittingEmptySubsequences: false) {
            let line = String(raw)
            let trimmed = line.trimmingWhitespace()
            if trimmed.hasPrefix("[") {
                inSection = trimmed.dropFirst().prefix { $0 != "]" }.trimmingCharacters(in: .whitespaces) == section
                if inSection { continue }
            }
            if !inSection { kept.append(line) }
        }
        while let last = kept.last, last.trimmingWhitespace().isEmpty { kept.removeLast() }
        if let lines {
            if !kept.isEmpty { kept.append("") }
            kept.append("[\(section)]")
            kept += lines
        }
        return kept.isEmpty ? "" : kept.joined(separator: "\n") + "\n"
    }

    static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    static func unquoted(_ value: String) -> String? {
        if value.hasPrefix("'") {
            guard let end = value.dropFirst().firstIndex(of: "'") else { return nil }
            return String(value[value.index(after: value.startIndex)..<end])
        }
        guard value.hasPrefix("\"") else { return nil }
        var result = ""
        var escaped = false
        for character in value.dropFirst() {
            if escaped {
                switch character {
                case "n": result.append("\n")
                case "t": result.append("\t")
                default: result.append(character)
                }
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == "\"" {
                return result
            } else {
                result.append(character)
            }
        }
        return nil
    }
}

public struct SyncSettingsError: Error, CustomStringConvertible, Sendable {
    public var description: String
    public init(_ description: String) { self.description = description }
}
