import Foundation
import RTDBCore

/// A location in the database: read it with the query methods, write it with these.
///
/// `@unchecked Sendable` is safe for the same reason as ``DatabaseQuery``: only immutable values.
public final class DatabaseReference: DatabaseQuery, @unchecked Sendable {
    init(database: Database, path: Path) {
        super.init(database: database, path: path)
    }

    /// The last key of the path; nil at the root.
    public var key: String? { path.back }

    /// The parent location; nil at the root.
    public var parent: DatabaseReference? { path.parent.map { DatabaseReference(database: database, path: $0) } }

    /// The root location.
    public var root: DatabaseReference { DatabaseReference(database: database, path: .root) }

    /// A child location (`pathString` may contain slashes).
    public func child(_ pathString: String) -> DatabaseReference {
        DatabaseReference(database: database, path: path.child(pathString))
    }

    /// A child under a new push id: chronologically ordered, unique.
    public func childByAutoId() -> DatabaseReference {
        child(database.repo.nextPushID())
    }

    /// The location's URL: the database URL with the path (`http://host:9000/users/morgan?ns=demo`).
    public var url: String {
        guard var components = URLComponents(string: database.url) else { return database.url + path.description }
        components.percentEncodedPath = path.segments.map {
            $0.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["/"])) ?? $0
        }.reduce("") { $0 + "/" + $1 }
        return components.string ?? database.url
    }

    // MARK: - Writes

    /// Writes `value` (nil removes); listeners here fire at once, the server follows.
    public func setValue(_ value: Any?) { setValue(value, andPriority: nil, withCompletionBlock: nil) }

    /// Writes `value`; `block` runs when the server acknowledges it or rejects it.
    public func setValue(
        _ value: Any?, withCompletionBlock block: @escaping @Sendable ((any Error)?, DatabaseReference) -> Void
    ) {
        setValue(value, andPriority: nil, withCompletionBlock: block)
    }

    /// Writes `value` with a priority.
    public func setValue(_ value: Any?, andPriority priority: Any?) {
        setValue(value, andPriority: priority, withCompletionBlock: nil)
    }

    /// Writes `value` with a priority; `block` runs when the server answers.
    public func setValue(
        _ value: Any?, andPriority priority: Any?,
        withCompletionBlock block: (@Sendable ((any Error)?, DatabaseReference) -> Void)?
    ) {
        let ref = self
        database.repo.set(path, value: value, priority: priority) { error in block?(error, ref) }
    }

    /// Writes `value` and returns once the server has acknowledged it.
    public func setValue(_ value: Any?) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            setValue(value) { error, _ in
                if let error { continuation.resume(throwing: error) } else { continuation.resume() }
            }
        }
    }

    /// Writes an `Encodable` value (encoded as JSON).
    public func setValue<T: Encodable>(from value: T, encoder: JSONEncoder = JSONEncoder()) throws {
        let data = try encoder.encode(value)
        let json = try JSONParser.parse(bytes: data)
        database.repo.set(path, json: json, completion: nil)
    }

    /// Removes the data.
    public func removeValue() { setValue(nil) }

    /// Removes the data; `block` runs when the server answers.
    public func removeValue(completionBlock block: @escaping @Sendable ((any Error)?, DatabaseReference) -> Void) {
        setValue(nil, withCompletionBlock: block)
    }

    /// Sets the priority of the data here.
    public func setPriority(_ priority: Any?) {
        database.repo.set(path.child(ChildKey.priority.string), value: priority, priority: nil, completion: nil)
    }

    /// Writes several children at once; keys may be paths (`"a/b"`).
    public func updateChildValues(_ values: [AnyHashable: Any]) { updateChildValues(values, withCompletionBlock: nil) }

    /// Writes several children at once; `block` runs when the server answers.
    public func updateChildValues(
        _ values: [AnyHashable: Any], withCompletionBlock block: (@Sendable ((any Error)?, DatabaseReference) -> Void)?
    ) {
        let ref = self
        database.repo.update(path, values: DatabaseReference.stringKeyed(values)) { error in block?(error, ref) }
    }

    /// Writes several children and returns once the server has acknowledged them.
    public func updateChildValues(_ values: [AnyHashable: Any]) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            updateChildValues(values) { error, _ in
                if let error { continuation.resume(throwing: error) } else { continuation.resume() }
            }
        }
    }

    static func stringKeyed(_ values: [AnyHashable: Any]) -> [(String, Any?)] {
        values.map { (String(describing: $0.key.base), $0.value) }
    }
}
