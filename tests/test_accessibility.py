"""Accessibility of the static edition: an axe-core audit of every page (axe-core bundled with
axe-playwright-python, run in Chromium) finds no critical and no serious violation, and every
figure carries a text alternative taken from its caption."""

import functools
import http.server
import importlib.util
import os
import shutil
import threading
from html.parser import HTMLParser
from pathlib import Path

import browser_lab as lab
import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"
ON_CI = os.environ.get("CI", "").lower() == "true"
PLACEHOLDERS = ("No description has been provided", "Figure (no caption)")


def load_builder():
    spec = importlib.util.spec_from_file_location("build_html", ROOT / "tools" / "build_html.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    root = tmp_path_factory.mktemp("a11y")
    shutil.copytree(NOTEBOOKS, root / "notebooks",
                    ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
    builder = load_builder()
    entries = builder.build(root / "site", root / "notebooks", execute=False,
                            log=lambda *args: None)
    return root / "site", root / "notebooks", entries, builder


class Images(HTMLParser):
    """Every <img> of a page, as its list of (attribute, value) pairs, entities decoded."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.images = []

    def handle_starttag(self, tag, attrs):
        if tag == "img":
            self.images.append(attrs)


def page_images(path):
    parser = Images()
    parser.feed(path.read_text(encoding="utf-8"))
    return parser.images


def expected_alts(nb, plain_caption):
    """{PNG data: the caption under its cell, as plain text} for the figures of ``nb``, and the
    words of its dashboards (the static picture of each says which dashboard it shows)."""
    figures, dashboards = {}, set()
    for index, cell in enumerate(nb.cells):
        if cell.cell_type != "code":
            continue
        following = nb.cells[index + 1] if index + 1 < len(nb.cells) else None
        caption = (plain_caption(following.source)
                   if following is not None and following.cell_type == "markdown" else None)
        for output in cell.get("outputs", []):
            data = output.get("data", {})
            if "image/png" in data:
                figures["".join(data["image/png"].split())] = caption
            if "application/vnd.jupyter.widget-view+json" in data and data.get("text/plain"):
                dashboards.add(data["text/plain"])
    return figures, dashboards


def test_every_figure_has_its_caption_in_full_as_alt(built):
    site, notebooks, entries, builder = built
    figures_seen = 0
    for entry in entries:
        nb = nbformat.read(notebooks / entry["source"], as_version=4)
        figures, dashboards = expected_alts(nb, builder.plain_caption)
        images = page_images(site / entry["page"])
        for attrs in images:
            names = [name for name, _ in attrs]
            assert sorted(names) == ["alt", "src"], \
                f"{entry['page']}: an image with attributes {names[:12]} (an alt cut short?)"
            values = dict(attrs)
            alt, src = values["alt"], "".join(values["src"].split())
            assert alt and alt.strip(), f"{entry['page']}: an image without alt"
            assert not alt.startswith(PLACEHOLDERS), \
                f"{entry['page']}: a figure without a caption to describe it"
            data = src.removeprefix("data:image/png;base64,")
            if data in figures:
                assert alt == figures[data], f"{entry['page']}: alt {alt!r} is not the " \
                    f"caption {figures[data]!r}"
                figures_seen += 1
            else:  # a dashboard's static picture
                assert alt in {f"{words} At its default setting." for words in dashboards}, \
                    f"{entry['page']}: alt {alt!r} names no dashboard of the notebook"
    assert figures_seen >= 30, f"only {figures_seen} figures in the edition"


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@pytest.mark.browser
def test_axe_finds_nothing_critical_or_serious(built):
    reason = lab.missing_requirements()
    if reason:
        if ON_CI:
            pytest.fail(f"CI=true: the audit must run, but {reason}", pytrace=False)
        pytest.skip(reason)
    from axe_playwright_python.sync_playwright import Axe
    from playwright.sync_api import sync_playwright

    site, _, entries, _ = built
    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(_Quiet, directory=str(site)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}"
    axe, found, audited = Axe(), [], 0
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=lab.chromium_path(),
                                                 args=lab.CHROMIUM_ARGS)
            page = browser.new_page()
            for name in ["index.html"] + [e["page"] for e in entries]:
                page.goto(f"{base}/{name}")
                page.wait_for_load_state("load")
                page.evaluate("async () => { if (window.MathJax) "
                              "{ await window.MathJax.startup.promise; } }")
                result = axe.run(page).response
                audited += 1
                for violation in result["violations"]:
                    if violation["impact"] in ("critical", "serious"):
                        found.append(f"{name}: {violation['id']} ({violation['impact']}) on "
                                     f"{len(violation['nodes'])} nodes, e.g. "
                                     f"{violation['nodes'][0]['target']}")
            browser.close()
    finally:
        server.shutdown()
        server.server_close()
    assert audited == len(entries) + 1
    assert not found, "axe-core found:\n" + "\n".join(found)
