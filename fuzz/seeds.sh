#!/bin/sh
# seeds.sh - builds the fuzz seed corpora from case files: one file per record
# (with the version line) for the case reader, and per record its shapes (one
# per line, "@N" for an axis) for the shape rules. Duplicates are dropped.
#
#   sh fuzz/seeds.sh OUTDIR CASEFILE...    -> OUTDIR/caseio/, OUTDIR/shapes/
set -eu
out=$1; shift
rm -rf "$out/caseio" "$out/shapes"
mkdir -p "$out/caseio" "$out/shapes"
# Records above 16 KiB (long values lines) would only slow the fuzzer down.
awk -v dir="$out" '
function flush(   f) {
    if (rec != "" && length(rec) <= 16384 && !(rec in seenrec)) {
        seenrec[rec] = 1
        f = sprintf("%s/caseio/r%05d", dir, ++nr)
        printf "bcast-cases 1\n%s", rec > f; close(f)
    }
    if (shp != "" && !(shp in seenshp)) {
        seenshp[shp] = 1
        f = sprintf("%s/shapes/s%05d", dir, ++ns)
        printf "%s", shp > f; close(f)
    }
    rec = ""; shp = ""
}
/^case / { flush(); inrec = 1 }
inrec { rec = rec $0 "\n" }
inrec && /^arg / { shp = shp $4 "\n" }
inrec && /^attr shape / { shp = shp $3 "\n" }
inrec && /^attr axis / { shp = shp "@" $3 "\n" }
/^end$/ { flush(); inrec = 0 }
END { flush(); printf "%d reader seeds, %d shape seeds\n", nr, ns }
' "$@"
