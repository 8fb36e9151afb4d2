// ncursesw for Swift: the wide-character API, plus `static inline` shims for what Swift cannot
// import (macros built from bit operations, address-of macros, and globals that Swift 6 calls
// shared mutable state). Every shim is named `CNcurses_` + what it wraps.
#ifndef CNCURSESW_H
#define CNCURSESW_H

#ifndef NCURSES_WIDECHAR
#define NCURSES_WIDECHAR 1 /* cchar_t, setcchar, wget_wch, mvwadd_wch */
#endif
#include <langinfo.h>
#include <locale.h>
#include <ncursesw/curses.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

static inline attr_t CNcurses_A_NORMAL(void) { return A_NORMAL; }
static inline attr_t CNcurses_A_BOLD(void) { return A_BOLD; }
static inline attr_t CNcurses_A_DIM(void) { return A_DIM; }
static inline attr_t CNcurses_A_UNDERLINE(void) { return A_UNDERLINE; }
static inline attr_t CNcurses_A_REVERSE(void) { return A_REVERSE; }
static inline attr_t CNcurses_A_ITALIC(void) { return A_ITALIC; }

static inline mmask_t CNcurses_BUTTON1_PRESSED(void) { return BUTTON1_PRESSED; }
static inline mmask_t CNcurses_BUTTON1_CLICKED(void) { return BUTTON1_CLICKED; }
static inline mmask_t CNcurses_BUTTON1_RELEASED(void) { return BUTTON1_RELEASED; }
static inline mmask_t CNcurses_BUTTON4_PRESSED(void) { return BUTTON4_PRESSED; }
static inline mmask_t CNcurses_BUTTON5_PRESSED(void) { return BUTTON5_PRESSED; }

static inline int CNcurses_COLORS(void) { return COLORS; }
static inline int CNcurses_COLOR_PAIRS(void) { return COLOR_PAIRS; }
static inline WINDOW *CNcurses_stdscr(void) { return stdscr; }
static inline void CNcurses_set_escdelay(int ms) { set_escdelay(ms); }

/// Whether the locale's character set is UTF-8 (call after `setlocale`).
static inline int CNcurses_locale_is_utf8(void) {
    const char *codeset = nl_langinfo(CODESET);
    return codeset != NULL && (codeset[0] == 'U' || codeset[0] == 'u') && (codeset[1] == 'T' || codeset[1] == 't')
        && (codeset[2] == 'F' || codeset[2] == 'f') && (codeset[3] == '-' ? codeset[4] == '8' : codeset[3] == '8');
}

/// Waits until `fd` (the terminal) or `wake_fd` is readable, or `timeout_ms` passes (-1: no limit).
/// Returns a bit set: 1 the terminal, 2 the wake pipe; 0 on timeout or interruption.
static inline int CNcurses_wait(int fd, int wake_fd, int timeout_ms) {
    struct pollfd fds[2] = {{fd, POLLIN, 0}, {wake_fd, POLLIN, 0}};
    int ready = poll(fds, 2, timeout_ms);
    if (ready <= 0) return 0;
    return ((fds[0].revents & (POLLIN | POLLHUP | POLLERR)) ? 1 : 0) | ((fds[1].revents & POLLIN) ? 2 : 0);
}

#endif
