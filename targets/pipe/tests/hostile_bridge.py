"""hostile_bridge.py - a NumPy bridge with one flaw, for targets/pipe/tests/pipe-tests.sh.

  hostile_bridge.py MODE [PIDFILE]
    crash    op mul: the bridge kills itself with SIGSEGV     -> that case crashes
    exit     op mul: sys.exit(3) without replying             -> that case crashes
    garbage  op mul: replies a line that is not the protocol  -> that case crashes
    short    op mul: announces 12 bytes, sends 4 and exits    -> that case crashes
    hang     op sub: never replies                            -> that case times out
    wrote    in-place add: writes self, then reports an error -> self changed (B22 violation)
    badgrads declares grad add; its reply promises 2 gradients and sends a
             byte count that does not match its shape          -> that case crashes
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


def run(case):
    out = sys.stdout.buffer
    if case.op == "mul" and MODE == "crash":
        os.kill(os.getpid(), signal.SIGSEGV)
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
    if case.mode == "grad" and MODE == "badgrads":
        return b"grads 2\ngrad 0 f32 (2,) 12\n" + b"\0" * 12
    return numpy_bridge.run(case)


if __name__ == "__main__":
    numpy_bridge.np.seterr(all="ignore")
    bb.serve(bb.Hello("hostile-" + MODE, "0", "numpy", list(numpy_bridge.UFUNC) + ["where", "broadcast_to",
                                                                                  "broadcast_shapes"],
                      bb.NAMES, 0, ("strided", "inplace", "out"),
                      grad_ops=("add",) if MODE == "badgrads" else ()), run)
