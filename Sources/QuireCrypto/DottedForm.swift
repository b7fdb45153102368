/// The three parts of a sealed value or a MAC, `<letter><format>.<key id>.<base64url>`, read
/// from its UTF-8 in place: a first pull reads two of these for every field of every item, and
/// splitting each into strings cost more than opening it.
struct DottedForm {
    /// The letter and format (`v1`, `m1`), the key id's digits, and everything after the second dot.
    let head: UnsafeBufferPointer<UInt8>
    let keyID: UnsafeBufferPointer<UInt8>
    let rest: UnsafeBufferPointer<UInt8>

    /// nil when `text` has fewer than two dots.
    init?(_ text: UnsafeBufferPointer<UInt8>) {
        let dot = UInt8(ascii: ".")
        guard let first = text.firstIndex(of: dot),
            let second = text[(first + 1)...].firstIndex(of: dot)
        else { return nil }
        head = UnsafeBufferPointer(rebasing: text[..<first])
        keyID = UnsafeBufferPointer(rebasing: text[(first + 1)..<second])
        rest = UnsafeBufferPointer(rebasing: text[(second + 1)...])
    }

    /// The format version after `letter`, if the head is that letter and a number.
    func format(letter: UInt8) -> UInt32? {
        guard head.first == letter else { return nil }
        return DottedForm.number(UnsafeBufferPointer(rebasing: head.dropFirst()))
    }

    /// A number as the forms write it: decimal digits, no sign, no leading zero (so one number
    /// has one spelling), at most `UInt32.max`.
    static func number(_ digits: UnsafeBufferPointer<UInt8>) -> UInt32? {
        guard let first = digits.first, first != UInt8(ascii: "0") || digits.count == 1, digits.count <= 10 else {
            return nil
        }
        var value: UInt64 = 0
        for digit in digits {
            guard digit >= UInt8(ascii: "0"), digit <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + UInt64(digit - UInt8(ascii: "0"))
        }
        return value <= UInt64(UInt32.max) ? UInt32(value) : nil
    }
}
