/// Memory that bound texts are copied into, in a few large blocks, freed together once the
/// statement has run and its bindings are cleared.
struct TextArena {
    private var blocks: [UnsafeMutableRawBufferPointer] = []
    private var used = 0
    /// A block's size, unless one text needs more: a statement's rows of paths fit in one.
    static let blockSize = 16 * 1024

    /// Copies `bytes` in; where the copy lies, or nil for no bytes.
    mutating func copy(_ bytes: UnsafeBufferPointer<UInt8>) -> UnsafePointer<CChar>? {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return nil }
        if blocks.last.map({ used + bytes.count > $0.count }) ?? true {
            blocks.append(.allocate(byteCount: max(Self.blockSize, bytes.count), alignment: 1))
            used = 0
        }
        guard let base = blocks.last?.baseAddress else { return nil }
        let destination = base + used
        destination.copyMemory(from: source, byteCount: bytes.count)
        used += bytes.count
        return UnsafePointer(destination.assumingMemoryBound(to: CChar.self))
    }

    /// Frees every block; nothing may point into them after.
    mutating func free() {
        for block in blocks { block.deallocate() }
        blocks = []
        used = 0
    }
}
