import Foundation

/// How this process hands memory back to the system (glibc's allocator; elsewhere nothing).
///
/// glibc maps a large block apart only above a threshold it raises each time such a block is
/// freed, up to 32 MB: after a first list of a million users, the next few-megabyte blocks (a
/// sort's keys, an order being made) come from the heap, and freed between lasting ones they
/// stay resident. Measured at a million users: 32 MB of the index's 85 stayed after it was gone.
/// A fixed threshold maps every block of a megabyte or more apart, and returns it when freed.
public enum HeapPolicy {
    /// Maps every block of `threshold` bytes or more apart (glibc's `M_MMAP_THRESHOLD`, fixed),
    /// and keeps the small blocks of all threads in at most `arenas` heaps (`M_ARENA_MAX`).
    ///
    /// glibc gives threads heaps of their own, up to eight a core; which thread frees what where
    /// differs from run to run, and a heap's free pages stay resident while a live block sits
    /// above them. Measured at a million users, once loaded: 122–179 MB from run to run with
    /// the default, 122–129 MB with two heaps (the common setting for long-lived servers).
    public static func mapLargeBlocksApart(threshold: Int32 = 1 << 20, arenas: Int32 = 2) {
        // Looked up: Glibc's module does not export <malloc.h>. M_MMAP_THRESHOLD is -3,
        // M_ARENA_MAX -8.
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") else { return }
        typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
        let mallopt = unsafeBitCast(symbol, to: Mallopt.self)
        _ = mallopt(-3, threshold)
        _ = mallopt(-8, arenas)
    }

    /// Hands the heap's free pages back to the system (glibc's `malloc_trim`).
    public static func returnFreedMemory() {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else { return }
        typealias MallocTrim = @convention(c) (Int) -> Int32
        _ = unsafeBitCast(symbol, to: MallocTrim.self)(0)
    }
}
