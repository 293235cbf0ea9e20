"""bounded.py - runs one command with a wall-clock limit and reports its peak memory.

  bounded.py [--as-mib N] [--timeout S] OUT ERR -- CMD ARGS...

Runs CMD with stdout to OUT and stderr to ERR, killed after S seconds
(default 10). With --as-mib, RLIMIT_AS is set to N MiB in the child first
(not usable under AddressSanitizer, which reserves terabytes of shadow).
Prints one line "rc=R rss_mib=M secs=T" (rc=timeout when killed); peak RSS is
the largest of the command and any of its children (ru_maxrss).
"""
import resource
import subprocess
import sys
import time


def main(argv):
    as_mib, timeout = None, 10.0
    while argv and argv[0].startswith("--") and argv[0] != "--":
        if argv[0] == "--as-mib":
            as_mib = int(argv[1])
        elif argv[0] == "--timeout":
            timeout = float(argv[1])
        else:
            raise SystemExit("bounded.py: unknown option " + argv[0])
        argv = argv[2:]
    if len(argv) < 4 or argv[2] != "--":
        raise SystemExit(__doc__)
    out, err, cmd = argv[0], argv[1], argv[3:]

    def limit():
        if as_mib is not None:
            n = as_mib << 20
            resource.setrlimit(resource.RLIMIT_AS, (n, n))

    start = time.monotonic()
    with open(out, "wb") as fo, open(err, "wb") as fe:
        p = subprocess.Popen(cmd, stdout=fo, stderr=fe, preexec_fn=limit, start_new_session=True)
        try:
            rc = str(p.wait(timeout=timeout))
        except subprocess.TimeoutExpired:
            import os, signal
            os.killpg(p.pid, signal.SIGKILL)
            p.wait()
            rc = "timeout"
    secs = time.monotonic() - start
    rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024
    print("rc=%s rss_mib=%d secs=%.2f" % (rc, rss, secs))


if __name__ == "__main__":
    main(sys.argv[1:])
