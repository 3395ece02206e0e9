#ifndef TAXPRO_SIGNALS_H
#define TAXPRO_SIGNALS_H

/*
 * Ctrl-C and resume-after-Ctrl-Z as flags, for the REPL.
 *
 * A signal handler may only touch `volatile sig_atomic_t` state, and Swift globals give no such guarantee, so the
 * state lives here, in C. It is defined once, in signals.c: a `static` in a header would exist once per module (or,
 * in a debug build, once per Swift file) that includes it, and an optimized build that inlines a function across
 * modules would then install one copy's handler and poll another copy's flag.
 */

/* Replaces SIGINT's default action (terminate) with setting the interrupt flag and writing to a self-pipe.
 * No SA_RESTART: a blocking read fails with EINTR so the editor can give up the line. Returns 0, or -1 (errno). */
int taxpro_install_interrupt_handler(void);

/* Waits until `fd` has input (1), Ctrl-C was pressed (0), another signal interrupted the wait (-2), or an error
 * (-1, errno set). A Ctrl-C that came before the wait began is seen too, through the flag and the pipe. */
int taxpro_wait_for_input(int fd);

/* Whether Ctrl-C was pressed since the flag was last taken (does not clear it). */
int taxpro_interrupt_pending(void);

/* Reads and clears the interrupt flag. */
int taxpro_take_interrupt(void);

/* Sets the interrupt flag as SIGINT would. */
void taxpro_raise_interrupt_flag(void);

/* Records SIGCONT (the process resumed after Ctrl-Z), so the editor can redraw its line. Returns 0, or -1. */
int taxpro_install_continue_handler(void);

/* Reads and clears the resumed flag. */
int taxpro_take_continued(void);

/* The address of the SIGINT handler this library installs, for tests that check it is the one in place. */
void *taxpro_interrupt_handler_address(void);

#endif
