"""mlx_vjp_eval_hang.py - mx.eval of the vjp of add with a 0-d and an empty float64 operand sometimes never returns.

Stand-alone reproduction (no bcast) of the hang family in targets/pipe/expectations/mlx.txt
(grad/add/f64/()x(0,) and siblings, [nondeterministic outcome]): the vjp of mx.add(x, y), x a
0-d float64 array and y an empty (0,) float64 array, with an empty cotangent, is correct when it
returns (x's gradient [0], y's []), but on MLX 0.32.4's CPU build mx.eval of it hangs now and
then: here in 3 of 4 runs of up to 30,000 repetitions (often within the first 5). torch gives the same gradients and never hangs.

Run: .venv/targets/bin/python targets/pipe/repro/mlx_vjp_eval_hang.py
A watchdog thread gives the loop 30 s (it takes well under 1 s when nothing hangs). Exit 0 and
"reproduced" when an iteration hung; exit 1 when all 30,000 returned (rerun: it is intermittent).
"""

import os
import threading
import time

import mlx.core as mx
import numpy as np

STATE = {"i": 0, "done": False}


def watchdog():
    time.sleep(30)
    if not STATE["done"]:
        print("iteration %d: mx.eval did not return within 30 s (hung); torch: [0.0] and []" % STATE["i"])
        print("reproduced", flush=True)
        os._exit(0)


def main():
    threading.Thread(target=watchdog, daemon=True).start()
    grads = None
    for i in range(30000):
        STATE["i"] = i
        x = mx.array(np.array(1.5), dtype=mx.float64)
        y = mx.array(np.zeros(0), dtype=mx.float64)
        g = mx.array(np.zeros(0), dtype=mx.float64)
        _, grads = mx.vjp(lambda a, b: mx.add(a, b), [x, y], [g])
        mx.eval(grads)
    STATE["done"] = True
    print("30000 evaluations returned (last: %s, %s); not reproduced this time" % tuple(v.tolist() for v in grads))
    os._exit(1)


if __name__ == "__main__":
    main()
