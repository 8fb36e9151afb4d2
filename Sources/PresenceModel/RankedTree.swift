/// A persistent sorted sequence that finds its n-th element, and an element's place, in
/// O(log n): a treap whose entries count the entries below them.
///
/// Updates copy the O(log n) entries on one path and share the rest, so a frame keeps reading
/// one version while the next is built, and a million users cost a change as much as ten. The
/// order is the caller's (`compare` passed to each update, the same one every time); an entry's
/// weight comes from the caller too (a hash of what identifies it), so the same elements always
/// make the same shape, whatever order they came in, and two versions can be compared by walking
/// only where they differ (``changes(from:identity:)``).
public struct RankedTree<Element: Sendable>: Sendable, RandomAccessCollection {
    /// One element, the entries before and after it, and how many entries it heads.
    final class Entry: Sendable {
        let element: Element
        let weight: UInt64
        let left: Entry?
        let right: Entry?
        let count: Int

        init(_ element: Element, weight: UInt64, left: Entry?, right: Entry?) {
            self.element = element
            self.weight = weight
            self.left = left
            self.right = right
            self.count = 1 + (left?.count ?? 0) + (right?.count ?? 0)
        }

        func with(left: Entry?, right: Entry?) -> Entry {
            Entry(element, weight: weight, left: left, right: right)
        }
    }

    /// A three-way comparison: negative, zero or positive as `a` sorts before, with or after `b`.
    public typealias Comparison = (_ a: Element, _ b: Element) -> Int

    private(set) var root: Entry?

    /// The empty tree.
    public init() { root = nil }

    /// A tree of `elements`, already in order without two that compare equal, in linear time.
    public init(sorted elements: [Element], weight: (Element) -> UInt64) {
        root = Self.build(elements, weight: weight)
    }

    /// The number of elements.
    public var count: Int { root?.count ?? 0 }
    /// The first rank.
    public var startIndex: Int { 0 }
    /// One past the last rank.
    public var endIndex: Int { count }

    /// The element at `rank` (0 is the first); `rank` must be in `0..<count`.
    public subscript(rank: Int) -> Element {
        var current = root
        var rank = rank
        while let entry = current {
            let before = entry.left?.count ?? 0
            if rank < before {
                current = entry.left
            } else if rank == before {
                return entry.element
            } else {
                rank -= before + 1
                current = entry.right
            }
        }
        preconditionFailure("rank \(rank) outside a tree of \(count)")
    }

    /// The element that compares equal to `probe`, and its rank, if there is one.
    public func find(_ probe: Element, by compare: Comparison) -> (rank: Int, element: Element)? {
        var current = root
        var passed = 0
        while let entry = current {
            let order = compare(probe, entry.element)
            if order == 0 { return (passed + (entry.left?.count ?? 0), entry.element) }
            if order < 0 {
                current = entry.left
            } else {
                passed += (entry.left?.count ?? 0) + 1
                current = entry.right
            }
        }
        return nil
    }

    /// How many elements sort before `probe`.
    public func rank(of probe: Element, by compare: Comparison) -> Int {
        var current = root
        var passed = 0
        while let entry = current {
            if compare(probe, entry.element) <= 0 {
                current = entry.left
            } else {
                passed += (entry.left?.count ?? 0) + 1
                current = entry.right
            }
        }
        return passed
    }

    /// A tree with `element` in its place, replacing one that compares equal.
    public func inserting(_ element: Element, weight: UInt64, by compare: Comparison) -> RankedTree {
        var tree = self
        tree.root = Self.insert(root, element, weight: weight, by: compare)
        return tree
    }

    /// A tree without the element that compares equal to `probe` (the same tree if none does).
    public func removing(_ probe: Element, by compare: Comparison) -> RankedTree {
        var tree = self
        tree.root = Self.remove(root, probe, by: compare)
        return tree
    }

    /// Whether both are the same version (not merely equal elements): O(1).
    public func isSameVersion(as other: RankedTree) -> Bool { root === other.root }

    /// Calls `body` with each element in order (faster than reading them by rank).
    public func forEachInOrder(_ body: (Element) throws -> Void) rethrows {
        try Self.walk(root, body)
    }

    /// The elements in order.
    public var elements: [Element] {
        var all: [Element] = []
        all.reserveCapacity(count)
        forEachInOrder { all.append($0) }
        return all
    }

    // MARK: - Treap operations

    private static func insert(_ entry: Entry?, _ element: Element, weight: UInt64, by compare: Comparison) -> Entry {
        guard let entry else { return Entry(element, weight: weight, left: nil, right: nil) }
        let order = compare(element, entry.element)
        if order == 0 { return Entry(element, weight: entry.weight, left: entry.left, right: entry.right) }
        if order < 0 {
            let left = insert(entry.left, element, weight: weight, by: compare)
            if left.weight > entry.weight {
                return left.with(left: left.left, right: entry.with(left: left.right, right: entry.right))
            }
            return entry.with(left: left, right: entry.right)
        }
        let right = insert(entry.right, element, weight: weight, by: compare)
        if right.weight > entry.weight {
            return right.with(left: entry.with(left: entry.left, right: right.left), right: right.right)
        }
        return entry.with(left: entry.left, right: right)
    }

    private static func remove(_ entry: Entry?, _ probe: Element, by compare: Comparison) -> Entry? {
        guard let entry else { return nil }
        let order = compare(probe, entry.element)
        if order == 0 { return merge(entry.left, entry.right) }
        if order < 0 {
            let left = remove(entry.left, probe, by: compare)
            return left === entry.left ? entry : entry.with(left: left, right: entry.right)
        }
        let right = remove(entry.right, probe, by: compare)
        return right === entry.right ? entry : entry.with(left: entry.left, right: right)
    }

    static func merge(_ a: Entry?, _ b: Entry?) -> Entry? {
        guard let a else { return b }
        guard let b else { return a }
        if a.weight > b.weight { return a.with(left: a.left, right: merge(a.right, b)) }
        return b.with(left: merge(a, b.left), right: b.right)
    }

    /// The entries before `probe`, the element equal to it, and the entries after it.
    static func split(_ entry: Entry?, at probe: Element, by compare: Comparison) -> (Entry?, Element?, Entry?) {
        guard let entry else { return (nil, nil, nil) }
        let order = compare(probe, entry.element)
        if order == 0 { return (entry.left, entry.element, entry.right) }
        if order < 0 {
            let (before, found, after) = split(entry.left, at: probe, by: compare)
            return (before, found, entry.with(left: after, right: entry.right))
        }
        let (before, found, after) = split(entry.right, at: probe, by: compare)
        return (entry.with(left: entry.left, right: before), found, after)
    }

    static func walk(_ entry: Entry?, _ body: (Element) throws -> Void) rethrows {
        guard let entry else { return }
        try walk(entry.left, body)
        try body(entry.element)
        try walk(entry.right, body)
    }

    private static func build(_ elements: [Element], weight: (Element) -> UInt64) -> Entry? {
        // A Cartesian tree over the weights (heaviest at the root), linear with a stack holding
        // the right spine.
        let weights = elements.map(weight)
        var leftChild = [Int](repeating: -1, count: elements.count)
        var rightChild = [Int](repeating: -1, count: elements.count)
        var spine: [Int] = []
        for index in elements.indices {
            var lastPopped = -1
            while let top = spine.last, weights[top] < weights[index] {
                lastPopped = spine.removeLast()
            }
            leftChild[index] = lastPopped
            if let top = spine.last { rightChild[top] = index }
            spine.append(index)
        }
        func make(_ index: Int) -> Entry? {
            guard index >= 0 else { return nil }
            return Entry(
                elements[index], weight: weights[index], left: make(leftChild[index]), right: make(rightChild[index]))
        }
        return spine.first.flatMap(make)
    }
}
