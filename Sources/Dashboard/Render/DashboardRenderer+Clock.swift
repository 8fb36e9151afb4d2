import Presence
import PresenceLab

extension DashboardRenderer {
    /// The skew warning threshold: past this either way the pane warns.
    static let skewWarningMs = 1_000.0
    /// The least range the skew strip's height stands for: jitter of a few ms stays near the middle.
    static let skewScaleFloorMs = 100.0

    /// `.info/serverTimeOffset`, the estimated server time, the continuous estimate with its
    /// error, its history, and each simulated device's skew.
    func drawClock(_ grid: inout CellGrid, _ rect: Rect, _ state: DashboardState) {
        guard let snapshot = state.snapshot else {
            grid.put(Segment.waiting(state), x: rect.x + 1, y: rect.y, limit: rect.maxX, glyphs: glyphs)
            return
        }
        var lines: [[Segment]] = []
        if let device = snapshot.thisDevice {
            let offset = Double(device.status.serverTimeOffsetMs)
            lines.append([
                Segment(".info/serverTimeOffset ", .muted), Segment(Format.signedMilliseconds(offset), .accent),
                Segment(
                    device.clockOffsetMs == 0
                        ? "" : "   clock moved \(Format.signedMilliseconds(Double(device.clockOffsetMs)))", .warn),
            ])
            if let skew = device.status.clockSkew {
                let warn = abs(skew.offsetMs) > Self.skewWarningMs
                var line = [
                    Segment("estimate ", .muted),
                    Segment(
                        "\(Format.signedMilliseconds(skew.offsetMs)) \(glyphs.plusMinus) \(Format.milliseconds(skew.errorBoundMs))",
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
            Segment(Format.timeOfDay(ms: snapshot.serverTimeEstimate, zone: state.timeZone, milliseconds: true), .text),
        ])
        // This device's clock minus the server's, as the devices line reads: up is ahead, so `+`
        // draws a rise. The scale is printed beside it, and a wobble of a few ms stays a wobble.
        let ahead = state.skewHistory.values.map { -$0 }
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
                Sparkline.text(ahead, width: sparkWidth, glyphs: glyphs, minimumSpan: Self.skewScaleFloorMs), .graph),
            Segment(scale, .muted),
        ])
        lines.append(devices(snapshot, width: rect.width))
        for (row, line) in lines.prefix(rect.height).enumerated() {
            grid.put([Segment(" ")] + line, x: rect.x, y: rect.y + row, limit: rect.maxX - 1, glyphs: glyphs)
        }
    }

    /// Simulated devices, most skewed first: the device's clock minus the server's, as measured.
    private func devices(_ snapshot: SimulationSnapshot, width: Int) -> [Segment] {
        let measured = snapshot.deviceClocks.compactMap { clock in clock.estimatedOffsetMs.map { (clock.label, -$0) } }
            .sorted { abs($0.1) > abs($1.1) }
        guard !measured.isEmpty else { return [Segment("devices: none measured", .muted)] }
        let warned = measured.filter { abs($0.1) > Self.skewWarningMs }.count
        var segments = [Segment("devices ", .muted)]
        if warned > 0 { segments.append(Segment("\(glyphs.warning) \(warned) past 1 s: ", .warn)) }
        // The line shows a handful: the most skewed.
        for (label, skew) in measured.prefix(12) {
            let warn = abs(skew) > Self.skewWarningMs
            segments.append(Segment("\(label) \(Format.signedMilliseconds(skew))", warn ? .warn : .text))
            segments.append(Segment(" · ", .muted))
        }
        segments.removeLast()
        return segments
    }
}
