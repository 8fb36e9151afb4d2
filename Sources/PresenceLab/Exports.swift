// The values the lab hands out (snapshots, events, summaries, the text-file readers) are part of
// its API: a module that imports PresenceLab has them, as before they moved to WatchModel.
@_exported import WatchModel
