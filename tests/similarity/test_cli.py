"""`grader similarity` on a folder of records: exit codes, files, settings from the pack."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from grader.cli import main
from tests.similarity.conftest import manifest, record, store, tensor_question, write_record


@pytest.fixture(scope="module")
def grades(tmp_path_factory: pytest.TempPathFactory, synthetic_class) -> Path:
    """Twelve of the planted class's notebooks with records and runs: a shared wrong q1b
    output for the bug pair, right outputs for the others."""
    import torch

    out = tmp_path_factory.mktemp("cli-grades")
    manifest(out)
    keys = ["bug-src", "bug-copy", "verbatim-src", "verbatim-copy", "template-1",
            "template-2", *[f"common-{i}" for i in range(1, 7)]]
    gen = torch.Generator().manual_seed(1)
    right, wrong = torch.randn(2, 5, 8, generator=gen), torch.randn(2, 5, 8, generator=gen)
    for key in keys:
        bad = key.startswith("bug")
        out_t = wrong if bad else right
        store(out, key, {"q1b-calculate_multihead_attention": {
            "cases": {"hidden-x": {"status": "ok", "outputs": {"output": {
                "shape": [2, 5, 8], "dtype": "float32", "device": "cpu"}}}},
            "tensors": {"hidden-x/output": out_t}}})
        write_record(out, key, record(key, [tensor_question("q1b", {"hidden-x": not bad})],
                                      notebook=synthetic_class["paths"][key]))
    return out


def test_writes_both_files_and_names_the_pairs(grades: Path, tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["similarity", str(grades), "--out", str(tmp_path)]) == 0
    said = capsys.readouterr().out
    assert "bug-copy – bug-src" in said and "never a verdict" in said
    data = json.loads((tmp_path / "similarity.json").read_text())
    (bug,) = [p for p in data["pairs"] if {p["a"], p["b"]} == {"bug-copy", "bug-src"}]
    assert bug["flagged"] and bug["behaviour"][0]["case"] == "hidden-x"
    assert bug["behaviour"][0]["holders"] == 2
    assert (tmp_path / "similarity.html").read_text().count('class="pair"') >= 1


def test_json_only_and_default_folder(grades: Path) -> None:
    assert main(["similarity", str(grades), "--format", "json"]) == 0
    assert (grades / "similarity" / "similarity.json").is_file()
    assert not (grades / "similarity" / "similarity.html").exists()


def test_a_pack_setting_raises_the_bar(grades: Path, tmp_path: Path) -> None:
    pack = tmp_path / "pack"
    pack.mkdir()
    (pack / "similarity.toml").write_text("flag_score = 1000\n")
    assert main(["similarity", str(grades), "--out", str(tmp_path / "o"), "--pack",
                 str(pack), "--format", "json"]) == 0
    data = json.loads((tmp_path / "o" / "similarity.json").read_text())
    assert data["settings"]["flag_score"] == 1000 and not any(
        p["flagged"] for p in data["pairs"])


@pytest.mark.parametrize("toml, said", [("flag_scor = 3\n", "flag_scor"),
                                        ("common_share = 2\n", "common_share")])
def test_bad_settings_exit_2_with_one_line(grades: Path, tmp_path: Path, toml: str, said: str,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "similarity.toml").write_text(toml)
    assert main(["similarity", str(grades), "--pack", str(tmp_path)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("error: similarity.toml") and said in err and "\n" not in err


def test_a_folder_without_records_exits_2(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["similarity", str(tmp_path)]) == 2
    assert "holds no records" in capsys.readouterr().err
    assert main(["similarity", str(tmp_path / "missing")]) == 2
