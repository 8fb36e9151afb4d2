/// A location in the database: a list of keys from the root.
///
/// Parsing normalises slashes: `"/a//b/"` is `a/b`, and `""` or `"/"` is the root. `Path(_:)`
/// does no validation (use ``Path/init(validating:)`` or ``Validation`` for user input).
public struct Path: Sendable, Hashable {
    /// The keys from the root, none of them empty.
    public let segments: [String]

    /// The root location.
    public static let root = Path(segments: [])

    /// Makes a path from keys that are already split.
    public init(segments: [String]) {
        self.segments = segments
    }

    /// Parses a slash-separated path, dropping empty segments.
    public init(_ string: String) {
        var string = string
        self = string.withUTF8 { Path(utf8: $0) }
    }

    /// Parses a slash-separated path from UTF-8 bytes, dropping empty segments.
    ///
    /// One pass, counting first so the array is allocated once; `/` is ASCII, so every cut falls
    /// between characters (a restart parses thousands of stored paths).
    public init(utf8 bytes: UnsafeBufferPointer<UInt8>) {
        let slash = UInt8(ascii: "/")
        var segments: [String] = []
        segments.reserveCapacity(bytes.count(where: { $0 == slash }) + 1)
        var start = 0
        for end in 0...bytes.count where end == bytes.count || bytes[end] == slash {
            if end > start {
                segments.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self))
            }
            start = end + 1
        }
        self.segments = segments
    }

    /// Parses and validates a user-supplied path (see ``Validation/validatePathString(_:)``).
    public init(validating string: String) throws(ValidationError) {
        try Validation.validatePathString(string)
        self.init(string)
    }

    /// Whether this is the root.
    public var isEmpty: Bool { segments.isEmpty }

    /// The number of keys.
    public var count: Int { segments.count }

    /// The first key, or nil at the root.
    public var front: String? { segments.first }

    /// The last key, or nil at the root.
    public var back: String? { segments.last }

    /// The path without its first key (the root stays the root).
    public var popFront: Path { Path(segments: Array(segments.dropFirst())) }

    /// The parent location, or nil at the root.
    public var parent: Path? {
        segments.isEmpty ? nil : Path(segments: Array(segments.dropLast()))
    }

    /// The child at a key or relative path (which may contain slashes).
    public func child(_ relative: String) -> Path {
        Path(segments: segments + Path(relative).segments)
    }

    /// The child at one key, which the caller knows holds no slash (a segment of another path,
    /// a data key): nothing to parse.
    public func appending(key: String) -> Path {
        var segments = segments
        segments.append(key)
        return Path(segments: segments)
    }

    /// The location of this path's first `count` keys (all of it when `count` reaches its length).
    public func prefix(_ count: Int) -> Path {
        count >= segments.count ? self : Path(segments: Array(segments.prefix(count)))
    }

    /// The child at a relative path.
    public func child(_ relative: Path) -> Path {
        // The root below a path is the path itself (a set is one child at the root): no copy.
        if relative.segments.isEmpty { return self }
        if segments.isEmpty { return relative }
        return Path(segments: segments + relative.segments)
    }

    /// Whether `self` equals `other` or is an ancestor of it.
    public func contains(_ other: Path) -> Bool {
        guard segments.count <= other.segments.count else { return false }
        for index in segments.indices where !CodeUnitString.equal(segments[index], other.segments[index]) {
            return false
        }
        return true
    }

    /// The longest path that contains both `self` and `other` (segments compared by UTF-16 code
    /// units).
    public func commonAncestor(with other: Path) -> Path {
        var shared = 0
        while shared < segments.count, shared < other.segments.count,
            CodeUnitString.equal(segments[shared], other.segments[shared])
        {
            shared += 1
        }
        return shared == segments.count ? self : prefix(shared)
    }

    /// The path of `other` relative to `self`, or nil when `self` does not contain `other`.
    public func relativePath(to other: Path) -> Path? {
        guard contains(other) else { return nil }
        return Path(segments: Array(other.segments.dropFirst(segments.count)))
    }

    /// Whether `self` is `.info` or below it.
    public var isInfo: Bool { segments.first == ".info" }

    /// The SDK's string form: `/a/b`, and `/` for the root.
    public var description: String { slashJoined(leading: true, trailing: false) }

    /// The form without a leading slash: `a/b`, and `""` for the root.
    public var relativeString: String { slashJoined(leading: false, trailing: false) }

    /// The segments joined by `/`, with one before the first (`leading`) and one after the last
    /// (`trailing`): a key of this path for a store (`/a/b/`).
    ///
    /// One string made with its size known, its bytes copied in (a draining queue makes a few for
    /// each of thousands of writes; `joined(separator:)` and `+` grew and copied several).
    public func slashJoined(leading: Bool, trailing: Bool) -> String {
        var size = max(segments.count - 1, 0) + (leading ? 1 : 0) + (trailing ? 1 : 0)
        for segment in segments { size += segment.utf8.count }
        return String(unsafeUninitializedCapacity: size) { buffer in
            var end = 0
            func slash() {
                buffer[end] = UInt8(ascii: "/")
                end += 1
            }
            if leading { slash() }
            for (offset, segment) in segments.enumerated() {
                if offset > 0 { slash() }
                // Copied whole: stepping through the UTF-8 view costs several instructions a byte.
                end = ByteScan.withBytes(of: segment) { bytes in
                    UnsafeMutableBufferPointer(rebasing: buffer[end...]).initialize(fromContentsOf: bytes) + end
                }
            }
            if trailing { slash() }
            return end
        }
    }
}

extension Path: Comparable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// Paths are equal when their keys have equal code units (``CodeUnitString``), not merely
    /// canonically equivalent ones.
    public static func == (lhs: Path, rhs: Path) -> Bool {
        lhs.segments.count == rhs.segments.count
            && zip(lhs.segments, rhs.segments).allSatisfy { CodeUnitString.equal($0, $1) }
    }

    /// Hashes the code units of every key.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(segments.count)
        for segment in segments { CodeUnitString.hash(segment, into: &hasher) }
    }

    /// Orders paths segment by segment with Firebase key order; a prefix sorts first.
    public static func < (lhs: Path, rhs: Path) -> Bool {
        for (a, b) in zip(lhs.segments, rhs.segments) {
            let order = ChildKey.compare(ChildKey(a), ChildKey(b))
            if order != 0 { return order < 0 }
        }
        return lhs.segments.count < rhs.segments.count
    }

    /// Parses a literal path.
    public init(stringLiteral value: String) { self.init(value) }
}
