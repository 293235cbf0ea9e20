"""jax.numpy.power of integer arrays reads only the exponent's low 6 bits.

jax/_src/numpy/ufuncs.py _pow_int_int loops `bits = 6` times ("Anything more would
overflow for any x1 > 1"), so with an array exponent of 64 or more the high bits are
dropped: u8 2 ** 128 gives 2 ** 0 = 1, where NumPy (and torch) wrap to 0. A 0-d
Python/NumPy scalar exponent takes another path (lax.integer_pow) and is right.
Run: .venv/targets/bin/python targets/pipe/repro/jax_int_pow_high_bits.py
"""
import jax

jax.config.update("jax_enable_x64", True)
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402

x = np.array([2, 3, 128, 254], dtype=np.uint8)
y = np.array([128, 128, 128, 128], dtype=np.uint8)
print("x =", x.tolist(), "y =", y.tolist(), "(uint8 arrays)")
print("jax.numpy.power:", np.asarray(jnp.power(jnp.asarray(x), jnp.asarray(y))).tolist())
print("numpy.power:    ", np.power(x, y).tolist())
print("jax, 0-d exponent 128:", np.asarray(jnp.power(jnp.asarray(x), jnp.uint8(128))).tolist())
