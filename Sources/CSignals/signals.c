#include "taxpro_signals.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

/* The one copy of the signal state (see the header). */
static volatile sig_atomic_t interrupt_flag = 0;
static volatile sig_atomic_t continue_flag = 0;
/* A pipe the handler writes to, so a wait for input also wakes up for a Ctrl-C that arrives while the reading thread
 * is not yet (or no longer) inside a blocking call: checking the flag and then calling read() would leave a gap in
 * which the signal sets the flag and read() still blocks. Both ends are non-blocking. */
static int interrupt_pipe[2] = {-1, -1};

static void on_interrupt(int signal_number) {
  (void)signal_number;
  interrupt_flag = 1;
  int fd = interrupt_pipe[1];
  if (fd >= 0) {
    int saved = errno;
    ssize_t ignored = write(fd, "!", 1);
    (void)ignored;
    errno = saved;
  }
}

static void on_continue(int signal_number) {
  (void)signal_number;
  continue_flag = 1;
}

/* Runs `handler` for `signal_number`, with no flags (so a read it interrupts fails with EINTR) and nothing masked. */
static int install_handler(int signal_number, void (*handler)(int)) {
  struct sigaction action;
  memset(&action, 0, sizeof action);
  action.sa_handler = handler;
  sigemptyset(&action.sa_mask);
  action.sa_flags = 0;
  return sigaction(signal_number, &action, NULL);
}

/* Whether `flag` was set, clearing it. */
static int take_flag(volatile sig_atomic_t *flag) {
  int pending = *flag != 0;
  *flag = 0;
  return pending;
}

int taxpro_install_interrupt_handler(void) {
  if (interrupt_pipe[0] < 0 && pipe(interrupt_pipe) == 0) {
    for (int i = 0; i < 2; i++) {
      fcntl(interrupt_pipe[i], F_SETFL, fcntl(interrupt_pipe[i], F_GETFL) | O_NONBLOCK);
      fcntl(interrupt_pipe[i], F_SETFD, FD_CLOEXEC);
    }
  }
  return install_handler(SIGINT, on_interrupt);
}

int taxpro_wait_for_input(int fd) {
  for (;;) {
    if (interrupt_flag) return 0;
    struct pollfd fds[2] = {{fd, POLLIN, 0}, {interrupt_pipe[0], POLLIN, 0}};
    int count = poll(fds, interrupt_pipe[0] >= 0 ? 2 : 1, -1);
    if (count < 0) {
      if (errno != EINTR) return -1;
      return interrupt_flag ? 0 : -2;
    }
    if (interrupt_pipe[0] >= 0 && (fds[1].revents & POLLIN)) {
      char drained[64];
      while (read(interrupt_pipe[0], drained, sizeof drained) > 0) {
      }
    }
    if (interrupt_flag) return 0;
    /* Input, or end of input or an error, which the read that follows reports. */
    if (fds[0].revents != 0) return 1;
  }
}

int taxpro_interrupt_pending(void) { return interrupt_flag != 0; }

int taxpro_take_interrupt(void) { return take_flag(&interrupt_flag); }

void taxpro_raise_interrupt_flag(void) { interrupt_flag = 1; }

int taxpro_install_continue_handler(void) { return install_handler(SIGCONT, on_continue); }

int taxpro_take_continued(void) { return take_flag(&continue_flag); }

void *taxpro_interrupt_handler_address(void) { return (void *)on_interrupt; }
