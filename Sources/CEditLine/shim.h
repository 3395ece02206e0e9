#ifndef TAXPRO_CEDITLINE_SHIM_H
#define TAXPRO_CEDITLINE_SHIM_H

/*
 * libedit's configuration calls (el_set, el_get, history) are C variadic functions, which Swift cannot call.
 * These fixed-argument wrappers give each call we use its own typed signature.
 *
 * This header holds no state that matters (its one `static` is an empty string, any copy of which serves): a
 * `static` here exists once per module, and per Swift file in a debug build, that includes it. The signal flags
 * live in the CSignals target, defined once in C.
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
