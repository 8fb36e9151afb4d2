// A fault-injecting SQLite VFS for tests and the chaos lab, in the way SQLite's own test suite
// injects I/O errors and full disks: it wraps the default VFS and, for files under a registered
// folder, fails writes past a byte budget (SQLITE_FULL, as a full disk), fails syncs
// (SQLITE_IOERR_FSYNC), holds syncs until released (a stalled disk, without a clock), or makes
// each sync take longer (a slow disk, in wall time, for the benchmarks). Files
// elsewhere pass through. Nothing is installed unless asked (the lab's `serve --lab-disk-faults`,
// the chaos run, tests).
#ifndef CSQLITE_FAULTS_H
#define CSQLITE_FAULTS_H

#include <stdint.h>

/// Installs the VFS as the process's default (once; later calls do nothing). Returns 0 on success.
int sqlite_faults_install(void);

/// Starts watching files whose path begins with `folder` (up to 1,024 at once, each at most 511
/// bytes). Returns a handle (>= 0), or -1 when the table is full. A file is matched when it is
/// opened: a folder must be watched before its files open.
int sqlite_faults_watch(const char *folder);

/// Stops watching a folder: its files pass through again.
void sqlite_faults_unwatch(int handle);

/// Writes to the folder's files fail with SQLITE_FULL once `bytes` more bytes have been
/// written (-1: no limit).
void sqlite_faults_set_write_budget(int handle, int64_t bytes);

/// Syncs of the folder's files fail with SQLITE_IOERR_FSYNC (nonzero) or work (zero).
void sqlite_faults_set_failing_syncs(int handle, int failing);

/// Syncs of the folder's files wait (nonzero) until released (zero).
void sqlite_faults_set_holding_syncs(int handle, int holding);

/// Each sync of the folder's files takes `microseconds` more (0: no delay); the wait is outside
/// the VFS's lock, so other files go on.
void sqlite_faults_set_sync_delay(int handle, int64_t microseconds);

/// How many syncs of the folder's files are waiting now.
int sqlite_faults_held_syncs(int handle);

/// How many writes and syncs of the folder's files have failed.
int64_t sqlite_faults_failures(int handle);

#endif
