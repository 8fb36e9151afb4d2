/// A row of block heights for a series of numbers, newest on the right.
enum Sparkline {
    /// The lowest and highest of the last `width` values (what a drawn strip spans), or nil.
    static func range(_ values: [Double], width: Int) -> (low: Double, high: Double)? {
        let shown = values.suffix(max(0, width))
        guard let low = shown.min(), let high = shown.max() else { return nil }
        return (low, high)
    }

    /// The last `width` values drawn between the series' minimum and maximum (or from zero when
    /// `fromZero`); an all-equal series is drawn at the lowest level, or blank if zero.
    ///
    /// - Parameter minimumSpan: The smallest range the height stands for: a series that varies
    ///   less is drawn about its middle at that scale, so a small wobble stays small.
    static func text(
        _ values: [Double], width: Int, glyphs: Glyphs, fromZero: Bool = false, minimumSpan: Double = 0
    ) -> String {
        let shown = values.suffix(max(0, width))
        guard let high = shown.max(), let low = shown.min() else { return "" }
        var floor = fromZero ? min(0, low) : low
        var span = high - floor
        if span < minimumSpan, !fromZero {
            floor = (high + low) / 2 - minimumSpan / 2
            span = minimumSpan
        }
        let levels = glyphs.levels
        return String(
            shown.map { value -> Character in
                if span <= 0 { return value == 0 && fromZero ? " " : levels[0] }
                let level = Int(((value - floor) / span * Double(levels.count - 1)).rounded())
                if fromZero && value <= 0 { return " " }
                return levels[min(levels.count - 1, max(0, level))]
            })
    }
}
