"""``/v1/selfcheck``: upload a notebook, follow its run, read its report; the TA's job list.

The upload answers 202 at once with the job's URLs; the run happens in the queue
(`selfcheck.SelfCheckQueue`). The job list shows every student's uploads, so it is
for TAs only and needs the configured bearer token (off when none is configured).
"""

from __future__ import annotations

import hmac
from typing import Annotated, Any

from fastapi import APIRouter, File, Form, Request, UploadFile
from fastapi.responses import JSONResponse

from grader.service.api_answers import client_of
from grader.service.errors import ApiError, ErrorBody
from grader.service.selfcheck import SelfCheckQueue

router = APIRouter(prefix="/v1", tags=["self-check"])


def _queue(request: Request) -> SelfCheckQueue:
    return request.app.state.selfcheck


@router.get("/assignments", summary="Assignments this server can self-check")
def assignments(request: Request) -> dict[str, list[dict[str, Any]]]:
    packs = request.app.state.packs
    return {"assignments": [{"id": p.id, "title": p.title, "notebook": p.notebook}
                            for p in packs.values()]}


@router.post("/selfcheck", status_code=202, summary="Queue a notebook for a self-check",
             responses={429: {"model": ErrorBody, "description": "This client already has a "
                              "self-check running and one waiting (`too_many_jobs`), or is "
                              "over its rate; see Retry-After."}})
async def upload(request: Request,
                 assignment: Annotated[str, Form(min_length=1, max_length=100)],
                 notebook: Annotated[UploadFile, File(description="The .ipynb file.")]
                 ) -> JSONResponse:
    data = await notebook.read()
    job = _queue(request).submit(assignment, notebook.filename or "", data,
                                 client=client_of(request))
    return JSONResponse(job.public(_queue(request).position(job)), status_code=202,
                        headers={"Location": f"/v1/selfcheck/{job.id}"})


@router.get("/selfcheck/{job_id}", summary="Status of a self-check job")
def status(request: Request, job_id: str) -> dict[str, Any]:
    q = _queue(request)
    job = q.get(job_id)
    return job.public(q.position(job))


@router.get("/selfcheck/{job_id}/report", summary="The grade record of a finished self-check")
def report(request: Request, job_id: str) -> dict[str, Any]:
    job = _queue(request).get(job_id)
    if job.record is None:
        raise ApiError(409, "not_ready", f"the job is {job.status}: {job.message or 'wait'}",
                       field="job_id")
    return job.record


@router.get("/selfcheck", summary="Every job on this server (TAs: needs the bearer token)")
def jobs(request: Request) -> dict[str, list[dict[str, Any]]]:
    token = request.app.state.settings.token
    if not token:
        raise ApiError(403, "forbidden", "no token is configured on this server, so the job "
                       "list is off", field="authorization")
    given = request.headers.get("authorization", "")
    scheme, _, value = given.partition(" ")
    if scheme.lower() != "bearer" or not hmac.compare_digest(value.encode(), token.encode()):
        raise ApiError(401, "unauthorized", "a valid bearer token is required",
                       field="authorization", headers={"WWW-Authenticate": "Bearer"})
    q = _queue(request)
    return {"jobs": [j.public(q.position(j)) for j in list(q.jobs.values())]}
