import Synchronization

/// Many children kept as the text they arrived in: each child's key and its value's JSON, one
/// after another in one buffer, in key order, read into a node only when looked at.
///
/// A first list of a million users arrives as one object; made into nodes it took ~400 bytes a
/// user (a treap entry, a key and a node per child and per field) against the ~60 of its text,
/// and most of the time of a first load. Kept as its text, it is the text and 8 bytes a child.
/// A map built on it (``ChildrenMap/init(packed:)``) keeps later changes beside it, in a small
/// treap of its own.
///
/// Made only by ``JSONParser/parsePackedObject(depth:minimumCount:)``, which checked every value
/// to be what the plain reading (``JSONParser/parsePlainNode(depth:)``) takes and not empty, so
/// reading one again cannot fail.
package final class PackedChildren: Sendable {
    /// Each child's key (UTF-8, unescaped), then its value's JSON text.
    private let bytes: [UInt8]
    /// Where each child's key and value start, in key order.
    ///
    /// A value ends where the next child's key starts, or at the end.
    private let offsets: [UInt32]

    /// The number of children.
    package let count: Int
    /// The children read most recently, by position: one change to a child looks it up several
    /// times on its way through the engine (its old value, the filter, the event), and a user of
    /// the connections layout is a kilobyte of text to read each time.
    private let recent = Mutex(RecentNodes())

    private struct RecentNodes {
        var positions = [Int](repeating: -1, count: PackedChildren.recentCount)
        /// Each one's key, when it was looked up by key (no search then to find it again).
        var keys = [ChildKey?](repeating: nil, count: PackedChildren.recentCount)
        var nodes = [Node](repeating: .empty, count: PackedChildren.recentCount)
        var next = 0

        mutating func keep(_ node: Node, at position: Int, key: ChildKey?) {
            positions[next] = position
            keys[next] = key
            nodes[next] = node
            next = (next + 1) % PackedChildren.recentCount
        }
    }

    private static let recentCount = 8

    /// The largest buffer kept: offsets are 32-bit.
    static let maximumBytes = Int(UInt32.max)

    init(bytes: [UInt8], offsets: [UInt32]) {
        self.bytes = bytes
        self.offsets = offsets
        self.count = offsets.count / 2
    }

    private func keyRange(_ position: Int) -> Range<Int> {
        Int(offsets[2 * position])..<Int(offsets[2 * position + 1])
    }

    private func valueRange(_ position: Int) -> Range<Int> {
        let end = position + 1 < count ? Int(offsets[2 * position + 2]) : bytes.count
        return Int(offsets[2 * position + 1])..<end
    }

    /// The key of the child at `position` (0 ..< count).
    package func key(at position: Int) -> ChildKey {
        let range = keyRange(position)
        return bytes.withUnsafeBufferPointer { ChildKey(String(decoding: $0[range], as: UTF8.self)) }
    }

    /// The node of the child at `position`, read from its text.
    func node(at position: Int) -> Node {
        node(at: position, key: nil)
    }

    private func node(at position: Int, key: ChildKey?) -> Node {
        let cached = recent.withLock { recent in recent.positions.firstIndex(of: position).map { recent.nodes[$0] } }
        if let cached { return cached }
        let range = valueRange(position)
        let node = bytes.withUnsafeBufferPointer { buffer in
            var parser = JSONParser(bytes: UnsafeBufferPointer(rebasing: buffer[range]))
            // Checked when the text was taken in: plain and not empty.
            return ((try? parser.parsePlainNode(depth: 0)) ?? nil) ?? .empty
        }
        recent.withLock { $0.keep(node, at: position, key: key) }
        return node
    }

    /// The child at `position`'s value, to be read in place.
    package func value(at position: Int) -> PackedValue { PackedValue(children: self, range: valueRange(position)) }

    /// Calls `body` with the buffer.
    func withBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        bytes.withUnsafeBufferPointer(body)
    }

    /// The JSON text of the child at `position`'s value, as it arrived.
    func valueText(at position: Int) -> ArraySlice<UInt8> { bytes[valueRange(position)] }

    /// The position of the first child whose key is not below `key` (`count` when there is none).
    func lowerBound(_ key: ChildKey) -> Int {
        bytes.withUnsafeBufferPointer { buffer in
            // Compared with the keys' bytes where they lie: a string made for each step was most
            // of a 10,000-child update's search through a million.
            var low = 0
            var high = count
            while low < high {
                let middle = (low + high) / 2
                let keyBytes = UnsafeBufferPointer(rebasing: buffer[keyRange(middle)])
                if key.compare(toKeyBytes: keyBytes) > 0 { low = middle + 1 } else { high = middle }
            }
            return low
        }
    }

    /// The position of the child at `key`, or nil.
    func position(of key: ChildKey) -> Int? {
        let position = lowerBound(key)
        guard position < count else { return nil }
        let found = bytes.withUnsafeBufferPointer { buffer in
            key.compare(toKeyBytes: UnsafeBufferPointer(rebasing: buffer[keyRange(position)])) == 0
        }
        return found ? position : nil
    }

    /// Calls `body` with the UTF-8 bytes of the key at `position`, read in place.
    package func withKeyBytes<Result>(at position: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        bytes.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[keyRange(position)])) }
    }

    /// Whether a child has `key` (one read lately is known with no search).
    func contains(_ key: ChildKey) -> Bool {
        recent.withLock { recent in recent.keys.contains { $0.map { $0 == key } ?? false } } || position(of: key) != nil
    }

    /// The node at `key`, or nil.
    func node(for key: ChildKey) -> Node? {
        let cached = recent.withLock { recent in
            recent.keys.firstIndex { $0.map { $0 == key } ?? false }.map { recent.nodes[$0] }
        }
        if let cached { return cached }
        return position(of: key).map { node(at: $0, key: key) }
    }

    /// Whether the child at `position` holds the same value in `other` at `otherPosition`, judged
    /// by text: equal text is the same node; unequal text may still be (`1` and `1.0`), so false
    /// here means "compare the nodes".
    func sameText(at position: Int, in other: PackedChildren, at otherPosition: Int) -> Bool {
        if self === other, position == otherPosition { return true }
        return valueText(at: position) == other.valueText(at: otherPosition)
    }
}
