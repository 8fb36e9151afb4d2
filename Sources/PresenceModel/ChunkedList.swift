/// A sequence kept in chunks of about a thousand elements, each shared between versions until one
/// of them changes it: a copy costs a pointer a chunk, a change copies one chunk, and inserting or
/// removing in the middle moves at most one chunk's elements.
///
/// The compact counterpart of ``RankedTree`` for large lists of small elements (a user's slot in
/// an order is four bytes here, against a tree entry of fifty): reading by position, inserting and
/// removing cost a binary search over the chunks plus one chunk's work; a walk in order reads the
/// chunks straight through.
public struct ChunkedList<Element: Sendable>: Sendable, RandomAccessCollection {
    /// Some consecutive elements.
    ///
    /// `@unchecked Sendable`: `items` is changed only through ``ChunkedList/changeChunk(_:_:)``,
    /// after `isKnownUniquelyReferenced` found the list's reference to be the only one (the list's
    /// own array of chunks made unique first, as Swift's copy-on-write storage does): no other
    /// version, on this thread or another, can see the change.
    @usableFromInline final class Chunk: @unchecked Sendable {
        // Written only through the one reference there is (see above), so no access can overlap
        // a write, and no dynamic exclusivity check is kept.
        @exclusivity(unchecked) @usableFromInline var items: ContiguousArray<Element>

        @usableFromInline init(_ items: ContiguousArray<Element>) { self.items = items }
    }

    /// Elements a chunk is made with; a chunk that grows to twice this splits in two.
    @usableFromInline static var chunkSize: Int { 1024 }

    @usableFromInline var chunks: ContiguousArray<Chunk> = []
    /// For each chunk, the number of elements in it and every chunk before it.
    @usableFromInline var ends: ContiguousArray<Int> = []

    /// The empty list.
    public init() {}

    /// A list of `elements`, in their order.
    @inlinable public init(_ elements: some Sequence<Element>) {
        var current = ContiguousArray<Element>()
        current.reserveCapacity(Self.chunkSize)
        for element in elements {
            current.append(element)
            if current.count == Self.chunkSize {
                appendChunk(current)
                current = []
                current.reserveCapacity(Self.chunkSize)
            }
        }
        if !current.isEmpty { appendChunk(current) }
    }

    @usableFromInline mutating func appendChunk(_ items: ContiguousArray<Element>) {
        chunks.append(Chunk(items))
        ends.append((ends.last ?? 0) + items.count)
    }

    /// The number of elements.
    @inlinable public var count: Int { ends.last ?? 0 }
    /// The first position.
    @inlinable public var startIndex: Int { 0 }
    /// One past the last position.
    @inlinable public var endIndex: Int { count }

    /// The chunk that holds `position` and the position inside it; `position` may be
    /// ``count``, which is one past the last chunk's end (the place to append).
    @inlinable func locate(_ position: Int) -> (chunk: Int, offset: Int) {
        precondition(position >= 0 && position <= count, "position \(position) outside a list of \(count)")
        if position == count, let last = chunks.indices.last { return (last, chunks[last].items.count) }
        // Chunks that never split or shrank (a table only appended to) hold the chunk size each.
        let guess = position / Self.chunkSize
        if guess < ends.count, ends[guess] > position, guess == 0 || ends[guess - 1] <= position {
            return (guess, position - (guess == 0 ? 0 : ends[guess - 1]))
        }
        var low = 0
        var high = ends.count - 1
        while low < high {
            let middle = (low + high) / 2
            if ends[middle] > position { high = middle } else { low = middle + 1 }
        }
        return (low, position - (low == 0 ? 0 : ends[low - 1]))
    }

    /// The element at `position`.
    @inlinable public subscript(position: Int) -> Element {
        // Read in place, not copied out: comparing users by position a million times would
        // otherwise retain and release each one's strings.
        _read {
            precondition(position < count, "position \(position) outside a list of \(count)")
            let (chunk, offset) = locate(position)
            yield chunks[chunk].items[offset]
        }
        set {
            precondition(position < count, "position \(position) outside a list of \(count)")
            let (chunk, offset) = locate(position)
            changeChunk(chunk) { $0[offset] = newValue }
        }
    }

    /// Changes chunk `index`'s elements, copying the chunk first if another version holds it.
    @inlinable mutating func changeChunk<Result>(
        _ index: Int, _ body: (inout ContiguousArray<Element>) -> Result
    ) -> Result {
        if !isKnownUniquelyReferenced(&chunks[index]) { chunks[index] = Chunk(chunks[index].items) }
        return body(&chunks[index].items)
    }

    /// Inserts `element` so that it is at `position` (``count`` appends).
    @inlinable public mutating func insert(_ element: Element, at position: Int) {
        guard !chunks.isEmpty else { return appendChunk([element]) }
        let (chunk, offset) = locate(position)
        let size = changeChunk(chunk) { items in
            items.insert(element, at: offset)
            return items.count
        }
        for later in chunk..<ends.count { ends[later] += 1 }
        if size >= 2 * Self.chunkSize { split(chunk) }
    }

    /// Appends `element`.
    @inlinable public mutating func append(_ element: Element) { insert(element, at: count) }

    /// Removes and returns the element at `position`.
    @discardableResult
    @inlinable public mutating func remove(at position: Int) -> Element {
        precondition(position < count, "position \(position) outside a list of \(count)")
        let (chunk, offset) = locate(position)
        let (element, left) = changeChunk(chunk) { items in (items.remove(at: offset), items.count) }
        for later in chunk..<ends.count { ends[later] -= 1 }
        if left == 0 {
            chunks.remove(at: chunk)
            ends.remove(at: chunk)
        }
        return element
    }

    /// Splits a chunk that grew to twice the size into two halves.
    @usableFromInline mutating func split(_ index: Int) {
        let items = chunks[index].items
        let half = items.count / 2
        chunks[index] = Chunk(ContiguousArray(items[..<half]))
        chunks.insert(Chunk(ContiguousArray(items[half...])), at: index + 1)
        ends.insert(ends[index] - (items.count - half), at: index)
    }

    /// The position of the first element for which `isBefore` is false, where it is true for a
    /// prefix of the list and false for the rest (a binary search: the list must be so ordered).
    @inlinable public func partitionPoint(where isBefore: (Element) -> Bool) -> Int {
        var low = 0
        var high = count
        while low < high {
            let middle = (low + high) / 2
            if isBefore(self[middle]) { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// Calls `body` with each element in order (faster than reading them by position).
    @inlinable public func forEachElement(_ body: (Element) throws -> Void) rethrows {
        for chunk in chunks {
            // Read in place (a loop over the array would copy each element out).
            try chunk.items.withUnsafeBufferPointer { items in
                for index in items.indices { try body(items[index]) }
            }
        }
    }

    /// Calls `body` with each chunk's elements in order, in place: a walk over a million large
    /// elements that reads a field of each copies none of them.
    @inlinable public func forEachChunk(_ body: (UnsafeBufferPointer<Element>) throws -> Void) rethrows {
        for chunk in chunks { try chunk.items.withUnsafeBufferPointer(body) }
    }

    /// The elements in order.
    @inlinable public var elements: [Element] {
        var all: [Element] = []
        all.reserveCapacity(count)
        for chunk in chunks { all.append(contentsOf: chunk.items) }
        return all
    }

    /// Whether both are the same version (not merely equal elements): they share every chunk.
    @inlinable public func isSameVersion(as other: ChunkedList) -> Bool {
        chunks.count == other.chunks.count && zip(chunks, other.chunks).allSatisfy { $0 === $1 }
    }

    /// Walks the chunks in order, with no search for each position.
    public struct Iterator: IteratorProtocol {
        @usableFromInline let chunks: ContiguousArray<Chunk>
        @usableFromInline var chunk = 0
        @usableFromInline var offset = 0

        @inlinable init(_ chunks: ContiguousArray<Chunk>) { self.chunks = chunks }

        /// The next element, if any.
        @inlinable public mutating func next() -> Element? {
            while chunk < chunks.count {
                let items = chunks[chunk].items
                if offset < items.count {
                    defer { offset += 1 }
                    return items[offset]
                }
                (chunk, offset) = (chunk + 1, 0)
            }
            return nil
        }
    }

    /// An iterator over the elements in order.
    @inlinable public func makeIterator() -> Iterator { Iterator(chunks) }
}
