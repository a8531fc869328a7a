#!/usr/bin/env python3
"""check_html.py — `warpsim run --html` in a real headless browser.

For each workload the page and the JSON report of the same run are
written, the page is loaded by Chromium (`--headless --dump-dom`, so its
script runs), and the DOM Chromium ends with is checked:
  * no script error: the page's window.onerror writes any into a
    #script-errors element, which must not exist, and the page's own
    script marked <body data-script="ran">;
  * the shown numbers are the report's: cycles, IPC, occupancy achieved and
    theoretical, warp instructions, each warp-state percentage, every
    listed line's warp-instruction count, the hot line and its count, and
    every block's τ and δ;
  * text from the PTX and the manifest (tests/html/escape.*: markup in
    comments and in the manifest's name) shows as text: no element,
    attribute or script came from it.
Exit 77 (skipped) when no Chromium is installed (tools/install-deps.sh
installs Debian's `chromium`).
"""
import argparse
import html.parser
import json
import os
import shutil
import subprocess
import sys
import tempfile

FAILURES = []
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


def check(cond, what):
    if not cond:
        FAILURES.append(what)
        print("FAIL:", what)


class Node:
    def __init__(self, tag, attrs, parent):
        self.tag, self.attrs, self.parent = tag, dict(attrs), parent
        self.children, self.parts = [], []

    def text(self):
        return "".join(p if isinstance(p, str) else p.text() for p in self.parts)

    def walk(self):
        yield self
        for c in self.children:
            yield from c.walk()

    def find_all(self, pred):
        return [n for n in self.walk() if pred(n)]


class TreeBuilder(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.root = Node("#document", {}, None)
        self.cur = self.root

    def handle_starttag(self, tag, attrs):
        n = Node(tag, attrs, self.cur)
        self.cur.children.append(n)
        self.cur.parts.append(n)
        if tag not in VOID:
            self.cur = n

    def handle_startendtag(self, tag, attrs):
        n = Node(tag, attrs, self.cur)
        self.cur.children.append(n)
        self.cur.parts.append(n)

    def handle_endtag(self, tag):
        n = self.cur
        while n is not None and n.tag != tag:
            n = n.parent
        if n is not None and n.parent is not None:
            self.cur = n.parent

    def handle_data(self, data):
        self.cur.parts.append(data)


def find_chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


def dump_dom(chromium, page, profile):
    cmd = [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
           f"--user-data-dir={profile}", "--virtual-time-budget=3000", "--dump-dom", "file://" + os.path.abspath(page)]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    if p.returncode != 0 or "<html" not in p.stdout:
        sys.exit(f"chromium failed ({p.returncode}) on {page}:\n{p.stderr[-3000:]}")
    b = TreeBuilder()
    b.feed(p.stdout)
    return b.root


def number(text):
    return float(text.strip())


def check_launch(sec, entry, tag, k):
    mx = entry["metrics"]
    cells = {n.attrs["data-metric"]: n.text() for n in sec.find_all(lambda n: "data-metric" in n.attrs)}
    where = f"{tag} launch {k}"
    timed = "sm__cycles_elapsed.max" in mx
    if timed:
        check(int(cells["sm__cycles_elapsed.max"]) == mx["sm__cycles_elapsed.max"], f"{where}: cycles shown "
              f"{cells['sm__cycles_elapsed.max']}, report {mx['sm__cycles_elapsed.max']}")
        check(abs(number(cells["ipc"]) - mx["ipc"]) <= 0.0005 + 1e-9, f"{where}: IPC {cells['ipc']} vs {mx['ipc']}")
        for key in ("sm__maximum_warps_per_active_cycle_pct", "sm__warps_active.avg.pct_of_peak_sustained_active"):
            check(abs(number(cells[key]) - mx[key]) <= 0.05 + 1e-9, f"{where}: {key} {cells[key]} vs {mx[key]}")
        check(cells["warpsim__occupancy_limiter"].strip() == mx["warpsim__occupancy_limiter"], f"{where}: limiter")
        states = [key for key in mx if key.startswith("smsp__warp_issue_stalled_")]
        check(len(states) > 0, f"{where}: no warp states in the report")
        for key in states:
            check(abs(number(cells[key]) - mx[key]) <= 0.05 + 1e-9, f"{where}: {key} {cells.get(key)} vs {mx[key]}")
        check(abs(number(cells["gpu__time_duration.sum"]) - mx["gpu__time_duration.sum"] / 1000) <= 0.0005 + 1e-9,
              f"{where}: time")
        check(int(cells["lts__t_sectors.sum"]) == mx["lts__t_sectors.sum"], f"{where}: L2 sectors")
    else:
        check("ipc" not in cells, f"{where}: a functional run shows an IPC")
    check(int(cells["smsp__inst_executed.sum"]) == mx["smsp__inst_executed.sum"], f"{where}: warp instructions")

    # the listing: every executed line with its count
    rows = {int(n.attrs["data-line"]): n for n in sec.find_all(lambda n: n.tag == "tr" and "data-line" in n.attrs)}
    lines = mx["warpsim__line_counts"]
    check(len(lines) > 0, f"{where}: no line counts")
    for lc in lines:
        row = rows.get(lc["line"])
        if row is None:
            check(False, f"{where}: line {lc['line']} not in the listing")
            continue
        count = row.find_all(lambda n: n.tag == "td" and "count" in n.attrs.get("class", "").split())[0].text()
        check(int(count) == lc["warp_insts"], f"{where}: line {lc['line']} shows {count}, report {lc['warp_insts']}")
    # the hot line, chosen from the report here: most stall cycles (timed), else most executions;
    # the first such line on ties
    key = "stall_cycles" if timed else "warp_insts"
    hot = max(lines, key=lambda lc: (lc[key], -lc["line"]))
    shown = {n.attrs["data-hot"]: n.text() for n in sec.find_all(lambda n: "data-hot" in n.attrs)}
    check(int(shown.get("line", -1)) == hot["line"], f"{where}: hot line {shown.get('line')}, expected {hot['line']}")
    check(int(shown.get("warp_insts", -1)) == hot["warp_insts"], f"{where}: hot line count {shown.get('warp_insts')}")
    if timed:
        check(int(shown.get("stall_cycles", -1)) == hot["stall_cycles"], f"{where}: hot line stall cycles")

    # blocks: τ and δ of every block of the divergence map, in the table and on the SVG boxes
    blocks = {}
    for n in sec.find_all(lambda n: n.tag == "tr" and "data-block" in n.attrs):
        tau = n.find_all(lambda c: c.tag == "td" and "tau" in c.attrs.get("class", "").split())[0].text()
        delta = n.find_all(lambda c: c.tag == "td" and "delta" in c.attrs.get("class", "").split())[0].text()
        blocks[(n.attrs["data-function"], int(n.attrs["data-block"]))] = (int(tau), int(delta))
    svg_boxes = sec.find_all(lambda n: n.tag == "g" and "data-tau" in n.attrs)
    check(len(svg_boxes) >= len(mx["warpsim__divergence_map"]), f"{where}: CFG boxes missing")
    for b in mx["warpsim__divergence_map"]:
        got = blocks.get((b["function"], b["block"]))
        check(got == (b["tau"], b["delta"]), f"{where}: block {b['function']}/{b['block']} shows {got}, "
              f"report ({b['tau']}, {b['delta']})")
    return any(b["delta"] > 0 for b in mx["warpsim__divergence_map"])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--warpsim", required=True)
    ap.add_argument("--source-root", required=True)
    a = ap.parse_args()
    chromium = find_chromium()
    if not chromium:
        print("chromium not found: skipped (tools/install-deps.sh installs it)")
        return 77
    root = a.source_root
    workloads = [
        ("matmul_tiled", "traces/matmul_tiled/launch.json", ()),
        ("reduce_two_launches", "traces/reduce/shared.json", ()),
        ("divergence_functional", "traces/divergence/divergence.json", ("--functional",)),
        ("escape", "tests/html/escape.json", ()),
    ]
    saw_divergence = False
    with tempfile.TemporaryDirectory(prefix="warpsim-html-") as tmp:
        for tag, rel, extra in workloads:
            page, report = os.path.join(tmp, tag + ".html"), os.path.join(tmp, tag + ".json")
            cmd = [a.warpsim, "run", os.path.join(root, rel), "-q", "--html", page, "--json", report, *extra]
            p = subprocess.run(cmd, capture_output=True, text=True)
            if p.returncode != 0:
                sys.exit(f"{' '.join(cmd)} failed ({p.returncode}):\n{p.stderr}")
            with open(report) as f:
                rep = json.load(f)
            dom = dump_dom(chromium, page, os.path.join(tmp, "profile"))
            outside = dom.find_all(lambda n: "src" in n.attrs or n.tag == "link" or
                                   not n.attrs.get("href", "#").startswith("#"))
            check(not outside, f"{tag}: the page refers to something outside itself: {[n.attrs for n in outside]}")
            body = dom.find_all(lambda n: n.tag == "body")
            check(len(body) == 1 and body[0].attrs.get("data-script") == "ran", f"{tag}: the page's script did not run")
            errors = dom.find_all(lambda n: n.attrs.get("id") == "script-errors")
            check(not errors, f"{tag}: script errors: {errors[0].text() if errors else ''}")
            sections = dom.find_all(lambda n: n.tag == "section" and "data-launch" in n.attrs)
            check(len(sections) == len(rep["launches"]), f"{tag}: {len(sections)} sections, {len(rep['launches'])} launches")
            for k, (sec, entry) in enumerate(zip(sections, rep["launches"])):
                saw_divergence |= check_launch(sec, entry, tag, k)
            if tag == "escape":
                scripts = dom.find_all(lambda n: n.tag == "script")
                check(len(scripts) == 1, f"escape: {len(scripts)} script elements")
                check(not dom.find_all(lambda n: n.tag == "img"), "escape: markup from the PTX became elements")
                check(all(n.text() == "h200" for n in dom.find_all(lambda n: n.tag == "b")),
                      "escape: markup from the PTX became elements")
                check(not dom.find_all(lambda n: any(k.startswith("on") for k in n.attrs)),
                      "escape: an event-handler attribute came from the PTX")
                listing = "".join(n.text() for n in dom.find_all(lambda n: n.tag == "td" and n.attrs.get("class") == "code"))
                check("<script>document.title='INJECTED';window.injected=1</script>" in listing,
                      "escape: the comment's <script> text is not shown as text")
                check("<img src=\"x\" onerror=\"window.injected=2\"> & \"quotes\" 'single' &amp;" in listing,
                      "escape: the comment's <img> text is not shown as text")
                check("τ δ — ü" in listing, "escape: non-ASCII text changed")
                title = dom.find_all(lambda n: n.tag == "title")[0].text()
                check(title == 'warpsim report: escape <&> "test"', f"escape: title {title!r}")
            print(f"{tag}: {len(sections)} launch section(s) checked, {os.path.getsize(page)} bytes")
    check(saw_divergence, "no workload had a divergent block (δ > 0): the τ/δ check proved little")
    if FAILURES:
        print(f"{len(FAILURES)} check(s) failed")
        return 1
    print("html report: all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
