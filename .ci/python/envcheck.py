"""envcheck.py - says whether the running interpreter's environment holds exactly what a lock file pins.

    .venv/oracles/bin/python .ci/python/envcheck.py .ci/python/oracles.lock
    .venv/oracles/bin/python .ci/python/envcheck.py --extras .ci/python/oracles.lock

Run with the environment's own interpreter: it reads that interpreter's
installed distributions (importlib.metadata). Exit 0 and one line when every
pin is installed at its version and nothing else is (pip itself, which `venv`
puts there to install the lock with, is the one distribution allowed beside
the pins); exit 1 and a line per difference otherwise. --extras prints only
the names of the installed distributions the lock does not pin, one a line
(.ci/install-python-env uninstalls them). Versions are compared, not file
hashes: pip checked the hashes when it installed the wheels.
"""

import importlib.metadata
import re
import sys

# Distributions a fresh venv has that the lock need not pin.
ALLOWED_EXTRA = {"pip"}


def normalize(name):
    """PEP 503's normalised project name: case and runs of -_. do not matter."""
    return re.sub(r"[-_.]+", "-", name).lower()


def parse_lock(text):
    """A lock file's text -> {normalised name: version}. Lines are
    `name==version --hash=sha256:...`; comments and blank lines are skipped.
    Anything else (no `==`, a repeated name) is a ValueError naming the line."""
    pins = {}
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        req = line.split()[0]
        if "==" not in req:
            raise ValueError("line %d is not `name==version ...`: %s" % (n, raw))
        name, version = req.split("==", 1)
        name = normalize(name)
        if name in pins:
            raise ValueError("line %d pins %s a second time" % (n, name))
        pins[name] = version
    return pins


def installed():
    """{normalised name: version} of the running interpreter's environment."""
    return {normalize(d.metadata["Name"]): d.version for d in importlib.metadata.distributions()}


def compare(pins, have):
    """(missing, wrong, extra): pinned names not installed; (name, pinned,
    installed) for those at another version; installed names the lock does not
    pin, ALLOWED_EXTRA aside. All three sorted."""
    missing = sorted(n for n in pins if n not in have)
    wrong = sorted((n, pins[n], have[n]) for n in pins if n in have and have[n] != pins[n])
    extra = sorted(n for n in have if n not in pins and n not in ALLOWED_EXTRA)
    return missing, wrong, extra


def main(argv):
    extras_only = argv[:1] == ["--extras"]
    if extras_only:
        argv = argv[1:]
    if len(argv) != 1:
        print("usage: envcheck.py [--extras] LOCKFILE", file=sys.stderr)
        return 2
    with open(argv[0], encoding="utf-8") as f:
        pins = parse_lock(f.read())
    missing, wrong, extra = compare(pins, installed())
    if extras_only:
        for n in extra:
            print(n)
        return 0
    where = sys.prefix
    if not (missing or wrong or extra):
        print("envcheck: %s matches %s (%d pinned distributions)" % (where, argv[0], len(pins)))
        return 0
    for n in missing:
        print("envcheck: %s: %s==%s is not installed" % (where, n, pins[n]))
    for n, want, got in wrong:
        print("envcheck: %s: %s is %s, the lock pins %s" % (where, n, got, want))
    for n in extra:
        print("envcheck: %s: %s is installed but not in %s" % (where, n, argv[0]))
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
