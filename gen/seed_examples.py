"""seed_examples.py - every example in /work/shared/seeds/*.txt, as data, for the `seeds` suite.

The seeds are the web pages bcast started from (Chinese/English blog posts
and doc copies about NumPy, PyTorch and Paddle broadcasting; see
shared/seeds/README.md). This module lists each example they give, once,
with what the page claims happens. The gen/ helper turns every entry into one
or more cases of suite `seeds`; the expectation of each case comes from the
oracles (NumPy, torch, or the rule through NumPy for `axis`), never from
`claim`. A claim the libraries contradict is a finding, reported in
docs/semantics.md, not an expectation. Pure data: no imports.

The list is EXAMPLES, in seed order. Fields of each entry (a dict):

  name    unique, stable, short id for the case ids, "<seed number>-<what>",
          e.g. "004-add-5x1x4x1-3x1x1". No spaces.
  seed    the seed file name, e.g. "002_c0c45104e60d0508.txt".
  quote   the relevant line(s) copied from the seed (shortened with "...";
          line breaks of the page's clutter joined).
  kind    what to run:
            "broadcast"  element-wise binary `op` on operands of `shapes`;
                         values are the generator's choice.
            "values"     the same, but the seed gives the operand values:
                         `values` holds them.
            "inplace"    shapes[0] is self, shapes[1] the other operand;
                         `self op= other` (torch x.add_(y), NumPy x += y).
            "axis"       legacy axis op (bcast op `axis_add`, Paddle's
                         elementwise_add(x, y, axis)); `axis` is set.
            "matmul"     matmul of shapes[0] and shapes[1].
            "dot"        np.dot of shapes[0] and shapes[1] (2-D here, where
                         np.dot is the matrix product: bcast op `matmul`).
  shapes  list of operand shapes (tuples; () is 0-d), in argument order.
  axis    the axis for kind "axis", else None.
  op      bcast op name (docs/case-format.md): "add", "mul", "matmul", ...
          For a shape table that names no op, "add".
  dtype   bcast dtype name of the operands as the seed creates them:
          torch.empty/ones/randn/FloatTensor -> "f32"; np.ones/np.zeros ->
          "f64"; np.arange/torch.arange/integer literals -> "i64";
          np.ones(..., np.float32) (Paddle) -> "f32".
  claim   what the seed says happens, as text: a result shape like
          "(5,3,4,1)", or "error" plus the reason or message it gives, or the
          values it prints.
  values  only for kind "values": one entry per operand, each a nested list
          of the operand's values in C order (a bare number for a 0-d
          operand). The lists match `shapes`.
  note    optional: what the seed gets wrong or leaves out, and how the entry
          resolves it.
"""

SEED_000 = "000_8c9be0f52ff6e594.txt"
SEED_001 = "001_b1405edd648d4920.txt"
SEED_002 = "002_c0c45104e60d0508.txt"
SEED_003 = "003_99cd77f0ec50d63c.txt"
SEED_004 = "004_615a1202316d565b.txt"

EXAMPLES = [
    # ---- 000: PyTorch/NumPy broadcasting explained via np.tile -------------
    dict(name="000-mul-6-2x6", seed=SEED_000,
         quote="a = torch.arange(0,6).reshape((6,)) ... b = torch.arange(0,12).reshape((2,6)) ... "
               "res = torch.mul(a,b) '''tensor([[ 0, 1, 4, 9, 16, 25], [ 0, 7, 16, 27, 40, 55]])'''",
         kind="values", shapes=[(6,), (2, 6)], axis=None, op="mul", dtype="i64",
         claim="(2,6) [[0,1,4,9,16,25],[0,7,16,27,40,55]]",
         values=[[0, 1, 2, 3, 4, 5],
                 [[0, 1, 2, 3, 4, 5], [6, 7, 8, 9, 10, 11]]]),
    dict(name="000-add-1x9x4-15x1x4-text", seed=SEED_000,
         quote="運算結果的shape是:a.shape和b.shape對應位置的最大值,比如:a.shape=(1,9,4),b.shape=(15,1,4),"
               "那麼a+b的shape是(15,9,4)",
         kind="broadcast", shapes=[(1, 9, 4), (15, 1, 4)], axis=None, op="add", dtype="i64",
         claim="(15,9,4)",
         note="The page's general statement ('the result is the per-dimension maximum') is wrong "
              "for 0 against 1 (B2); this example has no 0."),
    dict(name="000-add-2x2x3x4-3x4", seed=SEED_000,
         quote="# a.shape=(2,2,3,4) a = np.arange(1,49).reshape((2,2,3,4)) # b.shape=(3,4) "
               "b = np.arange(1,13).reshape((3,4)) # numpy會將b.shape調整至(2,2,3,4), 這一步相當於numpy"
               "自動實現np.tile(b,[2,2,1,1]) res = a + b ... print(a+b == a + np.tile(b,[2,2,1,1]))",
         kind="values", shapes=[(2, 2, 3, 4), (3, 4)], axis=None, op="add", dtype="i64",
         claim="(2,2,3,4), equal to a + np.tile(b,[2,2,1,1])",
         values=[[[[[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]],
                   [[13, 14, 15, 16], [17, 18, 19, 20], [21, 22, 23, 24]]],
                  [[[25, 26, 27, 28], [29, 30, 31, 32], [33, 34, 35, 36]],
                   [[37, 38, 39, 40], [41, 42, 43, 44], [45, 46, 47, 48]]]],
                 [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]]]),
    dict(name="000-add-4x3-4x1", seed=SEED_000,
         quote="# a.shape=(4,3) a = np.arange(12).reshape(4,3)# b.shape=(4,1) b = np.arange(4).reshape(4,1)"
               "# numpy會將b.shape調整至(4,3), 這一步相當於numpy自動實現np.tile(b,[1,3]) res = a + b ... "
               "# 列印結果都是true",
         kind="values", shapes=[(4, 3), (4, 1)], axis=None, op="add", dtype="i64",
         claim="(4,3), equal to a + np.tile(b,[1,3])",
         values=[[[0, 1, 2], [3, 4, 5], [6, 7, 8], [9, 10, 11]],
                 [[0], [1], [2], [3]]]),
    dict(name="000-add-1x9x4-15x1x4", seed=SEED_000,
         quote="# a.shape=(1,9,4) a = np.arange(1,37).reshape((1,9,4))# b.shape=(15,1,4) "
               "b = np.arange(1,61).reshape((15,1,4))res = a + b ... "
               "q = np.tile(a,[15,1,1])+ np.tile(b,[1,9,1]) print(q == res) # 列印結果都是true",
         kind="values", shapes=[(1, 9, 4), (15, 1, 4)], axis=None, op="add", dtype="i64",
         claim="(15,9,4), equal to np.tile(a,[15,1,1]) + np.tile(b,[1,9,1])",
         values=[[[[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12], [13, 14, 15, 16], [17, 18, 19, 20],
                   [21, 22, 23, 24], [25, 26, 27, 28], [29, 30, 31, 32], [33, 34, 35, 36]]],
                 [[[1, 2, 3, 4]], [[5, 6, 7, 8]], [[9, 10, 11, 12]], [[13, 14, 15, 16]],
                  [[17, 18, 19, 20]], [[21, 22, 23, 24]], [[25, 26, 27, 28]], [[29, 30, 31, 32]],
                  [[33, 34, 35, 36]], [[37, 38, 39, 40]], [[41, 42, 43, 44]], [[45, 46, 47, 48]],
                  [[49, 50, 51, 52]], [[53, 54, 55, 56]], [[57, 58, 59, 60]]]]),
    dict(name="000-mul-2x3-2x3-clutter", seed=SEED_000,
         quote="numpy兩個陣列的相加 相減以及相乘都是對應元素之間的操作。import numpy as np "
               "x np.array 2,2,3 1,2,3 y np.array 1,1,3 2,2,4 print x y numpy當中的陣列相乘是對應元素的乘積",
         kind="values", shapes=[(2, 3), (2, 3)], axis=None, op="mul", dtype="i64",
         claim="element-wise products (the page's output is cut off)",
         values=[[[2, 2, 3], [1, 2, 3]], [[1, 1, 3], [2, 2, 4]]],
         note="Page clutter with its punctuation stripped; read as x = np.array([[2,2,3],[1,2,3]]), "
              "y = np.array([[1,1,3],[2,2,4]]), print(x*y) (the text speaks of products)."),

    # ---- 001: NumPy broadcasting rules, shape tables, dot vs element-wise ---
    dict(name="001-add-0d-0d", seed=SEED_001,
         quote="a1 = 1 ,a2 = 2,a1,a2是0维张量,即标量 ... a1与a2之间可以进行加减乘除",
         kind="values", shapes=[(), ()], axis=None, op="add", dtype="i64",
         claim="allowed (0-d operands can be added, subtracted, multiplied and divided)",
         values=[1, 2],
         note="The page's vectors b1, b2 and matrices c1, c2 were images; only the scalars survive."),
    dict(name="001-dot-3x4-5x6", seed=SEED_001,
         quote="A = np.zeros((3,4)) B = np.zeros((5,6)) print(np.dot(A, B))报错如下: ... "
               "并没有显示 broadcast的错误,说明dot ... 并不能运用广播机制",
         kind="dot", shapes=[(3, 4), (5, 6)], axis=None, op="matmul", dtype="f64",
         claim="error, and not a broadcasting error",
         note="np.dot's message is 'shapes (3,4) and (5,6) not aligned: 4 (dim 1) != 5 (dim 0)'; "
              "for 2-D operands np.dot is matmul, whose class here is matmul-core (B13)."),
    dict(name="001-mul-2x4-3x4", seed=SEED_001,
         quote="A = np.zeros((2,4)) B = np.zeros((3,4)) C = A*B报错如下: ... 这种是逐元素相乘,会运用广播机制,"
               "只不过,此时当前两个元素的维度不能广播,所以报错。",
         kind="broadcast", shapes=[(2, 4), (3, 4)], axis=None, op="mul", dtype="f64",
         claim="error: the shapes cannot be broadcast"),
    dict(name="001-add-256x256x3-3", seed=SEED_001,
         quote="Image (3d array): 256 x 256 x 3 / Scale (1d array): 3 / Result (3d array): 256 x 256 x 3",
         kind="broadcast", shapes=[(256, 256, 3), (3,)], axis=None, op="add", dtype="f64",
         claim="(256,256,3)"),
    dict(name="001-add-8x1x6x1-7x1x5", seed=SEED_001,
         quote="A (4d array): 8 x 1 x 6 x 1 / B (3d array): 7 x 1 x 5 / Result (4d array): 8 x 7 x 6 x 5",
         kind="broadcast", shapes=[(8, 1, 6, 1), (7, 1, 5)], axis=None, op="add", dtype="f64",
         claim="(8,7,6,5)"),
    dict(name="001-add-5x4-1", seed=SEED_001,
         quote="A (2d array): 5 x 4 / B (1d array): 1 / Result (2d array): 5 x 4",
         kind="broadcast", shapes=[(5, 4), (1,)], axis=None, op="add", dtype="f64",
         claim="(5,4)"),
    dict(name="001-add-15x3x5-15x1x5", seed=SEED_001,
         quote="A (2d array): 15 x 3 x 5 / B (1d array): 15 x 1 x 5 / Result (2d array): 15 x 3 x 5",
         kind="broadcast", shapes=[(15, 3, 5), (15, 1, 5)], axis=None, op="add", dtype="f64",
         claim="(15,3,5)",
         note="The page labels these 3-D shapes '2d array' and '1d array' (copy slip); NumPy's "
              "page, which it copies, lists three more examples the seed dropped."),
    dict(name="001-add-3-4", seed=SEED_001,
         quote="A (1d array): 3 / B (1d array): 4 # 最后一维(trailing dimension)不匹配",
         kind="broadcast", shapes=[(3,), (4,)], axis=None, op="add", dtype="f64",
         claim="error: trailing dimensions do not match"),
    dict(name="001-add-2x1-8x4x3", seed=SEED_001,
         quote="A (2d array): 2 x 1 / B (3d array): 8 x 4 x 3(倒数第二维不匹配)",
         kind="broadcast", shapes=[(2, 1), (8, 4, 3)], axis=None, op="add", dtype="f64",
         claim="error: second from last dimensions mismatched"),

    # ---- 002: PyTorch: right-align, pad with 1, operate dim by dim ----------
    dict(name="002-add-3x1-3x1x3", seed=SEED_002,
         quote="a = torch.tensor([[1],[2],[3],]) b = torch.tensor([[[1, 2, 3],],[[4, 5, 6],],[[7, 8, 9],],]) "
               "# a.shape = (3, 1) # b.shape = (3, 1, 3) ... a(1, 3, 1) b(3, 1, 3) ... 例如计算 a + b",
         kind="values", shapes=[(3, 1), (3, 1, 3)], axis=None, op="add", dtype="i64",
         claim="(3,3,3): element [i][j][k] is a[0][j][0] + b[i][0][k] (a aligned to (1,3,1))",
         values=[[[1], [2], [3]],
                 [[[1, 2, 3]], [[4, 5, 6]], [[7, 8, 9]]]]),
    dict(name="002-add-tensor0-2x2", seed=SEED_002,
         quote="tensor 至少有一个维度(比如 torch.tensor((0,)) 便不符合本要求)",
         kind="broadcast", shapes=[(1,), (2, 2)], axis=None, op="add", dtype="i64",
         claim="error: torch.tensor((0,)) has no dimension, so it does not broadcast",
         note="torch.tensor((0,)) is a 1-D tensor holding one element, 0: shape (1,), which "
              "broadcasts with anything. The seed paraphrases the torch note's torch.empty((0,)) "
              "example (shape (0,), entry 004-add-0-2x2); the partner (2,2) is taken from it."),
    dict(name="002-add-1-2-symbolic", seed=SEED_002,
         quote="右对齐,空补一,从左往右依维运算 [m] + [x, y] = [m +x, m + y]",
         kind="broadcast", shapes=[(1,), (2,)], axis=None, op="add", dtype="i64",
         claim="(2,): [m+x, m+y]"),
    dict(name="002-add-1-3", seed=SEED_002,
         quote="一个 tensor 的某个维度大小为 1 时的计算规则:[1] + [2, 3, 4] = [1 + 2, 1 + 3, 1 + 4]",
         kind="values", shapes=[(1,), (3,)], axis=None, op="add", dtype="i64",
         claim="(3,) [3,4,5]",
         values=[[1], [2, 3, 4]]),

    # ---- 003: PaddlePaddle 2.0 broadcasting, elementwise_add with axis ------
    dict(name="003-add-2x3x4-2x3x4", seed=SEED_003,
         quote="x = paddle.to_tensor(np.ones((2, 3, 4), np.float32)) y = paddle.to_tensor(np.ones((2, 3, 4), "
               "np.float32)) # 两个张量 形状一致,可以广播",
         kind="broadcast", shapes=[(2, 3, 4), (2, 3, 4)], axis=None, op="add", dtype="f32",
         claim="broadcastable (same shapes)"),
    dict(name="003-add-2x3x1x5-3x4x1", seed=SEED_003,
         quote="x = ... np.ones((2, 3, 1, 5) ... y = ... np.ones((3, 4, 1) ... # 第一次:y的维度大小是1 "
               "# 第二次:x的维度大小是1 # 第三次:x和y的维度大小相等 # 第四次:y的维度不存在 # 所以 x和y是可以广播的",
         kind="broadcast", shapes=[(2, 3, 1, 5), (3, 4, 1)], axis=None, op="add", dtype="f32",
         claim="broadcastable (result (2,3,4,5), not stated)"),
    dict(name="003-add-2x3x4-2x3x6", seed=SEED_003,
         quote="x = ... np.ones((2, 3, 4) ... y = ... np.ones((2, 3, 6) ... # 此时x和y是不可广播的,因为第一次比较 4不等于6",
         kind="broadcast", shapes=[(2, 3, 4), (2, 3, 6)], axis=None, op="add", dtype="f32",
         claim="error: 4 != 6 in the first comparison"),
    dict(name="003-add-2x1x4-3x1", seed=SEED_003,
         quote="x = ... np.ones((2, 1, 4) ... y = ... np.ones((3, 1) ... z = x + y print(z.shape) # z的形状: [2,3,4]",
         kind="broadcast", shapes=[(2, 1, 4), (3, 1)], axis=None, op="add", dtype="f32",
         claim="(2,3,4)"),
    dict(name="003-add-2x1x4-3x2", seed=SEED_003,
         quote="x = ... np.ones((2, 1, 4) ... y = ... np.ones((3, 2) ... z = x + y print(z.shape) "
               "# InvalidArgumentError: Broadcast dimension mismatch.",
         kind="broadcast", shapes=[(2, 1, 4), (3, 2)], axis=None, op="add", dtype="f32",
         claim="error: InvalidArgumentError: Broadcast dimension mismatch."),
    dict(name="003-axis1-2x1x4-3x1", seed=SEED_003,
         quote="x = ... np.ones((2, 1, 4) ... y = ... np.ones((3, 1) ... z = paddle.elementwise_add(x, y, axis=1) "
               "# z的形状 [2, 3, 4]",
         kind="axis", shapes=[(2, 1, 4), (3, 1)], axis=1, op="axis_add", dtype="f32",
         claim="(2,3,4)"),
    dict(name="003-axis1-2x3x4x5-4x5", seed=SEED_003,
         quote="x = ... np.ones((2, 3, 4, 5) ... y = ... np.ones((4, 5) ... z = paddle.elementwise_add(x, y, axis=1) "
               "# InvalidArgumentError: Broadcast dimension mismatch. # 因为指定了axis之后,计算广播的维度从axis开始从前向后比较",
         kind="axis", shapes=[(2, 3, 4, 5), (4, 5)], axis=1, op="axis_add", dtype="f32",
         claim="error: InvalidArgumentError: Broadcast dimension mismatch."),
    dict(name="003-axis1-2x3x4x5-3", seed=SEED_003,
         quote="x = ... np.ones((2, 3, 4, 5) ... y = ... np.ones((3), np.float32)) z = paddle.elementwise_add(x, y, "
               "axis=1) # z的形状 [2, 3, 4, 5] # 因为此时是从axis=1的维度开始,从前向后比较维度进行广播",
         kind="axis", shapes=[(2, 3, 4, 5), (3,)], axis=1, op="axis_add", dtype="f32",
         claim="(2,3,4,5)"),

    # ---- 004: PyTorch "Broadcasting semantics" (Chinese and English copies) --
    # Each example appears twice on the page (Chinese, then English); one entry each.
    dict(name="004-add-5x7x3-5x7x3", seed=SEED_004,
         quote=">>> x=torch.empty(5,7,3) >>> y=torch.empty(5,7,3) # same shapes are always broadcastable",
         kind="broadcast", shapes=[(5, 7, 3), (5, 7, 3)], axis=None, op="add", dtype="f32",
         claim="broadcastable (same shapes)"),
    dict(name="004-add-0-2x2", seed=SEED_004,
         quote=">>> x=torch.empty((0,)) >>> y=torch.empty(2,2) "
               "# x and y are not broadcastable, because x does not have at least 1 dimension",
         kind="broadcast", shapes=[(0,), (2, 2)], axis=None, op="add", dtype="f32",
         claim="error: x does not have at least 1 dimension",
         note="The outcome (error) is right, the reason is not: (0,) is 1-D; it fails because "
              "0 != 2 (B3). The current torch note says so."),
    dict(name="004-add-5x3x4x1-3x1x1", seed=SEED_004,
         quote=">>> x=torch.empty(5,3,4,1) >>> y=torch.empty(  3,1,1) # x and y are broadcastable.",
         kind="broadcast", shapes=[(5, 3, 4, 1), (3, 1, 1)], axis=None, op="add", dtype="f32",
         claim="broadcastable (result (5,3,4,1), not stated)"),
    dict(name="004-add-5x2x4x1-3x1x1", seed=SEED_004,
         quote=">>> x=torch.empty(5,2,4,1) >>> y=torch.empty(  3,1,1) "
               "# x and y are not broadcastable, because in the 3rd trailing dimension 2 != 3",
         kind="broadcast", shapes=[(5, 2, 4, 1), (3, 1, 1)], axis=None, op="add", dtype="f32",
         claim="error: in the 3rd trailing dimension 2 != 3"),
    dict(name="004-add-5x1x4x1-3x1x1", seed=SEED_004,
         quote=">>> x=torch.empty(5,1,4,1) >>> y=torch.empty(  3,1,1) >>> (x+y).size() torch.Size([5, 3, 4, 1])",
         kind="broadcast", shapes=[(5, 1, 4, 1), (3, 1, 1)], axis=None, op="add", dtype="f32",
         claim="(5,3,4,1)"),
    dict(name="004-add-1-3x1x7", seed=SEED_004,
         quote=">>> x=torch.empty(1) >>> y=torch.empty(3,1,7) >>> (x+y).size() torch.Size([3, 1, 7])",
         kind="broadcast", shapes=[(1,), (3, 1, 7)], axis=None, op="add", dtype="f32",
         claim="(3,1,7)"),
    dict(name="004-add-5x2x4x1-3x1x1-message", seed=SEED_004,
         quote=">>> x=torch.empty(5,2,4,1) >>> y=torch.empty(3,1,1) >>> (x+y).size() RuntimeError: The size of "
               "tensor a (2) must match the size of tensor b (3) at non-singleton dimension 1",
         kind="broadcast", shapes=[(5, 2, 4, 1), (3, 1, 1)], axis=None, op="add", dtype="f32",
         claim="error: RuntimeError: The size of tensor a (2) must match the size of tensor b (3) "
               "at non-singleton dimension 1"),
    dict(name="004-inplace-5x3x4x1-3x1x1", seed=SEED_004,
         quote=">>> x=torch.empty(5,3,4,1) >>> y=torch.empty(3,1,1) >>> (x.add_(y)).size() torch.Size([5, 3, 4, 1])",
         kind="inplace", shapes=[(5, 3, 4, 1), (3, 1, 1)], axis=None, op="add", dtype="f32",
         claim="(5,3,4,1)"),
    dict(name="004-inplace-1x3x1-3x1x7", seed=SEED_004,
         quote=">>> x=torch.empty(1,3,1) >>> y=torch.empty(3,1,7) >>> (x.add_(y)).size() RuntimeError: The "
               "expanded size of the tensor (1) must match the existing size (7) at non-singleton dimension 2.",
         kind="inplace", shapes=[(1, 3, 1), (3, 1, 7)], axis=None, op="add", dtype="f32",
         claim="error: RuntimeError: The expanded size of the tensor (1) must match the existing size (7) "
               "at non-singleton dimension 2.",
         note="torch 1.13 raises with a different message: \"output with shape [1, 3, 1] doesn't match "
              "the broadcast shape [3, 3, 7]\"."),
    dict(name="004-add-4x1-4-backcompat", seed=SEED_004,
         quote=">>> torch.add(torch.ones(4,1), torch.randn(4)) would previously produce a Tensor with size: "
               "torch.Size([4,1]), but now produces a Tensor with size: torch.Size([4,4]).",
         kind="broadcast", shapes=[(4, 1), (4,)], axis=None, op="add", dtype="f32",
         claim="(4,4) (previously (4,1))"),
    dict(name="004-add-4x1-4-warning", seed=SEED_004,
         quote=">>> torch.utils.backcompat.broadcast_warning.enabled=True >>> torch.add(torch.ones(4,1), "
               "torch.ones(4)) __main__:1: UserWarning: self and other do not have the same shape, but are "
               "broadcastable, and have the same number of elements.",
         kind="values", shapes=[(4, 1), (4,)], axis=None, op="add", dtype="f32",
         claim="(4,4) of 2.0, with a UserWarning when the backcompat warning is enabled",
         values=[[[1.0], [1.0], [1.0], [1.0]], [1.0, 1.0, 1.0, 1.0]],
         note="torch 1.13 gives (4,4) but no longer warns."),
    # The page ends with an unrelated answer ("相关推荐" clutter) that has three more examples.
    dict(name="004-add-3-3-clutter", seed=SEED_004,
         quote="# 例子1 a = torch.tensor([1, 2, 3]) b = torch.tensor([4, 5, 6]) c = a + b print(c) # tensor([5, 7, 9])",
         kind="values", shapes=[(3,), (3,)], axis=None, op="add", dtype="i64",
         claim="(3,) [5,7,9]",
         values=[[1, 2, 3], [4, 5, 6]]),
    dict(name="004-add-3-3x1-clutter", seed=SEED_004,
         quote="# 例子2 a = torch.tensor([1, 2, 3]) b = torch.tensor([[4], [5], [6]]) c = a + b print(c) "
               "# tensor([[5, 6, 7], # [6, 7, 8], # [7, 8, 9]])",
         kind="values", shapes=[(3,), (3, 1)], axis=None, op="add", dtype="i64",
         claim="(3,3) [[5,6,7],[6,7,8],[7,8,9]]",
         values=[[1, 2, 3], [[4], [5], [6]]],
         note="The answer explains this as 'adding a dimension of size 1 to a'; in fact both stretch: "
              "a (1,3) along rows, b (3,1) along columns."),
    dict(name="004-add-3-2-clutter", seed=SEED_004,
         quote="# 例子3 a = torch.tensor([1, 2, 3]) b = torch.tensor([4, 5]) c = a + b # 报错:RuntimeError: The size "
               "of tensor a (3) must match the size of tensor b (2) at non-singleton dimension 0",
         kind="values", shapes=[(3,), (2,)], axis=None, op="add", dtype="i64",
         claim="error: RuntimeError: The size of tensor a (3) must match the size of tensor b (2) at "
               "non-singleton dimension 0",
         values=[[1, 2, 3], [4, 5]]),
]
