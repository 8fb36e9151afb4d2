import RTDBCore
import Synchronization

/// JSON text parsed once, when first asked for (by any thread).
final class DeferredJSON: Sendable {
    let text: String
    private let parsed = AtomicLazyReference<Parsed>()

    private final class Parsed: Sendable {
        let json: JSONValue
        init(_ json: JSONValue) { self.json = json }
    }

    init(_ text: String) { self.text = text }

    /// The parsed value; text that no longer parses (the file was edited) reads as null.
    var json: JSONValue {
        if let parsed = parsed.load() { return parsed.json }
        return parsed.storeIfNil(Parsed((try? JSONParser.parse(text)) ?? .null)).json
    }
}
