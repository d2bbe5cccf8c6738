"""`grader.check(...)` left in a handed-in notebook: a no-op while the grader runs it.

Mirrors the signature of the real `grader.notebook.check` (any keyword is accepted, so a
student's call never fails here on an argument the real one takes), prints one
`[grader shim]` note on stderr (the record lists it under `run.shims`) and returns a
value that shows the same words in the notebook.
"""

import sys

NOTE = "[grader shim] "
MESSAGE = ("grader.check does nothing inside the grader's own run of the notebook: "
           "every question is checked by the grader itself.")


class QuestionCheck:
    """What `check` returns: it displays itself as one line, in text and in HTML."""

    def __init__(self, question):
        self.question = question
        self.status = "not run"
        self.message = MESSAGE

    def __repr__(self):
        return f"{self.question}: not run. {MESSAGE}"

    def _repr_html_(self):
        import html

        return f"<p><b>{html.escape(str(self.question))}</b>: not run. {html.escape(MESSAGE)}</p>"


def check(question, notebook=None, **_options):
    print(f"{NOTE}grader.check({question!r}) skipped: {MESSAGE}", file=sys.stderr, flush=True)
    return QuestionCheck(question)
