import Presence
import RTDBRules

extension PresenceRules {
    /// The rules, read and checked (the text is part of the component; reading it needs the rules
    /// engine, which only servers use).
    public static let rules: SecurityRules = {
        do {
            return try SecurityRules(text: text, file: "presence.rules.json")
        } catch {
            preconditionFailure("the shipped presence rules are valid: \(error)")
        }
    }()
}
