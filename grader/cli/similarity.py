"""``grader similarity``: pairs of submissions ranked by shared evidence, for a TA.

Exit codes: 0 the report was written (whatever it found: a flagged pair is evidence for
a person, not a failure); 2 bad input: a folder without records, a malformed
similarity.toml or setting (one line, never a traceback).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

EXIT_INPUT = 2


def similarity(
    grades: Annotated[Path, typer.Argument(help="Folder of records and stored runs, as "
                                                "`grader grade --out` writes it.")],
    out: Annotated[Path | None, typer.Option(
        help="Folder for similarity.html and similarity.json (default: GRADES/similarity).")
    ] = None,
    pack: Annotated[Path | None, typer.Option(
        help="Pack folder for the starter code and similarity.toml (default: the one the "
             "batch's manifest.json names).")] = None,
    flag_score: Annotated[float | None, typer.Option(
        help="Flag pairs at or above this score (default: similarity.toml, else 8).")] = None,
    common_share: Annotated[float | None, typer.Option(
        help="Evidence held by more than this share of the class is common and not scored "
             "(default 0.1).")] = None,
    formats: Annotated[str, typer.Option("--format", help="html, json or both.")] = "html,json",
) -> None:
    """Rank pairs of students by evidence: the same wrong outputs on hidden cases, code
    beyond the template, the same unusual wrong numbers and phrasing.

    Reads the records and stored runs only (nothing is executed). The report is evidence
    for a person to weigh, never a verdict.

    Example: grader similarity grades/ --out grades/similarity
    """
    from grader.similarity import SimilarityError, find_similar, load_class, load_settings
    from grader.similarity.classroom import starter_from_pack
    from grader.similarity.render import write_report

    wanted = tuple(f.strip() for f in formats.split(",") if f.strip())
    if not wanted or set(wanted) - {"html", "json"}:
        typer.echo(f"error: --format: {formats!r}: use html, json or html,json", err=True)
        raise typer.Exit(EXIT_INPUT)
    overrides: dict[str, object] = {}
    if flag_score is not None:
        overrides["flag_score"] = flag_score
    if common_share is not None:
        overrides["common_share"] = common_share
    try:
        classroom = load_class(grades)
        if pack is not None:
            classroom.starter = starter_from_pack(pack)
        root = pack or _manifest_pack(grades)
        settings = load_settings(root, overrides)
    except SimilarityError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(EXIT_INPUT) from None
    result = find_similar(classroom, settings)
    paths = write_report(result, out or grades / "similarity", wanted)
    flagged = sum(p.flagged for p in result.pairs)
    typer.echo(f"{len(result.students)} submissions, {result.candidates} candidate pairs, "
               f"{flagged} flagged, {len(result.clusters)} groups of three or more "
               f"({result.seconds['total']:.1f} s)")
    for p in result.pairs[:10]:
        if p.flagged:
            typer.echo(f"  {p.score:5.1f}  {p.a} – {p.b}")
    for path in paths:
        typer.echo(f"wrote {path}")
    typer.echo("Evidence for a person to weigh, never a verdict.")


def _manifest_pack(grades: Path) -> Path | None:
    import json

    manifest = grades / "manifest.json"
    if not manifest.is_file():
        return None
    root = json.loads(manifest.read_text(encoding="utf-8")).get("pack", {}).get("root")
    return Path(root) if root else None
