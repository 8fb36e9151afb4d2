/// A 64-bit hash of a string's UTF-8 bytes that is the same in every process and on every
/// machine (Swift's `Hasher` is seeded per process): the one home of the weights that give the
/// persistent trees (``ChildrenMap``, the presence list) the same shape for the same keys.
public enum StableHash {
    /// FNV-1a over the bytes, then a 64-bit finaliser so that similar strings get unrelated hashes.
    public static func of(_ string: String) -> UInt64 {
        var hash = ByteScan.withBytes(of: string) { bytes in
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for byte in bytes {
                hash ^= UInt64(byte)
                hash = hash &* 0x0000_0100_0000_01b3
            }
            return hash
        }
        hash ^= hash >> 33
        hash = hash &* 0xff51_afd7_ed55_8ccd
        hash ^= hash >> 33
        hash = hash &* 0xc4ce_b9fe_1a85_ec53
        hash ^= hash >> 33
        return hash
    }
}
