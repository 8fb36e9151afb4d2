import PresenceModel
import RTDBCore
import WatchModel

extension DashboardRenderer {
    /// The skew warning threshold: past this either way the pane warns.
    static let skewWarning: Duration = .seconds(1)
    /// The least range the skew strip's height stands for: jitter of a few ms stays near the middle.
    static let skewScaleFloor: Duration = .milliseconds(100)

    /// `.info/serverTimeOffset`, the estimated server time, the continuous estimate with its
    /// error, its history, and each simulated device's skew.
    func drawClock(_ grid: inout CellGrid, _ rect: Rect, _ state: DashboardState) {
        guard let snapshot = state.snapshot else {
            grid.put(Segment.waiting(state), x: rect.x + 1, y: rect.y, limit: rect.maxX, glyphs: glyphs)
            return
        }
        var lines: [[Segment]] = []
        if let device = snapshot.thisDevice {
            let offset = device.status.serverTimeOffset
            lines.append([
                Segment(".info/serverTimeOffset ", .muted), Segment(Format.signedMilliseconds(offset), .accent),
                Segment(
                    device.clockOffset == .zero
                        ? "" : "   clock moved \(Format.signedMilliseconds(device.clockOffset))", .warn),
            ])
            if let skew = device.status.clockSkew {
                let warn = Self.pastWarning(skew.offset)
                var line = [
                    Segment("estimate ", .muted),
                    Segment(
                        "\(Format.signedMilliseconds(skew.offset)) \(glyphs.plusMinus) \(Format.milliseconds(skew.errorBound))",
                        warn ? .warn : .text),
                    Segment(" (\(Format.count(skew.samples, "sample")))", .muted),
                ]
                if warn { line.append(Segment("  \(glyphs.warning) past \(glyphs.plusMinus)1 s", .warn)) }
                lines.append(line)
            } else {
                lines.append([Segment("estimate ", .muted), Segment("not measured yet", .muted)])
            }
        }
        lines.append([
            Segment("server time ", .muted),
            Segment(
                Format.timeOfDay(snapshot.serverTimeEstimate, zone: state.preferences.timeZone, milliseconds: true),
                .text),
        ])
        // This device's clock minus the server's, as the devices line reads: up is ahead, so `+`
        // draws a rise. The scale is printed beside it, and a wobble of a few ms stays a wobble.
        let ahead = state.samples.skew.values.map { -$0 }
        var scale = ""
        var sparkWidth = max(0, rect.width - 10)
        if let range = Sparkline.range(ahead, width: sparkWidth) {
            scale =
                range.low.rounded() == range.high.rounded()
                ? "  \(Format.signedMilliseconds(range.low)) ahead"
                : "  \(Format.signedMilliseconds(range.low))…\(Format.signedMilliseconds(range.high)) ahead"
            sparkWidth = max(0, sparkWidth - CellGrid.columns(of: scale))
        }
        lines.append([
            Segment("history ", .muted),
            Segment(
                Sparkline.text(
                    ahead, width: sparkWidth, glyphs: glyphs, minimumSpan: Self.skewScaleFloor.inMilliseconds), .graph),
            Segment(scale, .muted),
        ])
        lines.append(devices(snapshot, width: rect.width))
        for (row, line) in lines.prefix(rect.height).enumerated() {
            grid.put([Segment(" ")] + line, x: rect.x, y: rect.y + row, limit: rect.maxX - 1, glyphs: glyphs)
        }
    }

    /// Simulated devices, most skewed first: the device's clock minus the server's, as measured.
    private func devices(_ snapshot: WatchSnapshot, width: Int) -> [Segment] {
        let measured = snapshot.deviceClocks.compactMap { clock in
            clock.estimatedOffset.map { (clock.label, Duration.zero - $0) }
        }
        .sorted { Self.magnitude($0.1) > Self.magnitude($1.1) }
        guard !measured.isEmpty else { return [Segment("devices: none measured", .muted)] }
        let warned = measured.filter { Self.pastWarning($0.1) }.count
        var segments = [Segment("devices ", .muted)]
        if warned > 0 { segments.append(Segment("\(glyphs.warning) \(warned) past 1 s: ", .warn)) }
        // The line shows a handful: the most skewed.
        for (label, skew) in measured.prefix(12) {
            let warn = Self.pastWarning(skew)
            segments.append(Segment("\(label) \(Format.signedMilliseconds(skew))", warn ? .warn : .text))
            segments.append(Segment(" · ", .muted))
        }
        segments.removeLast()
        return segments
    }

    /// A skew's size, either way.
    static func magnitude(_ skew: Duration) -> Duration { skew < .zero ? .zero - skew : skew }

    /// Whether a skew is past the warning threshold either way.
    static func pastWarning(_ skew: Duration) -> Bool { magnitude(skew) > skewWarning }
}
