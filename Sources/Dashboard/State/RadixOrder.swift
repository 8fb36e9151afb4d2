/// A stable sort of slots by integer keys, sixteen bits at a time (least significant first):
/// linear in the slots, with no comparison, so a million users are put in a new order in
/// milliseconds.
enum RadixOrder {
    /// `slots` ordered by `keys` (the key of `slots[i]` is `keys[i]`), smallest first; slots with
    /// equal keys keep their order.
    static func stable(_ slots: [Int32], keys: [Int64]) -> [Int32] {
        precondition(slots.count == keys.count, "a key for each slot")
        let count = keys.count
        // Keys as distances from the smallest: unsigned, in the same order, and as few bits wide
        // as the keys' spread (online users' key is the smallest integer, the others' a time).
        let smallest = keys.min() ?? 0
        var keys = keys.map { UInt64(bitPattern: $0 &- smallest) }
        var slots = slots
        var nextKeys = [UInt64](repeating: 0, count: count)
        var nextSlots = [Int32](repeating: 0, count: count)
        // Which digits differ between keys at all: a digit every key shares orders nothing.
        var differing: UInt64 = 0
        for key in keys { differing |= key }
        var counts = [Int](repeating: 0, count: 1 << 16)
        for shift in stride(from: UInt64(0), to: 64, by: 16) where (differing >> shift) & 0xFFFF != 0 {
            counts.withUnsafeMutableBufferPointer { counts in
                keys.withUnsafeBufferPointer { from in
                    slots.withUnsafeBufferPointer { fromSlots in
                        nextKeys.withUnsafeMutableBufferPointer { to in
                            nextSlots.withUnsafeMutableBufferPointer { toSlots in
                                for index in counts.indices { counts[index] = 0 }
                                for key in from { counts[Int(truncatingIfNeeded: (key >> shift) & 0xFFFF)] += 1 }
                                var start = 0
                                for index in counts.indices { (counts[index], start) = (start, start + counts[index]) }
                                for index in 0..<count {
                                    let key = from[index]
                                    let bucket = Int(truncatingIfNeeded: (key >> shift) & 0xFFFF)
                                    to[counts[bucket]] = key
                                    toSlots[counts[bucket]] = fromSlots[index]
                                    counts[bucket] += 1
                                }
                            }
                        }
                    }
                }
            }
            swap(&keys, &nextKeys)
            swap(&slots, &nextSlots)
        }
        return slots
    }
}
