"""Dashboard of notebook 01: two sliders move a 2-D vector's components; the arrow follows."""

from ..plots.style import course_style, detached_figure
from ..plots.vectors import draw_vector_scene, update_vector_scene
from ..text import fmt
from .base import Dashboard, float_slider

__all__ = ["vector_callback", "vector_dashboard", "vector_figure"]


def _steps(x, positive, negative):
    """'2.5 steps right' or, for a negative slot, '2.5 steps left' (one step, not steps)."""
    size = fmt(abs(x), 1)
    return f"{size} {'step' if size == '1.0' else 'steps'} {positive if x >= 0 else negative}"


def vector_callback(artists, q1, q2):
    """Move the arrow to q = [q1, q2] and return the readout line."""
    update_vector_scene(artists, (q1, q2))
    a, b = fmt(q1, 1), fmt(q2, 1)
    if q1 == 0 and q2 == 0:  # no arrow to describe, and no other order
        return f"q = [{a}, {b}]: the zero vector, a point at the origin with no direction."
    other = ("the same arrow, because the two slots are equal" if a == b
             else "a different arrow")
    return (f"q = [{a}, {b}]: {_steps(q1, 'right', 'left')}, {_steps(q2, 'up', 'down')}. "
            f"In the other order, [{b}, {a}] is {other}.")


def vector_figure(q1=3.0, q2=1.0, limit=5.0):
    """The dashboard's figure at one setting: ``(figure, artists)``."""
    with course_style():
        fig = detached_figure((5.2, 5.0))
        artists = draw_vector_scene((q1, q2), ax=fig.add_subplot(), limit=limit)
        fig.tight_layout()
    return fig, artists


def vector_dashboard(q1=3.0, q2=1.0, limit=5.0):
    """Sliders for q₁ and q₂ next to the arrow picture of q = [q₁, q₂]."""
    fig, artists = vector_figure(q1, q2, limit)
    controls = {
        "q1": float_slider("q₁: first slot (steps right)", q1, -limit + 1, limit - 1, 0.5),
        "q2": float_slider("q₂: second slot (steps up)", q2, -limit + 1, limit - 1, 0.5),
    }
    return Dashboard(fig, controls, lambda q1, q2: vector_callback(artists, q1, q2),
                     description=("[Vector dashboard: sliders for q₁ and q₂ move the arrow. "
                                  "Run the notebook to use it.]"),
                     artists=artists)
