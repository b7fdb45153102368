/// The release this build is, as `quire --version` prints it.
enum QuireVersion {
    static let current = "0.1.0"
}
