"""The static edition read offline, in Chromium: every page from a local server, every other
request refused. Every formula is typeset by the site's own MathJax (no raw ``$`` left in the
prose), the fonts load, the dashboards' static pictures show, and the pages link up."""

import functools
import http.server
import importlib.util
import os
import shutil
import threading
from pathlib import Path

import browser_lab as lab
import pytest

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"
ON_CI = os.environ.get("CI", "").lower() == "true"

pytestmark = pytest.mark.browser


def load_builder():
    spec = importlib.util.spec_from_file_location("build_html", ROOT / "tools" / "build_html.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    reason = lab.missing_requirements()
    if reason:
        if ON_CI:
            pytest.fail(f"CI=true: browser tests must run, but {reason}", pytrace=False)
        pytest.skip(reason)
    root = tmp_path_factory.mktemp("offline")
    shutil.copytree(NOTEBOOKS, root / "notebooks",
                    ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
    entries = load_builder().build(root / "site", root / "notebooks", execute=False,
                                   log=lambda *args: None)
    handler = functools.partial(_QuietHandler, directory=str(root / "site"))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}", entries
    server.shutdown()
    server.server_close()


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def offline_page(site):
    from playwright.sync_api import sync_playwright

    base, _ = site
    asked = {"outside": [], "failed": []}

    def offline(route):
        if route.request.url.startswith(base + "/"):
            return route.continue_()
        asked["outside"].append(route.request.url)
        return route.abort()

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=lab.chromium_path(),
                                             args=lab.CHROMIUM_ARGS)
        context = browser.new_context(viewport={"width": 1200, "height": 900})
        context.route("**/*", offline)
        page = context.new_page()
        page.on("requestfailed", lambda request: asked["failed"].append(
            f"{request.url} ({request.failure})"))
        page.on("response", lambda response: response.status >= 400
                and asked["failed"].append(response.url))
        yield page, asked
        context.close()
        browser.close()


TYPESET = """async () => {
    await window.MathJax.startup.promise;
    await document.fonts.ready;
    const prose = [...document.querySelectorAll('.jp-MarkdownCell .jp-RenderedHTMLCommon')];
    const raw = [];
    for (const cell of prose) {
        const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT, {acceptNode: n =>
            n.parentElement.closest('code, pre, mjx-container, script, style')
                ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT});
        while (walker.nextNode()) {
            if (walker.currentNode.textContent.includes('$')) {
                raw.push(walker.currentNode.textContent.trim().slice(0, 80));
            }
        }
    }
    const errors = [...document.querySelectorAll('mjx-merror, [data-mjx-error]')]
        .map(e => e.getAttribute('data-mjx-error') || e.textContent);
    return {formulas: document.querySelectorAll('mjx-container').length, raw, errors,
            fonts: [...document.fonts].filter(f => f.status === 'loaded').length};
}"""


def test_every_formula_is_typeset_offline(site, offline_page):
    base, entries = site
    page, asked = offline_page
    total = 0
    assert entries
    for entry in entries:
        page.goto(f"{base}/{entry['page']}")
        page.wait_for_load_state("load")
        found = page.evaluate(TYPESET)
        assert not found["raw"], f"{entry['page']}: untypeset maths: {found['raw'][:3]}"
        assert not found["errors"], f"{entry['page']}: TeX errors: {found['errors'][:3]}"
        if found["formulas"]:
            assert found["fonts"] > 0, f"{entry['page']}: MathJax's fonts did not load"
        total += found["formulas"]
    assert total >= 100, f"only {total} formulas in the whole edition"
    assert not asked["outside"], f"requests to the network: {asked['outside'][:5]}"
    assert not asked["failed"], f"requests that failed: {asked['failed'][:5]}"


def test_dashboards_show_their_static_picture_and_pages_link_up(site, offline_page):
    base, entries = site
    page, asked = offline_page
    page.goto(f"{base}/index.html")
    first = next(e for e in entries if e["source"].startswith("04_"))
    page.click(f"a[href='{first['page']}']")
    page.wait_for_load_state("load")
    assert page.url.endswith(first["page"])
    fallback = page.locator(".course-widget-fallback").first
    fallback.scroll_into_view_if_needed()
    assert fallback.is_visible(), "the dashboard's static picture is hidden offline"
    widths = page.evaluate("() => [...document.querySelectorAll('img')].map(i => i.naturalWidth)")
    assert widths and all(w > 0 for w in widths), f"images that did not load: {widths}"
    following = entries[entries.index(first) + 1]
    page.locator("nav.course-nav a[rel='next']").first.click()
    page.wait_for_load_state("load")
    assert page.url.endswith(following["page"])
    assert not asked["outside"], f"requests to the network: {asked['outside'][:5]}"
