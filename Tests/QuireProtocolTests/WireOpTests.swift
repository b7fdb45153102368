import Foundation
import QuireCore
import Testing

@testable import QuireProtocol

/// `SyncRequest` decodes its ops with its own fast path; it must read exactly what `Op` reads.
@Suite struct WireOpTests {
    static let values: [FieldValue] = [
        .null, .string(""), .string("Buy milk"), .string("with \"quotes\" and \\ and ünïcödé 😀"), .bool(true),
        .bool(false),
        .strings([]), .strings(["a", "b"]), .sha256(String(repeating: "ab", count: 32)),
    ]

    @Test func decodesEveryOpAsOpItselfDoes() throws {
        var random = SystemRandomNumberGenerator()
        var ops: [Op] = []
        for index in 0..<300 {
            var fields: [Field: FieldChange]?
            if index % 7 != 0 {
                var chosen: [Field: FieldChange] = [:]
                for field in Field.allCases where Bool.random(using: &random) {
                    chosen[field] = FieldChange(
                        from: Self.values.randomElement(using: &random)!, to: Self.values.randomElement(using: &random)!
                    )
                }
                fields = chosen
            }
            ops.append(
                Op(
                    id: "op-\(index)", item: "item-\(index % 13)", kind: [.create, .update, .delete][index % 3],
                    baseRev: index, fields: fields))
        }
        let request = SyncRequest(device: "d", cursor: "c", limit: 5, ops: ops)
        let data = try JSONEncoder().encode(request)
        let decoded = try JSONDecoder().decode(SyncRequest.self, from: data)
        struct Plain: Decodable { let ops: [Op] }
        let reference = try JSONDecoder().decode(Plain.self, from: data)
        #expect(decoded.ops == reference.ops)
        #expect(decoded == request)
    }

    @Test func nullAndMissingFieldsBothMeanNone() throws {
        for text in [
            #"{"op":"o","item":"i","kind":"delete","baseRev":2}"#,
            #"{"op":"o","item":"i","kind":"delete","baseRev":2,"fields":null}"#,
        ] {
            let json = #"{"protocol":1,"device":"d","ops":[\#(text)]}"#
            let request = try JSONDecoder().decode(SyncRequest.self, from: Data(json.utf8))
            #expect(request.ops == [Op(id: "o", item: "i", kind: .delete, baseRev: 2)])
        }
    }

    @Test(arguments: [
        #"{"op":"o","item":"i","kind":"update","baseRev":1,"fields":{"colour":{"from":null,"to":"red"}}}"#,
        #"{"op":"o","item":"i","kind":"update","baseRev":1,"fields":{"title":{"from":null,"to":5}}}"#,
        #"{"op":"o","item":"i","kind":"update","baseRev":1,"fields":{"title":{"from":null}}}"#,
        #"{"op":"o","item":"i","kind":"update","baseRev":1,"fields":{"title":{"from":null,"to":{"md5":"x"}}}}"#,
        #"{"op":"o","item":"i","kind":"update","baseRev":1,"fields":{"tags":{"from":null,"to":["a",1]}}}"#,
        #"{"op":"o","item":"i","kind":"move","baseRev":1}"#,
        #"{"op":"o","item":"i","kind":"update"}"#,
    ])
    func refusesWhatOpRefuses(_ text: String) {
        let json = #"{"protocol":1,"device":"d","ops":[\#(text)]}"#
        struct Plain: Decodable { let ops: [Op] }
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(SyncRequest.self, from: Data(json.utf8)) }
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Plain.self, from: Data(json.utf8)) }
    }

    @Test func anotherProtocolVersionIsRefusedBeforeItsShapeIsJudged() {
        let json = #"{"protocol":2,"device":7,"ops":"whatever"}"#
        #expect(throws: UnsupportedProtocolVersion(version: 2)) {
            try JSONDecoder().decode(SyncRequest.self, from: Data(json.utf8))
        }
    }
}
