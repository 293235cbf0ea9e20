# .ci/python/python.mk - the PyPI environments' interpreter for the build, and their tests.
#
# PYTHON2 is the interpreter of .venv/oracles: the NumPy 2.x and torch 2.x
# oracles (the "2" is theirs, not Python's), installed by
# `sh .ci/install-deps` (.ci/install-python-env) from .ci/python/oracles.lock.
# PYTHON (the Makefile's) stays Debian's /usr/bin/python3 with NumPy 1.24 and
# torch 1.13.

PYTHON2 ?= .venv/oracles/bin/python
# PYTARGETS is the interpreter of .venv/targets: the array libraries bcast
# tests from PyPI (.ci/python/targets.in; their bridges are in targets/pipe/bridges).
PYTARGETS ?= .venv/targets/bin/python

# The lock tools' unit tests (Debian's Python), then the environment itself
# against its lock (skipped, saying so, when it is not installed).
TESTS += "$(PYTHON) .ci/python/tests/test_lock.py"
TESTS += "sh .ci/python/test-env.sh $(PYTHON2) .ci/python/oracles.lock"
TESTS += "sh .ci/python/test-env.sh $(PYTARGETS) .ci/python/targets.lock"
