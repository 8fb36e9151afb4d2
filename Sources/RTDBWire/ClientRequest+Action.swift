extension ClientRequest {
    /// The action of a request, as sent in `a` (docs/wire-protocol.md lists each with its body).
    public enum Action: String, Sendable, Hashable, CaseIterable {
        /// `q`: listen.
        case listen = "q"
        /// `n`: stop listening.
        case unlisten = "n"
        /// `p`: set.
        case put = "p"
        /// `m`: update.
        case merge = "m"
        /// `o`: onDisconnect set.
        case onDisconnectPut = "o"
        /// `om`: onDisconnect update.
        case onDisconnectMerge = "om"
        /// `oc`: onDisconnect cancel.
        case onDisconnectCancel = "oc"
        /// `g`: read once.
        case get = "g"
        /// `auth`: sign in with an ID token or emulator JWT.
        case auth
        /// `gauth`: sign in with an access token, or `owner`.
        case gauth
        /// `unauth`: sign out.
        case unauth
        /// `s`: usage counters.
        case stats = "s"
        /// `appcheck`: an App Check token.
        case appCheck = "appcheck"
        /// `unappcheck`: drop the App Check token.
        case unappCheck = "unappcheck"
        /// `odr`: an onDisconnect dry run (our extension).
        case onDisconnectDryRun = "odr"

        /// Reads an action as sent, including the older spellings some clients still use (`l`
        /// for listen, `u` for unlisten, the JS SDK's `unappeck`).
        public init?(wireName: String) {
            switch wireName {
            case "l": self = .listen
            case "u": self = .unlisten
            case "unappeck": self = .unappCheck
            default: self.init(rawValue: wireName)
            }
        }

        /// Whether it registers or cancels an operation for when the connection ends.
        public var isOnDisconnect: Bool {
            self == .onDisconnectPut || self == .onDisconnectMerge || self == .onDisconnectCancel
        }
    }
}
