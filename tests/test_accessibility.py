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
    entries = load_builder().build(root / "site", root / "notebooks", execute=False,
                                   log=lambda *args: None)
    return root / "site", entries


class Images(HTMLParser):
    def __init__(self):
        super().__init__()
        self.alts = []

    def handle_starttag(self, tag, attrs):
        if tag == "img":
            self.alts.append(dict(attrs).get("alt"))


def test_every_figure_has_a_text_alternative(built):
    site, entries = built
    count = 0
    for entry in entries:
        parser = Images()
        parser.feed((site / entry["page"]).read_text(encoding="utf-8"))
        for alt in parser.alts:
            assert alt and alt.strip(), f"{entry['page']}: an image without alt"
            assert not alt.startswith(PLACEHOLDERS), \
                f"{entry['page']}: a figure without a caption to describe it"
            count += 1
    assert count >= 30, f"only {count} images in the edition"


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

    site, entries = built
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
