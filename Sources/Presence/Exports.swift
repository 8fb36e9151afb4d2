// Presence's values (a user's presence, the layouts, a change) are part of its API: a module that
// imports Presence has them, as before they moved to PresenceModel.
@_exported import PresenceModel
