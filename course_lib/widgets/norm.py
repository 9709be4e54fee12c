"""Dashboard of notebook 02: sliders on q's components; the triangle, squares and length
follow."""

from .. import norm
from ..plots.norm import draw_pythagoras, update_pythagoras
from ..plots.notation import bracketed
from ..plots.style import course_style, detached_figure
from ..text import fmt
from .base import Dashboard, float_slider

__all__ = ["norm_callback", "norm_dashboard", "norm_figure"]


def norm_callback(artists, q1, q2):
    """Redraw the Pythagoras picture for q = [q1, q2]; return ∥q∥ written out."""
    update_pythagoras(artists, (q1, q2))
    length = float(norm([q1, q2]))
    return (f"∥q∥ = √(q₁² + q₂²) = √({bracketed(q1, 1)}² + {bracketed(q2, 1)}²) "
            f"= {fmt(length, 3)}")


def norm_figure(q1=3.0, q2=4.0, limit=4.0):
    """The dashboard's figure at one setting: ``(figure, artists)``. The view reaches twice
    the slider range, so the squares on the legs always fit."""
    with course_style():
        fig = detached_figure((5.4, 5.2))
        artists = draw_pythagoras((q1, q2), ax=fig.add_subplot(), limit=2 * limit + 0.5)
        fig.tight_layout()
    return fig, artists


def norm_dashboard(q1=3.0, q2=4.0, limit=4.0):
    """Sliders for q₁ and q₂ (each from −limit to limit) beside the Pythagoras picture."""
    fig, artists = norm_figure(q1, q2, limit)
    controls = {
        "q1": float_slider("q₁: first slot (steps right)", q1, -limit, limit, 0.5),
        "q2": float_slider("q₂: second slot (steps up)", q2, -limit, limit, 0.5),
    }
    return Dashboard(fig, controls, lambda q1, q2: norm_callback(artists, q1, q2),
                     description=("[Norm dashboard: sliders for q₁ and q₂ reshape the triangle. "
                                  "Run the notebook to use it.]"),
                     artists=artists)
