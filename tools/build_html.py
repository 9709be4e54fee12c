"""Build the static HTML edition of the course: ``make html`` (or ``python tools/build_html.py``).

Writes into ``site/`` (git-ignored): one page per notebook in course order, ``index.html``
(the contents, with a note on what needs a connection), prev/next links on every page.

By default the course is **executed** first, in a temporary copy of ``notebooks/`` with a
fresh kernel per notebook, and the pages are made from that run: the edition then shows what
the code in this checkout produces (the stored outputs could lag behind a change in
``course_lib`` until someone re-runs the notebooks), and the run records each dashboard's
widget state. ``--stored`` skips the run and uses the outputs stored in the notebooks (which
``make test`` checks against a fresh kernel with nbval): seconds instead of minutes, used by
the tests.

What a page holds:

* figures as embedded ``data:`` images (no files beside the page);
* for every dashboard, a static fallback inside its output (the picture at the default
  setting, the slider settings and the readout): the pages load no widget renderer;
* the maths typeset by MathJax 3, served from the site itself (``vendor/mathjax`` is copied
  to ``site/mathjax/``).

Nothing is loaded from the network: the page template (``tools/html_template/course``)
drops the CDN scripts of nbconvert's lab template (require.js, the widget renderer,
mermaid, MathJax 2), so the edition reads the same offline.
"""

import argparse
import html
import json
import os
import re
import shutil
import sys
import tempfile
import time
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"
DEFAULT_OUT = ROOT / "site"
TEMPLATES = ROOT / "tools" / "html_template"
MATHJAX = ROOT / "vendor" / "mathjax"
NOTEBOOK_NAME = re.compile(r"^\d\d_[A-Za-z0-9_]+\.ipynb$")
START = "00_start_here.ipynb"  # the first page of the course
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
VIEW_SCRIPT = re.compile(
    r'<script type="application/vnd\.jupyter\.widget-view\+json">\s*(\{.*?\})\s*</script>',
    re.DOTALL)
COURSE_TITLE = "Attention from Zero"

CONNECTION_NOTE = """\
<p class="course-note"><strong>Reading offline.</strong> This edition needs no connection:
text, code, outputs and figures are in the pages, and the formulas are typeset by the copy of
MathJax in the <code>mathjax</code> folder beside them. Each dashboard shows a static picture
at its default setting, and has a static twin further down its page. Moving the sliders needs
a running kernel: open the notebooks in JupyterLab (<code>make lab</code>) or on Binder.</p>
"""

PAGE_STYLE = """\
<style>
.course-nav { display: flex; justify-content: space-between; gap: 1em; flex-wrap: wrap;
  max-width: 1100px; margin: 0.75em auto; padding: 0.5em 1em; font-family: sans-serif;
  border: 1px solid #c8c8c8; border-radius: 4px; background: #f6f6f6; }
.course-nav a { color: #0b57a4; }
.course-widget-fallback { border: 1px dashed #9a9a9a; padding: 0.5em; background: #ffffff;
  color: #1b1b1b; max-width: 100%; font-family: sans-serif; }
.course-widget-fallback img { max-width: 100%; }
.course-widget-note { font-style: italic; border: 1px dashed #9a9a9a; padding: 0.5em; }
details.course-solution > summary { cursor: pointer; font-style: italic; margin: 0.3em 0; }
.course-widget-fallback .course-fallback-note { font-style: italic; margin: 0 0 0.5em 0; }
/* the widget renderer puts the live view in a .widget-subarea: then hide the fallback */
.jp-OutputArea-output:has(.widget-subarea > *) > .course-widget-fallback { display: none; }
/* Contrast (WCAG AA, 4.5:1 on the code background #f5f5f5): the lab template's syntax
   colours and In/Out prompts are lighter than that; the same hues, darker. */
:root {
  --jp-mirror-editor-number-color: #006d00; --jp-mirror-editor-comment-color: #2e6464;
  --jp-mirror-editor-operator-color: #7a1fb8; --jp-mirror-editor-meta-color: #7a1fb8;
  --jp-mirror-editor-keyword-color: #007000; --jp-mirror-editor-builtin-color: #007000;
  --jp-mirror-editor-atom-color: #4646c8; --jp-mirror-editor-error-color: #c80000;
  --jp-mirror-editor-bracket-color: #66664a; --jp-mirror-editor-quote-color: #006d00;
  --jp-cell-prompt-not-active-font-color: #616161; --jp-cell-inprompt-font-color: #616161;
  --jp-cell-outprompt-font-color: #616161; --jp-cell-prompt-not-active-opacity: 1;
}
.jp-Notebook .jp-Cell .jp-InputPrompt, .jp-Notebook .jp-Cell .jp-OutputPrompt {
  color: #616161 !important; opacity: 1 !important; }
/* links inside prose are underlined, not told apart by colour alone */
.jp-RenderedHTMLCommon a, .course-note a { text-decoration: underline !important; }
</style>
"""


def course_notebooks(folder=NOTEBOOKS):
    """The course's notebooks (``NN_topic.ipynb``), in course order: by number, and the start
    page first of the two 00s (00 Start here, then 00 The Python you need)."""
    paths = sorted((p for p in Path(folder).glob("*.ipynb") if NOTEBOOK_NAME.match(p.name)),
                   key=lambda p: (p.name[:2], p.name != START, p.name))
    if not paths:
        raise FileNotFoundError(f"no NN_topic.ipynb notebooks in {folder}")
    return paths


def notebook_title(nb, fallback):
    """The text of the notebook's first ``# `` heading, or ``fallback``.

    >>> cell = nbformat.v4.new_markdown_cell("Intro\\n# 04 · Dot product\\n")
    >>> notebook_title(nbformat.v4.new_notebook(cells=[cell]), "x")
    '04 · Dot product'
    """
    for cell in nb.cells:
        if cell.cell_type != "markdown":
            continue
        for line in cell.source.splitlines():
            if line.startswith("# "):
                return line[2:].strip()
    return fallback


def page_name(path):
    return Path(path).stem + ".html"


def execute_notebook(path, timeout=600):
    """Run ``path`` top to bottom in a fresh kernel (its folder as working directory) and
    return the executed notebook, with the widget state stored in its metadata."""
    from nbclient import NotebookClient

    nb = nbformat.read(path, as_version=4)
    # IPC sockets instead of TCP: no "running over TCP without encryption" line per kernel
    client = NotebookClient(nb, timeout=timeout, kernel_name="python3",
                            config=_quiet_kernels().kernel_config(),
                            resources={"metadata": {"path": str(Path(path).parent)}},
                            store_widget_state=True, record_timing=False)
    # the kernel inherits the environment: an exported Agg backend would hide every figure
    env = {k: v for k, v in os.environ.items() if k != "MPLBACKEND"}
    client.execute(env=env)
    return nb


def _quiet_kernels():
    """tools/quiet_kernels.py, loaded by path (tools/ is not a package)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("quiet_kernels",
                                                  Path(__file__).with_name("quiet_kernels.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def load_notebooks(folder, execute, timeout=600, log=print):
    """Read (and with ``execute``, first run) every course notebook; returns (path, nb)."""
    paths = course_notebooks(folder)
    if not execute:
        return [(path, nbformat.read(path, as_version=4)) for path in paths]
    loaded = []
    with tempfile.TemporaryDirectory(prefix="course-html-") as tmp:
        copy = Path(tmp) / "notebooks"
        shutil.copytree(folder, copy, ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
        for path in paths:
            start = time.monotonic()
            nb = execute_notebook(copy / path.name, timeout=timeout)
            log(f"executed {path.name} in {time.monotonic() - start:.1f} s")
            loaded.append((path, nb))
    return loaded


# ----------------------------------------------------------------------------------------
# Dashboards' static fallback, from the stored widget state

def widget_models(nb):
    """model id → model entry (``model_name``, ``state``, ``buffers``) of the stored state."""
    return nb.metadata.get("widgets", {}).get(WIDGET_STATE, {}).get("state", {}) or {}


def _children(model):
    ids = model.get("state", {}).get("children", []) or []
    return [c[len("IPY_MODEL_"):] for c in ids if isinstance(c, str) and c.startswith("IPY_MODEL_")]


def _descendants(models, model_id):
    """The models below ``model_id`` (itself included), depth first, in display order."""
    found, stack, seen = [], [model_id], set()
    while stack:
        current = stack.pop(0)
        if current in seen or current not in models:
            continue
        seen.add(current)
        found.append(models[current])
        stack[:0] = _children(models[current])
    return found


def _image_data(model):
    for buffer in model.get("buffers", []) or []:
        if buffer.get("path") == ["value"] and buffer.get("encoding") == "base64":
            return buffer["data"]
    value = model.get("state", {}).get("value")
    if isinstance(value, str) and value:  # some versions store the bytes in the state
        return value
    return None


def dashboard_fallback(models, model_id, description=""):
    """HTML showing a dashboard's state without JavaScript, or None if it has no picture."""
    parts = _descendants(models, model_id)
    pictures = [(m, _image_data(m)) for m in parts if m.get("model_name") == "ImageModel"]
    pictures = [(m, data) for m, data in pictures if data]
    if not pictures:
        return None
    settings, readouts = [], []
    for model in parts:
        name, state = model.get("model_name", ""), model.get("state", {})
        if name.endswith("SliderModel") or name in ("DropdownModel", "ToggleButtonsModel",
                                                    "CheckboxModel", "ToggleButtonModel"):
            value = state.get("value")
            if "_options_labels" in state and isinstance(state.get("index"), int):
                labels = state["_options_labels"]
                value = labels[state["index"]] if state["index"] < len(labels) else value
            settings.append(f"{html.escape(str(state.get('description', '')))}: "
                            f"<strong>{html.escape(str(value))}</strong>")
        elif name == "HTMLModel" and state.get("value"):
            readouts.append(state["value"])  # the dashboard's own (escaped) readout markup
    lines = ['<div class="course-widget-fallback">',
             '<p class="course-fallback-note">Static picture at the dashboard\'s default '
             "setting (the live dashboard needs the widget renderer or a running kernel)."
             + (f" {html.escape(description)}" if description else "") + "</p>"]
    if settings:
        lines.append("<p>" + " · ".join(settings) + "</p>")
    for model, data in pictures:
        fmt = model.get("state", {}).get("format", "png") or "png"
        alt = f"{description} At its default setting." if description else \
            "The dashboard's picture at its default setting."
        lines.append(f'<img src="data:image/{html.escape(fmt)};base64,{data}" '
                     f'alt="{html.escape(alt)}">')
    lines += [f"<div>{readout}</div>" for readout in readouts]
    lines.append("</div>")
    return "\n".join(lines)


def add_fallbacks(page, nb):
    """Put a static fallback before every widget view script whose widget has a picture."""
    models = widget_models(nb)
    descriptions = {}
    for cell in nb.cells:
        for output in cell.get("outputs", []) if cell.cell_type == "code" else []:
            view = output.get("data", {}).get(WIDGET_VIEW)
            if view:
                descriptions[view.get("model_id")] = output["data"].get("text/plain", "")

    def replace(match):
        try:
            model_id = json.loads(match.group(1)).get("model_id")
        except json.JSONDecodeError:
            return match.group(0)
        description = descriptions.get(model_id, "")
        fallback = dashboard_fallback(models, model_id, description)
        if fallback is None and description:  # no picture (a practice box, a card deck): say so
            fallback = (f'<p class="course-widget-note">{html.escape(description)}</p>')
        return match.group(0) if fallback is None else fallback + "\n" + match.group(0)

    return VIEW_SCRIPT.sub(replace, page)


# ----------------------------------------------------------------------------------------
# Text alternatives for figures

SYMBOLS = {"div": "÷", "cdot": "·", "times": "×", "dots": "…", "ldots": "…", "cdots": "…",
           "theta": "θ", "sqrt": "√", "infty": "∞", "le": "≤", "ge": "≥", "approx": "≈",
           "to": "→", "lVert": "∥", "rVert": "∥", "top": "ᵀ", "sum": "Σ", "partial": "∂",
           "odot": "⊙", "in": "∈", "mid": "|", "quad": " ", ",": " "}
CAPTION = re.compile(r"^\s*\*Figure(?:\s+\d+)?[:.]\s*(.*?)\*\s*$", re.DOTALL)


def plain_caption(markdown):
    r"""The caption of a "*Figure: …*" paragraph as plain text for an ``alt`` (maths unwrapped).

    >>> plain_caption("*Figure: the arrow $\\mathbf{q}_1$ and its length.*")
    'the arrow q_1 and its length.'
    >>> plain_caption("*Figure 2. Two heads, $\\div\\sqrt{d_k}$.*\n\nMore text.")
    'Two heads, ÷√d_k.'
    """
    match = CAPTION.match(markdown.strip().split("\n\n")[0])  # the caption's paragraph
    if not match:
        return None
    text = re.sub(r"\\(?:mathbf|mathrm|operatorname|text|mathit|mathbb)\{([^}]*)\}", r"\1",
                  match.group(1))
    text = re.sub(r"\\([A-Za-z]+)\s?", lambda m: SYMBOLS.get(m.group(1), m.group(1)),
                  text.replace("$", ""))
    return " ".join(text.replace("{", "").replace("}", "").split())


def add_figure_alts(nb):
    """Give each figure output the caption under its cell as ``alt`` (image/png metadata);
    returns how many figures got one."""
    given = 0
    for index, cell in enumerate(nb.cells):
        if cell.cell_type != "code":
            continue
        following = nb.cells[index + 1] if index + 1 < len(nb.cells) else None
        caption = (plain_caption(following.source) if following is not None
                   and following.cell_type == "markdown" else None)
        for output in cell.get("outputs", []):
            if caption and "image/png" in output.get("data", {}):
                output.setdefault("metadata", {}).setdefault("image/png", {})["alt"] = caption
                given += 1
    return given


# ----------------------------------------------------------------------------------------
# Pages

def rewrite_links(page, names):
    """Links to course notebooks (``05_matrices.ipynb#x``) point to their pages instead."""
    def replace(match):
        target, fragment = match.group(2), match.group(3) or ""
        if target in names:
            return f'{match.group(1)}"{page_name(target)}{fragment}"'
        return match.group(0)

    return re.sub(r'(href=)"(?:\./)?([^"#/]+\.ipynb)(#[^"]*)?"', replace, page)


def navigation(entries, index):
    """The prev / contents / next bar of page ``index``."""
    parts = []
    if index > 0:
        prev = entries[index - 1]
        parts.append(f'<a rel="prev" href="{html.escape(prev["page"])}">'
                     f'← {html.escape(prev["title"])}</a>')
    else:
        parts.append("<span></span>")
    parts.append('<a rel="contents" href="index.html">Contents</a>')
    if index + 1 < len(entries):
        nxt = entries[index + 1]
        parts.append(f'<a rel="next" href="{html.escape(nxt["page"])}">'
                     f'{html.escape(nxt["title"])} →</a>')
    else:
        parts.append("<span></span>")
    return '<nav class="course-nav">' + "\n".join(parts) + "</nav>"


def export_page(nb, title, exporter):
    resources = {"metadata": {"name": title}}
    body, _ = exporter.from_notebook_node(nb, resources=resources)
    return body


def decorate(page, nav):
    """Add the course style and the navigation bar at the top and the bottom."""
    page = page.replace("</head>", PAGE_STYLE + "</head>", 1)
    top = nav.replace("<nav ", '<nav aria-label="Course pages (top)" ', 1)
    bottom = nav.replace("<nav ", '<nav aria-label="Course pages (bottom)" ', 1)
    page = re.sub(r"(<body[^>]*>)", lambda m: m.group(1) + "\n" + top, page, count=1)
    head, sep, tail = page.rpartition("</body>")
    assert sep, "nbconvert's page has no </body>"
    return head + bottom + "\n" + sep + tail


def contents_page(entries):
    items = "\n".join(f'<li><a href="{html.escape(e["page"])}">{html.escape(e["title"])}</a></li>'
                      for e in entries)  # the titles carry their numbers
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{COURSE_TITLE}: contents</title>
<style>
body {{ font-family: sans-serif; max-width: 50em; margin: 2em auto; padding: 0 1em;
  line-height: 1.5; color: #1b1b1b; background: #ffffff; }}
a {{ color: #0b57a4; }}
.course-contents {{ list-style: none; padding-left: 0; }}
.course-contents li {{ margin: 0.3em 0; }}
.course-note {{ border-left: 4px solid #E69F00; padding: 0.5em 1em; background: #fff8e6; }}
</style>
</head>
<body>
<h1>{COURSE_TITLE}</h1>
<p>Scaled dot-product attention, softmax(QKᵀ/√d_k)V, built from zero. The static edition of
the course's notebooks, in order:</p>
<ul class="course-contents">
{items}
</ul>
{CONNECTION_NOTE}
</body>
</html>
"""


def build(out_dir=DEFAULT_OUT, notebooks_dir=NOTEBOOKS, execute=True, timeout=600, log=print):
    """Write the edition into ``out_dir``; returns the pages as dicts (source, page, title)."""
    from nbconvert import HTMLExporter

    out_dir = Path(out_dir)
    loaded = load_notebooks(notebooks_dir, execute=execute, timeout=timeout, log=log)
    entries = [{"source": path.name, "page": page_name(path),
                "title": notebook_title(nb, path.stem), "nb": nb} for path, nb in loaded]
    names = {entry["source"] for entry in entries}
    exporter = HTMLExporter(template_name="course", extra_template_basedirs=[str(TEMPLATES)],
                            embed_images=True)
    if not (MATHJAX / "tex-chtml.js").is_file():
        raise FileNotFoundError(f"{MATHJAX} has no tex-chtml.js: the pages typeset their maths "
                                "with it (see vendor/mathjax/README.md)")
    if out_dir.exists():
        shutil.rmtree(out_dir)
    out_dir.mkdir(parents=True)
    shutil.copytree(MATHJAX, out_dir / "mathjax", ignore=shutil.ignore_patterns("*.md"))
    for index, entry in enumerate(entries):
        add_figure_alts(entry["nb"])
        page = export_page(entry["nb"], entry["title"], exporter)
        page = add_fallbacks(page, entry["nb"])
        page = rewrite_links(page, names)
        page = decorate(page, navigation(entries, index))
        (out_dir / entry["page"]).write_text(page, encoding="utf-8")
    (out_dir / "index.html").write_text(contents_page(entries), encoding="utf-8")
    log(f"wrote {len(entries)} pages and index.html to {out_dir}")
    return [{k: v for k, v in entry.items() if k != "nb"} for entry in entries]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT,
                        help="output folder (default: site/); emptied first")
    parser.add_argument("--notebooks", type=Path, default=NOTEBOOKS,
                        help="folder of NN_topic.ipynb notebooks (default: notebooks/)")
    parser.add_argument("--stored", action="store_true",
                        help="use the outputs stored in the notebooks instead of running them")
    parser.add_argument("--timeout", type=int, default=600,
                        help="seconds one cell may run (default 600)")
    args = parser.parse_args(argv)
    start = time.monotonic()
    build(args.out, args.notebooks, execute=not args.stored, timeout=args.timeout)
    print(f"open {args.out / 'index.html'}  ({time.monotonic() - start:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
