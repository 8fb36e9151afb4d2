/// A row of block heights for a series of numbers, newest on the right.
enum Sparkline {
    /// The last `width` values drawn between the series' minimum and maximum (or from zero when
    /// `fromZero`); an all-equal series is drawn at the lowest level, or blank if zero.
    static func text(_ values: [Double], width: Int, glyphs: Glyphs, fromZero: Bool = false) -> String {
        let shown = values.suffix(max(0, width))
        guard let high = shown.max(), let low = shown.min() else { return "" }
        let floor = fromZero ? min(0, low) : low
        let span = high - floor
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
