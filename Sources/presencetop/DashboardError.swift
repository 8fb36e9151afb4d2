/// A failure of the dashboard's own set-up, with a sentence for the person who ran it.
struct DashboardError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
