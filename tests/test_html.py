"""The static HTML edition (`make html`, tools/build_html.py).

The edition is built once from the outputs stored in the notebooks (the same outputs nbval
checks against a fresh kernel), into a temporary folder; one test also builds from a fresh
run of a small notebook, the path `make html` takes by default.
"""

import importlib.util
import json
import re
import shutil
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"


def load_builder():
    spec = importlib.util.spec_from_file_location("build_html", ROOT / "tools" / "build_html.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


build_html = load_builder()


class PageParser(HTMLParser):
    """Collects links, images, element ids and rel= links of one page."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.links, self.images, self.ids, self.rel = [], [], set(), []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if attrs.get("id"):
            self.ids.add(attrs["id"])
        if tag == "a" and attrs.get("name"):
            self.ids.add(attrs["name"])
        if tag == "a" and "href" in attrs:
            self.links.append(attrs["href"])
            if attrs.get("rel"):
                self.rel.append((attrs["rel"], attrs["href"]))
        if tag == "img":
            self.images.append(attrs.get("src", ""))


def parse(path):
    parser = PageParser()
    parser.feed(path.read_text(encoding="utf-8"))
    return parser


def is_external(href):
    return urlsplit(href).scheme in ("http", "https", "mailto", "data", "javascript")


def image_outputs(nb):
    """How many figure outputs (PNG, JPEG, SVG) a notebook's code cells hold."""
    kinds = ("image/png", "image/jpeg", "image/svg+xml")
    return sum(any(kind in output.get("data", {}) for kind in kinds)
               for cell in nb.cells if cell.cell_type == "code"
               for output in cell.get("outputs", []))


def dashboard_views(nb):
    """The model ids of the widget views displayed by cells tagged `dashboard`."""
    return [output["data"][WIDGET_VIEW]["model_id"]
            for cell in nb.cells
            if cell.cell_type == "code" and "dashboard" in cell.metadata.get("tags", [])
            for output in cell.get("outputs", []) if WIDGET_VIEW in output.get("data", {})]


@pytest.fixture(scope="module")
def snapshot(tmp_path_factory):
    """A copy of notebooks/: the build and the checks read the same files."""
    copy = tmp_path_factory.mktemp("course") / "notebooks"
    shutil.copytree(NOTEBOOKS, copy, ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
    return copy


@pytest.fixture(scope="module")
def site(tmp_path_factory, snapshot):
    out = tmp_path_factory.mktemp("site")
    entries = build_html.build(out, snapshot, execute=False, log=lambda *args: None)
    return out, entries


@pytest.fixture(scope="module")
def notebooks(snapshot):
    paths = build_html.course_notebooks(snapshot)
    assert paths, "no course notebooks"
    return [(path, nbformat.read(path, as_version=4)) for path in paths]


def test_one_page_per_notebook_in_course_order(site, notebooks):
    out, entries = site
    assert [e["source"] for e in entries] == [path.name for path, _ in notebooks]
    for entry in entries:
        assert (out / entry["page"]).is_file(), entry["page"]
        assert entry["page"] == entry["source"].replace(".ipynb", ".html")
    contents = parse(out / "index.html")
    listed = [href for href in contents.links if href.endswith(".html")]
    assert listed == [e["page"] for e in entries], "contents page order"
    text = (out / "index.html").read_text(encoding="utf-8")
    for entry in entries:
        assert entry["title"] and entry["title"] != Path(entry["source"]).stem
        assert f">{entry['title']}<" in text.replace("&amp;", "&")


def test_every_page_has_its_title(site):
    out, entries = site
    assert entries
    for entry in entries:
        page = (out / entry["page"]).read_text(encoding="utf-8")
        title = re.search(r"<title>(.*?)</title>", page, re.DOTALL)
        assert title and title.group(1).strip() == entry["title"].replace("&", "&amp;"), \
            entry["page"]


def test_contents_page_says_what_reads_offline(site):
    out, _ = site
    text = " ".join((out / "index.html").read_text(encoding="utf-8").split())
    for words in ("no connection", "MathJax", "offline", "static picture", "static twin"):
        assert words in text, f"contents page does not mention {words!r}"


def test_no_page_loads_anything_from_the_network(site):
    """Scripts, stylesheets, fonts and images all come from the site (or are embedded)."""
    out, entries = site
    pages = [out / "index.html"] + [out / e["page"] for e in entries]
    loaded = re.compile(r'<(?:script|link|img|source|iframe)\b[^>]*\b(?:src|href)="([^"]+)"')
    for page in pages:
        text = page.read_text(encoding="utf-8")
        for url in loaded.findall(text):
            assert urlsplit(url).scheme in ("", "data"), f"{page.name} loads {url[:80]}"
        for url in re.findall(r"url\(['\"]?(https?:[^'\")]+)", text):
            raise AssertionError(f"{page.name}: a stylesheet loads {url}")
    assert (out / "mathjax" / "tex-chtml.js").is_file(), "the site carries no MathJax"
    first = (out / entries[0]["page"]).read_text(encoding="utf-8")
    assert 'src="mathjax/tex-chtml.js"' in first and "MathJax.Hub" not in first


def test_every_internal_link_resolves(site):
    out, entries = site
    pages = [out / "index.html"] + [out / e["page"] for e in entries]
    parsed = {page.name: parse(page) for page in pages}
    checked = 0
    for page in pages:
        for href in parsed[page.name].links:
            if is_external(href):
                continue
            parts = urlsplit(href)
            target = unquote(parts.path) or page.name
            assert not target.endswith(".ipynb"), f"{page.name}: link to a notebook: {href}"
            assert (out / target).is_file(), f"{page.name}: broken link {href}"
            if parts.fragment:  # browsers try the fragment as written, then percent-decoded
                ids = parsed[target].ids
                assert parts.fragment in ids or unquote(parts.fragment) in ids, \
                    f"{page.name}: {href} points to no element"
            checked += 1
    assert checked >= 3 * len(entries), f"only {checked} internal links seen"


def test_prev_and_next_links(site):
    out, entries = site
    names = [e["page"] for e in entries]
    assert len(names) >= 2
    for index, name in enumerate(names):
        rel = parse(out / name).rel
        prevs = [href for kind, href in rel if kind == "prev"]
        nexts = [href for kind, href in rel if kind == "next"]
        contents = [href for kind, href in rel if kind == "contents"]
        assert contents == ["index.html", "index.html"], f"{name}: contents links {contents}"
        expected_prev = [names[index - 1]] * 2 if index > 0 else []
        expected_next = [names[index + 1]] * 2 if index + 1 < len(names) else []
        assert prevs == expected_prev, f"{name}: prev links {prevs}"
        assert nexts == expected_next, f"{name}: next links {nexts}"


def test_every_page_shows_its_figures_embedded(site, notebooks):
    out, _ = site
    total = 0
    for path, nb in notebooks:
        images = parse(out / path.name.replace(".ipynb", ".html")).images
        embedded = [src for src in images if src.startswith("data:image/")]
        assert embedded == images, f"{path.name}: an image is not embedded: " \
            f"{[s[:60] for s in images if not s.startswith('data:image/')]}"
        wanted = image_outputs(nb) + len(dashboard_views(nb))
        assert len(embedded) >= wanted, f"{path.name}: {len(embedded)} images, want {wanted}"
        total += len(embedded)
    assert total > len(notebooks), "the edition has hardly any figures"


def test_widget_state_is_embedded(site, notebooks):
    out, _ = site
    with_widgets = 0
    for path, nb in notebooks:
        views = [output["data"][WIDGET_VIEW]["model_id"]
                 for cell in nb.cells if cell.cell_type == "code"
                 for output in cell.get("outputs", []) if WIDGET_VIEW in output.get("data", {})]
        if not views:
            continue
        with_widgets += 1
        page = (out / path.name.replace(".ipynb", ".html")).read_text(encoding="utf-8")
        match = re.search(r'<script type="application/vnd\.jupyter\.widget-state\+json">'
                          r"\s*(\{.*?\})\s*</script>", page, re.DOTALL)
        assert match, f"{path.name}: no widget state in the page"
        state = json.loads(match.group(1))["state"]
        for model_id in views:
            assert model_id in state, f"{path.name}: view {model_id} has no state"
            assert f'"model_id": "{model_id}"' in page
    assert with_widgets >= 4, "fewer dashboards than the course has"


def test_dashboards_have_a_static_fallback_picture(site, notebooks):
    out, _ = site
    dashboards = 0
    for path, nb in notebooks:
        views = dashboard_views(nb)
        if not views:
            continue
        page = (out / path.name.replace(".ipynb", ".html")).read_text(encoding="utf-8")
        fallbacks = re.findall(r'<div class="course-widget-fallback">(.*?)\n</div>', page,
                               re.DOTALL)
        assert len(fallbacks) >= len(views), f"{path.name}: a dashboard has no fallback"
        for fallback in fallbacks:
            assert '<img src="data:image/png;base64,' in fallback, path.name
        dashboards += len(views)
    assert dashboards >= 4


def test_worked_solutions_stay_folded_on_the_page(site, notebooks):
    """No answer before the attempt in the static edition either: every worked solution (its
    source hidden in the notebook) sits in a closed <details> block."""
    out, _ = site
    solutions = 0
    for path, nb in notebooks:
        hidden = [c for c in nb.cells if c.get("metadata", {}).get("jupyter", {})
                  .get("source_hidden")]
        page = (out / path.name.replace(".ipynb", ".html")).read_text(encoding="utf-8")
        folded = re.findall(r'<details class="course-solution">(.*?)</details>', page, re.DOTALL)
        assert len(folded) == len(hidden), f"{path.name}: {len(folded)} of {len(hidden)} folded"
        assert all("jp-InputArea" in block for block in folded), path.name  # the code inside
        solutions += len(hidden)
    assert solutions >= 30


def test_a_box_without_a_picture_says_what_it_is(site, notebooks):
    out, _ = site
    boxes = 0
    for path, nb in notebooks:
        practice = [c for c in nb.cells if "practice" in c.get("metadata", {}).get("tags", [])]
        if practice:
            page = (out / path.name.replace(".ipynb", ".html")).read_text(encoding="utf-8")
            notes = re.findall(r'<p class="course-widget-note">\[Another one', page)
            assert len(notes) == len(practice), path.name
            boxes += len(notes)
    assert boxes >= 10


# A 1×1 PNG: the figure whose caption the next test puts in its alt.
TINY_PNG = ("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAA"
            "AABJRU5ErkJggg==")


def test_a_caption_with_quotes_and_markup_characters_is_the_whole_alt(tmp_path):
    caption = """a "quoted" word, q < k & k > 0, it's 'here'"""
    nb = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_markdown_cell("# 01 · Alt text"),
        nbformat.v4.new_code_cell("draw()", outputs=[nbformat.v4.new_output(
            "display_data", data={"image/png": TINY_PNG, "text/plain": "<Figure>"})]),
        nbformat.v4.new_markdown_cell(f"*Figure: {caption}.*"),
    ])
    source = tmp_path / "notebooks"
    source.mkdir()
    nbformat.write(nb, source / "01_alt.ipynb")
    (entry,) = build_html.build(tmp_path / "site", source, execute=False, log=lambda *a: None)

    class Images(HTMLParser):
        def __init__(self):
            super().__init__(convert_charrefs=True)
            self.attrs = []

        def handle_starttag(self, tag, attrs):
            if tag == "img":
                self.attrs.append(attrs)

    parser = Images()
    parser.feed((tmp_path / "site" / entry["page"]).read_text(encoding="utf-8"))
    assert [dict(attrs) for attrs in parser.attrs] == [  # one image, these two attributes
        {"src": f"data:image/png;base64,{TINY_PNG}", "alt": f"{caption}."}]
    assert [len(attrs) for attrs in parser.attrs] == [2]


@pytest.mark.slow
def test_build_executes_the_notebooks(tmp_path):
    """The default path: run the notebooks in a copy, then write the pages from that run."""
    source = tmp_path / "notebooks"
    source.mkdir()
    chosen = [p for p in build_html.course_notebooks(NOTEBOOKS) if p.name.startswith("03_")]
    assert chosen, "notebook 03 is missing"
    stripped = nbformat.read(chosen[0], as_version=4)
    for cell in stripped.cells:
        if cell.cell_type == "code":
            cell.outputs, cell.execution_count = [], None
    stripped.metadata.pop("widgets", None)
    nbformat.write(stripped, source / chosen[0].name)
    before = (source / chosen[0].name).read_text(encoding="utf-8")
    out = tmp_path / "site"
    entries = build_html.build(out, source, execute=True, timeout=300, log=lambda *a: None)
    assert [e["source"] for e in entries] == [chosen[0].name]
    assert (source / chosen[0].name).read_text(encoding="utf-8") == before, \
        "the build must run a copy, never change the notebooks it reads"
    page = (out / entries[0]["page"]).read_text(encoding="utf-8")
    assert WIDGET_STATE in page, "the run did not record the widget state"
    assert 'class="course-widget-fallback"' in page
    images = [src for src in parse(out / entries[0]["page"]).images
              if src.startswith("data:image/")]
    assert len(images) >= image_outputs(nbformat.read(chosen[0], as_version=4)) + 1
    shutil.rmtree(out)
