"""bcast_bridge.py - the Python side of the pipe protocol (docs/pipe-protocol.md), shared by every Python bridge.

A bridge module builds a Hello (its capabilities) and a handler, and calls
serve(hello, handler). The handler gets one Case at a time and returns the
reply's bytes, built with reply_ok / reply_shape / reply_error / reply_wrote.
This module knows the protocol, not any library: it never looks at values.
"""

import faulthandler
import struct
import sys

NAMES = ("bool", "i8", "u8", "i16", "i32", "i64", "f32", "f64")


class Arg:
    """One operand as sent: dtype name (or '-' for shape-only), shape and
    strides (in elements), offset (in elements, into data), and data: the raw
    little-endian bytes of the storage span the view addresses."""
    __slots__ = ("dtype", "shape", "strides", "offset", "data")

    def __init__(self, dtype, shape, strides, offset, data):
        self.dtype, self.shape, self.strides, self.offset, self.data = dtype, shape, strides, offset, data

    def weak_value(self):
        """B34: the plain Python int/float/bool a weak-scalar arg stands for
        (its dtype is weak-int, weak-float or weak-bool), or None for any other arg."""
        fmt = {"weak-int": "<q", "weak-float": "<d", "weak-bool": "<?"}.get(self.dtype)
        if fmt is None:
            return None
        return struct.unpack_from(fmt, self.data, self.offset * struct.calcsize(fmt))[0]

    def overlaps(self):
        """B9: some element is reachable through two indices (stride 0, extent > 1)."""
        return any(s == 0 and d > 1 for d, s in zip(self.shape, self.strides))


class Case:
    __slots__ = ("op", "mode", "profile", "args", "axis", "target")

    def __init__(self, op, mode, profile, args, axis, target):
        self.op, self.mode, self.profile, self.args, self.axis, self.target = op, mode, profile, args, axis, target


class Hello:
    """What the bridge announces. Declare only documented limits. grad_ops:
    the ops whose gradients the bridge returns (mode `grad`); none by default."""

    def __init__(self, name, version, profile, ops, dtypes, max_rank=0, flags=(), grad_ops=()):
        self.name, self.version, self.profile = name, version, profile
        self.ops, self.dtypes, self.max_rank, self.flags = list(ops), list(dtypes), max_rank, list(flags)
        self.grad_ops = list(grad_ops)


def parse_shape(text):
    """'(2,3)' / '(5,)' / '()' -> tuple of ints."""
    inner = text[1:-1]
    return tuple(int(v) for v in inner.split(",") if v)


def fmt_shape(shape):
    shape = tuple(int(d) for d in shape)
    return "(%s)" % ("%d," % shape[0] if len(shape) == 1 else ",".join(str(d) for d in shape))


def one_line(text):
    """A message fit for the protocol: the first line, whitespace collapsed."""
    lines = str(text).strip().splitlines()
    return " ".join((lines[0] if lines else "").split())


def reply_ok(dtype, shape, data):
    """A result: dtype name (one of NAMES, or the library's own name when it is
    none of them, e.g. 'float16'), shape, and C-order little-endian bytes."""
    return b"ok %s %s %d\n" % (dtype.encode(), fmt_shape(shape).encode(), len(data)) + data


def reply_shape(shape):
    """A shape-only result (broadcast_shapes)."""
    return b"ok - %s 0\n" % fmt_shape(shape).encode()


def reply_error(cls, message):
    """An error of one of the fixed classes (docs/target-abi.md), with the library's text."""
    msg = one_line(message) or cls
    return b"error %s %s\n" % (cls.encode(), msg.encode("ascii", "backslashreplace"))


def reply_grads(grads):
    """Grad mode: the gradients, a list of (input index, dtype name, shape,
    C-order little-endian bytes), one per input the library differentiated."""
    out = [b"grads %d\n" % len(grads)]
    for k, dtype, shape, data in grads:
        out.append(b"grad %d %s %s %d\n" % (k, dtype.encode(), fmt_shape(shape).encode(), len(data)) + data)
    return b"".join(out)


def reply_wrote(dtype, shape, data):
    """Before an error in in-place/out mode: what self/out holds now, if the failed call changed it."""
    return b"wrote %s %s %d\n" % (dtype.encode(), fmt_shape(shape).encode(), len(data)) + data


def reply_broken(reason):
    """Put before a case's reply when the library is no longer usable after
    this case (a trap left its memory corrupt, say): the pipe target answers
    the case with the reply that follows, then restarts the bridge before the
    next case, so no later case pays for this one's damage."""
    return b"broken %s\n" % (one_line(reason) or "no reason given").encode("ascii", "backslashreplace")


def _read_case(inp, header):
    f = header.split(" ")
    if len(f) != 7 or f[0] != "case":
        raise ValueError("bad case line %r" % header)
    op, mode, profile, nargs, axis, target = f[1], f[2], f[3], int(f[4]), int(f[5]), f[6]
    args = []
    for _ in range(nargs):
        line = inp.readline().decode("ascii").rstrip("\n")
        a = line.split(" ")
        if len(a) != 6 or a[0] != "arg":
            raise ValueError("bad arg line %r" % line)
        nbytes = int(a[5])
        data = inp.read(nbytes) if nbytes else b""
        if len(data) != nbytes:
            raise EOFError("input ended inside an arg")
        shape = parse_shape(a[2])
        strides = parse_shape(a[3]) if a[3] != "-" else ()
        args.append(Arg(a[1], shape, strides, int(a[4]), data))
    return Case(op, mode, profile, args, axis, None if target == "-" else parse_shape(target))


def reply_fatal(message):
    """The bridge's last words before it dies: what its library said (one line).
    The pipe target reports the case as a crash named by this text."""
    return b"fatal %s\n" % (one_line(message) or "fatal error").encode("ascii", "backslashreplace")


def _answer(handler, case, out):
    """handler(case), written to out. An exception that escapes the handler
    (one the bridge does not map to an error class) is reported with
    reply_fatal ("TypeName: message") and raised again: the bridge dies with
    its traceback on stderr, and the case is a crash named by the message."""
    try:
        reply = handler(case)
    except Exception as e:
        out.write(reply_fatal("%s: %s" % (type(e).__name__, e)))
        out.flush()
        raise
    out.write(reply)
    out.flush()


def serve(hello, handler):
    """Announces hello, then answers cases until stdin ends. A library that
    kills the process (a segfault, an abort) leaves Python's faulthandler's
    "Fatal Python error: ..." and the Python stack on stderr; an exception that
    escapes the handler is reported as `fatal` (see _answer). Either way the
    pipe target reports the case as a crash."""
    faulthandler.enable(file=sys.stderr, all_threads=False)
    inp, out = sys.stdin.buffer, sys.stdout.buffer
    lines = ["bcast-pipe 1", "name " + hello.name, "version " + hello.version, "profile " + hello.profile,
             "ops " + " ".join(hello.ops), "dtypes " + " ".join(hello.dtypes),
             "max_rank %d" % hello.max_rank, "flags " + " ".join(hello.flags)]
    if hello.grad_ops:
        lines.append("grad_ops " + " ".join(hello.grad_ops))
    lines.append("ready")
    out.write(("\n".join(lines) + "\n").encode())
    out.flush()
    while True:
        header = inp.readline()
        if not header:
            return
        case = _read_case(inp, header.decode("ascii").rstrip("\n"))
        _answer(handler, case, out)


def fail(message):
    """Tells the pipe target the bridge cannot start (e.g. its library is missing)."""
    sys.stdout.buffer.write(b"bcast-pipe 1\nfail %s\n" % one_line(message).encode("ascii", "backslashreplace"))
    sys.stdout.buffer.flush()
    sys.exit(1)
