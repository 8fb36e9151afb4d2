import RTDBCore

/// Counts the members of the objects at one depth of a JSON text as it arrives in pieces, without
/// parsing it: how many users a first load has brought so far, while its fragments arrive.
///
/// Each member of an object has one `:` at that object's depth (outside strings), so the
/// members at depth `depth` are the colons met there. Strings, escapes included, may be cut
/// anywhere between pieces.
public struct JSONMemberCounter: Sendable {
    /// The depth whose members are counted (1: the outermost object's).
    public let depth: Int
    /// Members counted so far.
    public private(set) var count = 0
    private var level = 0
    private var inString = false
    private var escaped = false

    /// A counter for the members of objects at `depth`.
    public init(depth: Int) {
        self.depth = depth
    }

    /// Reads the next piece of the text.
    public mutating func read(_ piece: String) {
        var piece = piece
        piece.withUTF8 { bytes in
            var index = 0
            while index < bytes.count {
                if inString {
                    if escaped {
                        escaped = false
                        index += 1
                        continue
                    }
                    // A string's bytes are most of a first list's; skipped eight at a time.
                    index = ByteScan.firstQuoteOrBackslash(bytes, from: index)
                    guard index < bytes.count else { return }
                    if bytes[index] == UInt8(ascii: "\\") { escaped = true } else { inString = false }
                    index += 1
                    continue
                }
                let byte = bytes[index]
                index += 1
                switch byte {
                case UInt8(ascii: "\""): inString = true
                case UInt8(ascii: "{"), UInt8(ascii: "["): level += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"): level -= 1
                case UInt8(ascii: ":") where level == depth: count += 1
                default: break
                }
            }
        }
    }
}
