"""How long a slider move takes to show its new picture in a real browser, per dashboard.

``bench_dashboards.py`` times the kernel's part of a move (callback, redraw, PNG). This one
times what a learner sees: JupyterLab in Chromium (``tests/browser_lab.py`` starts both)
opens each dashboard notebook of ``bench_dashboards`` (a copy without stored outputs), runs
its cells down to the dashboard cell, and presses the arrow key on the dashboard's first
slider (Space on its first toggle button where it has no slider) about 30 times, bouncing
between the slider's ends.

Each press is measured in the page, on its ``performance.now()`` clock, so the Python side's
polling adds nothing: from the key press (the keydown event's time stamp) to the first
animation frame after the dashboard's ``<img>`` got a new ``src`` (a MutationObserver) and
the new bytes were decoded (``img.decode()``), the frame in which the new picture is painted.
The kernel logs when each move's ``Dashboard.refresh`` (the callback, the redraw, the PNG,
handing the bytes to the widget) starts and ends, on the same machine's wall clock, so every
move splits into: key → kernel (the front end sends the new value, the server relays it),
the kernel's refresh, kernel → ``src`` (the picture's comm message back, the widget's blob),
decode, and the wait for the frame.

Between presses the benchmark waits for the kernel to be idle and then 0.3 s more: a
learner's pace, one move answered before the next. One burst of presses at a held key's
repeat rate (30 a second, without waiting) is measured as well: from its last press to its
last picture. Target (issue 20): the worst paced move shows its picture within 100 ms.

Run: ``python benchmarks/bench_browser.py [NN ...]`` (notebook numbers, default every
dashboard) or ``make bench``. Without Playwright, Chromium or JupyterLab it prints SKIPPED
and why. The machine's load (``os.getloadavg()``) heads the table: Lab, Chromium and the
kernel share its cores, so compare the runs of one sitting, not seconds across machines.
"""

import contextlib
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))  # tests/browser_lab.py: Lab and Chromium helpers

import bench_dashboards  # noqa: E402  (beside this file)
import browser_lab as lab  # noqa: E402

PRESSES = 30
PACE_S = 0.3  # after the kernel is idle again, before the next press
PICTURE_TIMEOUT_S = 10.0  # a press whose picture never changes counts as missed
BURST_PRESSES = 10
BURST_GAP_MS = 33  # a held key repeats about 30 times a second
TARGET_MS = 100.0

# Installed in the page once the dashboard shows: keydown times, when the readout changed
# and, for every new src of the picture, when it was set, loaded, decoded and first in an
# animation frame.
RECORDER_JS = """
([img, readout]) => {
  const rec = {keys: [], pictures: [], readouts: [], origin: performance.timeOrigin};
  new MutationObserver(() => rec.readouts.push(performance.now()))
    .observe(readout, {childList: true, subtree: true, characterData: true});
  document.addEventListener('keydown', event => rec.keys.push(event.timeStamp), true);
  new MutationObserver(() => {
    const entry = {src: performance.now()};
    rec.pictures.push(entry);
    img.addEventListener('load', () => { entry.loaded = performance.now(); }, {once: true});
    const painted = () => requestAnimationFrame(() => { entry.frame = performance.now(); });
    img.decode().then(() => { entry.decoded = performance.now(); painted(); },
                      () => { entry.superseded = true; });  // a newer src came first
  }).observe(img, {attributes: true, attributeFilter: ['src']});
  window.__sliderBench = rec;
}
"""

# The picture's size in pixels as sent (natural) and as the notebook's column shows it.
PIXELS_JS = """
img => ({natural: [img.naturalWidth, img.naturalHeight],
         shown: [img.clientWidth, img.clientHeight], ratio: window.devicePixelRatio})
"""

KERNEL_STATUS_JS = """
() => {
  const session = window.jupyterapp.shell.currentWidget.sessionContext.session;
  return session && session.kernel ? session.kernel.status : null;
}
"""

# Runs code in the notebook's kernel without adding a cell; returns its stdout or error.
KERNEL_EXECUTE_JS = """
async code => {
  const kernel = window.jupyterapp.shell.currentWidget.sessionContext.session.kernel;
  const future = kernel.requestExecute({code, store_history: false});
  let text = '', error = null;
  future.onIOPub = msg => {
    if (msg.header.msg_type === 'stream') text += msg.content.text;
    if (msg.header.msg_type === 'error') error = msg.content.ename + ': ' + msg.content.evalue;
  };
  await future.done;
  return {text, error};
}
"""

RUN_THROUGH_JS = """
async index => {
  const panel = window.jupyterapp.shell.currentWidget;
  panel.content.activeCellIndex = index;
  await window.jupyterapp.commands.execute('notebook:run-all-above');
  panel.content.activeCellIndex = index;
  await window.jupyterapp.commands.execute('notebook:run-cell');
}
"""

# The kernel logs each Dashboard.refresh and each PNG drawn (wall-clock seconds), and the
# size of the picture sent. Out[count] is the dashboard the dashboard cell displayed.
PROBE_CODE = """
def _browser_bench_probe(dash):
    import time
    log = []
    refresh, render = dash.refresh, dash.renderer.render
    def timed_render():
        start = time.time()
        png = render()
        log.append(("render", start, time.time(), len(png)))
        return png
    def timed_refresh():
        start = time.time()
        refresh()
        log.append(("refresh", start, time.time(), len(dash.image.value)))
    dash.renderer.render, dash.refresh = timed_render, timed_refresh
    return log
_browser_bench_log = _browser_bench_probe(Out[{count}])
del _browser_bench_probe
"""


def notebook_for(name):
    """notebooks/NN_*.ipynb for a bench_dashboards name such as "14 tiled"."""
    (path,) = sorted((ROOT / "notebooks").glob(f"{name.split()[0]}_*.ipynb"))
    return path


def dashboard_cell_index(path):
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    return next(i for i, cell in enumerate(cells)
                if "dashboard" in cell.get("metadata", {}).get("tags", []))


def kernel_run(page, code):
    answer = page.evaluate(KERNEL_EXECUTE_JS, code)
    if answer["error"]:
        raise RuntimeError(f"in the kernel: {answer['error']}")
    return answer["text"]


def wait_kernel_idle(page, timeout=60.0, settle=0.05):
    """Until the kernel's status is idle and stays so for ``settle`` seconds."""
    deadline, since = time.monotonic() + timeout, None
    while time.monotonic() < deadline:
        if page.evaluate(KERNEL_STATUS_JS) == "idle":
            since = since or time.monotonic()
            if time.monotonic() - since >= settle:
                return
        else:
            since = None
        time.sleep(0.02)
    raise TimeoutError(f"kernel still busy after {timeout:.0f} s")


def open_dashboard(page, server, name):
    """Open the notebook, run it down to its dashboard cell.

    Returns (picture, readout, control, key, count): the dashboard's ``<img>`` and readout,
    the control to press and its key ("Arrow" or "Space"), the dashboard cell's count."""
    path = notebook_for(name)
    relative = f"notebooks/{path.name}"
    index = dashboard_cell_index(path)
    lab.open_notebook(page, server, relative)
    page.evaluate(RUN_THROUGH_JS, index)
    lab.wait_idle(page, timeout=300)
    state = lab.notebook_state(page)
    errors = [f"cell {i}: {out['ename']}: {out['evalue']}"
              for i, cell in enumerate(state["cells"][:index + 1])
              for out in cell["outputs"] if out["output_type"] == "error"]
    count = state["cells"][index]["count"]
    if errors or count is None:
        raise RuntimeError(f"{path.name} did not run to its dashboard: {errors or 'no count'}")
    box = page.locator(f"{lab.CURRENT_NOTEBOOK} .jp-Cell").nth(index).locator(
        ".jp-OutputArea-output .widget-vbox").first
    box.wait_for(state="visible")
    picture = box.locator("img.course-picture").first
    readout = box.locator(".course-readout").first
    page.wait_for_function("img => img.complete && img.naturalWidth > 0",
                           arg=picture.element_handle())
    handles = box.locator(".widget-slider .noUi-handle")
    if handles.count():
        control, key = handles.first, "Arrow"
    else:
        control, key = box.locator(".widget-toggle-button").first, "Space"
    box.scroll_into_view_if_needed()
    return picture, readout, control, key, count


def next_key(control, key, direction):
    """The key that moves the control one step, bouncing off a slider's ends."""
    if key == "Space":
        return "Space", direction
    now, low, high = (float(control.get_attribute(f"aria-value{end}"))
                      for end in ("now", "min", "max"))
    if now >= high:
        direction = -1
    elif now <= low:
        direction = 1
    return ("ArrowRight" if direction > 0 else "ArrowLeft"), direction


def paced_presses(page, control, key, presses):
    """Press ``presses`` times, each after the last picture showed and the kernel idled."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    control.focus()
    direction = 1
    for _ in range(presses):
        pressed, direction = next_key(control, key, direction)
        control.press(pressed)
        with contextlib.suppress(PlaywrightTimeout):  # no new picture: counted as missed
            page.wait_for_function(
                "() => { const r = window.__sliderBench, key = r.keys[r.keys.length - 1];"
                " return r.pictures.some(p => p.src > key && p.frame !== undefined); }",
                polling=20, timeout=PICTURE_TIMEOUT_S * 1000)
        wait_kernel_idle(page)
        time.sleep(PACE_S)


def burst(page, control, key):
    """Press BURST_PRESSES times, BURST_GAP_MS apart, away from the nearer end of a slider."""
    control.focus()
    pressed = "Space"
    if key != "Space":  # a press past the slider's end moves nothing and sends nothing
        now, low, high = (float(control.get_attribute(f"aria-value{end}"))
                          for end in ("now", "min", "max"))
        pressed = "ArrowRight" if high - now >= now - low else "ArrowLeft"
    for _ in range(BURST_PRESSES):
        page.keyboard.press(pressed)
        page.wait_for_timeout(BURST_GAP_MS)
    wait_kernel_idle(page, settle=0.5)
    page.wait_for_timeout(500)  # the last picture's decode and frame


def percentile(values, q):
    """The q-th percentile (1..99), interpolated between the measured values."""
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(values, n=100, method="inclusive")[q - 1]


def analyse(record, log, presses):
    """Per paced press: total and stages (ms); plus the burst's summary."""
    offset = record["origin"]  # page time = wall-clock ms − performance.timeOrigin
    refreshes = [(s * 1000 - offset, e * 1000 - offset, size)
                 for kind, s, e, size in log if kind == "refresh"]
    renders = [(s * 1000 - offset, e * 1000 - offset) for kind, s, e, _ in log if kind == "render"]
    keys, pictures = record["keys"], record["pictures"]
    paced_keys, burst_keys = keys[:presses], keys[presses:]
    moves, missed = [], 0
    for i, key in enumerate(paced_keys):
        until = paced_keys[i + 1] if i + 1 < len(paced_keys) else (
            burst_keys[0] if burst_keys else float("inf"))
        shown = [p for p in pictures if key < p["src"] < until and "frame" in p]
        run = [r for r in refreshes if key < r[0] < until]
        if not shown or not run:
            missed += 1
            continue
        picture, (start, end, size) = shown[0], run[0]
        readout = [t for t in record["readouts"] if key < t < until]
        render = sum(e - s for s, e in renders if start <= s <= end)
        moves.append({"total": picture["frame"] - key, "to kernel": start - key,
                      "refresh": end - start, "render": render, "to src": picture["src"] - end,
                      "readout": (readout[0] if readout else float("nan")) - end,
                      "decode": picture["decoded"] - picture["src"],
                      "load": picture.get("loaded", float("nan")) - picture["src"],
                      "frame": picture["frame"] - picture["decoded"], "kB": size / 1000})
    burst_summary = None
    shown = [p for p in pictures if burst_keys and p["src"] > burst_keys[0] and "frame" in p]
    if shown:  # from the last press that moved something to the last picture
        last_press = max(k for k in burst_keys if k < shown[-1]["src"])
        burst_summary = {"pictures": sum(p["src"] > burst_keys[0] for p in pictures),
                         "settle": shown[-1]["frame"] - last_press}
    return moves, missed, burst_summary


def measure_dashboard(browser, server, name, presses=PRESSES):
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    page.set_default_timeout(60_000)
    start = time.monotonic()
    try:
        picture, readout, control, key, count = open_dashboard(page, server, name)
        opened = time.monotonic()
        kernel_run(page, PROBE_CODE.format(count=count))
        wait_kernel_idle(page, settle=0.5)
        page.evaluate(RECORDER_JS, [picture.element_handle(), readout.element_handle()])
        pixels = page.evaluate(PIXELS_JS, picture.element_handle())
        paced_presses(page, control, key, presses)
        burst(page, control, key)
        record = page.evaluate("() => window.__sliderBench")
        log = json.loads(kernel_run(page, "import json; print(json.dumps(_browser_bench_log))"))
        print(f"bench_browser: {name}: opened and ran to the dashboard in "
              f"{opened - start:.0f} s, pressed in {time.monotonic() - opened:.0f} s",
              file=sys.stderr)
        return (*analyse(record, log, presses), pixels)
    finally:
        context.close()
        server.shutdown_kernels()


def median(values):
    return statistics.median(values) if values else float("nan")


def measure(names=None, presses=PRESSES):
    """{name: (moves, missed, burst)} for the dashboards named (default: every one)."""
    from playwright.sync_api import sync_playwright

    names = names or [name for name, _ in bench_dashboards.dashboards()]
    home = Path(tempfile.mkdtemp(prefix="bench-browser-"))
    try:
        shutil.copytree(ROOT / "notebooks", home / "notebooks",
                        ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
        for path in (home / "notebooks").glob("*.ipynb"):
            lab.strip_outputs(path)
        results = {}
        with lab.LabServer(home) as server, sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=lab.chromium_path(),
                                                 args=lab.CHROMIUM_ARGS)
            try:
                for name in names:
                    try:
                        results[name] = measure_dashboard(browser, server, name, presses)
                    except Exception as error:  # one broken dashboard must not hide the rest
                        results[name] = error
            finally:
                browser.close()
        return results
    finally:
        shutil.rmtree(home, ignore_errors=True)


# (column title, key) of the stages table; in brackets: parts or milestones of a stage.
STAGES = [("to kernel", "to kernel"), ("refresh", "refresh"), ("(render)", "render"),
          ("to src", "to src"), ("(readout)", "readout"), ("(load)", "load"),
          ("decode", "decode"), ("frame", "frame"), ("total", "total"), ("kB", "kB")]


def table(results, kernel_ms, load):
    """The report: one line per dashboard, then where the time goes."""
    lines = [f"Slider move → new picture in Chromium + JupyterLab, {PRESSES} presses per "
             f"dashboard at a learner's pace (kernel idle + {PACE_S:.1f} s between presses); "
             f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} "
             f"on {os.cpu_count()} CPUs",
             f"{'dashboard':<16} {'median':>7} {'p90':>7} {'worst':>7} {'kernel':>7} "
             f"{'bench_dash':>10} {'burst':>10}  target (worst ≤ {TARGET_MS:.0f} ms)"]
    stages, sizes = [], []
    for name, result in results.items():
        if isinstance(result, Exception):
            lines.append(f"{name:<16} FAILED: {type(result).__name__}: {result}"[:200])
            continue
        moves, missed, burst_summary, pixels = result
        if not moves:
            lines.append(f"{name:<16} no picture changed in {PRESSES} presses")
            continue
        totals = [m["total"] for m in moves]
        worst = max(totals)
        verdict = "met" if worst <= TARGET_MS and not missed else "NOT met"
        extra = f", {missed} presses showed no new picture" if missed else ""
        settle = (f"{burst_summary['settle']:.0f} ms/{burst_summary['pictures']}"
                  if burst_summary else "–")
        lines.append(f"{name:<16} {median(totals):>4.0f} ms {percentile(totals, 90):>4.0f} ms "
                     f"{worst:>4.0f} ms {median([m['refresh'] for m in moves]):>4.0f} ms "
                     f"{kernel_ms.get(name, float('nan')):>7.1f} ms {settle:>10}  "
                     f"{verdict}{extra}")
        slowest = max(moves, key=lambda m: m["total"])
        stages.append((name, {k: median([m[k] for m in moves]) for k in slowest}, slowest))
        sizes.append((name, pixels))
    lines += ["",
              "kernel: median of Dashboard.refresh in this run (callback, redraw, PNG, send); "
              "bench_dash: bench_dashboards' median per move, measured just before, in this "
              "process;",
              f"burst: {BURST_PRESSES} presses {BURST_GAP_MS} ms apart: from the last press that "
              "moved the slider to the last picture's frame / pictures shown.", "",
              "Where the time goes (ms): median of each stage, and the slowest move's stages",
              f"{'dashboard':<16} {'':>6}" + "".join(f" {title:>9}" for title, _ in STAGES)]
    for name, med, slow in stages:
        for label, row in (("median", med), ("worst", slow)):
            lines.append(f"{name if label == 'median' else '':<16} {label:>6}"
                         + "".join(f" {row[key]:>9.1f}" for _, key in STAGES))
    lines += ["", "The picture in pixels: as sent (natural) and as the page shows it "
              "(CSS pixels × devicePixelRatio)",
              f"{'dashboard':<16} {'sent':>11} {'shown':>11} {'ratio':>6}"]
    for name, pixels in sizes:
        (nw, nh), (sw, sh) = pixels["natural"], pixels["shown"]
        lines.append(f"{name:<16} {nw:>5}×{nh:<5} {sw:>5}×{sh:<5} {pixels['ratio']:>6.2f}")
    return "\n".join(lines)


def main(argv=None):
    words = sys.argv[1:] if argv is None else argv
    numbers = [word for word in words if word.isdigit()]  # run_all's words name files
    missing = lab.missing_requirements()
    if missing:
        print(f"bench_browser: SKIPPED - {missing}")
        return []
    names = [name for name, _ in bench_dashboards.dashboards()
             if not numbers or name.split()[0] in numbers]
    load = os.getloadavg()
    kernel_ms = {name: ms for name, ms, _ in bench_dashboards.measure(names)}
    results = measure(names)
    print(table(results, kernel_ms, load))
    targets = []
    for name, result in results.items():
        if isinstance(result, Exception) or not result[0]:
            targets.append((f"browser: {name} slider move shows its picture (worst, ms)",
                            float("inf"), TARGET_MS))
        else:
            worst = max(m["total"] for m in result[0])
            targets.append((f"browser: {name} slider move shows its picture (worst, ms)",
                            worst, TARGET_MS))
    return targets


if __name__ == "__main__":
    main()
