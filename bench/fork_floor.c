/* fork_floor.c - the kernel's floor under a crashed worker: fork a small process, SIGSEGV in it, reap it; N times. */
#define _GNU_SOURCE   /* SA_ONSTACK, sigaltstack */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

/* Records nothing and returns: SA_RESETHAND restored the default action, so
 * the store faults again and the process dies of SIGSEGV (as a worker's
 * fault handler does, after it has classified the fault). */
static void on_fault(int sig, siginfo_t *si, void *uc)
{
    (void)sig;
    (void)si;
    (void)uc;
}

/* The child: a store through NULL, as targets/broken/crash.c does. */
static void crash(void)
{
    volatile int *volatile p = NULL;
    *p = 1;
    _exit(0);
}

/* Usage: fork-floor N. Forks N children one after another, each crashing
 * with SIGSEGV; exit 0 when every one died of SIGSEGV. Time it from outside
 * (bench/isolation_bench.py): wall / N is the floor of one crashed worker. */
int main(int argc, char **argv)
{
    long n = argc == 2 ? strtol(argv[1], NULL, 10) : 0;
    if (n < 1 || n > 10000000) {
        fprintf(stderr, "usage: fork-floor N (N in [1, 10000000])\n");
        return 2;
    }
    struct rlimit rl = { 0, 0 };
    setrlimit(RLIMIT_CORE, &rl);   /* no core dumps, as the runner's workers */
    static char altstack[65536];
    stack_t ss = { .ss_sp = altstack, .ss_size = sizeof altstack, .ss_flags = 0 };
    sigaltstack(&ss, NULL);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_fault;
    sa.sa_flags = (int)(SA_SIGINFO | SA_ONSTACK | SA_RESETHAND);
    sigaction(SIGSEGV, &sa, NULL);
    for (long i = 0; i < n; i++) {
        pid_t p = fork();
        if (p < 0) { perror("fork-floor: fork"); return 1; }
        if (p == 0) crash();
        int st;
        if (waitpid(p, &st, 0) != p || !WIFSIGNALED(st) || WTERMSIG(st) != SIGSEGV) {
            fprintf(stderr, "fork-floor: child %ld did not die of SIGSEGV\n", i);
            return 1;
        }
    }
    return 0;
}
