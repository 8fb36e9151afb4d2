// swift-format-ignore-file
// The Swift snippets of the source document ("Offline capabilities on Apple platforms"), verbatim:
// this file must compile as written, so it is exempt from formatting. It imports RTDBCore too,
// as an app that also uses the value types would: `ServerValue` must still mean the client's.
import Foundation
import RTDBClient
import RTDBCore

enum SourceDocumentSnippets {
    static func diskPersistence() {
        Database.database().isPersistenceEnabled = true
    }

    static func keepingDataFresh() {
        let scoresRef = Database.database().reference(withPath: "scores")
        scoresRef.keepSynced(true)
    }

    static func queryingDataOffline() {
        let scoresRef = Database.database().reference(withPath: "scores")
        scoresRef.queryOrderedByValue().queryLimited(toLast: 4).observe(.childAdded) { snapshot in
          print("The \(snapshot.key) dinosaur's score is \(snapshot.value ?? "null")")
        }
    }

    static func queryingLastTwo() {
        let scoresRef = Database.database().reference(withPath: "scores")
        scoresRef.queryOrderedByValue().queryLimited(toLast: 2).observe(.childAdded) { snapshot in
          print("The \(snapshot.key) dinosaur's score is \(snapshot.value ?? "null")")
        }
    }

    static func managingPresence() {
        let presenceRef = Database.database().reference(withPath: "disconnectmessage");
        // Write a string when this client loses connection
        presenceRef.onDisconnectSetValue("I disconnected!")

        presenceRef.onDisconnectRemoveValue { error, reference in
          if let error = error {
            print("Could not establish onDisconnect event: \(error)")
          }
        }

        presenceRef.onDisconnectSetValue("I disconnected")
        // some time later when we change our minds
        presenceRef.cancelDisconnectOperations()
    }

    static func detectingConnectionState() {
        let connectedRef = Database.database().reference(withPath: ".info/connected")
        connectedRef.observe(.value, with: { snapshot in
          if snapshot.value as? Bool ?? false {
            print("Connected")
          } else {
            print("Not connected")
          }
        })
    }

    static func serverTimestamps() {
        let userLastOnlineRef = Database.database().reference(withPath: "users/morgan/lastOnline")
        userLastOnlineRef.onDisconnectSetValue(ServerValue.timestamp())
    }

    static func clockSkew() {
        let offsetRef = Database.database().reference(withPath: ".info/serverTimeOffset")
        offsetRef.observe(.value, with: { snapshot in
          if let offset = snapshot.value as? TimeInterval {
            print("Estimated server time in milliseconds: \(Date().timeIntervalSince1970 * 1000 + offset)")
          }
        })
    }

    static func samplePresenceApp() {
        // since I can connect from multiple devices, we store each connection instance separately
        // any time that connectionsRef's value is null (i.e. has no children) I am offline
        let myConnectionsRef = Database.database().reference(withPath: "users/morgan/connections")

        // stores the timestamp of my last disconnect (the last time I was seen online)
        let lastOnlineRef = Database.database().reference(withPath: "users/morgan/lastOnline")

        let connectedRef = Database.database().reference(withPath: ".info/connected")

        connectedRef.observe(.value, with: { snapshot in
          // only handle connection established (or I've reconnected after a loss of connection)
          guard snapshot.value as? Bool ?? false else { return }

          // add this device to my connections list
          let con = myConnectionsRef.childByAutoId()

          // when this device disconnects, remove it.
          con.onDisconnectRemoveValue()

          // The onDisconnect() call is before the call to set() itself. This is to avoid a race condition
          // where you set the user's presence to true and the client disconnects before the
          // onDisconnect() operation takes effect, leaving a ghost user.

          // this value could contain info about the device or a timestamp instead of just true
          con.setValue(true)

          // when I disconnect, update the last time I was seen online
          lastOnlineRef.onDisconnectSetValue(ServerValue.timestamp())
        })
    }
}
