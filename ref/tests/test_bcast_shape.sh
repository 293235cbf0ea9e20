#!/bin/sh
# test_bcast_shape.sh - runs bcast-shape as a program: output format and exit
# codes 0 (result), 1 (rule error, "error: <class>: <message>"), 2 (bad usage).
# Usage: sh ref/tests/test_bcast_shape.sh PATH/TO/bcast-shape
BIN=${1:?usage: test_bcast_shape.sh PATH/TO/bcast-shape}
passed=0; failed=0

# expect NAME WANT_RC WANT_STDOUT_PREFIX ARGS...  (stdout compared by prefix; "" skips)
expect() {
    name=$1; want_rc=$2; want_out=$3; shift 3
    out=$("$BIN" "$@" 2>/tmp/bcast-shape-err.$$); rc=$?
    err=$(cat /tmp/bcast-shape-err.$$); rm -f /tmp/bcast-shape-err.$$
    ok=1
    [ "$rc" -eq "$want_rc" ] || ok=0
    case "$out" in "$want_out"*) ;; *) ok=0 ;; esac
    if [ "$want_rc" -eq 2 ]; then
        [ -z "$out" ] || ok=0
        case "$err" in *usage:*) ;; *) ok=0 ;; esac
    fi
    if [ $ok -eq 1 ]; then passed=$((passed + 1)); else
        failed=$((failed + 1))
        echo "FAIL $name: bcast-shape $* -> rc $rc, stdout '$out', stderr '$err'; wanted rc $want_rc, stdout '$want_out...'"
    fi
}

# B1-B3, with the seeds' own examples
expect seed_torch_note 0 "(5,3,4,1)" broadcast "(5,1,4,1)" "(3,1,1)"
expect one_vs_3d 0 "(3,1,7)" broadcast "(1)" "(3,1,7)"
expect spaces_ok 0 "(8,7,6,5)" broadcast "( 8, 1, 6, 1 )" "(7,1,5)"
expect mismatch 1 "error: not-broadcastable: " broadcast "(5,2,4,1)" "(3,1,1)"
expect zero_vs_two 1 "error: not-broadcastable: " broadcast "(0,)" "(2,2)"
expect zero_args 0 "()" broadcast
expect one_arg 0 "(3,)" broadcast "(3,)"
expect three_args 0 "(3,2,4)" broadcast "(3,1,1)" "(1,2,1)" "(4,)"
expect scalar 0 "()" broadcast "()" "()"
# B4: any number of shapes (no operand limit): 70 x (1,3) and one more
many=$(i=0; while [ $i -lt 70 ]; do printf '(1,3) '; i=$((i + 1)); done)
expect many_shapes 0 "(2,3)" broadcast $many "(2,1)"
expect many_shapes_mismatch 1 "error: not-broadcastable: " broadcast $many "(2,4)"
expect negative 1 "error: invalid-shape: " broadcast "(-1,)" "(3,)"
# exact output: nothing after the shape
out=$("$BIN" broadcast "(4,1)" "(4,)")
if [ "$out" = "(4,4)" ]; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL exact_output: '$out'"; fi
# B5-B13 kinds
expect broadcast_to 0 "(2,3)" broadcast_to "(3,)" "(2,3)"
expect broadcast_to_neg 1 "error: invalid-shape: " broadcast_to "(3,)" "(-1,3)"
expect expand_keep 0 "(3,4)" expand "(3,1)" "(-1,4)"
expect expand_lead 1 "error: invalid-shape: " expand "(3,1)" "(-1,3,4)"
expect inplace_ok 0 "(5,3,4,1)" inplace "(5,3,4,1)" "(3,1,1)"
expect inplace_seed 1 "error: inplace-shape: " inplace "(1,3,1)" "(3,1,7)"
expect matmul_1d 0 "(2,4)" matmul "(3,)" "(2,3,4)"
expect matmul_core 1 "error: matmul-core: " matmul "(2,3)" "(4,2)"
expect where 0 "(3,2,4)" where "(3,1,1)" "(1,2,1)" "(4,)"
expect paddle_axis 0 "(2,3,4)" paddle_axis "(2,1,4)" "(3,1)" --axis 1
expect paddle_axis_err 1 "error: not-broadcastable: " paddle_axis "(2,3,4,5)" "(4,5)" --axis 1
expect paddle_axis_range 1 "error: axis: " paddle_axis "(2,3)" "(3,)" --axis 2
expect onnx_uni 0 "(2,3,4,5)" onnx_uni "(2,3,4,5)" "(4,1)"
expect onnx_uni_err 1 "error: invalid-shape: " onnx_uni "(4,1)" "(2,3,4,5)"
expect onnx_uni_mismatch 1 "error: not-broadcastable: " onnx_uni "(2,3,4,5)" "(3,1)"
# B15: profiles
expect rank33_torch 0 "(" broadcast "(1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1)" --profile torch
expect rank33_numpy 1 "error: rank-limit: " broadcast "(1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1)" --profile numpy
# malformed arguments: usage, exit 2
expect no_kind 2 ""
expect bad_kind 2 "" frobnicate "(1,)"
expect bad_shape 2 "" broadcast "(3"
expect bad_shape2 2 "" broadcast "3,4"
expect wrong_arity 2 "" broadcast_to "(3,)"
expect wrong_arity_where 2 "" where "(3,)" "(3,)"
expect missing_axis 2 "" paddle_axis "(2,3)" "(3,)"
expect axis_no_value 2 "" paddle_axis "(2,3)" "(3,)" --axis
expect axis_bad_value 2 "" paddle_axis "(2,3)" "(3,)" --axis x
expect bad_profile 2 "" broadcast "(3,)" --profile jax
expect axis_wrong_kind 2 "" broadcast "(3,)" --axis 1

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
