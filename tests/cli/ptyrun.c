/*
** ptyrun.c -- drive an interactive program through a pseudo-terminal.
**
**   ptyrun [-t SECONDS] SCRIPT CMD [ARGS...]
**
** Runs CMD on the slave side of a new pty (so isatty() is true and line
** editing is active) and follows SCRIPT, one command per line:
**
**   expect TEXT    wait until TEXT appears in the output after the previous
**                  match (fails after the timeout, default 10 s)
**   send TEXT      type TEXT followed by Return
**   sendraw TEXT   type TEXT only
**   intr           type Ctrl-C
**   eof            type Ctrl-D
**   reject TEXT    fail if TEXT occurs anywhere in the output so far
**   sleep MS       pause
**   wait STATUS    wait for CMD to exit and check its exit status
**   # ...          comment (blank lines are ignored too)
**
** TEXT may use the escapes \n \r \t \\ \xHH; leading blanks after the command
** word are skipped (use \x20 for a leading space).  The whole transcript is
** printed at the end, with control characters made visible; the exit status
** is 0 when every step succeeded.
**
** Synchronise on output, never on time: type only after an 'expect' that
** proves the program waits for that input.  For the mvm REPL that is its
** prompt, drawn only once the terminal is in line-editing mode (cli/repl.c);
** text typed before that goes through the kernel's canonical mode instead
** (echoed twice, and a Ctrl-D there is lost when the mode changes).  Before
** 'intr' meant for a running statement, expect output that the statement
** itself prints.  'sleep' is for pauses that do not need to be exact.
*/
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

static int master = -1;
static pid_t child = -1;
static int child_done = 0, child_status = 0;
static int output_eof = 0;
static char *out = NULL;          /* everything the program wrote */
static size_t outlen = 0, outcap = 0, cursor = 0;
static double timeout_s = 10.0;

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void append(const char *p, size_t n) {
  if (outlen + n + 1 > outcap) {
    outcap = (outlen + n + 1) * 2;
    out = realloc(out, outcap);
    if (out == NULL) { perror("ptyrun"); exit(2); }
  }
  memcpy(out + outlen, p, n);
  outlen += n;
  out[outlen] = '\0';
}

/* read whatever is available within 'ms' milliseconds */
static void pump(int ms) {
  struct pollfd pfd;
  char buf[4096];
  if (output_eof) {
    if (ms > 0) usleep(ms * 1000);
    return;
  }
  pfd.fd = master;
  pfd.events = POLLIN;
  if (poll(&pfd, 1, ms) > 0) {
    ssize_t n = read(master, buf, sizeof buf);
    if (n > 0)
      append(buf, (size_t)n);
    else if (n == 0 || (errno != EINTR && errno != EAGAIN))
      output_eof = 1;   /* EIO: the slave side is closed */
  }
}

static void check_child(int block) {
  if (!child_done) {
    int st;
    pid_t r = waitpid(child, &st, block ? 0 : WNOHANG);
    if (r == child) {
      child_done = 1;
      child_status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
    }
  }
}

static void dump_transcript(void) {
  size_t i;
  fputs("---- transcript ----\n", stdout);
  for (i = 0; i < outlen; i++) {
    unsigned char c = (unsigned char)out[i];
    if (c == '\n' || c == '\t' || (c >= 32 && c < 127) || c >= 128)
      putchar(c);
    else if (c != '\r')
      printf("\\x%02x", c);
  }
  if (outlen > 0 && out[outlen - 1] != '\n')
    putchar('\n');
  fputs("---- end ----\n", stdout);
  fflush(stdout);
}

static void fail(int lineno, const char *fmt, const char *arg) {
  dump_transcript();
  fprintf(stderr, "ptyrun: script line %d: ", lineno);
  fprintf(stderr, fmt, arg);
  fputc('\n', stderr);
  if (!child_done) {
    kill(child, SIGKILL);
    check_child(1);
  }
  exit(1);
}

/* decode escapes in place; returns the length */
static size_t unescape(char *s) {
  char *r = s, *w = s;
  while (*r) {
    if (*r == '\\' && r[1]) {
      r++;
      switch (*r) {
        case 'n': *w++ = '\n'; r++; break;
        case 'r': *w++ = '\r'; r++; break;
        case 't': *w++ = '\t'; r++; break;
        case 'x': {
          char hex[3] = {0, 0, 0};
          if (r[1] && r[2]) {
            hex[0] = r[1]; hex[1] = r[2];
            *w++ = (char)strtol(hex, NULL, 16);
            r += 3;
          } else {
            *w++ = *r++;
          }
          break;
        }
        default: *w++ = *r++; break;
      }
    } else {
      *w++ = *r++;
    }
  }
  *w = '\0';
  return (size_t)(w - s);
}

static void type_text(const char *s, size_t n) {
  while (n > 0) {
    ssize_t k = write(master, s, n);
    if (k < 0) {
      if (errno == EINTR) continue;
      return;   /* the program is gone; later steps will notice */
    }
    s += k;
    n -= (size_t)k;
  }
  pump(20);   /* give the program a moment to react */
}

static void do_expect(int lineno, const char *text, size_t n) {
  double deadline = now() + timeout_s;
  for (;;) {
    if (outlen >= cursor + n) {
      char *hit = memmem(out + cursor, outlen - cursor, text, n);
      if (hit != NULL) {
        cursor = (size_t)(hit - out) + n;
        return;
      }
    }
    if (output_eof)
      fail(lineno, "program ended before printing '%s'", text);
    if (now() > deadline)
      fail(lineno, "timed out waiting for '%s'", text);
    pump(50);
  }
}

static void do_wait(int lineno, int expected) {
  double deadline = now() + timeout_s;
  char msg[64];
  for (;;) {
    pump(20);
    check_child(0);
    if (child_done) break;
    if (now() > deadline)
      fail(lineno, "timed out waiting for the program to exit%s", "");
  }
  while (!output_eof) pump(50);   /* drain remaining output */
  if (child_status != expected) {
    snprintf(msg, sizeof msg, "%d (expected %d)", child_status, expected);
    fail(lineno, "exit status %s", msg);
  }
}

int main(int argc, char **argv) {
  FILE *script;
  char line[4096];
  int lineno = 0, argi = 1;
  struct winsize ws = {24, 80, 0, 0};
  if (argi + 1 < argc && strcmp(argv[argi], "-t") == 0) {
    timeout_s = atof(argv[argi + 1]);
    argi += 2;
  }
  if (argc - argi < 2) {
    fprintf(stderr, "usage: ptyrun [-t SECONDS] SCRIPT CMD [ARGS...]\n");
    return 2;
  }
  script = fopen(argv[argi], "r");
  if (script == NULL) { perror(argv[argi]); return 2; }
  child = forkpty(&master, NULL, NULL, &ws);
  if (child < 0) { perror("forkpty"); return 2; }
  if (child == 0) {
    execvp(argv[argi + 1], argv + argi + 1);
    perror(argv[argi + 1]);
    _exit(127);
  }
  while (fgets(line, sizeof line, script) != NULL) {
    char *cmd = line, *arg;
    size_t n;
    lineno++;
    n = strlen(line);
    while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
      line[--n] = '\0';
    while (*cmd == ' ' || *cmd == '\t') cmd++;
    if (*cmd == '\0' || *cmd == '#') continue;
    arg = cmd;
    while (*arg && *arg != ' ' && *arg != '\t') arg++;
    if (*arg) *arg++ = '\0';
    while (*arg == ' ' || *arg == '\t') arg++;
    n = unescape(arg);
    if (strcmp(cmd, "expect") == 0) {
      do_expect(lineno, arg, n);
    } else if (strcmp(cmd, "reject") == 0) {
      pump(50);
      if (n > 0 && memmem(out, outlen, arg, n) != NULL)
        fail(lineno, "unwanted output '%s'", arg);
    } else if (strcmp(cmd, "send") == 0) {
      type_text(arg, n);
      type_text("\r", 1);
    } else if (strcmp(cmd, "sendraw") == 0) {
      type_text(arg, n);
    } else if (strcmp(cmd, "intr") == 0) {
      type_text("\x03", 1);
    } else if (strcmp(cmd, "eof") == 0) {
      type_text("\x04", 1);
    } else if (strcmp(cmd, "sleep") == 0) {
      double until = now() + atoi(arg) / 1000.0;
      while (now() < until) pump(10);
    } else if (strcmp(cmd, "wait") == 0) {
      do_wait(lineno, atoi(arg));
    } else {
      fail(lineno, "unknown command '%s'", cmd);
    }
  }
  fclose(script);
  /* whatever remains: give the program a moment, then stop it */
  pump(50);
  check_child(0);
  if (!child_done) {
    kill(child, SIGKILL);
    check_child(1);
  }
  dump_transcript();
  return 0;
}
