import ArgumentParser

/// A value or flag chosen by name on the command line, named by its raw value.
///
/// The argument parser spells every flag case and lists every value with `String(describing:)`,
/// which asks the runtime, one protocol after another, how the type prints; the first time a
/// type is asked, each question scans the binary's ten thousand conformance records (about
/// 0.4 M instructions a scan, on every start of `quire`). Printable as its raw value at once and
/// listing its raw values itself, a choice costs at most one such question.
protocol ArgumentChoice: RawRepresentable<String>, CaseIterable, TextOutputStreamable {}

extension ArgumentChoice {
    func write<Target: TextOutputStream>(to target: inout Target) {
        target.write(rawValue)
    }
}

extension ArgumentChoice where Self: ExpressibleByArgument {
    static var allValueStrings: [String] { allCases.map(\.rawValue) }
    var defaultValueDescription: String { rawValue }
}
