"""Geometry for small inline SVG line charts (accuracy per epoch), no plotting library.

Reports must be one self-contained file that prints well, so a chart is a few SVG
elements inside the HTML. This module only computes coordinates; the markup lives in
`templates/report/_macros.html.j2` (macro `line_chart`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

PALETTE = ("#1f6feb", "#d9480f", "#2b8a3e", "#862e9c", "#e67700", "#0b7285")
"""Colour per series; also told apart by dash pattern so a grey printout stays readable."""
DASHES = ("", "6 3", "2 3", "8 3 2 3", "4 4", "1 2")


@dataclass
class Series:
    name: str
    points: list[tuple[float, float]]
    """(x, y) in pixels."""
    color: str
    dash: str
    values: list[float]

    @property
    def path(self) -> str:
        return " ".join(f"{'M' if i == 0 else 'L'}{x:.1f},{y:.1f}"
                        for i, (x, y) in enumerate(self.points))


@dataclass
class LineChart:
    width: int
    height: int
    left: int
    top: int
    right: int
    bottom: int
    title: str
    series: list[Series]
    x_ticks: list[tuple[float, str]]
    y_ticks: list[tuple[float, str]]
    hlines: list[dict[str, Any]] = field(default_factory=list)
    """Horizontal reference lines: {"y": px, "label": str, "color": str}."""
    markers: list[dict[str, Any]] = field(default_factory=list)
    """Single points: {"x": px, "y": px, "label": str, "color": str}."""


def line_chart(series: dict[str, list[float]], *, title: str = "", y_min: float = 0.0,
               y_max: float = 1.0, hlines: dict[str, float] | None = None,
               markers: dict[str, tuple[float, float]] | None = None,
               width: int = 360, height: int = 200) -> LineChart:
    """Place `series` (name -> y per epoch, epochs 1..n) in a width x height box.

    >>> c = line_chart({"train": [0.5, 1.0]}); c.series[0].points[-1][1] == c.top
    True
    """
    left, right, top, bottom = 40, width - 12, 22, height - 30
    n = max((len(v) for v in series.values()), default=1)
    ys = [y for v in series.values() for y in v if y is not None]
    ys += list((hlines or {}).values()) + [y for _, y in (markers or {}).values()]
    lo, hi = min([y_min, *ys]), max([y_max, *ys])
    if hi - lo < 1e-12:
        hi = lo + 1.0

    def px(epoch: float) -> float:
        return left + (right - left) * ((epoch - 1) / (n - 1) if n > 1 else 0.5)

    def py(y: float) -> float:
        return bottom - (bottom - top) * (y - lo) / (hi - lo)

    out = []
    for i, (name, values) in enumerate(series.items()):
        pts = [(px(e), py(y)) for e, y in enumerate(values, 1) if y is not None]
        out.append(Series(name, pts, PALETTE[i % len(PALETTE)], DASHES[i % len(DASHES)],
                          [y for y in values if y is not None]))
    step = max(1, n // 8)
    x_ticks = [(px(e), str(e)) for e in range(1, n + 1, step)]
    y_ticks = [(py(lo + (hi - lo) * k / 4), f"{lo + (hi - lo) * k / 4:.2f}") for k in range(5)]
    chart_hlines = [{"y": py(v), "label": f"{label} {v:.2f}", "color": "#868e96"}
                    for label, v in (hlines or {}).items()]
    chart_markers = [{"x": px(e), "y": py(v), "label": f"{label} {v:.3f}", "color": "#c92a2a"}
                     for label, (e, v) in (markers or {}).items()]
    return LineChart(width, height, left, top, right, bottom, title, out, x_ticks, y_ticks,
                     chart_hlines, chart_markers)
