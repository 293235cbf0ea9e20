"""hostile_bridge.py - a NumPy bridge with one flaw, for targets/pipe/tests/pipe-tests.sh.

  hostile_bridge.py MODE [PIDFILE]
    crash    op mul: the bridge kills itself with SIGSEGV     -> that case crashes
    raise    op mul: the library raises an exception the bridge does not map
             (bcast_bridge sends `fatal`)                   -> a crash named by its message
    abort    op mul: the library prints an error to stderr and aborts
                                                            -> a crash named by that line
    exit     op mul: sys.exit(3) without replying             -> that case crashes
    garbage  op mul: replies a line that is not the protocol  -> that case crashes
    short    op mul: announces 12 bytes, sends 4 and exits    -> that case crashes
    hang     op sub: never replies                            -> that case times out
    wrote    in-place add: writes self, then reports an error -> self changed (B22 violation)
    badgrads declares grad add; its reply promises 2 gradients and sends a
             byte count that does not match its shape          -> that case crashes
    gradforms  declares grad add and the flag gradforms (B46): answers every grad case
             with an error naming the MODE token it was sent   -> grad-inplace/grad-out seen
    reserve  at start, reserves 16 GiB of address space it never touches (read-only
             private mapping), as WebAssembly engines and JIT compilers do; then serves
    nomem    at start, allocates 8 GiB and writes to it (fails under the runner's limit)
    chatty   at start, writes 300 numbered lines of words to stderr, then exits 1
    slowfirst  the first call of each op and mode sleeps 2 s, as a library that compiles
             on first use does; later calls are fast
    poison   op mul: replies an error ("trap: memory access out of bounds") and leaves the
             library broken: every later case of this bridge fails with that error
             -> one failure for mul, the later ones depend on it (the runner's re-run)
    poisonflag  as poison, but says `broken` before mul's reply: the pipe target
             restarts the bridge, so only mul fails
    flaky    op sub: fails the first time any bridge of the run is asked (PIDFILE
             must be given: the file remembers it), passes afterwards -> nondeterministic
  Every other case goes to numpy_bridge.run. PIDFILE gets the bridge's pid.
"""

import os
import signal
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "bridges"))
import bcast_bridge as bb  # noqa: E402
import numpy_bridge  # noqa: E402

MODE = sys.argv[1]
if len(sys.argv) > 2:
    with open(sys.argv[2], "a") as f:
        f.write("%d\n" % os.getpid())


CALLED = set()
BROKEN = []


def stateful(case):
    """poison, poisonflag, flaky: a reply that depends on what came before, or None."""
    trap = bb.reply_error("other", "trap: memory access out of bounds")
    if MODE in ("poison", "poisonflag") and (BROKEN or case.op == "mul"):
        BROKEN.append(case.op)
        return (bb.reply_broken("the trap left its memory corrupt") if MODE == "poisonflag" else b"") + trap
    if MODE == "flaky" and case.op == "sub":
        with open(sys.argv[2]) as f:
            seen = "flaky-sub" in f.read()
        with open(sys.argv[2], "a") as f:
            f.write("flaky-sub\n")
        return None if seen else bb.reply_error("other", "flaky: failed this time")
    return None


def run(case):
    out = sys.stdout.buffer
    if MODE == "slowfirst" and (case.op, case.mode) not in CALLED:
        CALLED.add((case.op, case.mode))
        time.sleep(2)
    reply = stateful(case)
    if reply is not None:
        return reply
    if case.op == "mul" and MODE == "crash":
        os.kill(os.getpid(), signal.SIGSEGV)
    if case.op == "mul" and MODE == "raise":
        raise LookupError("no kernel 'mul_i32' for this layout")
    if case.op == "mul" and MODE == "abort":
        print("libhostile: internal error: workspace of 'mul_i32' lost", file=sys.stderr, flush=True)
        os.abort()
    if case.op == "mul" and MODE == "exit":
        sys.exit(3)
    if case.op == "mul" and MODE == "garbage":
        return b"hello, this is not the protocol\n"
    if case.op == "mul" and MODE == "short":
        out.write(b"ok i32 (3,) 12\n\0\0\0\0")
        out.flush()
        sys.exit(0)
    if case.op == "sub" and MODE == "hang":
        time.sleep(3600)
    if case.op == "add" and case.mode == "inplace" and MODE == "wrote":
        a = case.args[0]
        n = 1
        for d in a.shape:
            n *= d
        return bb.reply_wrote(a.dtype, a.shape, b"\x07" * (n * 4)) + bb.reply_error("other", "wrote then failed")
    if case.mode.startswith("grad") and MODE == "gradforms":
        return bb.reply_error("other", "saw mode %s" % case.mode)
    if case.mode == "grad" and MODE == "badgrads":
        return b"grads 2\ngrad 0 f32 (2,) 12\n" + b"\0" * 12
    return numpy_bridge.run(case)


def start(mode):
    """The start-up flaws (reserve, nomem, chatty): what a library does before the handshake."""
    if mode == "reserve":
        import mmap
        start.reserved = mmap.mmap(-1, 16 << 30, flags=mmap.MAP_PRIVATE, prot=mmap.PROT_READ)
    if mode == "nomem":
        block = bytearray(8 << 30)      # MemoryError under the limit, as any library's would be
        block[::4096] = b"x" * len(block[::4096])
    if mode == "chatty":
        for i in range(300):
            print("line %d of a long start-up log with several words" % i, file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    start(MODE)
    numpy_bridge.np.seterr(all="ignore")
    bb.serve(bb.Hello("hostile-" + MODE, "0", "numpy", list(numpy_bridge.UFUNC) + ["where", "broadcast_to",
                                                                                  "broadcast_shapes"],
                      bb.NAMES, 0, ("strided", "inplace", "out") + (("compiles",) if MODE == "slowfirst" else ()) +
                      (("gradforms",) if MODE == "gradforms" else ()),
                      grad_ops=("add",) if MODE in ("badgrads", "gradforms") else ()), run)
