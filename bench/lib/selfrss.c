/* selfrss: run a command and report the peak RSS of that process alone (not of its
 * children, e.g. the MCP server it spawns), plus its wall time at millisecond resolution.
 *
 *   cc -O2 -o selfrss selfrss.c
 *   selfrss [-o FILE] [-t SECONDS] -- CMD ARGS...
 *
 * Writes one line to FILE (default stderr):
 *   wall_s=W self_hwm_kib=K method=ptrace|poll exit=E ptrace_stops=S
 * and exits with the command's exit status (128+N if it was killed by signal N,
 * 124 if -t expired).
 *
 * Why: GNU time's %M is ru_maxrss of wait4() on its child, and Linux folds into that
 * the ru_maxrss of every descendant the child reaped (signal->cmaxrss), so for a client
 * that spawns and reaps its server it is max(client, server). We want the client alone.
 *
 * How (method=ptrace): the command runs under ptrace with only PTRACE_O_TRACEEXIT (no
 * syscall tracing, children and other threads are not traced, so the only extra cost is
 * a stop per signal delivered to the main thread, counted in ptrace_stops). At PTRACE_EVENT_EXIT the process has
 * not yet released its memory, so /proc/PID/status VmHWM is its final high-water mark --
 * the same number the kernel would report as its own ru_maxrss.
 * If ptrace is not permitted, it falls back to polling VmHWM every 2 ms (method=poll),
 * which can miss growth in the last 2 ms before exit (VmHWM is monotonic, so the result
 * is a lower bound; in practice the peak is reached long before teardown).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t timed_out;
static void on_alarm(int sig) { (void)sig; timed_out = 1; }

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static long read_hwm(pid_t pid) {
  char path[64], line[256];
  snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
  FILE *f = fopen(path, "r");
  if (!f) return -1;
  long kib = -1;
  while (fgets(line, sizeof line, f))
    if (!strncmp(line, "VmHWM:", 6)) { kib = atol(line + 6); break; }
  fclose(f);
  return kib;
}

int main(int argc, char **argv) {
  const char *outpath = NULL;
  int limit = 0, ai = 1;
  for (; ai < argc; ai++) {
    if (!strcmp(argv[ai], "--")) { ai++; break; }
    else if (!strcmp(argv[ai], "-o") && ai + 1 < argc) outpath = argv[++ai];
    else if (!strcmp(argv[ai], "-t") && ai + 1 < argc) limit = atoi(argv[++ai]);
    else break;
  }
  if (ai >= argc) { fprintf(stderr, "usage: %s [-o FILE] [-t SECONDS] -- CMD ARGS...\n", argv[0]); return 2; }

  int use_ptrace = getenv("SELFRSS_POLL") == NULL;
  int sync_pipe[2]; /* the child waits until the parent knows whether ptrace works */
  if (pipe(sync_pipe)) { perror("pipe"); return 2; }
  double t0 = now();
  pid_t pid = fork();
  if (pid < 0) { perror("fork"); return 2; }
  if (pid == 0) {
    close(sync_pipe[1]);
    if (use_ptrace) { /* stop either way; the parent tells a ptrace stop from a plain one */
      if (ptrace(PTRACE_TRACEME, 0, NULL, NULL) != 0) { /* not permitted: plain stop */ }
      raise(SIGSTOP);
    }
    char c;
    if (read(sync_pipe[0], &c, 1) < 0) _exit(127);
    close(sync_pipe[0]);
    execvp(argv[ai], argv + ai);
    fprintf(stderr, "selfrss: %s: %s\n", argv[ai], strerror(errno));
    _exit(127);
  }
  close(sync_pipe[0]);

  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_alarm; /* no SA_RESTART: waitpid returns EINTR */
  sigaction(SIGALRM, &sa, NULL);

  const char *method = "poll";
  int st = 0;
  if (use_ptrace) {
    /* ptrace stop after raise(SIGSTOP), or the child exits/blocks if TRACEME failed */
    pid_t w = waitpid(pid, &st, WUNTRACED);
    if (w == pid && WIFSTOPPED(st) &&
        ptrace(PTRACE_SETOPTIONS, pid, NULL,
               (void *)(long)(PTRACE_O_TRACEEXIT | PTRACE_O_TRACEEXEC | PTRACE_O_EXITKILL)) == 0) {
      method = "ptrace";
      if (write(sync_pipe[1], "g", 1) != 1) { perror("write"); return 2; }
      close(sync_pipe[1]);
      sync_pipe[1] = -1;
      ptrace(PTRACE_CONT, pid, NULL, NULL);
    } else if (w == pid && WIFSTOPPED(st)) {
      kill(pid, SIGCONT); /* plain SIGSTOP without a tracer: fall back to polling */
    }
  }
  if (strcmp(method, "ptrace") != 0 && sync_pipe[1] >= 0) {
    if (write(sync_pipe[1], "g", 1) != 1) { /* child already gone */ }
    close(sync_pipe[1]);
    sync_pipe[1] = -1;
  }
  if (limit > 0) alarm((unsigned)limit);

  long hwm = -1, stops = 0;
  int killed = 0;
  for (;;) {
    if (timed_out && !killed) { kill(pid, SIGKILL); killed = 1; }
    int flags = strcmp(method, "ptrace") == 0 ? 0 : WNOHANG;
    pid_t w = waitpid(pid, &st, flags);
    if (w < 0) {
      if (errno == EINTR) continue;
      perror("waitpid");
      return 2;
    }
    if (w == 0) { /* poll mode, still running */
      long h = read_hwm(pid);
      if (h > hwm) hwm = h;
      struct timespec d = {0, 2000000};
      nanosleep(&d, NULL);
      continue;
    }
    if (WIFEXITED(st) || WIFSIGNALED(st)) break;
    if (WIFSTOPPED(st)) {
      int sig = WSTOPSIG(st), event = st >> 16, inject = 0;
      stops++;
      if (event == PTRACE_EVENT_EXIT) {
        long h = read_hwm(pid);
        if (h > hwm) hwm = h;
      } else if (event == 0 && sig != SIGTRAP) {
        inject = sig; /* an ordinary signal: deliver it */
      }
      ptrace(PTRACE_CONT, pid, NULL, (void *)(long)inject);
    }
  }
  double wall = now() - t0;
  int code = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
  if (killed) code = 124;

  FILE *out = outpath ? fopen(outpath, "a") : stderr;
  if (!out) { perror(outpath); out = stderr; }
  fprintf(out, "wall_s=%.4f self_hwm_kib=%ld method=%s exit=%d ptrace_stops=%ld\n", wall, hwm, method, code, stops);
  if (out != stderr) fclose(out);
  return code;
}
