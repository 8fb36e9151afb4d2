import Foundation
import PresenceModel
import RTDBCore

/// How the dashboard writes durations, sizes and times.
public enum Format {
    /// `0.4 s`, `12s`, `3m 12s`, `2h 05m`, `3d 4h`.
    public static func duration(_ span: Duration) -> String {
        let ms = max(0, span.wholeMilliseconds)
        if ms < 10_000 { return String(format: "%.1f s", Double(ms) / 1000) }
        let seconds = ms / 1000
        if seconds < 60 { return "\(seconds)s" }
        if seconds < 3600 { return "\(seconds / 60)m \(seconds % 60)s" }
        if seconds < 86_400 { return String(format: "%dh %02dm", seconds / 3600, (seconds % 3600) / 60) }
        return "\(seconds / 86_400)d \((seconds % 86_400) / 3600)h"
    }

    /// `3m`, `12s`, `2h`: one unit, for tight columns.
    public static func shortDuration(_ span: Duration) -> String {
        let seconds = max(0, span.wholeMilliseconds) / 1000
        if seconds < 60 { return "\(seconds)s" }
        if seconds < 3600 { return "\(seconds / 60)m" }
        if seconds < 86_400 { return "\(seconds / 3600)h" }
        return "\(seconds / 86_400)d"
    }

    /// `14:05:23` (or `14:05:23.418` with milliseconds) in `zone`.
    public static func timeOfDay(_ time: UnixTime, zone: TimeZone, milliseconds: Bool = false) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let ms = time.millisecondsSince1970
        let parts = calendar.dateComponents([.hour, .minute, .second], from: time.date)
        let text = String(format: "%02d:%02d:%02d", parts.hour ?? 0, parts.minute ?? 0, parts.second ?? 0)
        return milliseconds ? text + String(format: ".%03d", Int(((ms % 1000) + 1000) % 1000)) : text
    }

    /// `31 B`, `38 KiB`, `1.2 MiB`.
    public static func bytes(_ count: Int) -> String {
        if count < 1024 { return "\(count) B" }
        if count < 1024 * 1024 { return "\(count / 1024) KiB" }
        return String(format: "%.1f MiB", Double(count) / 1_048_576)
    }

    /// `8 ms`, `1.2 s`.
    public static func milliseconds(_ value: Double) -> String {
        abs(value) < 1000 ? "\(Int(value.rounded())) ms" : String(format: "%.1f s", value / 1000)
    }

    /// `8 ms`, `1.2 s`.
    public static func milliseconds(_ span: Duration) -> String { milliseconds(span.inMilliseconds) }

    /// `+212 ms`, `−1.2 s`, `0 ms` (a true minus sign), from a number of ms (a graph's value).
    public static func signedMilliseconds(_ value: Double) -> String {
        let rounded = value.rounded()
        if rounded == 0 { return "0 ms" }
        return (rounded < 0 ? "−" : "+") + milliseconds(abs(rounded))
    }

    /// `+212 ms`, `−1.2 s`, `0 ms` (a true minus sign).
    public static func signedMilliseconds(_ span: Duration) -> String { signedMilliseconds(span.inMilliseconds) }

    /// `count` and the noun, singular for one: `1 connection`, `2 connections`.
    public static func count(_ count: Int, _ noun: String) -> String { CountFormat.count(count, noun) }

    /// An integer with its thousands grouped by commas: `1,000,000`, `-12,345`, `999`.
    public static func grouped(_ value: Int) -> String { CountFormat.grouped(value) }

    /// Order for names people read: runs of digits compare as numbers (`user9` before `user50`),
    /// the rest by UTF-16 code units; equal under that, by code units alone.
    public static func naturalLess(_ a: String, _ b: String) -> Bool { naturalCompare(a, b) < 0 }

    /// The order of ``naturalLess(_:_:)`` as one three-way comparison: negative, zero (the same
    /// code units) or positive.
    public static func naturalCompare(_ a: String, _ b: String) -> Int {
        // Sorting a million users asks this twenty million times: the bytes of native strings
        // first, the scalars only where two strings differ outside ASCII.
        let fast = a.utf8.withContiguousStorageIfAvailable { left in
            b.utf8.withContiguousStorageIfAvailable { right in naturalOrder(left, right) }
        }
        if let fast, let fast, let order = fast { return order != 0 ? order : UTF16Order.compare(a, b) }
        if naturalLessByScalars(a, b) { return -1 }
        return naturalLessByScalars(b, a) ? 1 : 0
    }

    /// Natural order on UTF-8 bytes: negative, zero or positive; nil where the strings first
    /// differ in non-ASCII bytes (where UTF-8's order and UTF-16's may part).
    private static func naturalOrder(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Int? {
        @inline(__always) func isDigit(_ byte: UInt8) -> Bool { byte &- 0x30 < 10 }
        var i = 0
        var j = 0
        while i < a.count, j < b.count {
            let x = a[i]
            let y = b[j]
            guard isDigit(x), isDigit(y) else {
                if x != y { return x < 0x80 || y < 0x80 ? (x < y ? -1 : 1) : nil }
                i += 1
                j += 1
                continue
            }
            // Two runs of digits: the one with more significant digits is larger, else the first
            // digit that differs decides.
            while i < a.count, a[i] == 0x30 { i += 1 }
            while j < b.count, b[j] == 0x30 { j += 1 }
            var firstDifference = 0
            while i < a.count, j < b.count, isDigit(a[i]), isDigit(b[j]) {
                if firstDifference == 0, a[i] != b[j] { firstDifference = a[i] < b[j] ? -1 : 1 }
                i += 1
                j += 1
            }
            let moreLeft = i < a.count && isDigit(a[i])
            let moreRight = j < b.count && isDigit(b[j])
            if moreLeft != moreRight { return moreLeft ? 1 : -1 }
            if firstDifference != 0 { return firstDifference }
        }
        let leftDone = i >= a.count
        let rightDone = j >= b.count
        if leftDone != rightDone { return leftDone ? -1 : 1 }
        return 0
    }

    static func naturalLessByScalars(_ a: String, _ b: String) -> Bool {
        var left = a.unicodeScalars.makeIterator()
        var right = b.unicodeScalars.makeIterator()
        var l = left.next()
        var r = right.next()
        func isDigit(_ scalar: Unicode.Scalar?) -> Bool { scalar.map { ("0"..."9").contains($0) } ?? false }
        while let leftScalar = l, let rightScalar = r {
            guard isDigit(leftScalar), isDigit(rightScalar) else {
                if leftScalar != rightScalar { return UTF16Order.lessThan(String(leftScalar), String(rightScalar)) }
                l = left.next()
                r = right.next()
                continue
            }
            // Two runs of digits: the one with more significant digits is larger, else the first
            // digit that differs decides.
            while l == "0" { l = left.next() }
            while r == "0" { r = right.next() }
            var firstDifference = 0
            while isDigit(l), isDigit(r) {
                if firstDifference == 0, let x = l, let y = r, x != y { firstDifference = x.value < y.value ? -1 : 1 }
                l = left.next()
                r = right.next()
            }
            if isDigit(l) != isDigit(r) { return isDigit(r) }
            if firstDifference != 0 { return firstDifference < 0 }
        }
        if (l == nil) != (r == nil) { return l == nil }
        return UTF16Order.lessThan(a, b)
    }

    /// `text` cut in the middle to `width` columns (its start and, longer, its end kept around an
    /// ellipsis), or padded with spaces to it: for paths, whose last key tells rows apart.
    public static func fitMiddle(_ text: String, _ width: Int, ellipsis: Character = "…") -> String {
        guard width > 0 else { return "" }
        let columns = CellGrid.columns(of: text)
        if columns <= width { return text + String(repeating: " ", count: width - columns) }
        guard width > 2 else { return fit(text, width, ellipsis: ellipsis) }
        let characters = Array(text)
        let tailRoom = (width - 1) * 2 / 3
        var tail: [Character] = []
        var used = 0
        for character in characters.reversed() {
            let size = CellGrid.columns(of: character)
            if used + size > tailRoom { break }
            tail.insert(character, at: 0)
            used += size
        }
        var head = ""
        for character in characters {
            let size = CellGrid.columns(of: character)
            if used + size > width - 1 { break }
            head.append(character)
            used += size
        }
        return head + String(ellipsis) + String(tail) + String(repeating: " ", count: max(0, width - 1 - used))
    }

    /// The longest start of `text` within `columns` that ends at a field boundary (before a space
    /// not inside a number), without the space; nil when there is none: a value is never cut
    /// inside (`20:38:54`, `874 B`).
    public static func cutAtBoundary(_ text: String, columns: Int) -> String? {
        var prefix: [Character] = []
        var used = 0
        for character in text {
            let size = CellGrid.columns(of: character)
            if used + size > columns { break }
            prefix.append(character)
            used += size
        }
        if prefix.count == text.count { return text }
        // The text goes on: cut where a space ends a field, looking back from the limit.
        var index = prefix.count
        while index > 0 {
            index -= 1
            guard prefix[index] == " ", index > 0 else { continue }
            let before = prefix[index - 1]
            let after = index + 1 < text.count ? Array(text)[index + 1] : " "
            // "874 B", "20 ms": a number and its unit are one value.
            if before.isNumber && after.isLetter && !after.isUppercase || before.isNumber && after == "B" { continue }
            var kept = prefix[..<index]
            while kept.last == " " { kept.removeLast() }
            return kept.allSatisfy({ $0 == " " }) ? nil : String(kept)
        }
        return nil
    }

    /// `text` cut to `width` columns with an ellipsis, or padded with spaces to it.
    public static func fit(_ text: String, _ width: Int, ellipsis: Character = "…") -> String {
        guard width > 0 else { return "" }
        let columns = CellGrid.columns(of: text)
        if columns <= width { return text + String(repeating: " ", count: width - columns) }
        var cut = ""
        var used = 0
        for character in text {
            let size = CellGrid.columns(of: character)
            if used + size > width - 1 { break }
            cut.append(character)
            used += size
        }
        return cut + String(ellipsis) + String(repeating: " ", count: max(0, width - 1 - used))
    }
}
