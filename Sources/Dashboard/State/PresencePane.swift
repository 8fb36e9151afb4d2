/// How the Presence pane shows the users: which is selected, whose devices are listed, the
/// filter and whether keys go to it, the order, and the index of the users in that order kept
/// change by change by the reducer.
public struct PresencePane: Sendable, Equatable {
    /// The selected user's index among the users the filter shows.
    public var selectedUser = 0
    /// Users whose devices are listed.
    public var expanded: Set<String> = []
    /// The presence filter.
    public var filter = ""
    /// Whether keys go to the filter.
    public var isEditingFilter = false
    /// How the presence list is ordered.
    public var sort: PresenceSort = .name
    /// The users in order, those the filter lets through, and their counts, kept change by
    /// change by the reducer.
    public internal(set) var index = PresenceIndex()

    /// The first user, the list in name order, no filter.
    public init() {}
}
