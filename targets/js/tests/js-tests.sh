#!/bin/sh
# js-tests.sh - tests of the JavaScript bridges (targets/js): the protocol module, the ONNX writer, each bridge's start-up.
#
#   sh targets/js/tests/js-tests.sh [BUILD] [PYTHON]     (from the repository root; part of `make test`)
#
# Needs node. The ONNX writer's output is parsed and checked by the onnx Python
# package when PYTHON can import it; the bridges' own checks need the npm
# packages (`make js-bridges`). What is missing is skipped with a line saying
# so. Last line: "N passed, N failed, N skipped".

BUILD=${1:-build}
PY=${2:-/usr/bin/python3}
JS=targets/js
TMP=$(mktemp -d "${TMPDIR:-/tmp}/bcast-js.XXXXXX") || exit 1
trap 'rm -rf "$TMP"' EXIT INT TERM
passed=0 failed=0 skipped=0
ok() { echo "PASS $1"; passed=$((passed + 1)); }
bad() { echo "FAIL $1: $2"; failed=$((failed + 1)); }
skip() { echo "SKIP $1"; skipped=$((skipped + 1)); }
finish() { echo "$passed passed, $failed failed, $skipped skipped"; [ "$failed" -eq 0 ]; exit; }

if ! command -v node >/dev/null 2>&1; then
    skip "every JS test: node is not installed"
    finish
fi

# A library npm has not installed: the protocol's fail handshake, naming the fix; exit 1.
node -e "require('./$JS/bcast_pipe').requireLibrary('bcast-no-such-package')" > "$TMP/out" 2>/dev/null
rc=$?
if [ "$rc" -eq 1 ] && [ "$(head -n 1 "$TMP/out")" = "bcast-pipe 1" ] \
   && grep -q '^fail bcast-no-such-package is not installed: run `make js-bridges` (npm ci --ignore-scripts in targets/js)$' "$TMP/out"; then
    ok "a missing library fails the handshake with what to run"
else
    bad "a missing library fails the handshake with what to run" "exit $rc, output: $(cat "$TMP/out")"
fi

# ... and the pipe target passes that message on (stderr), and init() fails.
if [ -x "$BUILD/bcast-run" ] && [ -f "$BUILD/targets/pipe.so" ]; then
    BCAST_RUN_WORKER_STDERR=1 "$BUILD/bcast-run" --target "$BUILD/targets/pipe.so" \
        --target-arg "node -e \"require('./$JS/bcast_pipe').requireLibrary('bcast-no-such-package')\"" \
        tests/runner/fixtures/basic > /dev/null 2> "$TMP/err"
    rc=$?
    if [ "$rc" -eq 2 ] && grep -q 'the bridge cannot start: bcast-no-such-package is not installed: run `make js-bridges`' "$TMP/err"; then
        ok "the pipe target prints the bridge's fail message"
    else
        bad "the pipe target prints the bridge's fail message" "exit $rc, stderr: $(cat "$TMP/err")"
    fi
else
    skip "the pipe target's fail message: $BUILD/bcast-run or pipe.so not built"
fi

# Grad mode (docs/pipe-protocol.md, "Gradients"): the handshake's grad_ops
# line and the grads reply, end to end through the pipe target: a bridge that
# hands back the incoming gradient unreduced is judged "not reduced".
cat > "$TMP/gradbridge.js" <<'JSEOF'
const bp = require(process.argv[2]);
bp.serve({ name: 'js-grad-test', version: '0', profile: 'torch', ops: ['add'], dtypes: ['f32'], maxRank: 0,
  flags: ['strided'], gradOps: ['add'] }, (c) => {
  const g = c.args[c.args.length - 1];   // the incoming gradient: the result's shape, contiguous here
  return bp.replyGrads([{ index: 0, dtype: g.dtype, shape: g.dims, data: Buffer.from(g.data) }]);
});
JSEOF
if [ -x "$BUILD/bcast-run" ] && [ -f "$BUILD/targets/pipe.so" ]; then
    "$BUILD/bcast-run" --target "$BUILD/targets/pipe.so" --target-arg "node $TMP/gradbridge.js $PWD/$JS/bcast_pipe.js" \
        --id 'grad/add/f32/(2,1)x(1,3)' --no-color tests/runner/fixtures/grad > "$TMP/gout" 2> "$TMP/gerr"
    if grep -q 'not reduced: the gradient has the result' "$TMP/gout"; then
        ok "a JS bridge's grads reply reaches the judge (grad_ops handshake, replyGrads)"
    else
        bad "a JS bridge's grads reply reaches the judge" "$(tail -n 5 "$TMP/gout") $(cat "$TMP/gerr")"
    fi
else
    skip "the JS grads reply: $BUILD/bcast-run or pipe.so not built"
fi

# Shapes: exact extents both ways (2^62 and 2^63-1 are not JavaScript-safe integers).
got=$(node -e "
const bp = require('./$JS/bcast_pipe');
const p = bp.parseShape('(4611686018427387904,9223372036854775807,0)');
process.stderr.write([bp.fmtShape([4611686018427387904, 0]), bp.fmtShape([3]), bp.fmtShape([]),
  p.dims.join(','), bp.fmtShape(p.dims)].join(' '));" 2>&1)
want='(4611686018427387904,0) (3,) () 4611686018427387904,9223372036854775807,0 (4611686018427387904,9223372036854775807,0)'
[ "$got" = "$want" ] && ok "shapes are parsed and written exactly" || bad "shapes are parsed and written exactly" "$got"

# nested(): a stride-0 view too large for node's heap is a RangeError at once (it
# hung the mathjs bridge until the case timed out); small views nest in C order.
got=$(timeout 20 node -e "
const bp = require('./$JS/bcast_pipe');
const small = JSON.stringify([bp.nested({ shape: [2, 3], strides: [3, 1], offset: 0 }, (k) => k),
  bp.nested({ shape: [2, 0], strides: [0, 0], offset: 0 }, (k) => k)]);
try { bp.nested({ shape: [576460752303423488, 1], strides: [0, 0], offset: 0 }, (k) => k);
  process.stderr.write(small + ' built');
} catch (e) { process.stderr.write(small + ' ' + e.name + ' ' + /heap limit/.test(e.message)); }" 2>&1)
[ "$got" = '[[[0,1,2],[3,4,5]],[[],[]]] RangeError true' ] && ok "nested() refuses a view beyond node's heap at once" \
    || bad "nested() refuses a view beyond node's heap at once" "$got"

# Protobuf varints as protobuf encodes them (int64: a negative value in ten bytes).
got=$(node -e "
const { varint } = require('./$JS/onnxruntime/onnx_proto');
process.stderr.write([0, 300, -1n, 9223372036854775807n].map((v) => varint(v).toString('hex')).join(' '));" 2>&1)
[ "$got" = "00 ac02 ffffffffffffffffff01 ffffffffffffffff7f" ] && ok "varints are protobuf's" || bad "varints are protobuf's" "$got"

# The ONNX writer: a model the onnx package parses, whose checker (with type and
# shape inference) accepts it, holding what was written.
if "$PY" -c 'import onnx' 2>/dev/null; then
    node -e "
const onnx = require('./$JS/onnxruntime/onnx_proto');
const m = onnx.model({
  nodes: [onnx.node('Mod', ['a', 'b'], ['m'], { fmod: 1 }), onnx.node('Expand', ['m', 'shape'], ['y'])],
  initializers: [onnx.int64Tensor('shape', [2n, 2n, 3n]), onnx.int64Tensor('neg', [-1n, -9223372036854775808n])],
  inputs: [onnx.valueInfo('a', onnx.ELEM_TYPE.f32, [2n, 1n, 3n]), onnx.valueInfo('b', onnx.ELEM_TYPE.f32, []),
    onnx.valueInfo('c', onnx.ELEM_TYPE.bool, [4611686018427387904n, 0n])],
  outputs: [onnx.valueInfo('y', onnx.ELEM_TYPE.f32, [2n, 2n, 3n])] }, 8, 18);
require('fs').writeFileSync('$TMP/m.onnx', m);"
    if "$PY" - "$TMP/m.onnx" > "$TMP/onnx.out" 2>&1 <<'PYEOF'
import sys
import onnx
from onnx import numpy_helper
m = onnx.load(sys.argv[1])
onnx.checker.check_model(m, full_check=True)
g = m.graph
dims = lambda v: [d.dim_value for d in v.type.tensor_type.shape.dim]
assert (m.ir_version, [(o.domain, o.version) for o in m.opset_import]) == (8, [("", 18)]), m.opset_import
assert [(n.op_type, list(n.input), list(n.output)) for n in g.node] == [
    ("Mod", ["a", "b"], ["m"]), ("Expand", ["m", "shape"], ["y"])]
assert (g.node[0].attribute[0].name, g.node[0].attribute[0].i) == ("fmod", 1)
assert [numpy_helper.to_array(t).tolist() for t in g.initializer] == [[2, 2, 3], [-1, -2**63]]
assert [(v.name, v.type.tensor_type.elem_type, dims(v)) for v in g.input] == [
    ("a", 1, [2, 1, 3]), ("b", 1, []), ("c", 9, [2**62, 0])]
assert [(v.name, v.type.tensor_type.elem_type, dims(v)) for v in g.output] == [("y", 1, [2, 2, 3])]
print("ok")
PYEOF
    then ok "the ONNX writer's model passes onnx.checker and reads back as written"
    else bad "the ONNX writer's model passes onnx.checker and reads back as written" "$(cat "$TMP/onnx.out")"; fi
else
    skip "the ONNX writer check: $PY cannot import onnx (Debian python3-onnx)"
fi

# A STRING attribute (BitShift's direction) as protobuf's AttributeProto: type STRING (3), the bytes in s.
if "$PY" -c 'import onnx' 2>/dev/null; then
    node -e "
const onnx = require('./$JS/onnxruntime/onnx_proto');
require('fs').writeFileSync('$TMP/node.pb', onnx.node('BitShift', ['a', 'b'], ['y'], { direction: 'LEFT' }));"
    if got=$("$PY" -c '
import sys
import onnx
n = onnx.NodeProto.FromString(open(sys.argv[1], "rb").read())
a = n.attribute[0]
print(n.op_type, a.name, a.type == onnx.AttributeProto.STRING, a.s.decode())' "$TMP/node.pb" 2>&1) \
       && [ "$got" = "BitShift direction True LEFT" ]; then
        ok "the ONNX writer's STRING attribute reads back as written"
    else
        bad "the ONNX writer's STRING attribute reads back as written" "$got"
    fi
else
    skip "the ONNX writer's STRING attribute: $PY cannot import onnx (Debian python3-onnx)"
fi

# Each bridge: stdout carries the handshake and nothing else (a library's
# warnings go to stderr), and it runs the fixture cases with some passing and
# nothing crashing.
if [ ! -f "$JS/node_modules/.package-lock.json" ]; then
    skip "the bridges' checks: the npm packages are not installed (make js-bridges)"
    finish
fi
for b in "mathjs_bridge.js" "onnxruntime/onnxruntime_bridge.js" "onnxruntime/onnxruntime_bridge.js variadic" "tfjs/tfjs_bridge.js"; do
    node $JS/$b < /dev/null > "$TMP/hello" 2>/dev/null
    if [ "$(head -n 1 "$TMP/hello")" = "bcast-pipe 1" ] && [ "$(tail -n 1 "$TMP/hello")" = "ready" ] \
       && ! grep -Evq '^(bcast-pipe 1|(name|version|profile|ops|dtypes|max_rank|flags|grad_ops)( .*)?|ready)$' "$TMP/hello"; then
        ok "$b: a clean handshake"
    else
        bad "$b: a clean handshake" "$(cat "$TMP/hello")"
    fi
    if [ -x "$BUILD/bcast-run" ]; then
        last=$("$BUILD/bcast-run" --target "$BUILD/targets/pipe.so" --target-arg "node $JS/$b" \
               tests/runner/fixtures/basic tests/runner/fixtures/real 2>&1 | tail -n 1)
        if printf '%s\n' "$last" | grep -Eq '^[1-9][0-9]* passed' && ! printf '%s\n' "$last" | grep -Eq 'crash|timed out|violation|incomplete'; then
            ok "$b: runs the fixtures ($last)"
        else
            bad "$b: runs the fixtures" "$last"
        fi
    fi
done

# Issue #25's ops (mathops suite): each bridge announces the ones it claims
# (onnxruntime-variadic none), and runs their cases against its expectations
# file with some passing and every failure listed (bcast-run exit 0).
for spec in "mathjs_bridge.js|js-mathjs|atan2 gcd lcm left_shift right_shift float_power" \
            "onnxruntime/onnxruntime_bridge.js|onnxruntime|fmod left_shift right_shift prelu gemm_bias" \
            "tfjs/tfjs_bridge.js|tfjs|atan2 div_floor prelu gemm_bias"; do
    b=${spec%%|*}; rest=${spec#*|}; name=${rest%%|*}; want=${rest#*|}
    ops=$(node $JS/$b < /dev/null 2>/dev/null | sed -n 's/^ops //p')
    miss=""
    for o in $want; do case " $ops " in *" $o "*) ;; *) miss="$miss $o" ;; esac; done
    [ -z "$miss" ] && ok "$name: announces its issue #25 ops ($want)" || bad "$name: announces its issue #25 ops" "missing:$miss in: $ops"
    if [ -x "$BUILD/bcast-run" ] && [ -f cases/mathops.cases ]; then
        opts=""; for o in $want; do opts="$opts --op $o"; done
        # shellcheck disable=SC2086
        last=$("$BUILD/bcast-run" --target "$BUILD/targets/pipe.so" --target-arg "node $JS/$b" --jobs 1 $opts \
               --expectations "targets/pipe/expectations/$name.txt" cases/mathops.cases 2>&1 | tail -n 1)
        if printf '%s\n' "$last" | grep -Eq '^[1-9][0-9]* passed, 0 failed'; then
            ok "$name: its issue #25 ops' cases pass or are listed ($last)"
        else
            bad "$name: its issue #25 ops' cases pass or are listed" "$last"
        fi
    fi
done
vops=$(node $JS/onnxruntime/onnxruntime_bridge.js variadic < /dev/null 2>/dev/null | sed -n 's/^ops //p')
[ "$vops" = "add maximum minimum" ] && ok "onnxruntime-variadic: announces add maximum minimum only" \
    || bad "onnxruntime-variadic: announces add maximum minimum only" "ops: $vops"

# tfjs in grad mode (tf.grads): it announces the grad suite's ops, answers the
# grad fixtures it can run (add on f32 among them), and its answers are judged:
# with GA's expected gradient of x changed, GA fails by value.
GA='grad/add/f32/(2,1)x(1,3)'
node $JS/tfjs/tfjs_bridge.js < /dev/null 2>/dev/null | grep -q '^grad_ops add sub mul div pow maximum minimum where matmul broadcast_to expand$' \
    && ok "tfjs: announces grad_ops" || bad "tfjs: announces grad_ops" "$(node $JS/tfjs/tfjs_bridge.js < /dev/null 2>&1 | head -n 12)"
if [ -x "$BUILD/bcast-run" ]; then
    sed 's/^values 0x1\.8p+0 -0x1\.8p-1$/values 0x1.4p+0 -0x1.8p-1/' tests/runner/fixtures/grad/grad.cases > "$TMP/wrong.cases"
    for f in right:tests/runner/fixtures/grad wrong:"$TMP/wrong.cases"; do
        "$BUILD/bcast-run" --target "$BUILD/targets/pipe.so" --target-arg "node $JS/tfjs/tfjs_bridge.js" \
            --id "$GA" --no-color --format json --output "$TMP/${f%%:*}.json" "${f#*:}" > /dev/null 2>&1
    done
    if msg=$("$PY" tests/runner/results.py check "$TMP/right.json" "$GA=pass" 2>&1) \
       && msg=$("$PY" tests/runner/results.py check "$TMP/wrong.json" "$GA=fail~gradient of x: wrong values" 2>&1); then
        ok "tfjs: answers a grad case, and a wrong expected gradient fails it"
    else
        bad "tfjs: answers a grad case, and a wrong expected gradient fails it" "$msg"
    fi
fi
finish
