"""Evaluation outside the student's process: a clean evaluator for Part 2's models.

`clean.py` is the script that runs in a fresh sandboxed process (it imports nothing of
the grader); `launch.py` starts it from the grader with the pack's environment and reads
what it wrote back.
"""
