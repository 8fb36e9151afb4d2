// The fault-injecting VFS (see include/sqlite_faults.h). A shim in the usual SQLite way: each
// file is our header followed by the wrapped VFS's own file structure, and every method calls
// the wrapped one unless a fault applies.
#include "csqlite_faults.h"

#include <pthread.h>
#include <sqlite3.h>
#include <string.h>
#include <time.h>

#define MAX_WATCHED 1024
#define MAX_FOLDER 512

typedef struct {
    int used;
    char folder[MAX_FOLDER];
    int64_t budget;  // bytes still allowed; -1: no limit
    int failingSyncs;
    int holdingSyncs;
    int heldSyncs;
    int64_t syncDelayMicroseconds;  // each sync takes this long more (a slow disk)
    int64_t failures;
} Watched;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t released = PTHREAD_COND_INITIALIZER;
static Watched watched[MAX_WATCHED];
static sqlite3_vfs *wrapped;
static sqlite3_vfs faulty;
static int installed;

typedef struct {
    sqlite3_file base;
    int watch;  // index into watched, or -1
    sqlite3_file *real;
} FaultyFile;

static sqlite3_file *real(sqlite3_file *file) { return ((FaultyFile *)file)->real; }

static int xClose(sqlite3_file *file) {
    int rc = real(file)->pMethods ? real(file)->pMethods->xClose(real(file)) : SQLITE_OK;
    return rc;
}

static int xRead(sqlite3_file *file, void *buffer, int amount, sqlite3_int64 offset) {
    return real(file)->pMethods->xRead(real(file), buffer, amount, offset);
}

static int xWrite(sqlite3_file *file, const void *buffer, int amount, sqlite3_int64 offset) {
    int watch = ((FaultyFile *)file)->watch;
    if (watch >= 0) {
        pthread_mutex_lock(&lock);
        Watched *w = &watched[watch];
        int full = 0;
        if (w->used && w->budget >= 0) {
            if (w->budget < amount) {
                full = 1;
                w->failures += 1;
            } else {
                w->budget -= amount;
            }
        }
        pthread_mutex_unlock(&lock);
        if (full) return SQLITE_FULL;
    }
    return real(file)->pMethods->xWrite(real(file), buffer, amount, offset);
}

static int xTruncate(sqlite3_file *file, sqlite3_int64 size) {
    return real(file)->pMethods->xTruncate(real(file), size);
}

static int xSync(sqlite3_file *file, int flags) {
    int watch = ((FaultyFile *)file)->watch;
    if (watch >= 0) {
        pthread_mutex_lock(&lock);
        Watched *w = &watched[watch];
        w->heldSyncs += 1;
        while (w->used && w->holdingSyncs) pthread_cond_wait(&released, &lock);
        w->heldSyncs -= 1;
        int fail = w->used && w->failingSyncs;
        if (fail) w->failures += 1;
        int64_t delay = w->used ? w->syncDelayMicroseconds : 0;
        pthread_mutex_unlock(&lock);
        if (delay > 0) {
            struct timespec pause = {(time_t)(delay / 1000000), (long)(delay % 1000000) * 1000};
            while (nanosleep(&pause, &pause) != 0) {}
        }
        if (fail) return SQLITE_IOERR_FSYNC;
    }
    return real(file)->pMethods->xSync(real(file), flags);
}

static int xFileSize(sqlite3_file *file, sqlite3_int64 *size) {
    return real(file)->pMethods->xFileSize(real(file), size);
}

static int xLock(sqlite3_file *file, int level) { return real(file)->pMethods->xLock(real(file), level); }
static int xUnlock(sqlite3_file *file, int level) { return real(file)->pMethods->xUnlock(real(file), level); }
static int xCheckReservedLock(sqlite3_file *file, int *out) {
    return real(file)->pMethods->xCheckReservedLock(real(file), out);
}
static int xFileControl(sqlite3_file *file, int op, void *argument) {
    return real(file)->pMethods->xFileControl(real(file), op, argument);
}
static int xSectorSize(sqlite3_file *file) { return real(file)->pMethods->xSectorSize(real(file)); }
static int xDeviceCharacteristics(sqlite3_file *file) {
    return real(file)->pMethods->xDeviceCharacteristics(real(file));
}
static int xShmMap(sqlite3_file *file, int page, int size, int extend, void volatile **out) {
    return real(file)->pMethods->xShmMap(real(file), page, size, extend, out);
}
static int xShmLock(sqlite3_file *file, int offset, int n, int flags) {
    return real(file)->pMethods->xShmLock(real(file), offset, n, flags);
}
static void xShmBarrier(sqlite3_file *file) { real(file)->pMethods->xShmBarrier(real(file)); }
static int xShmUnmap(sqlite3_file *file, int deleteFlag) {
    return real(file)->pMethods->xShmUnmap(real(file), deleteFlag);
}
static int xFetch(sqlite3_file *file, sqlite3_int64 offset, int amount, void **out) {
    return real(file)->pMethods->xFetch(real(file), offset, amount, out);
}
static int xUnfetch(sqlite3_file *file, sqlite3_int64 offset, void *page) {
    return real(file)->pMethods->xUnfetch(real(file), offset, page);
}

static sqlite3_io_methods methods = {
    3, xClose, xRead, xWrite, xTruncate, xSync, xFileSize, xLock, xUnlock, xCheckReservedLock, xFileControl,
    xSectorSize, xDeviceCharacteristics, xShmMap, xShmLock, xShmBarrier, xShmUnmap, xFetch, xUnfetch,
};

static int watchFor(const char *name) {
    if (!name) return -1;
    int found = -1;
    pthread_mutex_lock(&lock);
    for (int i = 0; i < MAX_WATCHED; i++) {
        size_t length = strlen(watched[i].folder);
        if (watched[i].used && length > 0 && strncmp(name, watched[i].folder, length) == 0) {
            found = i;
            break;
        }
    }
    pthread_mutex_unlock(&lock);
    return found;
}

static int vfsOpen(sqlite3_vfs *vfs, const char *name, sqlite3_file *file, int flags, int *outFlags) {
    (void)vfs;
    FaultyFile *ours = (FaultyFile *)file;
    ours->real = (sqlite3_file *)&ours[1];
    ours->watch = watchFor(name);
    int rc = wrapped->xOpen(wrapped, name, ours->real, flags, outFlags);
    // SQLite calls xClose only when pMethods is set: set it only for a file that opened.
    file->pMethods = rc == SQLITE_OK && ours->real->pMethods ? &methods : NULL;
    return rc;
}

static int vfsDelete(sqlite3_vfs *vfs, const char *name, int syncDir) {
    (void)vfs;
    return wrapped->xDelete(wrapped, name, syncDir);
}
static int vfsAccess(sqlite3_vfs *vfs, const char *name, int flags, int *out) {
    (void)vfs;
    return wrapped->xAccess(wrapped, name, flags, out);
}
static int vfsFullPathname(sqlite3_vfs *vfs, const char *name, int size, char *out) {
    (void)vfs;
    return wrapped->xFullPathname(wrapped, name, size, out);
}
static void *vfsDlOpen(sqlite3_vfs *vfs, const char *name) {
    (void)vfs;
    return wrapped->xDlOpen(wrapped, name);
}
static void vfsDlError(sqlite3_vfs *vfs, int size, char *out) {
    (void)vfs;
    wrapped->xDlError(wrapped, size, out);
}
static void (*vfsDlSym(sqlite3_vfs *vfs, void *handle, const char *symbol))(void) {
    (void)vfs;
    return wrapped->xDlSym(wrapped, handle, symbol);
}
static void vfsDlClose(sqlite3_vfs *vfs, void *handle) {
    (void)vfs;
    wrapped->xDlClose(wrapped, handle);
}
static int vfsRandomness(sqlite3_vfs *vfs, int size, char *out) {
    (void)vfs;
    return wrapped->xRandomness(wrapped, size, out);
}
static int vfsSleep(sqlite3_vfs *vfs, int microseconds) {
    (void)vfs;
    return wrapped->xSleep(wrapped, microseconds);
}
static int vfsCurrentTime(sqlite3_vfs *vfs, double *out) {
    (void)vfs;
    return wrapped->xCurrentTime(wrapped, out);
}
static int vfsGetLastError(sqlite3_vfs *vfs, int size, char *out) {
    (void)vfs;
    return wrapped->xGetLastError ? wrapped->xGetLastError(wrapped, size, out) : 0;
}
static int vfsCurrentTimeInt64(sqlite3_vfs *vfs, sqlite3_int64 *out) {
    (void)vfs;
    return wrapped->xCurrentTimeInt64(wrapped, out);
}

int sqlite_faults_install(void) {
    pthread_mutex_lock(&lock);
    int rc = SQLITE_OK;
    if (!installed) {
        wrapped = sqlite3_vfs_find(NULL);
        if (!wrapped || wrapped->iVersion < 2) {
            rc = SQLITE_ERROR;
        } else {
            memset(&faulty, 0, sizeof faulty);
            faulty.iVersion = 2;
            faulty.szOsFile = (int)sizeof(FaultyFile) + wrapped->szOsFile;
            faulty.mxPathname = wrapped->mxPathname;
            faulty.zName = "presencetop-faults";
            faulty.xOpen = vfsOpen;
            faulty.xDelete = vfsDelete;
            faulty.xAccess = vfsAccess;
            faulty.xFullPathname = vfsFullPathname;
            faulty.xDlOpen = vfsDlOpen;
            faulty.xDlError = vfsDlError;
            faulty.xDlSym = vfsDlSym;
            faulty.xDlClose = vfsDlClose;
            faulty.xRandomness = vfsRandomness;
            faulty.xSleep = vfsSleep;
            faulty.xCurrentTime = vfsCurrentTime;
            faulty.xGetLastError = vfsGetLastError;
            faulty.xCurrentTimeInt64 = vfsCurrentTimeInt64;
            rc = sqlite3_vfs_register(&faulty, 1);
            if (rc == SQLITE_OK) installed = 1;
        }
    }
    pthread_mutex_unlock(&lock);
    return rc;
}

int sqlite_faults_watch(const char *folder) {
    int handle = -1;
    pthread_mutex_lock(&lock);
    for (int i = 0; i < MAX_WATCHED; i++) {
        if (!watched[i].used && strlen(folder) < MAX_FOLDER) {
            memset(&watched[i], 0, sizeof watched[i]);
            strcpy(watched[i].folder, folder);
            watched[i].budget = -1;
            watched[i].used = 1;
            handle = i;
            break;
        }
    }
    pthread_mutex_unlock(&lock);
    return handle;
}

static int valid(int handle) { return handle >= 0 && handle < MAX_WATCHED; }

void sqlite_faults_unwatch(int handle) {
    if (!valid(handle)) return;
    pthread_mutex_lock(&lock);
    watched[handle].used = 0;
    watched[handle].folder[0] = 0;
    pthread_cond_broadcast(&released);
    pthread_mutex_unlock(&lock);
}

void sqlite_faults_set_write_budget(int handle, int64_t bytes) {
    if (!valid(handle)) return;
    pthread_mutex_lock(&lock);
    watched[handle].budget = bytes;
    pthread_mutex_unlock(&lock);
}

void sqlite_faults_set_failing_syncs(int handle, int failing) {
    if (!valid(handle)) return;
    pthread_mutex_lock(&lock);
    watched[handle].failingSyncs = failing;
    pthread_mutex_unlock(&lock);
}

void sqlite_faults_set_holding_syncs(int handle, int holding) {
    if (!valid(handle)) return;
    pthread_mutex_lock(&lock);
    watched[handle].holdingSyncs = holding;
    pthread_cond_broadcast(&released);
    pthread_mutex_unlock(&lock);
}

void sqlite_faults_set_sync_delay(int handle, int64_t microseconds) {
    if (!valid(handle)) return;
    pthread_mutex_lock(&lock);
    watched[handle].syncDelayMicroseconds = microseconds > 0 ? microseconds : 0;
    pthread_mutex_unlock(&lock);
}

int sqlite_faults_held_syncs(int handle) {
    if (!valid(handle)) return 0;
    pthread_mutex_lock(&lock);
    int held = watched[handle].heldSyncs;
    pthread_mutex_unlock(&lock);
    return held;
}

int64_t sqlite_faults_failures(int handle) {
    if (!valid(handle)) return 0;
    pthread_mutex_lock(&lock);
    int64_t failures = watched[handle].failures;
    pthread_mutex_unlock(&lock);
    return failures;
}
