"""The one pattern every dashboard follows.

A dashboard draws its figure once, into a figure pyplot does not know about. At every
slider move its *callback*, a plain function ``callback(**values) -> str``, asks the math
for numbers, moves the figure's artists in place and returns the readout text; the dashboard
then redraws only those artists over the kept background and sends the PNG to an
``ipywidgets.Image``. No full re-plot, no flicker, and
no ``<Figure size ...>`` text leaking into the notebook's stored output.

Tests drive a dashboard without a browser: set ``dash.controls["name"].value`` (observers
fire at once) and read ``dash.readout.value``, ``dash.image.value`` and the artists.
"""

import asyncio
import itertools

import ipywidgets as widgets

from ..plots.fast_render import FastRenderer

__all__ = ["COLUMN_PX", "Dashboard", "float_slider", "int_slider"]

_SLIDER_STYLE = {"description_width": "18em"}  # room for "symbol: what it changes (units)"
_SLIDER_LAYOUT = {"width": "40em"}
# The notebook column's width in CSS pixels (964 in a Lab window 1400 pixels wide, sidebar
# closed). A picture wider than this is sent at this width: the browser would shrink it
# anyway, after decoding every pixel of it.
COLUMN_PX = 960


def float_slider(description, value, min, max, step, readout_format=".1f"):
    """A slider for a real number. The description says what it changes, in which units."""
    return widgets.FloatSlider(value=value, min=min, max=max, step=step,
                               description=description, readout_format=readout_format,
                               continuous_update=True, style=_SLIDER_STYLE,
                               layout=_SLIDER_LAYOUT)


def int_slider(description, value, min, max, step=1):
    """A slider for a whole number. The description says what it changes."""
    return widgets.IntSlider(value=value, min=min, max=max, step=step, description=description,
                             continuous_update=True, style=_SLIDER_STYLE, layout=_SLIDER_LAYOUT)


class Dashboard(widgets.VBox):
    """Controls, a picture and a readout line, wired together.

    Parameters
    ----------
    figure : a matplotlib Figure from :func:`course_lib.plots.style.detached_figure`.
    controls : dict name → value widget (sliders, dropdowns); the names are the callback's
        keyword arguments.
    callback : function(**values) -> str. Moves the artists for these values and returns
        the readout (plain text, Unicode maths).
    description : what a reader without a live kernel sees instead of the dashboard (the
        widget's plain-text form); at most 110 characters (ipywidgets cuts longer ones).
    artists : the dict of artists the callback moves. Only these are redrawn at each move
        (see :class:`course_lib.plots.fast_render.FastRenderer`); tests inspect them.
    keep_frames : for a dashboard with few combinations of values and a picture that
        depends on the values alone: each picture is drawn the first time, and a move back to
        it only sends it again (the callback still runs and moves the artists). In a kernel
        (a running event loop) the pictures of the other values are drawn ahead while the
        kernel waits, one per turn of its loop, nearest values first (see
        :meth:`draw_ahead`): a learner's move then only sends its picture.
    """

    def __init__(self, figure, controls, callback, description, artists=None,
                 keep_frames=False):
        self.controls = dict(controls)
        # ipywidgets' Image has no alt, and its view fails to render when given a tooltip
        # (ipywidgets 8.1): the readout below, a live region, says what the picture shows
        # shown at its own size (a flex box would stretch a small one to the column, blurred),
        # or shrunk to fit a narrow column
        self.image = widgets.Image(format="png",
                                   layout={"max_width": "100%", "align_self": "flex-start"})
        self.readout = widgets.HTML(layout={"margin": "0 0 0 1em"})
        self.image.add_class("course-picture")  # CSS classes the browser tests select on
        self.readout.add_class("course-readout")
        super().__init__(children=[*self.controls.values(), self.image, self.readout])
        # the same picture, every size in points scaled alike, at most COLUMN_PX wide
        figure.set_dpi(min(figure.dpi, COLUMN_PX / figure.get_figwidth()))
        self.figure = figure
        self.callback = callback
        self.description = description
        self.artists = artists
        # kept frames are drawn ahead of the move: they can afford a palette, half the bytes
        self.renderer = FastRenderer(figure, artists if artists is not None else [],
                                     palette=keep_frames)
        self._frames = {} if keep_frames else None
        for control in self.controls.values():
            control.observe(self._on_change, names="value")
        self.refresh()
        if self._frames is not None:
            self._draw_ahead_later()

    def values(self):
        """The controls' current values, as the callback's keyword arguments."""
        return {name: control.value for name, control in self.controls.items()}

    def refresh(self):
        """Run the callback for the current values, then send the new picture."""
        text = self.callback(**self.values())
        # a polite live region: a screen reader reads the new numbers after every move
        self.readout.value = (f"<span role='status' aria-live='polite' "
                              f"style='font-size: 1.15em'>{_escape(text)}</span>")
        if self._frames is None:
            self.image.value = self.renderer.render()
            return
        key = _frame_key(self.values())
        if key not in self._frames:
            self._frames[key] = self.renderer.render()
        self.image.value = self._frames[key]

    def draw_ahead(self):
        """Draw one kept picture not drawn yet, the nearest to the current values; return
        False when every one is kept (or the controls' values cannot be listed). The artists
        are moved back to the current values afterwards."""
        if self._frames is None:
            return False
        missing = [combo for combo in self._combinations() if _frame_key(combo) not in self._frames]
        if not missing:
            return False
        now = self.values()
        combo = min(missing, key=lambda c: sum(self._distance(name, value, now[name])
                                               for name, value in c.items()))
        self.callback(**combo)
        self._frames[_frame_key(combo)] = self.renderer.render()
        self.callback(**now)  # the artists as the picture shown says
        return True

    def _combinations(self):
        """Every combination of the controls' values (dicts), or [] if one cannot be listed."""
        choices = []
        for control in self.controls.values():
            values = _control_values(control)
            if values is None:
                return []
            choices.append(values)
        return [dict(zip(self.controls, combo, strict=True))
                for combo in itertools.product(*choices)]

    def _distance(self, name, value, now):
        values = _control_values(self.controls[name])
        return abs(values.index(value) - values.index(now)) if now in values else 0

    def _draw_ahead_later(self, delay=0.5):
        """Where an event loop runs (a kernel), draw the kept pictures ahead, one per turn
        of the loop, once the kernel has run no cell for ``delay`` seconds; elsewhere (tests,
        scripts) pictures are drawn at the move. A "Run all" thus finishes first: a picture
        drawn between two of its cells would only delay the next one."""
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        cells_run = _cells_run_counter()
        seen = cells_run()

        def step():
            nonlocal seen
            if cells_run() != seen:  # a cell ran since the last step: wait for a quiet kernel
                seen = cells_run()
                loop.call_later(delay, step)
                return
            try:
                more = self.draw_ahead()
            except Exception:  # the same error shows at the move that needs this picture
                return
            if more:
                loop.call_later(0.02, step)

        loop.call_later(delay, step)

    def readout_text(self):
        """The readout as plain text (what the callback returned last)."""
        return _unescape(self.readout.value.split(">", 1)[1].rsplit("<", 1)[0])

    def _on_change(self, change):
        self.refresh()

    def __repr__(self):
        # The plain-text form shown where widgets cannot render (and compared by nbval).
        return self.description


def _cells_run_counter():
    """A function that returns how many cells IPython has run so far (always 0 outside
    IPython): its execution count, which every executed cell moves on."""
    try:
        from IPython import get_ipython
    except ImportError:
        return lambda: 0
    shell = get_ipython()
    if shell is None:
        return lambda: 0
    return lambda: shell.execution_count


def _frame_key(values):
    """The key a kept picture is stored under: the controls' values, in name order."""
    return tuple(sorted(values.items()))


def _control_values(control):
    """The values a control can take, in order, or None where they cannot be listed."""
    if isinstance(control, widgets.IntSlider):
        return list(range(control.min, control.max + 1, control.step))
    if isinstance(control, widgets.FloatSlider):
        count = round((control.max - control.min) / control.step)
        return [round(control.min + k * control.step, 12) for k in range(count + 1)]
    if isinstance(control.value, bool):
        return [False, True]
    options = getattr(control, "_options_values", None)
    return list(options) if options is not None else None


def _escape(text):
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _unescape(text):
    return text.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")
