# nbgrader course configuration for the anchor benchmark (benchmarks/bench_anchors.py).
# The benchmark copies this course folder to a scratch directory, generates the release
# notebook from source/, fills in one submission per student under
# submitted/<student>/stat8021-a3/, and times `nbgrader autograde stat8021-a3`.
# Why these settings: they match our pack's limits where nbgrader has a counterpart
# (60 s per cell) and keep everything else at nbgrader's defaults, as a course would.
c = get_config()  # noqa: F821  (injected by traitlets when nbgrader loads this file)

c.CourseDirectory.course_id = "stat8021"
c.CourseDirectory.db_url = "sqlite:///gradebook.db"
c.Execute.timeout = 60
