#ifndef QUIRE_CNCURSES_SHIM_H
#define QUIRE_CNCURSES_SHIM_H
// ncursesw for Swift: the wide-character API, plus small functions for what Swift cannot
// import (macros, the implicit stdscr, variadics) and a last-resort terminal restore for
// crashes. Everything here is static inline: a system library target has no C sources.
#define _XOPEN_SOURCE_EXTENDED 1
#include <locale.h>
#include <ncursesw/curses.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>
#include <wchar.h>

/// The terminal settings before curses started, for the crash handler. Kept in function-local
/// statics: a header-level static would not be emitted for Swift.
static inline struct termios *quire_saved_termios(void) {
    static struct termios saved;
    return &saved;
}
static inline int *quire_saved_termios_valid(void) {
    static int valid = 0;
    return &valid;
}

static inline void quire_set_locale(void) { setlocale(LC_ALL, ""); }

static inline SCREEN *quire_newterm(const char *type) { return newterm(type, stdout, stdin); }

static inline void quire_size(int *rows, int *columns) {
    int y, x;
    getmaxyx(stdscr, y, x);
    *rows = y;
    *columns = x;
}

static inline attr_t quire_a_normal(void) { return A_NORMAL; }
static inline attr_t quire_a_bold(void) { return A_BOLD; }
static inline attr_t quire_a_dim(void) { return A_DIM; }
static inline attr_t quire_a_underline(void) { return A_UNDERLINE; }
static inline attr_t quire_a_reverse(void) { return A_REVERSE; }

static inline int quire_colors(void) { return COLORS; }
static inline int quire_color_pairs(void) { return COLOR_PAIRS; }

static inline int quire_keypad(bool on) { return keypad(stdscr, on); }
static inline int quire_meta(bool on) { return meta(stdscr, on); }
static inline void quire_timeout(int milliseconds) { wtimeout(stdscr, milliseconds); }
static inline int quire_get_wch(wint_t *character) { return wget_wch(stdscr, character); }
static inline int quire_attr_set(attr_t attributes, short pair) { return wattr_set(stdscr, attributes, pair, NULL); }
static inline int quire_put(int y, int x, const wchar_t *text) { return mvwaddwstr(stdscr, y, x, text); }
static inline int quire_move(int y, int x) { return wmove(stdscr, y, x); }
static inline int quire_clear(void) { return wclear(stdscr); }
static inline int quire_erase(void) { return werase(stdscr); }
static inline int quire_refresh(void) { return wrefresh(stdscr); }
static inline int quire_noutrefresh(void) { return wnoutrefresh(stdscr); }
static inline int quire_key_f0(void) { return KEY_F0; }

/// Restores the terminal from a crash handler: only async-signal-safe calls.
static inline void quire_crash_restore(int signal_number) {
    if (*quire_saved_termios_valid()) tcsetattr(STDIN_FILENO, TCSANOW, quire_saved_termios());
    // Leave the alternate screen, show the cursor, reset attributes.
    static const char reset[] = "\033[?2004l\033[?1049l\033[?25h\033[0m\r\n";
    ssize_t ignored = write(STDOUT_FILENO, reset, sizeof reset - 1);
    (void)ignored;
    signal(signal_number, SIG_DFL);
    raise(signal_number);
}

/// Stops the process as Ctrl-Z does under a shell with job control, and returns once the shell
/// continues it (`fg` sends SIGCONT). The caller hands the terminal back first and takes it
/// again after. SIGTSTP is raised on this thread with its default action and unblocked, so the
/// stop happens before `raise` returns; the previous action and mask are put back after.
static inline void quire_stop_for_shell(void) {
    struct sigaction action, previous;
    memset(&action, 0, sizeof action);
    action.sa_handler = SIG_DFL;
    sigemptyset(&action.sa_mask);
    sigaction(SIGTSTP, &action, &previous);
    sigset_t stop, saved;
    sigemptyset(&stop);
    sigaddset(&stop, SIGTSTP);
    pthread_sigmask(SIG_UNBLOCK, &stop, &saved);
    raise(SIGTSTP);
    pthread_sigmask(SIG_SETMASK, &saved, NULL);
    sigaction(SIGTSTP, &previous, NULL);
}

/// Remembers the terminal's settings and restores them if the process crashes.
static inline void quire_install_crash_restore(void) {
    if (tcgetattr(STDIN_FILENO, quire_saved_termios()) == 0) *quire_saved_termios_valid() = 1;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = quire_crash_restore;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESETHAND;
    int fatal[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP};
    for (unsigned i = 0; i < sizeof fatal / sizeof fatal[0]; i++) sigaction(fatal[i], &action, NULL);
}
#endif
