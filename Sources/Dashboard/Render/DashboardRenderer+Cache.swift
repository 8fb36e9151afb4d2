import Foundation
import RTDBCore
import WatchModel

extension DashboardRenderer {
    /// The Cache view's lines: this device's disk cache by top-level path, its tracked queries
    /// (complete, active, keepSynced, last use), and what the next prune would remove.
    func cacheLines(_ state: DashboardState, width: Int) -> [[Segment]] {
        guard state.views.cacheRead else { return [[Segment("reading the cache…", .muted)]] }
        guard let cache = state.views.cache else {
            return [[Segment("this device runs without persistence: it has no disk cache", .muted)]]
        }
        let fullness: StyleRole = cache.totalBytes > cache.limitBytes ? .bad : .text
        var lines: [[Segment]] = [
            [
                Segment("\(Format.bytes(cache.totalBytes)) of \(Format.bytes(cache.limitBytes))", fullness),
                Segment(cache.pruneDue ? "  a prune is due" : "  no prune due", cache.pruneDue ? .warn : .muted),
            ],
            [],
            [Segment("BYTES BY PATH", .header)],
        ]
        if let failing = cache.storeFailing {
            let since = Format.shortDuration(state.deviceNow - failing.since)
            lines.insert(
                contentsOf: [
                    [Segment("the store does not take writes (since \(since)):", .bad)],
                    [Segment("  " + Format.fit(failing.reason, max(8, width - 4), ellipsis: glyphs.ellipsis), .warn)],
                    [Segment("  new writes are refused; queued ones are kept and still sent", .muted)],
                ], at: 1)
        }
        let pathWidth = max(12, min(40, width / 3))
        if cache.bytesByPath.isEmpty { lines.append([Segment("  nothing cached", .muted)]) }
        for size in cache.bytesByPath {
            let shown = size.path == "/" ? "/" : "/" + size.path
            lines.append([
                Segment("  " + Format.fitMiddle(shown, pathWidth, ellipsis: glyphs.ellipsis) + " "),
                Segment(Format.bytes(size.bytes), .accent),
            ])
        }
        lines += [[], [Segment("TRACKED QUERIES (\(cache.queries.count))", .header)]]
        let queryWidth = max(8, min(30, width - pathWidth - 40))
        lines.append([
            Segment(
                "  " + Format.fit("PATH", pathWidth) + " " + Format.fit("QUERY", queryWidth) + " "
                    + "COMPLETE  ACTIVE  SYNCED  LAST USE", .muted)
        ])
        for query in cache.queries {
            func flag(_ value: Bool, _ width: Int) -> Segment {
                Segment(Format.fit(value ? "yes" : "no", width), value ? .good : .muted)
            }
            lines.append([
                Segment("  " + Format.fitMiddle(query.path, pathWidth, ellipsis: glyphs.ellipsis) + " "),
                Segment(Format.fit(query.query, queryWidth, ellipsis: glyphs.ellipsis) + " "),
                flag(query.complete, 10), flag(query.active, 8), flag(query.keepSynced, 8),
                Segment(Format.shortDuration(state.deviceNow - query.lastUse) + " ago", .muted),
            ])
        }
        lines += [[], [Segment("NEXT PRUNE", .header)]]
        if cache.nextPrune.isEmpty {
            lines.append([Segment("  nothing: active and kept-synced queries are never pruned", .muted)])
        }
        for query in cache.nextPrune {
            lines.append([Segment("  " + query, cache.pruneDue ? .warn : .text)])
        }
        return lines
    }
}
