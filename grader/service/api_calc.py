"""``/v1/calc/*``: the calculators over HTTP, answering exactly what the library's JSON says.

Request bodies are pydantic models with bounds, so a wrong type or an absurd size is
a 422 naming the field before any work starts; what the bounds allow is computed in
a worker process under the time limit (`compute.Computer`). The body of a 200 is the
library's ``to_dict()`` (the same JSON as ``grader calc ... --json``) plus ``mathml``.
"""

from __future__ import annotations

import logging
from typing import Annotated, Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field

import calculators as calc
from calculators.params import registry
from grader.service import work
from grader.service.errors import ApiError

log = logging.getLogger("grader.service")

BIG = 10**15
"""Largest count, token or parameter number accepted (a quadrillion)."""

Count = Annotated[int, Field(ge=1, le=BIG)]
SeqLen = Annotated[int, Field(ge=1, le=10**8, description="Tokens in the sequence.")]
Small = Annotated[int, Field(ge=1, le=100_000)]
Name = Annotated[str, Field(min_length=1, max_length=200)]
BytesPer = Annotated[float, Field(gt=0, le=64, allow_inf_nan=False,
                                  description="Bytes per element: 2 for fp16/bf16, 4 for fp32.")]
Logit = Annotated[float, Field(ge=-1e4, le=1e4, allow_inf_nan=False)]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ModelRequest(Strict):
    model: Name | None = Field(
        None, description="Registry name (GET /v1/calc/models); never a file path: the "
        "service reads no file named in a request.", examples=["distilbert-base-uncased"])
    config: dict[str, Any] | None = Field(
        None, description="A config.json object (with model_type), instead of model.")
    head: Annotated[str, Field(max_length=40)] = Field(
        "base", description="base | masked-lm | causal-lm | seq-cls | seq2seq-lm | encoder")
    num_labels: Small | None = Field(None, description="Classes of a seq-cls head.")


class ParamsRequest(ModelRequest):
    convention: Annotated[str, Field(max_length=300)] = Field(
        "exact", description="exact, or conventions joined by '+' (GET /v1/calc/conventions).")


class LoraRequest(ModelRequest):
    r: Annotated[int, Field(ge=1, le=65_536)] = 8
    target_modules: Annotated[list[Name], Field(min_length=1, max_length=50)] = ["query", "value"]
    bias: Annotated[str, Field(max_length=20)] = "none"
    task_type: Annotated[str, Field(max_length=40)] | None = None
    modules_to_save: Annotated[list[Name], Field(max_length=50)] | None = None


class AttentionRequest(Strict):
    seq_len: SeqLen
    n_heads: Small
    bytes_per_element: BytesPer = 2
    batch_size: Small = 1
    n_layers: Small = 1


class KvRequest(Strict):
    model: Name | None = Field(None, description="Registry name (GET /v1/calc/models).")
    config: dict[str, Any] | None = Field(None, description="A config.json object, instead of model.")
    seq_len: SeqLen
    batch_size: Small = 1
    bytes_per_element: BytesPer = 2


class OptimizerRequest(Strict):
    n_params: Count
    optimizer: Annotated[str, Field(max_length=40)] = "adam"
    bytes_per_state: BytesPer | None = None


class TrainingRequest(Strict):
    n_params: Count
    precision: Annotated[str, Field(max_length=20)] = "mixed"
    optimizer: Annotated[str, Field(max_length=40)] = "adam"


class CrossEntropyRequest(Strict):
    logits: Annotated[list[Logit], Field(min_length=1, max_length=64)]
    target: Annotated[int, Field(ge=0, le=63)]
    base: Annotated[str, Field(pattern="^(e|[0-9]{1,3})$")] | None = Field(
        None, description="e (nats, the default) or an integer base such as 2 (bits).")


class FlopsRequest(Strict):
    n_params: Count
    n_tokens: Count


class ForwardFlopsRequest(Strict):
    n_params: Count
    n_layers: Small | None = None
    seq_len: SeqLen | None = None
    d_model: Small | None = None


class CalcResult(BaseModel):
    """The library's JSON of a result, plus ``mathml``; other keys depend on the calculator."""

    model_config = ConfigDict(extra="allow")
    kind: str
    value: int | float | str
    unit: str
    formula: str
    latex: str
    mathml: str
    explanation: str


def _num(x: float) -> int | str:
    """A JSON number as written (2.0 -> 2, 0.5 -> '0.5'), as the CLI reads its options."""
    return int(x) if float(x).is_integer() else repr(x)


async def compute(request: Request, kind: str, args: dict[str, Any]) -> dict[str, Any]:
    """Run calculator ``kind``; a calculator's complaint becomes a 422 naming its field."""
    result = await request.app.state.computer.run(work.run_calculator, kind, args, cache=True)
    if "error" in result:
        err = result["error"]
        if "internal" in err:
            log.error("calculator %s failed on %s: %s", kind, args, err["internal"])
            raise ApiError(422, "unsupported_input", err["message"], field="body")
        raise ApiError(422, "invalid_input", err["message"], field=err["field"] or "body")
    return result


router = APIRouter(prefix="/v1/calc", tags=["calculators"])
OK = {"model": CalcResult, "description": "The result, as the library's JSON plus MathML."}


def _post(path: str, kind: str, model: type[BaseModel], summary: str) -> None:
    async def endpoint(request: Request, body: model) -> JSONResponse:  # type: ignore[valid-type]
        args = body.model_dump(exclude_none=False)
        for key in ("bytes_per_element", "bytes_per_state"):
            if args.get(key) is not None:
                args[key] = _num(args[key])
        if "base" in args and args["base"] not in (None, "e"):
            args["base"] = int(args["base"])
        if "logits" in args:
            args["logits"] = [repr(float(x)) for x in args["logits"]]
        return JSONResponse(await compute(request, kind, args))

    # resolved here: with postponed annotations FastAPI could not see ``model``
    endpoint.__annotations__ = {"request": Request, "body": model, "return": JSONResponse}
    endpoint.__name__ = "calc_" + kind.replace("/", "_").replace("-", "_")
    router.add_api_route(path, endpoint, methods=["POST"], summary=summary,
                         responses={200: OK}, response_class=JSONResponse)


_post("/params", "params", ParamsRequest, "Parameter count of a model (registry name or config)")
_post("/lora", "lora", LoraRequest, "Trainable parameters of a LoRA setup, as peft counts them")
_post("/memory/attention", "memory/attention", AttentionRequest,
      "Memory of the attention score matrices")
_post("/memory/kv", "memory/kv", KvRequest, "KV-cache memory of a model")
_post("/memory/optimizer", "memory/optimizer", OptimizerRequest, "Optimizer-state memory")
_post("/memory/training", "memory/training", TrainingRequest,
      "Weights + gradients + optimizer states")
_post("/cross-entropy", "cross-entropy", CrossEntropyRequest,
      "Softmax probability of the target and the cross-entropy loss")
_post("/flops", "flops/training", FlopsRequest, "Training FLOPs by the 6ND rule")
_post("/flops/forward", "flops/forward", ForwardFlopsRequest, "Forward FLOPs per token")


@router.get("/models", summary="The offline registry of model configs")
def models() -> dict[str, dict[str, str]]:
    return {"models": {name: registry.hub_id(name) for name in registry.names()}}


@router.get("/conventions", summary="Counting conventions the parameter count accepts")
def conventions() -> dict[str, dict[str, str]]:
    return {"conventions": calc.conventions("params")}
