import Foundation

/// Placeholders the server replaces with values when it applies a write.
public enum ServerValue {
    /// The server's time in milliseconds since the epoch.
    public static func timestamp() -> [String: Any] { [".sv": "timestamp"] }

    /// The value at the location plus `delta` (a missing or non-number value counts as 0).
    public static func increment(_ delta: NSNumber) -> [String: Any] {
        let type = String(cString: delta.objCType)
        let number: Any = type == "d" || type == "f" ? delta.doubleValue : delta.int64Value
        return [".sv": ["increment": number]]
    }
}
