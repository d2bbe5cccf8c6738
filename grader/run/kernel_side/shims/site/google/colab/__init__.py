"""A stand-in for Colab's `google.colab`, for notebooks graded outside Colab.

`drive` and `files` work as far as a grader can make them (see each); the rest of
Colab's package is not here, and importing it fails with a clear name.
"""
