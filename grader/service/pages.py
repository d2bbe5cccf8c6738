"""Server-rendered pages: calculator, answer checks, notebook upload; no script needed.

Forms post back to the page, which calls the same code as the JSON API (the compute
workers, the self-check queue), so a page can never disagree with the API. Errors
are shown on the page next to the form, naming the field, with a 4xx status.
A finished self-check's report is plain HTML; a queued one refreshes itself with
``<meta http-equiv="refresh">``, which works without JavaScript.
"""

from __future__ import annotations

import json
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.templating import Jinja2Templates
from markupsafe import Markup
from starlette.datastructures import UploadFile

import calculators as calc
from calculators.params import registry
from calculators.params.count import HEADS
from grader.pack.expected import mark_expected
from grader.service import work
from grader.service.api_answers import (
    checked_at_grading,
    client_of,
    find_answerable,
    self_checkable,
)
from grader.service.api_calc import compute
from grader.service.errors import ApiError
from grader.service.settings import templates_dir

FORM_LIMITS = {"max_files": 1, "max_fields": 20, "max_part_size": 64 * 1024}


def make_router() -> APIRouter:
    templates = Jinja2Templates(directory=str(templates_dir() / "service"))
    templates.env.filters["num"] = _num
    router = APIRouter(include_in_schema=False)

    def page(request: Request, name: str, status: int = 200, **context: Any) -> HTMLResponse:
        return templates.TemplateResponse(request, name, context, status_code=status)

    def calc_page(request: Request, form: dict[str, str], result: Any = None,
                  error: ApiError | None = None) -> HTMLResponse:
        models = [(n, registry.hub_id(n)) for n in registry.names()]
        mathml = Markup(result["mathml"]) if result else None  # built by sympy from our formula
        return page(request, "calc.html.j2", 422 if error else 200, form=form, models=models,
                    heads=HEADS, conventions=calc.conventions("params"), result=result, mathml=mathml,
                    error=error)

    @router.get("/", response_class=HTMLResponse)
    def index(request: Request) -> HTMLResponse:
        return page(request, "index.html.j2")

    @router.get("/docs", response_class=HTMLResponse)
    def docs(request: Request) -> HTMLResponse:
        """The API from the OpenAPI schema, server-rendered: no CDN, no script."""
        from grader.service.apidocs import errors, operations

        schema = request.app.openapi()
        info = schema.get("info", {})
        return page(request, "docs.html.j2", ops=operations(schema), errors=errors(schema),
                    openapi=schema.get(
            "openapi", ""), title=info.get("title", ""), version=info.get("version", ""),
            description=info.get("description", ""))

    @router.get("/calc", response_class=HTMLResponse)
    async def calc_get(request: Request) -> HTMLResponse:
        form = {k: str(v)[:300] for k, v in request.query_params.items()}
        if not form.get("model"):
            return calc_page(request, form)
        return await _calc(request, form)

    @router.post("/calc", response_class=HTMLResponse)
    async def calc_post(request: Request) -> HTMLResponse:
        return await _calc(request, await _form(request))

    async def _calc(request: Request, form: dict[str, str]) -> HTMLResponse:
        try:
            args = _params_args(form)
            result = await compute(request, "params", args)
        except ApiError as exc:
            return calc_page(request, form, error=exc)
        return calc_page(request, form, result=result)

    def answers_page(request: Request, status: int = 200, **context: Any) -> HTMLResponse:
        """The answers page; each form gets back only its own fields, and a question's
        verdicts sit beside that question's boxes (``checked`` names the question)."""
        packs = request.app.state.packs
        questions = [a.public() for a in self_checkable(packs)]
        later = checked_at_grading(packs)
        # one heading per assignment: its forms under it, and its questions this server
        # cannot check (only the public part of the pack is here) named as such
        assignments = [{"id": pack.id, "title": pack.title,
                        "questions": [q for q in questions if q["assignment"] == pack.id],
                        "at_grading": [a.question for a in later if a.pack.id == pack.id]}
                       for pack in packs.values()]
        assignments = [a for a in assignments if a["questions"] or a["at_grading"]]
        context.setdefault("compare_form", {})
        context.setdefault("lint_form", {})
        context.setdefault("checked", None)
        return page(request, "answers.html.j2", status, questions=questions,
                    assignments=assignments, **context)

    @router.get("/answers", response_class=HTMLResponse)
    def answers(request: Request) -> HTMLResponse:
        return answers_page(request)

    @router.post("/answers/compare", response_class=HTMLResponse)
    async def answers_compare(request: Request) -> HTMLResponse:
        form = await _form(request)
        try:
            answer, expected = _text(form, "answer"), _text(form, "expected")
            result = await request.app.state.computer.run(work.compare_answer, answer, expected)
            if "error" in result:
                raise ApiError(422, "invalid_input", result["error"]["message"],
                               field=result["error"]["field"])
        except ApiError as exc:
            return answers_page(request, 422, compare_form=form, compare_error=exc)
        return answers_page(request, compare_form=form, verdict=result)

    @router.post("/answers/check", response_class=HTMLResponse)
    async def answers_check(request: Request) -> HTMLResponse:
        from grader.service.api_answers import check_pack_answer

        form = await _form(request)
        checked = {"assignment": form.get("assignment", ""), "question": form.get("question", ""),
                   "answers": [form.get(f"answer-{n}", "")[:2_000] for n in range(1, 21)]}
        try:
            item = find_answerable(request.app.state.packs, _text(form, "assignment"),
                                   _text(form, "question"))
            answers = {item.label(c): checked["answers"][n]
                       for n, c in enumerate(item.parts[:20])}
            result = await check_pack_answer(request, item, answers=answers,
                                             client=client_of(request))
        except ApiError as exc:
            return answers_page(request, exc.status, checked=checked, check_error=exc)
        return answers_page(request, checked=checked, question_verdict=result)

    @router.post("/answers/lint", response_class=HTMLResponse)
    async def answers_lint(request: Request) -> HTMLResponse:
        form = await _form(request)
        text = form.get("text", "")
        if len(text) > 60_000:
            exc = ApiError(422, "invalid_input", "at most 60,000 characters", field="text")
            return answers_page(request, 422, lint_form=form, lint_error=exc)
        result = await request.app.state.computer.run(work.lint_report, text)
        return answers_page(request, lint_form=form, slips=result["slips"], linted=True)

    def upload_page(request: Request, status: int = 200, **context: Any) -> HTMLResponse:
        packs = request.app.state.packs
        return page(request, "selfcheck.html.j2", status, packs=list(packs.values()),
                    unavailable=request.app.state.selfcheck.unavailable, **context)

    @router.get("/selfcheck", response_class=HTMLResponse)
    def selfcheck(request: Request) -> HTMLResponse:
        return upload_page(request)

    @router.post("/selfcheck", response_class=HTMLResponse)
    async def selfcheck_post(request: Request) -> Response:
        form = await request.form(**FORM_LIMITS)
        upload = form.get("notebook")
        try:
            if not isinstance(upload, UploadFile):
                raise ApiError(422, "invalid_input", "choose a notebook file", field="notebook")
            data = await upload.read()
            job = request.app.state.selfcheck.submit(str(form.get("assignment", "")),
                                                     upload.filename or "", data,
                                                     client=client_of(request))
        except ApiError as exc:
            refused = upload_page(request, exc.status, error=exc)
            refused.headers.update(exc.headers)  # Retry-After of a 429 or 503
            return refused
        return RedirectResponse(f"/selfcheck/{job.id}", status_code=303)

    @router.get("/selfcheck/{job_id}", response_class=HTMLResponse)
    def selfcheck_job(request: Request, job_id: str) -> HTMLResponse:
        q = request.app.state.selfcheck
        try:
            job = q.get(job_id)
        except ApiError as exc:
            return upload_page(request, 404, error=exc)
        pack = request.app.state.packs.get(job.assignment)
        # a cell the pack expects to fail (data the grader lacks) is shown as expected
        record = mark_expected(job.record, pack) if job.record is not None else None
        return page(request, "job.html.j2", job=job, position=q.position(job), record=record,
                    tiny_note=_tiny_note(request, job), model_kinds=_model_kinds())

    @router.get("/selfcheck/{job_id}/report.html", response_class=HTMLResponse)
    def selfcheck_full_report(request: Request, job_id: str) -> HTMLResponse:
        """The full student report of grader.report, for a finished job."""
        from grader.report.render import render_view
        from grader.report.visibility import student_view

        q = request.app.state.selfcheck
        try:
            job = q.get(job_id)
        except ApiError as exc:
            return upload_page(request, 404, error=exc)
        if job.record is None:
            return RedirectResponse(f"/selfcheck/{job_id}", status_code=303)  # type: ignore[return-value]
        pack = request.app.state.packs.get(job.assignment)
        # the job keeps the student's view of its record (selfcheck.public_record), so the
        # report is rendered from that view, filtered again under the rubric's visibility
        shown = student_view(mark_expected(job.record, pack), pack.raw if pack else None)
        return HTMLResponse(render_view(shown, "html"))

    return router


def _model_kinds() -> list[str]:
    """The check kinds that load the pack's models (`Kind.needs_models`): the note on the
    tiny seeded models goes beside their questions, whichever kinds they are."""
    from grader.checks.registry import kinds

    return sorted(name for name, kind in kinds().items() if getattr(kind, "needs_models", False))


def _tiny_note(request: Request, job: Any) -> str:
    """`grader check`'s word on the tiny seeded models' low quick-mode accuracy, if it applies."""
    pack = request.app.state.packs.get(job.assignment)
    if job.record is None or pack is None:
        return ""
    from grader.cli.check import tiny_models_note
    from grader.models.cache import cache_dir

    try:
        return tiny_models_note(job.record, pack, cache_dir())
    except Exception:  # noqa: BLE001 - a note must never break the page
        return ""


async def _form(request: Request) -> dict[str, str]:
    form = await request.form(**FORM_LIMITS)
    return {k: v for k, v in form.items() if isinstance(v, str)}


def _text(form: dict[str, str], name: str, limit: int = 2_000) -> str:
    value = form.get(name, "").strip()
    if not value:
        raise ApiError(422, "invalid_input", "required", field=name)
    if len(value) > limit:
        raise ApiError(422, "invalid_input", f"at most {limit} characters", field=name)
    return value


def _params_args(form: dict[str, str]) -> dict[str, Any]:
    """The calculator page's fields as the parameter-count request (errors name the field)."""
    model = form.get("model", "").strip() or None
    config_text = form.get("config", "").strip()
    config = None
    if config_text:
        try:
            config = json.loads(config_text)
        except ValueError as exc:
            raise ApiError(422, "invalid_input", f"not valid JSON: {exc}", field="config") from None
        if not isinstance(config, dict):
            raise ApiError(422, "invalid_input", "must be a JSON object", field="config")
        model = None  # a pasted config wins over the list
    labels_text = form.get("num_labels", "").strip()
    num_labels = None
    if labels_text:
        if not labels_text.isdigit() or not 1 <= int(labels_text) <= 100_000:
            raise ApiError(422, "invalid_input", "a whole number from 1 to 100000",
                           field="num_labels")
        num_labels = int(labels_text)
    head = form.get("head", "base").strip() or "base"
    convention = form.get("convention", "exact").strip() or "exact"
    return {"model": model, "config": config, "head": head[:40], "num_labels": num_labels,
            "convention": convention[:300]}


def _num(value: Any) -> str:
    """Thousands separators for ints (66,956,548), floats without a trailing .0 (30)."""
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)
