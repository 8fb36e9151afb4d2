/// Where each expression's counts live: a dense number for every expression of a rules file,
/// given as the rules are compiled (each compiled expression keeps its own) and found again from
/// the expression's character offset when the report is made.
struct CoverageSlots: Sendable {
    /// For each character offset of the file, the slot of the expression there, or -1.
    private(set) var byOffset: [Int32]
    /// How many expressions there are.
    private(set) var count = 0

    /// No expression numbered yet, in a file of `length` characters.
    init(length: Int) {
        byOffset = [Int32](repeating: -1, count: length)
    }

    /// The slot of the expression at `location`, numbered now if it has none; nil for a place
    /// outside the file.
    mutating func number(_ location: SourceLocation) -> Int? {
        let offset = location.offset
        guard byOffset.indices.contains(offset) else { return nil }
        if byOffset[offset] < 0 {
            byOffset[offset] = Int32(count)
            count += 1
        }
        return Int(byOffset[offset])
    }

    /// The slot of the expression at `location`, or nil.
    func slot(of location: SourceLocation) -> Int? {
        guard byOffset.indices.contains(location.offset) else { return nil }
        let slot = byOffset[location.offset]
        return slot < 0 ? nil : Int(slot)
    }
}
