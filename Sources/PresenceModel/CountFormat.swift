/// How counts are written for people: the one home of the thousands separator.
public enum CountFormat {
    /// `value` with a comma between each group of three digits (`1,000,000`).
    public static func grouped(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var text = value < 0 ? "-" : ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { text.append(",") }
            text.append(digit)
        }
        return text
    }

    /// `count` and the noun, singular for one: `1 connection`, `2,000 connections`.
    public static func count(_ count: Int, _ noun: String) -> String {
        "\(grouped(count)) \(noun)\(count == 1 ? "" : "s")"
    }
}
