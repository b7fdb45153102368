import QuireCore
import QuireStore

/// SPEC's exit codes.
enum QuireExitCode: Int32 {
    case success = 0
    /// Usage or bad input; nothing changed.
    case badInput = 1
    case notFound = 2
    /// Server unreachable; local changes kept, sync will retry.
    case unreachable = 3
    case authenticationRefused = 4
    /// Sync finished but items need review.
    case needsReview = 5
    /// The local database is unusable; the message says why and the file is left alone.
    case unusable = 6
}

/// An error a command reports to the person: one line on stderr and an exit code.
///
/// Commands throw this (or a `StoreError`, `ImportError` or `ValidationError`, which map to it
/// through `init(_:)`); `Quire.main()` prints `quire: <message>` and exits with `code`.
struct CLIFailure: Error, CustomStringConvertible {
    var code: QuireExitCode
    var message: String

    init(_ code: QuireExitCode, _ message: String) {
        self.code = code
        self.message = message
    }

    var description: String { message }

    static func badInput(_ message: String) -> CLIFailure { CLIFailure(.badInput, message) }

    /// The failure for any error a command may meet; nil for errors the argument parser
    /// reports itself (help, usage).
    init?(_ error: any Error) {
        switch error {
        case let failure as CLIFailure:
            self = failure
        case let storeError as StoreError:
            switch storeError {
            case .unusable: self.init(.unusable, storeError.description)
            case .notFound, .unknownPrefix: self.init(.notFound, storeError.description)
            default: self.init(.badInput, storeError.description)
            }
        case let importError as ImportError:
            self.init(.badInput, importError.description)
        case let validationError as QuireCore.ValidationError:
            self.init(.badInput, validationError.description)
        default:
            return nil
        }
    }
}
