import TOMLKit

/// TOML text read into a table: the one place presencetop hands text to TOMLKit (themes, the
/// settings file, scenario files).
///
/// The toml++ (3.4.0) that TOMLKit vendors asserts on two kinds of bad input, where a debug build
/// aborts and a release build has undefined behaviour: a table header whose name starts with a
/// character no key may start with (`[` then a line break, `[[[a]]]`, `[[=`; fixed upstream in
/// marzer/tomlplusplus#301, after the vendored version), and a `}` where an array expects a value
/// (`x = [ }`). Both were found by fuzzing the theme reader; both are refused here first, as are
/// keys and values nested too deep for its recursion.
public enum TOMLText {
    /// Why the text is not TOML the dashboard can read.
    public struct Failure: Error {
        /// The 1-based line, when known.
        public var line: Int?
        /// The 1-based column, when known.
        public var column: Int?
        /// What is wrong.
        public var problem: String
    }

    /// Parses `text`, and says where its tables and keys are (from the same one walk over it that
    /// checks it first).
    public static func table(_ text: String) throws(Failure) -> (table: TOMLTable, places: TOMLPlaces) {
        let scan = TOMLScan(text)
        if let refused = scan.problem { throw refused }
        do {
            return (try TOMLTable(string: text), TOMLPlaces(scan))
        } catch let error as TOMLParseError {
            throw Failure(line: error.source.begin.line, column: error.source.begin.column, problem: error.description)
        } catch {
            throw Failure(problem: "\(error)")
        }
    }
}
