/// The limits and character rules for keys, paths and values
/// (docs/data-model.md#keys-paths-and-values).
public enum Validation {
    /// The longest key, in UTF-8 bytes.
    public static let maxKeyBytes = 768
    /// The deepest path, counting the nesting of data written at it.
    public static let maxDepth = 32
    /// The longest string value, in UTF-8 bytes (10 MiB).
    public static let maxStringBytes = 10 * 1024 * 1024
    /// The keys with a meaning inside data.
    public static let reservedDataKeys: Set<String> = [".priority", ".value", ".sv"]

    /// Checks a key of user data or of a path segment: 1–768 UTF-8 bytes, none of
    /// `. $ # [ ] /` and no ASCII control characters.
    public static func validateKey(_ key: String, at path: Path = .root) throws(ValidationError) {
        try validateKey(key, at: { path })
    }

    /// Whether ``validateKey(_:at:)`` accepts `key`.
    static func isValidKey(_ key: String) -> Bool {
        (try? validateKey(key, at: { .root })) != nil
    }

    /// Checks a key as ``validateKey(_:at:)`` does, making the path only to name it in an error.
    static func validateKey(_ key: String, at path: () -> Path) throws(ValidationError) {
        if key.isEmpty { throw .emptyKey(path: path().description) }
        if containsForbiddenByte(key.utf8, slashAllowed: false) {
            throw .invalidKeyCharacter(key: key, character: offendingCharacter(key[...], slashAllowed: false))
        }
        let bytes = key.utf8.count
        if bytes > maxKeyBytes { throw .keyTooLong(key: key, bytes: bytes) }
    }

    /// Whether UTF-8 text holds a forbidden ASCII byte (read in place when it is contiguous).
    ///
    /// Every forbidden character is ASCII and UTF-8 never reuses ASCII bytes inside other
    /// characters, so bytes decide it exactly.
    static func containsForbiddenByte(_ utf8: some Sequence<UInt8>, slashAllowed: Bool) -> Bool {
        utf8.withContiguousStorageIfAvailable { $0.contains { isForbiddenByte($0, slashAllowed: slashAllowed) } }
            ?? utf8.contains { isForbiddenByte($0, slashAllowed: slashAllowed) }
    }

    @inline(__always)
    private static func isForbiddenByte(_ byte: UInt8, slashAllowed: Bool) -> Bool {
        switch byte {
        case 0x2E, 0x24, 0x23, 0x5B, 0x5D, 0x00...0x1F, 0x7F: true
        case 0x2F: !slashAllowed
        default: false
        }
    }

    /// The character to name in an error: the first forbidden one.
    private static func offendingCharacter(_ text: Substring, slashAllowed: Bool) -> Character {
        for character in text {
            if slashAllowed ? isForbiddenInPath(character) : isForbiddenInKey(character) { return character }
            let bytes = Array(String(character).utf8)
            if containsForbiddenByte(bytes, slashAllowed: slashAllowed) { return character }
        }
        return "?"
    }

    /// Checks a key found inside written data, where `.priority`, `.value` and `.sv` are allowed.
    public static func validateDataKey(_ key: String, at path: Path) throws(ValidationError) {
        if reservedDataKeys.contains(key) { return }
        try validateKey(key, at: path)
    }

    /// Checks a path string given by a user: every segment a valid key, a leading `.info` allowed,
    /// at most 32 levels.
    public static func validatePathString(_ string: String) throws(ValidationError) {
        let segments = string.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: true)
        for (offset, segment) in segments.enumerated() {
            if offset == 0, segment.elementsEqual(".info".utf8) { continue }
            if containsForbiddenByte(segment, slashAllowed: true) {
                let text = Substring(segment)
                throw .invalidPathCharacter(path: string, character: offendingCharacter(text, slashAllowed: true))
            }
            if segment.count > maxKeyBytes { throw .keyTooLong(key: String(Substring(segment)), bytes: segment.count) }
        }
        if segments.count > maxDepth { throw .tooDeep(path: string, depth: segments.count) }
    }

    /// Checks a parsed path as ``validatePathString(_:)`` checks its text, without making the
    /// text again (a request's path is checked on every write).
    public static func validatePath(_ path: Path) throws(ValidationError) {
        for (offset, segment) in path.segments.enumerated() {
            if offset == 0, segment.utf8.elementsEqual(".info".utf8) { continue }
            if containsForbiddenByte(segment.utf8, slashAllowed: true) {
                throw .invalidPathCharacter(
                    path: path.description, character: offendingCharacter(segment[...], slashAllowed: true))
            }
            let bytes = segment.utf8.count
            if bytes > maxKeyBytes { throw .keyTooLong(key: segment, bytes: bytes) }
        }
        if path.count > maxDepth { throw .tooDeep(path: path.description, depth: path.count) }
    }

    /// Checks a path that will be written to: a valid path that is not under `.info`.
    public static func validateWritablePath(_ path: Path) throws(ValidationError) {
        if path.isInfo { throw .readOnlyPath(path: path.description) }
        for segment in path.segments { try validateKey(segment, at: path) }
        if path.count > maxDepth { throw .tooDeep(path: path.description, depth: path.count) }
    }

    /// Checks the relative paths of a multi-path update: each valid (its last segment may be
    /// `.priority`) and none containing another.
    public static func validateUpdatePaths(_ paths: [Path], at base: Path) throws(ValidationError) {
        for path in paths {
            for segment in path.writeTarget.segments { try validateKey(segment, at: base.child(path)) }
            if path.isEmpty { throw .emptyKey(path: base.description) }
        }
        let sorted = paths.sorted()
        for (previous, next) in zip(sorted, sorted.dropFirst()) where previous.contains(next) {
            throw .overlappingUpdatePaths(previous.relativeString, next.relativeString)
        }
    }

    static func isForbiddenInKey(_ character: Character) -> Bool {
        character == "/" || isForbiddenInPath(character)
    }

    static func isForbiddenInPath(_ character: Character) -> Bool {
        switch character {
        case ".", "$", "#", "[", "]": return true
        default:
            guard character.unicodeScalars.count == 1, let scalar = character.unicodeScalars.first else {
                return character.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }
            }
            return scalar.value < 0x20 || scalar.value == 0x7F
        }
    }
}
