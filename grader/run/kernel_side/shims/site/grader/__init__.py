"""Stand-in for the `grader` package inside a sandboxed kernel.

Students are told to self-check from their notebook (`import grader.notebook as grader`,
then `grader.check("q1c")`), and they hand the notebook in with those cells still in it.
The sandbox hides the real grader from the kernel (its code and packs are the
grader's, not the student's), so without this package such a cell would fail with
`ModuleNotFoundError`, and every later `grader.check` line with it. Here the call does
what the real `check` does inside a grader's own run: nothing, and says so.
"""
