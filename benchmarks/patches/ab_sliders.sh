#!/bin/bash
# Before/after of the patches in this folder on every explorer's redraw, without touching
# chunklib: the "after" side is a copy of chunklib with the patches applied, put first on
# PYTHONPATH. The two sides alternate, three runs each, so both see the same load.
#   bash benchmarks/patches/ab_sliders.sh            # all *.patch here, in name order
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"; REPO="$(dirname "$(dirname "$HERE")")"
PY="$REPO/benchmarks/.venv/bin/python"; OUT="$(mktemp -d)"
mkdir -p "$OUT/after" && cp -r "$REPO/chunklib" "$OUT/after/"
for p in "$HERE"/*.patch; do patch -s -p1 -d "$OUT/after" -i "$p"; done
cd "$OUT"
for i in 1 2 3; do
  MPLBACKEND=Agg "$PY" "$REPO/benchmarks/learner.py" --skip-notebooks --json "before-$i.json" >/dev/null
  MPLBACKEND=Agg PYTHONPATH="$OUT/after" "$PY" "$REPO/benchmarks/learner.py" --skip-notebooks \
    --json "after-$i.json" >/dev/null
done
"$PY" - <<'PY'
import json, statistics
rows = {}
for side in ("before", "after"):
    for i in (1, 2, 3):
        for s in json.load(open(f"{side}-{i}.json"))["sliders"]:
            if s["status"] == "ok":
                rows.setdefault(s["widget"], {}).setdefault(side, []).append(s)
print("| explorer | before (wall) | after (wall) | before (CPU) | after (CPU) | after / before (CPU) |")
print("|---|---:|---:|---:|---:|---:|")
for widget, d in rows.items():
    m = {k: (statistics.median(r["median"] for r in v), statistics.median(r["cpu_median"] for r in v))
         for k, v in d.items()}
    print(f"| {widget} | {m['before'][0]*1000:.0f} ms | {m['after'][0]*1000:.0f} ms | "
          f"{m['before'][1]*1000:.0f} ms | {m['after'][1]*1000:.0f} ms | {m['after'][1]/m['before'][1]:.2f} |")
PY
