"""paddle_common.py - shared set-up of the Paddle repros (paddle_*.py): Paddle imported quietly, as the bridge does."""
import os
import warnings

os.environ.setdefault("GLOG_minloglevel", "2")
warnings.filterwarnings("ignore", message="No ccache found")

import numpy as np  # noqa: E402,F401
import paddle  # noqa: E402,F401

paddle.set_device("cpu")


def verdict(reproduced):
    """Prints the verdict line and returns the exit status (0: reproduced)."""
    print("reproduced" if reproduced else "not reproduced")
    return 0 if reproduced else 1
