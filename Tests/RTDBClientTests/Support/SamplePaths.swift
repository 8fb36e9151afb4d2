import RTDBCore

/// A few keys and every path of them up to three levels deep, for seeded tests of the write
/// tree: siblings, ancestors and descendants all occur, and two keys differ only in their code
/// units (`"é"` written two ways, which Firebase keeps apart).
enum SamplePaths {
    static let keys = ["a", "b", "é", "e\u{301}"]

    /// The root, every key, and every path of two keys, and of three with the third `a` or `b`.
    static let all: [Path] = {
        var paths: [Path] = [.root]
        for first in keys {
            paths.append(Path(segments: [first]))
            for second in keys {
                paths.append(Path(segments: [first, second]))
                for third in keys.prefix(2) { paths.append(Path(segments: [first, second, third])) }
            }
        }
        return paths
    }()
}
