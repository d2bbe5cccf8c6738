"""The HTTP service: calculators, answer checks and notebook self-check, API and pages.

    from grader.service import Settings, create_app
    app = create_app(Settings(port=8080))   # then run it with uvicorn, or `grader serve`

Needs the ``service`` extra (FastAPI, uvicorn, Jinja2, python-multipart).
"""

from grader.service.app import create_app
from grader.service.settings import Settings

__all__ = ["Settings", "create_app"]
