/// Where each expression's counts live: a dense number for every expression of a rules file,
/// found from its place's character offset without hashing (evaluation is the hot path).
struct CoverageSlots: Sendable {
    /// For each character offset of the file, the slot of the expression there, or -1.
    let byOffset: [Int32]
    /// How many expressions there are.
    let count: Int

    /// Numbers every expression of the rules under `root`, in a file of `length` characters.
    init(_ root: RuleNode, length: Int) {
        var byOffset = [Int32](repeating: -1, count: length)
        var count = 0
        func number(_ expression: RuleExpression) {
            let offset = expression.location.offset
            if byOffset.indices.contains(offset), byOffset[offset] < 0 {
                byOffset[offset] = Int32(count)
                count += 1
            }
            for operand in expression.operands { number(operand) }
        }
        func walk(_ node: RuleNode) {
            for rule in [node.read, node.write, node.validate].compactMap({ $0 }) { number(rule.expression) }
            for child in node.children.values { walk(child) }
            if let wildcard = node.wildcard { walk(wildcard.node) }
        }
        walk(root)
        self.byOffset = byOffset
        self.count = count
    }

    /// The slot of the expression at `location`, or nil.
    func slot(of location: SourceLocation) -> Int? { Self.slot(of: location, in: byOffset) }

    /// The slot of the expression at `location` in a copy of ``byOffset`` (``CoverageCounters`` keeps one).
    static func slot<Map: RandomAccessCollection<Int32>>(of location: SourceLocation, in map: Map) -> Int?
    where Map.Index == Int {
        guard map.indices.contains(location.offset) else { return nil }
        let slot = map[location.offset]
        return slot < 0 ? nil : Int(slot)
    }
}
