#!/usr/bin/env python3
"""metrics.py — a table of chosen metrics from warpsim JSON reports.

Usage: python3 traces/labs/metrics.py REPORT.json... -m METRIC [-m METRIC...]

One row per launch of every report (named by the report's file name), one
column per metric (a name from docs/metrics.md or docs/report.md).  A
metric the launch does not have prints as "-".
"""
import argparse
import json
import os
import sys


def cell(value):
    if isinstance(value, float):
        return "%.4g" % value if abs(value) < 1e6 else "%.0f" % value
    return "-" if value is None else str(value)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("reports", nargs="+", help="files written by warpsim run --json")
    ap.add_argument("-m", "--metric", action="append", required=True, dest="metrics",
                    help="metric to show (repeatable)")
    args = ap.parse_args()
    rows = [["report"] + args.metrics]
    for path in args.reports:
        try:
            with open(path) as f:
                report = json.load(f)
        except (OSError, ValueError) as e:
            print("%s: error: %s" % (path, e), file=sys.stderr)
            return 1
        for launch in report.get("launches", []):
            m = launch.get("metrics", {})
            rows.append([os.path.splitext(os.path.basename(path))[0]] + [cell(m.get(k)) for k in args.metrics])
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    for r in rows:
        print("  ".join(c.rjust(w) if i else c.ljust(w) for i, (c, w) in enumerate(zip(r, widths))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
