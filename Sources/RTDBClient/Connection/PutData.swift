import RTDBCore

/// A set's or an update's data as a put carries it until it goes out.
enum PutData {
    /// Made when the put is sent: a restart queues thousands of restored writes whose stored
    /// text need not be read until a connection takes them.
    case json(() -> JSONValue)
    /// JSON text already checked to be one document (an object for an update), written into the
    /// request as it is: a stored write's text, sent without a parse and an export.
    case checkedText(String)
}
