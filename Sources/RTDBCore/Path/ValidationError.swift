/// Why a key, path, value or priority was refused; each case has its own message.
public enum ValidationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A key with no characters.
    case emptyKey(path: String)
    /// A key longer than 768 UTF-8 bytes.
    case keyTooLong(key: String, bytes: Int)
    /// A key holding one of `. $ # [ ] /` or an ASCII control character.
    case invalidKeyCharacter(key: String, character: Character)
    /// A path string holding one of `. $ # [ ]` or an ASCII control character.
    case invalidPathCharacter(path: String, character: Character)
    /// A path (plus the nesting of the data written there) deeper than 32 levels.
    case tooDeep(path: String, depth: Int)
    /// A write, listen target or onDisconnect aimed at `.info`, which is read-only.
    case readOnlyPath(path: String)
    /// A string value over 10 MiB of UTF-8.
    case stringTooLong(path: String, bytes: Int)
    /// NaN or an infinite number.
    case nonFiniteNumber(path: String)
    /// A server value (an increment) whose result is NaN or infinite.
    case nonFiniteResult(path: String)
    /// A priority that is not a string, finite number, null or server timestamp.
    case invalidPriority(path: String, reason: String)
    /// `.value` next to real children.
    case valueWithChildren(path: String)
    /// A `.sv` placeholder this server does not know.
    case unknownServerValue(path: String, placeholder: String)
    /// Two paths of one multi-path update where one contains the other.
    case overlappingUpdatePaths(String, String)
    /// A value of a type Firebase cannot store (for example an array as a priority).
    case invalidValue(path: String, reason: String)

    /// A message naming the problem and where it is.
    public var description: String {
        switch self {
        case .emptyKey(let path):
            return "invalid key at '\(path)': a key must not be empty"
        case .keyTooLong(let key, let bytes):
            return "invalid key '\(key.prefix(40))…': \(bytes) UTF-8 bytes, the limit is \(Validation.maxKeyBytes)"
        case .invalidKeyCharacter(let key, let character):
            return "invalid key '\(key)': it contains \(Self.describe(character)); keys cannot contain "
                + "'.', '$', '#', '[', ']', '/' or ASCII control characters"
        case .invalidPathCharacter(let path, let character):
            return "invalid path '\(path)': it contains \(Self.describe(character)); paths cannot contain "
                + "'.', '$', '#', '[', ']' or ASCII control characters"
        case .tooDeep(let path, let depth):
            return "'\(path)' is \(depth) levels deep; the limit is \(Validation.maxDepth)"
        case .readOnlyPath(let path):
            return "'\(path)' is under .info, which is read-only"
        case .stringTooLong(let path, let bytes):
            return "string at '\(path)' is \(bytes) bytes; the limit is \(Validation.maxStringBytes) bytes (10 MiB)"
        case .nonFiniteNumber(let path):
            return "number at '\(path)' is NaN or infinite; only finite numbers can be stored"
        case .nonFiniteResult(let path):
            return
                "the increment at '\(path)' would make it infinite (past ±1.8e308); only finite numbers can be stored"
        case .invalidPriority(let path, let reason):
            return "invalid priority at '\(path)': \(reason)"
        case .valueWithChildren(let path):
            return "'\(path)' has '.value' next to other children; '.value' can only go with '.priority'"
        case .unknownServerValue(let path, let placeholder):
            return "unknown server value \(placeholder) at '\(path)'; supported: {\".sv\":\"timestamp\"}, "
                + "{\".sv\":{\"increment\":<number>}}"
        case .overlappingUpdatePaths(let a, let b):
            return "update paths '\(a)' and '\(b)' overlap; one cannot contain the other"
        case .invalidValue(let path, let reason):
            return "invalid value at '\(path)': \(reason)"
        }
    }

    private static func describe(_ character: Character) -> String {
        if let scalar = character.unicodeScalars.first, scalar.value < 0x20 || scalar.value == 0x7F {
            return "the control character U+\(String(scalar.value, radix: 16, uppercase: true).leftPadded(to: 4))"
        }
        return "'\(character)'"
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
