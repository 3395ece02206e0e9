#ifndef TAXPRO_CEDITLINE_SHIM_H
#define TAXPRO_CEDITLINE_SHIM_H

/*
 * libedit's configuration calls (el_set, el_get, history) are C variadic functions, which Swift cannot call.
 * These fixed-argument wrappers give each call we use its own typed signature.
 *
 * The SIGINT flag lives here, in C, because a signal handler may only touch a `volatile sig_atomic_t`;
 * Swift globals are lazily initialised and offer no such guarantee.
 * Only the LineEditing module includes this header. A `static inline` function, and the `static` state inside it, is
 * emitted once per Swift file that calls it (a debug build compiles each file on its own), so each piece of state
 * must be used from one Swift file only: the interrupt flag and pipe from Interrupts.swift, the continue flag from
 * EditLineEditor.swift.
 */

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <unistd.h>
#include <stdio.h>
#include <string.h>
#include <histedit.h>

typedef char *(*taxpro_prompt_fn)(EditLine *);
typedef unsigned char (*taxpro_command_fn)(EditLine *, int);
typedef int (*taxpro_getc_fn)(EditLine *, wchar_t *);

static inline int taxpro_el_set_prompt(EditLine *el, taxpro_prompt_fn fn, char escape) {
  return el_set(el, EL_PROMPT_ESC, fn, (int)escape);
}

static inline int taxpro_el_set_editor(EditLine *el, const char *mode) {
  return el_set(el, EL_EDITOR, mode);
}

static inline int taxpro_el_get_editor(EditLine *el, const char **mode) {
  return el_get(el, EL_EDITOR, mode);
}

static inline int taxpro_el_prep_term(EditLine *el, int raw) {
  return el_set(el, EL_PREP_TERM, raw);
}

static inline int taxpro_el_set_signal(EditLine *el, int on) {
  return el_set(el, EL_SIGNAL, on);
}

static inline int taxpro_el_set_getc(EditLine *el, taxpro_getc_fn fn) {
  return el_set(el, EL_GETCFN, fn);
}

static inline int taxpro_el_add_function(EditLine *el, const char *name, const char *help, taxpro_command_fn fn) {
  return el_set(el, EL_ADDFN, name, help, fn);
}

static inline int taxpro_el_bind(EditLine *el, const char *key, const char *command) {
  return el_set(el, EL_BIND, key, command, (const char *)NULL);
}

static inline int taxpro_el_set_history(EditLine *el, History *history_state) {
  return el_set(el, EL_HIST, history, history_state);
}

static inline int taxpro_el_set_client_data(EditLine *el, void *data) {
  return el_set(el, EL_CLIENTDATA, data);
}

static inline void *taxpro_el_get_client_data(EditLine *el) {
  void *data = NULL;
  if (el_get(el, EL_CLIENTDATA, &data) != 0) {
    return NULL;
  }
  return data;
}

static inline int taxpro_history_set_size(History *h, int size) {
  HistEvent event;
  return history(h, &event, H_SETSIZE, size);
}

static inline int taxpro_history_set_unique(History *h, int unique) {
  HistEvent event;
  return history(h, &event, H_SETUNIQUE, unique);
}

static inline int taxpro_history_enter(History *h, const char *line) {
  HistEvent event;
  return history(h, &event, H_ENTER, line);
}

static inline int taxpro_history_load(History *h, const char *path) {
  HistEvent event;
  return history(h, &event, H_LOAD, path);
}

static inline int taxpro_history_save_fp(History *h, FILE *file) {
  HistEvent event;
  return history(h, &event, H_SAVE_FP, file);
}

static inline int taxpro_history_count(History *h) {
  HistEvent event;
  if (history(h, &event, H_GETSIZE) != 0) {
    return 0;
  }
  return event.num;
}

/* Iteration from the newest entry to older ones; each returns NULL when there is no such entry. */
static inline const char *taxpro_history_newest(History *h) {
  HistEvent event;
  return history(h, &event, H_FIRST) == 0 ? event.str : NULL;
}

static inline const char *taxpro_history_older(History *h) {
  HistEvent event;
  return history(h, &event, H_NEXT) == 0 ? event.str : NULL;
}

static inline volatile sig_atomic_t *taxpro_interrupt_flag(void) {
  static volatile sig_atomic_t flag = 0;
  return &flag;
}

/* A pipe the handler writes to, so a wait for input also wakes up for a Ctrl-C that arrives while the reading thread
 * is not yet (or no longer) inside a blocking call: checking the flag and then calling read() would leave a gap in
 * which the signal sets the flag and read() still blocks. Both ends are non-blocking. */
static inline int *taxpro_interrupt_pipe(void) {
  static int fds[2] = {-1, -1};
  return fds;
}

static inline void taxpro_on_interrupt(int signal_number) {
  (void)signal_number;
  *taxpro_interrupt_flag() = 1;
  int fd = taxpro_interrupt_pipe()[1];
  if (fd >= 0) {
    int saved = errno;
    ssize_t ignored = write(fd, "!", 1);
    (void)ignored;
    errno = saved;
  }
}

/* No SA_RESTART: a blocking read must fail with EINTR so the editor can give up the line. */
static inline int taxpro_install_interrupt_handler(void) {
  int *fds = taxpro_interrupt_pipe();
  if (fds[0] < 0 && pipe(fds) == 0) {
    for (int i = 0; i < 2; i++) {
      fcntl(fds[i], F_SETFL, fcntl(fds[i], F_GETFL) | O_NONBLOCK);
      fcntl(fds[i], F_SETFD, FD_CLOEXEC);
    }
  }
  struct sigaction action;
  memset(&action, 0, sizeof action);
  action.sa_handler = taxpro_on_interrupt;
  sigemptyset(&action.sa_mask);
  action.sa_flags = 0;
  return sigaction(SIGINT, &action, NULL);
}

/* Waits until `fd` has input (1), Ctrl-C was pressed (0), another signal interrupted the wait (-2), or an error
 * (-1, errno set). A Ctrl-C that came before the wait began is seen too, through the flag and the pipe. */
static inline int taxpro_wait_for_input(int fd) {
  int *pipe_fds = taxpro_interrupt_pipe();
  for (;;) {
    if (*taxpro_interrupt_flag()) return 0;
    struct pollfd fds[2] = {{fd, POLLIN, 0}, {pipe_fds[0], POLLIN, 0}};
    int count = poll(fds, pipe_fds[0] >= 0 ? 2 : 1, -1);
    if (count < 0) {
      if (errno != EINTR) return -1;
      return *taxpro_interrupt_flag() ? 0 : -2;
    }
    if (pipe_fds[0] >= 0 && (fds[1].revents & POLLIN)) {
      char drained[64];
      while (read(pipe_fds[0], drained, sizeof drained) > 0) {
      }
    }
    if (*taxpro_interrupt_flag()) return 0;
    /* Input, or end of input or an error, which the read that follows reports. */
    if (fds[0].revents != 0) return 1;
  }
}

static inline int taxpro_interrupt_pending(void) {
  return *taxpro_interrupt_flag() != 0;
}

static inline int taxpro_take_interrupt(void) {
  int pending = *taxpro_interrupt_flag() != 0;
  *taxpro_interrupt_flag() = 0;
  return pending;
}

static inline void taxpro_raise_interrupt_flag(void) {
  *taxpro_interrupt_flag() = 1;
}

static inline volatile sig_atomic_t *taxpro_continue_flag(void) {
  static volatile sig_atomic_t flag = 0;
  return &flag;
}

static inline void taxpro_on_continue(int signal_number) {
  (void)signal_number;
  *taxpro_continue_flag() = 1;
}

/* Records that the process was resumed after Ctrl-Z, so the editor can redraw its line. */
static inline int taxpro_install_continue_handler(void) {
  struct sigaction action;
  memset(&action, 0, sizeof action);
  action.sa_handler = taxpro_on_continue;
  sigemptyset(&action.sa_mask);
  action.sa_flags = 0;
  return sigaction(SIGCONT, &action, NULL);
}

static inline int taxpro_take_continued(void) {
  int continued = *taxpro_continue_flag() != 0;
  *taxpro_continue_flag() = 0;
  return continued;
}

static inline int taxpro_el_refresh(EditLine *el) {
  return el_set(el, EL_REFRESH);
}

/* The C standard streams, which Swift 6 will not read as globals because they are mutable. */
static inline FILE *taxpro_stdin(void) { return stdin; }
static inline FILE *taxpro_stdout(void) { return stdout; }
static inline FILE *taxpro_stderr(void) { return stderr; }

/* libedit dereferences the prompt unconditionally, so a fallback must be a real string. */
static inline char *taxpro_empty_string(void) {
  static char empty[1] = {0};
  return empty;
}

static inline int taxpro_errno(void) {
  return errno;
}

static inline void taxpro_set_errno(int value) {
  errno = value;
}

#endif
