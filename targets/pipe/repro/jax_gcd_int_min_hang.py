"""jax_gcd_int_min_hang.py - jax.numpy.gcd never returns when an operand is its integer dtype's minimum
and the other is odd: int8 gcd(127, -128) loops forever (NumPy: 1; torch: -1).

jax/_src/numpy/lax_numpy.py gcd runs `while_loop(_gcd_cond_fn, _gcd_body_fn, (abs(x1), abs(x2)))`
until every x2 is 0. abs(-128) is -128 in int8, and the body orders each pair as
(where(x1 < x2, x2, x1), where(x1 < x2, x1, x2)): (127, -128) -> (-128, rem(127, -128) = 127) ->
ordered back to (127, -128), so the loop never ends. jnp.lcm calls jnp.gcd and hangs the same way.
This is the "run hung on int8 gcd" of the session-7 notes (mathops/gcd/i8/values).

Run: .venv/targets/bin/python targets/pipe/repro/jax_gcd_int_min_hang.py
Each call runs in a child process with a time limit; exit 0 and "reproduced" when gcd(127, -128)
times out while gcd(-128, 2) returns.
"""
import subprocess
import sys

CHILD = r"""
import sys, jax
jax.config.update("jax_enable_x64", True)
import jax.numpy as jnp, numpy as np
dt = np.dtype(sys.argv[1]); a, b = int(sys.argv[2]), int(sys.argv[3])
r = jnp.gcd(jnp.asarray(np.array([a], dt)), jnp.asarray(np.array([b], dt)))
print(np.asarray(r).tolist(), "NumPy", np.gcd(np.array([a], dt), np.array([b], dt)).tolist())
"""
LIMIT = 120  # seconds: the control call takes a few seconds even on a loaded machine


def run(dtype, a, b):
    try:
        p = subprocess.run([sys.executable, "-c", CHILD, dtype, str(a), str(b)], capture_output=True,
                           text=True, timeout=LIMIT)
        out = p.stdout.strip() or p.stderr.strip().splitlines()[-1]
        print("jnp.gcd(%s [%d], [%d]): %s" % (dtype, a, b, out))
        return True
    except subprocess.TimeoutExpired:
        print("jnp.gcd(%s [%d], [%d]): no answer after %d s (killed)" % (dtype, a, b, LIMIT))
        return False


def main():
    control = run("int8", -128, 2)
    hangs = not run("int8", 127, -128)
    print("reproduced" if control and hangs else "not reproduced")
    return 0 if control and hangs else 1


if __name__ == "__main__":
    sys.exit(main())
