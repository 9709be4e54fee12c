"""Accessibility inside JupyterLab: three dashboard notebooks, run in a real Lab in Chromium.

* An axe-core audit of the course's content in the notebook area (rendered markdown and
  every output: dashboards, self-test cards, printed text) finds no critical and no serious
  violation. Scope, and why: JupyterLab's own widgets inside the notebook (the code editors,
  the windowed cell list, the heading-collapse buttons) carry violations that only
  JupyterLab can fix, so the audit covers what the course renders. Matplotlib figure outputs
  are excluded from the ``image-alt`` rule only: JupyterLab 4's image renderer ignores an
  output's ``alt`` metadata (it passes width, height and background only), so no notebook can
  give them one there; the static edition does (tests/test_accessibility.py), and every
  figure has a caption right under it in the notebook. The same holds for the dashboards'
  ``ipywidgets.Image``: it has no alt trait, and its view fails to render at all when given a
  tooltip (ipywidgets 8.1: TypeError in ``updateTooltip``), so each dashboard's readout, a
  live region right under the picture, says what it shows. Likewise ipywidgets 8's slider handle
  (a noUiSlider ``div role="slider"``) gets no accessible name from the slider's description,
  which no Python setting can change: the handles are excluded from ``aria-input-field-name``
  only (they work from the keyboard, and each dashboard's readout, a live region, says the
  values).
* The self-test cards work from the keyboard alone and announce what happened.
"""

import os
import shutil

import browser_lab as lab
import pytest

pytestmark = pytest.mark.browser

ON_CI = os.environ.get("CI", "").lower() == "true"
NOTEBOOKS = ["04_dot_product.ipynb", "07_softmax.ipynb", "09_attention.ipynb"]
CONTENT = [".jp-OutputArea-output", ".jp-RenderedMarkdown"]
FIGURES = ".jp-RenderedImage[data-mime-type='image/png'] > img"
SLIDER_HANDLES = ".widget-slider [role='slider']"
# (rule, what is excluded from that rule only); see the module docstring for why
NARROWED = {"image-alt": f"{FIGURES}, .widget-image",
            "aria-input-field-name": SLIDER_HANDLES}


@pytest.fixture(scope="module")
def lab_page(tmp_path_factory):
    reason = lab.missing_requirements()
    if reason:
        if ON_CI:
            pytest.fail(f"CI=true: browser tests must run, but {reason}", pytrace=False)
        pytest.skip(reason)
    from playwright.sync_api import sync_playwright

    root = tmp_path_factory.mktemp("lab-a11y")
    (root / "notebooks").mkdir()
    source = lab.Path(__file__).resolve().parents[1] / "notebooks"
    for name in NOTEBOOKS:
        shutil.copyfile(source / name, root / "notebooks" / name)
        lab.strip_outputs(root / "notebooks" / name)
    with lab.LabServer(root) as server, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=lab.chromium_path(),
                                             args=lab.CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        yield server, page
        browser.close()


def audit(page):
    from axe_playwright_python.sync_playwright import Axe

    include = [[f"{lab.CURRENT_NOTEBOOK} {selector}"] for selector in CONTENT]
    runs = [({"rules": {rule: {"enabled": False} for rule in NARROWED}}, [])]
    runs += [({"runOnly": {"type": "rule", "values": [rule]}},
              [[f"{lab.CURRENT_NOTEBOOK} {selector}"]]) for rule, selector in NARROWED.items()]
    found = []
    for options, exclude in runs:
        result = Axe().run(page, context={"include": include, "exclude": exclude},
                           options=options).response
        found += [f"{v['id']} ({v['impact']}): {len(v['nodes'])} nodes, e.g. "
                  f"{v['nodes'][0]['target']}" for v in result["violations"]
                  if v["impact"] in ("critical", "serious")]
    return found


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_axe_finds_nothing_critical_or_serious_in_the_course_content(lab_page, name):
    server, page = lab_page
    lab.open_notebook(page, server, f"notebooks/{name}")
    state = lab.run_all(page)
    assert not [o for c in state["cells"] for o in c["outputs"] if "error" in str(o)[:30]]
    outputs = page.locator(f"{lab.CURRENT_NOTEBOOK} .jp-OutputArea-output").count()
    assert outputs >= 5, f"{name}: only {outputs} outputs rendered"
    broken = page.locator(f"{lab.CURRENT_NOTEBOOK} .jupyter-widgets-error-widget").count()
    assert broken == 0, f"{name}: {broken} widgets failed to render"
    found = audit(page)
    assert not found, f"{name}: axe-core found:\n" + "\n".join(found)


def test_self_test_cards_work_from_the_keyboard(lab_page):
    server, page = lab_page
    lab.open_notebook(page, server, f"notebooks/{NOTEBOOKS[0]}")
    lab.run_all(page)
    show = page.locator(f"{lab.CURRENT_NOTEBOOK} button[title='Show the answer to card 1']")
    show.scroll_into_view_if_needed()
    show.focus()
    page.keyboard.press("Enter")
    status = page.locator(f"{lab.CURRENT_NOTEBOOK} [role='status']",
                          has_text="Answer to card 1 shown")
    status.wait_for(timeout=10_000)
    assert status.get_attribute("aria-live") == "polite"
    page.keyboard.press("Tab")  # "I knew it", then Space presses it
    page.keyboard.press("Space")
    tally = page.locator(f"{lab.CURRENT_NOTEBOOK} [role='status']", has_text="Knew 1 of")
    tally.wait_for(timeout=10_000)
