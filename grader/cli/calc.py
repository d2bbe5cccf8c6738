"""``grader calc``: the calculators from the command line (table, formula, or --json)."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.console import Console

import calculators as calc
from calculators.params.count import HEADS

calc_app = typer.Typer(
    help="Exact Transformer arithmetic: parameters, LoRA, memory, cross-entropy, FLOPs.",
    no_args_is_help=True,
)

JsonOpt = Annotated[bool, typer.Option("--json", help="Print the result as JSON for machines.")]


def show(result, as_json: bool, *, explain: bool = True) -> None:
    """Print a result: JSON for machines, else its table then its explanation."""
    if as_json:
        typer.echo(result.to_json())
        return
    Console().print(result.table())
    if explain and hasattr(result, "explain"):
        typer.echo(result.explain())


@calc_app.command("params")
def params(
    model: Annotated[
        str, typer.Argument(help="Registry name (see `grader calc models`) or a config.json path.")
    ],
    head: Annotated[str, typer.Option(help=" | ".join(HEADS))] = "base",
    num_labels: Annotated[
        int | None, typer.Option(help="Classes of a seq-cls head (default: the config's, else 2).")
    ] = None,
    convention: Annotated[
        str,
        typer.Option(help="exact, or conventions joined by '+' (see `grader calc conventions`)."),
    ] = "exact",
    as_json: JsonOpt = False,
) -> None:
    """Count a model's parameters exactly, with a breakdown and the formula.

    Examples:

      grader calc params bert-base-uncased

      grader calc params distilbert-base-uncased --head seq-cls --num-labels 4

      grader calc params gpt2 --head causal-lm --convention no_bias+untied --json

      grader calc params ./config.json
    """
    show(
        calc.count_parameters(model, head=head, num_labels=num_labels, convention=convention),
        as_json,
    )


@calc_app.command("conventions")
def conventions_cmd(as_json: JsonOpt = False) -> None:
    """List the counting conventions `params` accepts, then the memory conventions."""
    conv = calc.conventions()
    if as_json:
        import json

        typer.echo(json.dumps(conv, indent=2))
        return
    for kind, title in (("params", "counting (params)"), ("memory", "memory")):
        typer.echo(f"{title}:")
        for name, text in calc.conventions(kind).items():
            typer.echo(f"  {name:24} {text}")


@calc_app.command("models")
def models_cmd(as_json: JsonOpt = False) -> None:
    """List the offline registry of real checkpoint configs."""
    from calculators.params import registry

    rows = {name: registry.hub_id(name) for name in registry.names()}
    if as_json:
        import json

        typer.echo(json.dumps(rows, indent=2))
        return
    for name, hub in rows.items():
        typer.echo(f"{name:26} {hub}")


def _csv(text: str | None) -> list[str]:
    return [t.strip() for t in (text or "").split(",") if t.strip()]


@calc_app.command("lora")
def lora(
    model: Annotated[str, typer.Argument(help="Registry name or config.json path.")],
    targets: Annotated[
        str, typer.Option("--targets", help="Comma-separated target_modules, e.g. query,value.")
    ],
    r: Annotated[int, typer.Option(help="LoRA rank.")] = 8,
    head: Annotated[str, typer.Option(help=" | ".join(HEADS))] = "base",
    num_labels: Annotated[int | None, typer.Option(help="Classes of a seq-cls head.")] = None,
    bias: Annotated[str, typer.Option(help="none | all | lora_only (as LoraConfig).")] = "none",
    task_type: Annotated[
        str | None, typer.Option(help="SEQ_CLS, CAUSAL_LM, ... (SEQ_CLS trains the classifier).")
    ] = None,
    modules_to_save: Annotated[
        str | None, typer.Option(help="Comma-separated modules trained in full.")
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """Trainable parameters of a LoRA setup, as peft counts them.

    Examples:

      grader calc lora roberta-base --head seq-cls --num-labels 2 --targets query,value --task-type SEQ_CLS

      grader calc lora bloom-560m --head causal-lm --targets query_key_value --r 16
    """
    result = calc.lora_parameters(
        model,
        head,
        num_labels,
        r=r,
        target_modules=_csv(targets),
        bias=bias,
        task_type=task_type,
        modules_to_save=_csv(modules_to_save) or None,
    )
    show(result, as_json)


memory_app = typer.Typer(
    help="Memory in exact bytes, shown in GB (10^9) and GiB (2^30).", no_args_is_help=True
)
calc_app.add_typer(memory_app, name="memory")


@memory_app.command("attention")
def memory_attention(
    seq_len: Annotated[int, typer.Option(help="Sequence length S.")],
    heads: Annotated[int, typer.Option(help="Attention heads h.")],
    bytes_per_element: Annotated[float, typer.Option(help="2 for fp16/bf16, 4 for fp32.")] = 2,
    batch_size: Annotated[int, typer.Option(help="Sequences in the batch.")] = 1,
    layers: Annotated[int, typer.Option(help="Layers held at once.")] = 1,
    as_json: JsonOpt = False,
) -> None:
    """Memory of the attention score matrices QK^T.

    Example: grader calc memory attention --seq-len 16384 --heads 48
    """
    show(
        calc.attention_scores_memory(seq_len, heads, _num(bytes_per_element), batch_size, layers),
        as_json,
    )


@memory_app.command("kv")
def memory_kv(
    model: Annotated[str, typer.Argument(help="Registry name or config.json path.")],
    seq_len: Annotated[int, typer.Option(help="Tokens in the cache.")],
    batch_size: Annotated[int, typer.Option(help="Sequences.")] = 1,
    bytes_per_element: Annotated[float, typer.Option(help="2 for fp16/bf16.")] = 2,
    as_json: JsonOpt = False,
) -> None:
    """KV-cache memory of a model.

    Example: grader calc memory kv Llama-2-7b --seq-len 4096
    """
    show(calc.kv_cache_memory(model, seq_len, batch_size, _num(bytes_per_element)), as_json)


ParamsOpt = Annotated[str, typer.Option(
    "--params", help="Parameters: a number (7000000000, 7e9, 7B) or a registry model "
    "(Llama-2-7b; counted as its config's architecture, with the LM head).")]


@memory_app.command("optimizer")
def memory_optimizer(
    params: ParamsOpt,
    optimizer: Annotated[
        str, typer.Option(help="adam, adamw, adam8bit, sgd, sgd_nomomentum, rmsprop, adagrad")
    ] = "adam",
    bytes_per_state: Annotated[
        float | None, typer.Option(help="Bytes per state value (default: the optimizer's).")
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """Optimizer-state memory.

    Examples: grader calc memory optimizer --params 9437184 --optimizer adam |
    grader calc memory optimizer --params Llama-2-7b --optimizer adam8bit
    """
    bps = None if bytes_per_state is None else _num(bytes_per_state)
    show(calc.optimizer_state_memory(params, optimizer, bps), as_json)


@memory_app.command("training")
def memory_training(
    params: ParamsOpt,
    precision: Annotated[str, typer.Option(help="mixed (16-bit + fp32 master) or fp32.")] = "mixed",
    optimizer: Annotated[str, typer.Option(help="Optimizer (see `memory optimizer`).")] = "adam",
    zero: Annotated[int, typer.Option(
        "--zero", help="ZeRO stage: 0 none, 1 optimizer states, 2 + gradients, 3 + weights.")] = 0,
    data_parallel: Annotated[int, typer.Option(
        "--data-parallel", "--gpus", help="Data-parallel GPUs the ZeRO stage shards over.")] = 1,
    tensor_parallel: Annotated[int, typer.Option(help="Tensor-parallel size t.")] = 1,
    offload_optimizer: Annotated[str, typer.Option(
        help="none | cpu | nvme: master weights, optimizer states and gradients off the GPU.")
    ] = "none",
    offload_params: Annotated[str, typer.Option(
        help="none | cpu | nvme: the weights off the GPU (ZeRO-3, with --offload-optimizer).")
    ] = "none",
    largest_layer_params: Annotated[str | None, typer.Option(
        help="Parameters of the largest module (ZeRO-3 with a bare --params count).")] = None,
    head: Annotated[str | None, typer.Option(
        help="Model class to count (default: the config's architectures; accelerate: base).")
    ] = None,
    convention: Annotated[str, typer.Option(
        help="standard, fp32_grads, cookbook, deepspeed_estimator or accelerate "
        "(see `grader calc conventions`).")] = "standard",
    seq_len: Annotated[int | None, typer.Option(
        help="Also count activations (Korthikanti et al.) for this sequence length.")] = None,
    batch_size: Annotated[int, typer.Option(help="Micro-batch per GPU (with --seq-len).")] = 1,
    recompute: Annotated[str, typer.Option(help="none | selective | full (with --seq-len)")
    ] = "none",
    sequence_parallel: Annotated[bool, typer.Option(
        help="Sequence parallelism on (with --seq-len).")] = False,
    compare: Annotated[bool, typer.Option(
        "--compare", help="The same question under every memory convention, side by side "
        "(why DeepSpeed, accelerate or the cookbook give another number).")] = False,
    as_json: JsonOpt = False,
) -> None:
    """Per-GPU training memory: weights, gradients, optimizer states, with ZeRO and offload.

    Examples:

      grader calc memory training --params 7e9

      grader calc memory training --params Llama-2-7b --zero 2 --gpus 8

      grader calc memory training --params Llama-2-7b --zero 3 --gpus 8 --offload-optimizer cpu

      grader calc memory training --params Llama-2-7b --zero 2 --convention deepspeed_estimator

      grader calc memory training --params Llama-2-7b --seq-len 4096 --recompute selective

      grader calc memory training --params Llama-2-7b --zero 2 --gpus 8 --compare
    """
    activations = None
    if seq_len is not None:
        activations = _activations_of(params, seq_len, batch_size, recompute, tensor_parallel,
                                      sequence_parallel)
    def run(conv: str):
        return calc.training_memory(
            params,
            precision,
            optimizer,
            zero_stage=zero,
            data_parallel=data_parallel,
            tensor_parallel=tensor_parallel,
            offload_optimizer=offload_optimizer,
            offload_params=offload_params,
            largest_layer_params=largest_layer_params,
            activations=activations,
            head=head,
            convention=conv,
        )

    if compare:
        _compare_conventions(run, as_json)
        return
    show(run(convention), as_json)


def _compare_conventions(run, as_json: bool) -> None:
    """One row per memory convention: its figure, or why it does not answer this question."""
    from rich.table import Table

    from calculators import _render, units

    rows: dict[str, object] = {}
    for name in calc.conventions("memory"):
        try:
            rows[name] = run(name)
        except calc.ConfigError as exc:
            rows[name] = f"not covered: {exc}"
    if as_json:
        typer.echo(_render.dumps({k: v if isinstance(v, str) else v.to_dict()
                                  for k, v in rows.items()}))
        return
    table = Table(title="training memory per device, by convention")
    for col in ("convention", "bytes", "GiB", "what it counts"):
        table.add_column(col)
    texts = calc.conventions("memory")
    for name, r in rows.items():
        if isinstance(r, str):
            table.add_row(name, "-", "-", r)
        else:
            table.add_row(name, units.show(r.bytes), units.show(r.to("GiB").exact),
                          texts[name].removeprefix("memory: "))
    Console().print(table)


def _activations_of(model: str, seq_len: int, batch_size: int, recompute: str, t: int,
                    sp: bool):
    """Activation memory of a registry model's shape (its hidden size, heads and layers)."""
    from calculators.scale import is_model, model_shape

    if not is_model(model):
        raise calc.ConfigError("activations need a model's shape: give a registry model",
                               field="seq_len")
    d_model, n_heads, n_layers = model_shape(model)
    return calc.activation_memory(seq_len, batch_size, d_model, n_heads, n_layers, recompute,
                                  t, sp)


@memory_app.command("weights")
def memory_weights(
    model: Annotated[str, typer.Argument(help="Registry model, config.json path or a count.")],
    dtype: Annotated[str, typer.Option(help="fp32, fp16, bf16, fp8, int8, int4 (nf4).")] = "fp16",
    group_size: Annotated[int | None, typer.Option(
        help="int8/int4: weights per group, each with a scale and a zero point.")] = None,
    scale_bytes: Annotated[float, typer.Option(help="Bytes of one group scale.")] = 2,
    zero_point_bytes: Annotated[float, typer.Option(
        help="Bytes of one group zero point (0.5: packed 4-bit; 0: symmetric).")] = 0.5,
    head: Annotated[str | None, typer.Option(help="Model class to count.")] = None,
    convention: Annotated[str, typer.Option(help="standard or accelerate.")] = "standard",
    as_json: JsonOpt = False,
) -> None:
    """Weight memory for inference, quantized or not.

    Examples:

      grader calc memory weights Llama-2-7b --dtype int4 --group-size 128

      grader calc memory weights Llama-2-7b --dtype int8 --convention accelerate
    """
    zp = 0 if zero_point_bytes == 0 else _num(zero_point_bytes)
    show(
        calc.weight_memory(model, dtype, group_size=group_size, scale_bytes=_num(scale_bytes),
                           zero_point_bytes=zp, head=head, convention=convention),
        as_json,
    )


@memory_app.command("largest-layer")
def memory_largest_layer(
    model: Annotated[str, typer.Argument(help="Registry model or config.json path.")],
    dtype: Annotated[str, typer.Option(help="accelerate: fp32, fp16, int8, int4.")] = "fp32",
    head: Annotated[str | None, typer.Option(help="Model class to count.")] = None,
    convention: Annotated[str, typer.Option(
        help="standard / deepspeed_estimator (ZeRO-3's gather) or accelerate.")] = "standard",
    as_json: JsonOpt = False,
) -> None:
    """The largest module: what ZeRO-3 gathers whole, or accelerate's "Largest Layer".

    Example: grader calc memory largest-layer Llama-2-7b --convention accelerate
    """
    show(calc.largest_layer(model, dtype, head=head, convention=convention), as_json)


@memory_app.command("activation")
def memory_activation(
    seq_len: Annotated[int, typer.Option(help="Sequence length s.")],
    d_model: Annotated[int, typer.Option(help="Hidden size h.")],
    heads: Annotated[int, typer.Option(help="Attention heads a.")],
    batch_size: Annotated[int, typer.Option(help="Micro-batch b.")] = 1,
    layers: Annotated[int, typer.Option(help="Layers.")] = 1,
    recompute: Annotated[str, typer.Option(help="none | selective | full")] = "none",
    tensor_parallel: Annotated[int, typer.Option(help="Tensor-parallel size t.")] = 1,
    sequence_parallel: Annotated[bool, typer.Option(help="Sequence parallelism on.")] = False,
    as_json: JsonOpt = False,
) -> None:
    """Activation memory per Korthikanti et al. (2022).

    Example: grader calc memory activation --seq-len 2048 --d-model 4096 --heads 32 --layers 32
    """
    show(
        calc.activation_memory(
            seq_len,
            batch_size,
            d_model,
            heads,
            layers,
            recompute,
            tensor_parallel,
            sequence_parallel,
        ),
        as_json,
    )


@calc_app.command("ce")
def ce(
    logits: Annotated[str, typer.Option(help="Comma-separated logits, e.g. 0.5,0.1,3.0,0.2,1.0")],
    target: Annotated[int, typer.Option(help="Index of the correct class (0-based).")],
    base: Annotated[str, typer.Option(help="e (nats) or 2 (bits).")] = "e",
    as_json: JsonOpt = False,
) -> None:
    """Softmax probability of the target and the cross-entropy loss, exact and as a float.

    Example: grader calc ce --logits 0.5,0.1,3.0,0.2,1.0 --target 2
    """
    b = None if base == "e" else _int_option("base", base)
    show(calc.cross_entropy(logits, target, b), as_json)


@calc_app.command("ffn")
def ffn(
    hidden: Annotated[int, typer.Option(help="Hidden size H.")],
    layers: Annotated[int, typer.Option(help="Layers L.")],
    d_ff: Annotated[int | None, typer.Option(help="FFN width (default 4H).")] = None,
    bias: Annotated[bool, typer.Option(help="Linear layers have biases.")] = True,
    gated: Annotated[bool, typer.Option(help="SwiGLU/GEGLU: two input projections.")] = False,
    as_json: JsonOpt = False,
) -> None:
    """Parameters of the feed-forward sub-layers.

    Example: grader calc ffn --hidden 6144 --layers 48
    """
    show(calc.ffn_parameters(hidden, layers, d_ff, bias, gated), as_json)


@calc_app.command("flops")
def flops(
    params: ParamsOpt,
    tokens: Annotated[str, typer.Option(help="Training tokens D: 2000000000000, 2e12 or 2T.")],
    gpu: Annotated[str | None, typer.Option(
        help="Also give the GPU time on this GPU at its dense 16-bit peak: "
        + ", ".join(f"{k} ({v[1] / 1e12:g} TFLOP/s)" for k, v in calc.GPU_PEAK_FLOPS.items())
        + ".")] = None,
    mfu: Annotated[float, typer.Option(
        help="Model FLOPs utilisation: the share of the peak the run reaches.")] = 0.4,
    gpus: Annotated[int, typer.Option(
        "--gpus", help="GPUs running at once (for the wall-clock time).")] = 1,
    peak_flops: Annotated[str | None, typer.Option(
        help="Peak FLOP/s of a GPU not in the list (e.g. 1.2e15), instead of --gpu.")] = None,
    as_json: JsonOpt = False,
) -> None:
    """Training compute by the 6ND rule, in scientific form; with --gpu, the GPU-hours.

    Examples:

      grader calc flops --params 124439808 --tokens 1e9

      grader calc flops --params Llama-2-7b --tokens 2T --gpu a100 --mfu 0.4 --gpus 1024
    """
    result = calc.training_flops(params, tokens)
    time = None
    if gpu is not None or peak_flops is not None:
        time = calc.gpu_hours(result, gpu, _num(mfu), gpus, peak_flops)
    if as_json:
        data = result.to_dict()
        if time is not None:
            data["gpu_hours"] = time.to_dict()
        from calculators import _render

        typer.echo(_render.dumps(data))
        return
    show(result, False)
    if time is not None:
        show(time, False)


def _num(x: float) -> int | str:
    """Floats from the command line, read as written (2.0 -> 2, 0.5 -> '0.5')."""
    return int(x) if float(x).is_integer() else str(x)


def _int_option(name: str, text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise calc.ConfigError(f"must be 'e' or an integer, got {text!r}", field=name) from None
