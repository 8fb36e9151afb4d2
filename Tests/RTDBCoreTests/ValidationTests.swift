import Testing

@testable import RTDBCore

@Suite struct ValidationTests {
    private func keyError(_ key: String) -> ValidationError? {
        do {
            try Validation.validateKey(key)
            return nil
        } catch {
            return error
        }
    }

    @Test func validKeys() {
        for key in [
            "a", "users", "-Nx1abc", "with space", "ünïcödé", "日本", "😀", "a:b", "%", String(repeating: "k", count: 768),
        ] {
            #expect(keyError(key) == nil, "\(key) should be valid")
        }
    }

    @Test(arguments: [".", "$", "#", "[", "]", "/"])
    func forbiddenCharacters(character: String) {
        let key = "a\(character)b"
        #expect(keyError(key) == .invalidKeyCharacter(key: key, character: Character(character)))
        #expect(keyError(key)!.description.contains("'\(character)'"))
    }

    @Test func controlCharactersAreRejected() {
        for scalar in [0x00, 0x01, 0x0A, 0x1F, 0x7F] {
            let character = Character(Unicode.Scalar(UInt8(scalar)))
            let key = "a\(character)b"
            guard case .invalidKeyCharacter(_, let found)? = keyError(key) else {
                Issue.record("U+\(scalar) not rejected")
                continue
            }
            #expect(found == character)
        }
        #expect(keyError("a\u{7F}")!.description.contains("U+007F"))
    }

    @Test func emptyKey() {
        #expect(keyError("") == .emptyKey(path: "/"))
        #expect(keyError("")!.description.contains("must not be empty"))
    }

    @Test func keyLengthCountsUTF8Bytes() {
        #expect(
            keyError(String(repeating: "a", count: 769))
                == .keyTooLong(key: String(repeating: "a", count: 769), bytes: 769))
        // 256 three-byte characters = 768 bytes: allowed; 257 = 771 bytes: refused.
        #expect(keyError(String(repeating: "日", count: 256)) == nil)
        #expect(
            keyError(String(repeating: "日", count: 257))
                == .keyTooLong(key: String(repeating: "日", count: 257), bytes: 771))
        #expect(keyError(String(repeating: "a", count: 800))!.description.contains("800 UTF-8 bytes"))
    }

    @Test func reservedDataKeysOnlyInsideData() throws {
        for key in [".priority", ".value", ".sv"] {
            try Validation.validateDataKey(key, at: .root)
            #expect(keyError(key) != nil)
        }
        #expect(throws: ValidationError.self) { try Validation.validateDataKey(".other", at: .root) }
    }

    @Test func pathStrings() throws {
        try Validation.validatePathString("/users/morgan/connections")
        try Validation.validatePathString(".info/connected")
        try Validation.validatePathString("a//b/")
        #expect(throws: ValidationError.invalidPathCharacter(path: "a/.info", character: ".")) {
            try Validation.validatePathString("a/.info")
        }
        #expect(throws: ValidationError.invalidPathCharacter(path: "a/b#c", character: "#")) {
            try Validation.validatePathString("a/b#c")
        }
        #expect(throws: ValidationError.invalidPathCharacter(path: "x[0]", character: "[")) {
            try Validation.validatePathString("x[0]")
        }
        let path = try Path(validating: "/a/b/")
        #expect(path == Path("a/b"))
    }

    /// A parsed path is judged as its text is (the server checks every request's path parsed).
    @Test func aParsedPathIsCheckedAsItsText() {
        let deepest = (1...32).map { "k\($0)" }.joined(separator: "/")
        let cases = [
            "/users/morgan/connections", ".info/connected", "a//b/", "a/.info", "a/b#c", "x[0]", "a/\u{7F}",
            "ünï/cödé", String(repeating: "k", count: 769), deepest, deepest + "/k33", "", "/",
        ]
        for text in cases {
            let path = Path(text)
            let fromText = Result { () throws(ValidationError) in try Validation.validatePathString(path.description) }
            let parsed = Result { () throws(ValidationError) in try Validation.validatePath(path) }
            #expect("\(fromText)" == "\(parsed)", "\(text)")
        }
    }

    @Test func depthLimit() throws {
        let deepest = (1...32).map { "k\($0)" }.joined(separator: "/")
        try Validation.validatePathString(deepest)
        let tooDeep = deepest + "/k33"
        #expect(throws: ValidationError.tooDeep(path: tooDeep, depth: 33)) {
            try Validation.validatePathString(tooDeep)
        }
        // Depth counts the path plus the nesting of the data written there.
        var json: JSONValue = 1
        for _ in 0..<3 { json = ["x": json] }
        _ = try Node(json: json, at: Path(segments: (1...29).map { "p\($0)" }))
        #expect(throws: ValidationError.self) {
            _ = try Node(json: json, at: Path(segments: (1...30).map { "p\($0)" }))
        }
    }

    @Test func writablePaths() throws {
        try Validation.validateWritablePath(Path("a/b"))
        #expect(throws: ValidationError.readOnlyPath(path: "/.info/connected")) {
            try Validation.validateWritablePath(Path(".info/connected"))
        }
    }

    @Test func updatePaths() throws {
        try Validation.validateUpdatePaths([Path("a/b"), Path("a/c"), Path("d/.priority")], at: .root)
        #expect(throws: ValidationError.overlappingUpdatePaths("a", "a/b")) {
            try Validation.validateUpdatePaths([Path("a/b"), Path("a")], at: .root)
        }
        #expect(throws: ValidationError.self) {
            try Validation.validateUpdatePaths([Path("a/.priority/b")], at: .root)
        }
    }

    @Test func everyErrorHasItsOwnMessage() {
        let errors: [ValidationError] = [
            .emptyKey(path: "/a"), .keyTooLong(key: "k", bytes: 900), .invalidKeyCharacter(key: "a.b", character: "."),
            .invalidPathCharacter(path: "a$", character: "$"), .tooDeep(path: "/x", depth: 33),
            .readOnlyPath(path: "/.info"), .stringTooLong(path: "/s", bytes: 11_000_000),
            .nonFiniteNumber(path: "/n"), .invalidPriority(path: "/p", reason: "boolean"),
            .valueWithChildren(path: "/v"), .unknownServerValue(path: "/sv", placeholder: "{\".sv\":\"x\"}"),
            .overlappingUpdatePaths("a", "a/b"), .invalidValue(path: "/w", reason: "type"),
        ]
        let messages = Set(errors.map(\.description))
        #expect(messages.count == errors.count)
    }
}
