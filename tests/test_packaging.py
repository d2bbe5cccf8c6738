"""Every Python package of the source tree ships in the wheel.

setuptools takes the explicit `[tool.setuptools] packages` list: a new subpackage left
out of it imports in the checkout and is missing from an installed wheel (found when
`grader.evaluate` was added: test_wheel.py caught it, but only in the heavy tier).
The kernel-side shims are data files sent into kernels, not packages of the grader.
"""

from __future__ import annotations

import tomllib

from tests.conftest import ROOT

SHIPPED_AS_DATA = ("grader.run.kernel_side.shims.site",)


def test_the_wheel_lists_every_package_of_the_tree():
    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text())
                 ["tool"]["setuptools"]["packages"])
    found = {".".join(p.parent.relative_to(ROOT).parts)
             for top in ("grader", "calculators") for p in (ROOT / top).rglob("__init__.py")}
    found = {p for p in found if not p.startswith(SHIPPED_AS_DATA)}
    assert found - listed == set(), "add these to [tool.setuptools] packages"
