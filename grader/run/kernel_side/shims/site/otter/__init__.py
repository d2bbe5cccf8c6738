"""Stand-in for otter-grader's notebook API inside a sandboxed kernel.

A course that moves from otter-grader hands out notebooks that start with
`import otter; grader = otter.Notebook("hw.ipynb")` and call `grader.check("q1")`,
`grader.check_all()` and `grader.export()`; students hand them in with those cells. The
grader's kernel has no otter (and no network to fetch its tests), so each of those
calls is a no-op here that prints one `[grader shim]` note: the grader checks every
question itself, and a student's cells after them still run. Only the calls that a
student notebook makes are provided; anything else raises AttributeError as usual.
"""

import sys

NOTE = "[grader shim] "


def _note(call):
    print(f"{NOTE}otter {call} skipped: this notebook is graded by transformer-grader, "
          "which checks every question itself.", file=sys.stderr, flush=True)


class Notebook:
    """`otter.Notebook(nb_path=None, tests_dir="./tests", ...)`: every method a no-op."""

    def __init__(self, nb_path=None, tests_dir="./tests", tests_url_prefix=None, **_kw):
        self._path = nb_path
        _note(f"Notebook({nb_path!r})")

    def check(self, question, global_env=None):
        _note(f"check({question!r})")

    def check_all(self):
        _note("check_all()")

    def export(self, nb_path=None, export_path=None, pdf=True, filtering=True, **_kw):
        _note("export()")

    def to_pdf(self, nb_path=None, filtering=True, **_kw):
        _note("to_pdf()")

    def submit(self, *_a, **_kw):
        _note("submit()")

    def run_plugin(self, plugin_name, *_a, **_kw):
        _note(f"run_plugin({plugin_name!r})")

    def add_plugin_files(self, plugin_name, *_a, **_kw):
        _note(f"add_plugin_files({plugin_name!r})")
