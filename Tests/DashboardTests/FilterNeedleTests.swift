import Testing

@testable import Dashboard

/// The filter finds what lowercasing both sides and searching finds, fast or not.
@Suite struct FilterNeedleTests {
    @Test func findsWhatLowercasedSearchFinds() {
        let texts = [
            "user0000012", "USER12", "Morgan's Phone", "laptop", "", "प्रिया", "Zoë", "ZOË", "\u{212A}elvin", "李小龍",
            "mobile-ÉTÉ", "x", "abcabcabd",
        ]
        let filters = ["user", "12", "PHONE", "o", "kelvin", "zoë", "été", "李", "abd", "abcabd", "xx", "प्रि", ""]
        for filter in filters {
            let needle = FilterNeedle(filter)
            for text in texts {
                let expected = filter.isEmpty || text.lowercased().contains(filter.lowercased())
                #expect(needle.matches(text) == expected, "\(filter) in \(text)")
            }
        }
    }
}
