import Testing

@testable import QuireCrypto

/// The passphrase's key: the same for the same passphrase, salt and parameters; parameters
/// calibrated to this machine never below 64 MiB.
@Suite struct KeyDerivationTests {
    let salt = [UInt8](repeating: 7, count: KeyDerivation.saltBytes)

    func derived(_ passphrase: String, salt: [UInt8], _ parameters: KDFParameters = TestKeys.fast) throws -> [UInt8] {
        try KeyDerivation.key(passphrase: passphrase, salt: salt, parameters: parameters).withUnsafeBytes { Array($0) }
    }

    @Test func dependsOnThePassphraseTheSaltAndTheParameters() throws {
        let key = try derived("pass", salt: salt)
        #expect(key.count == 32)
        #expect(try derived("pass", salt: salt) == key)
        #expect(try derived("pasS", salt: salt) != key)
        #expect(try derived("pass", salt: [UInt8](repeating: 8, count: KeyDerivation.saltBytes)) != key)
        var more = TestKeys.fast
        more.opsLimit += 1
        #expect(try derived("pass", salt: salt, more) != key)
    }

    @Test func theCalibratedDefaultsTakeAtLeast64MiBAndTwoPasses() {
        let parameters = KeyDerivation.calibrated()
        #expect(parameters.memLimit >= 64 << 20)
        #expect(parameters.opsLimit >= 2)
        #expect(parameters.algorithm == "argon2id13")
        #expect(parameters.problem == nil)
    }

    @Test func parametersOutOfRangeAreNamed() {
        #expect(KDFParameters.interactive.problem == nil)
        #expect(KDFParameters(opsLimit: 0, memLimit: 64 << 20).problem != nil)
        #expect(KDFParameters(opsLimit: 2, memLimit: 2 << 30).problem != nil)
    }
}
