/// The security rules presencetop ships for the presence flow (docs/security-rules.md#presence).
///
/// Everyone signed in may read presence; each user may write only their own (`users/<uid>`):
/// connection entries with a device name and a connect time, and a `lastOnline` that is a number
/// not in the future. Notes and counters (the dashboard's writes) follow the same ownership.
/// `presencetop serve --print-presence-rules` prints them; the dashboard's embedded server uses
/// them. The component holds them as text, to deploy; the lab (`PresenceLab`) reads and checks
/// them for its servers.
public enum PresenceRules {
    /// The rules, as a file.
    public static let text = """
        {
          // presencetop's presence rules: users/<uid>/connections/<entry> and users/<uid>/lastOnline.
          "rules": {
            "users": {
              ".read": "auth != null",
              "$uid": {
                ".write": "auth != null && auth.uid == $uid",
                "connections": {
                  "$entry": {
                    ".validate": "newData.hasChildren(['device', 'connectedAt'])",
                    "device": { ".validate": "newData.isString() && newData.val().length <= 100" },
                    "connectedAt": { ".validate": "newData.isNumber() && newData.val() <= now" },
                    "$other": { ".validate": false }
                  }
                },
                "lastOnline": { ".validate": "newData.isNumber() && newData.val() <= now" },
                "$other": { ".validate": false }
              }
            },
            "notes": {
              "$uid": { ".read": "auth != null && auth.uid == $uid", ".write": "auth != null && auth.uid == $uid" }
            },
            "counters": {
              ".read": "auth != null",
              "$uid": { ".write": "auth != null && auth.uid == $uid", "taps": { ".validate": "newData.isNumber()" } }
            }
          }
        }

        """
}
