"""The wheel carries what an installed `grader` needs, and packs are found by id.

`pip install transformer-grader` must give a grader that renders reports (the Jinja2
templates) and finds the example packs by id from any folder. In the checkout those are
the top-level `templates/` and `reference/`; pyproject.toml maps them into the wheel as
`grader/_templates/` and `grader/_packs/`. These tests build the wheel from a copy of the
sources (offline, with this venv's setuptools: a few seconds), list its members, and use
it installed with `pip install --target` from a folder outside the checkout. The full
install in a fresh venv, with a real grading run, is a step of `.ci/run`.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SOURCES = ("pyproject.toml", "README.md", "grader", "calculators", "templates", "reference")
JUNK = shutil.ignore_patterns("__pycache__", "*.pyc", ".ruff_cache", "*.egg-info",
                              ".ipynb_checkpoints", ".pytest_cache")


def _tracked(folder: str) -> list[str]:
    """Files git tracks under `folder` (falls back to a walk outside a git checkout)."""
    try:
        out = subprocess.run(["git", "ls-files", folder], cwd=ROOT, capture_output=True,
                             text=True, check=True).stdout.split()
    except (OSError, subprocess.CalledProcessError):
        out = []
    if not out:
        out = [str(p.relative_to(ROOT)) for p in (ROOT / folder).rglob("*")
               if p.is_file() and not any(s in p.parts for s in
                                          ("__pycache__", ".ruff_cache", ".ipynb_checkpoints"))]
    return [f for f in out if (ROOT / f).is_file()]


def _setuptools_ok() -> bool:
    from importlib.metadata import PackageNotFoundError, version

    try:
        major = int(version("setuptools").split(".")[0])
    except (PackageNotFoundError, ValueError):
        return False
    return major >= 70  # builds wheels itself (bdist_wheel without the `wheel` package)


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    src = tmp_path_factory.mktemp("src")
    for name in SOURCES:
        path = ROOT / name
        if path.is_dir():
            shutil.copytree(path, src / name, ignore=JUNK)
        else:
            shutil.copy2(path, src / name)
    out = tmp_path_factory.mktemp("dist")
    # offline with this venv's setuptools when it is recent enough (pyproject.toml asks
    # for >= 69); else pip's isolated build fetches one from the package index
    isolation = ["--no-build-isolation", "--no-index"] if _setuptools_ok() else []
    done = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", *isolation, "-q", str(src),
         "-w", str(out)],
        capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    (built,) = out.glob("transformer_grader-*.whl")
    return built


@pytest.fixture(scope="module")
def members(wheel) -> set[str]:
    with zipfile.ZipFile(wheel) as zf:
        return set(zf.namelist())


def test_wheel_carries_the_templates_and_every_file_of_the_example_packs(members):
    for name in ("report/student.html.j2", "report/summary.html.j2", "service/base.html.j2"):
        assert f"grader/_templates/{name}" in members
    templates = _tracked("templates")
    packs = _tracked("reference")
    assert templates and packs
    missing = [f for f in templates
               if f"grader/_templates/{f.removeprefix('templates/')}" not in members]
    missing += [f for f in packs if f"grader/_packs/{f.removeprefix('reference/')}" not in members]
    assert not missing, f"not in the wheel: {missing}"
    for pack in ("stat8021-a3", "transfer-lab-a", "transfer-lab-b"):
        assert f"grader/_packs/{pack}/pack.toml" in members
    assert not [m for m in members if "__pycache__" in m or ".ruff_cache" in m]
    # the checkout's folder names never become top-level packages of site-packages
    assert not [m for m in members if m.startswith(("templates/", "reference/"))]


def test_wheel_has_every_python_package_of_the_checkout(members):
    """pyproject.toml lists the packages (a mapped folder rules out `packages.find`):
    a new package must be added there, or the installed grader cannot import it."""
    for top in ("grader", "calculators"):
        for init in (ROOT / top).rglob("__init__.py"):
            if "__pycache__" in init.parts:
                continue
            rel = init.relative_to(ROOT).as_posix()
            assert rel in members, f"{rel}: add {init.parent.relative_to(ROOT).as_posix().replace('/', '.')} to [tool.setuptools] packages in pyproject.toml"
    assert any(m.startswith("calculators/registry/") and m.endswith(".json") for m in members)
    assert "grader/run/kernel_side/__init__.py" in members


@pytest.fixture(scope="module")
def installed(wheel, tmp_path_factory) -> Path:
    """The wheel installed (no dependencies: this venv has them) into a plain folder."""
    target = tmp_path_factory.mktemp("site")
    done = subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "--no-index",
                           "-q", "--target", str(target), str(wheel)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    return target


def _outside(tmp_path: Path, installed: Path, code: str, *args: str):
    """Run `code` with the installed copy first on sys.path, from a folder outside the
    checkout (so there is no ./reference and no checkout templates/ next to the code)."""
    environ = {**os.environ, "PYTHONPATH": str(installed)}
    environ.pop("GRADER_TEMPLATES", None)
    environ.pop("GRADER_PACKS", None)
    return subprocess.run([sys.executable, "-c", code, *args], cwd=tmp_path, env=environ,
                          capture_output=True, text=True, timeout=120)


def test_installed_grader_finds_its_templates_and_example_packs(installed, tmp_path):
    code = """
import json, grader
from grader.pack import resolve_pack
from grader.report.templates import environment, templates_dir
from grader.service.settings import templates_dir as pages_dir
environment().get_template("report/student.html.j2")
print(json.dumps({"grader": grader.__file__, "templates": str(templates_dir()),
                  "pages": str(pages_dir()), "pack": str(resolve_pack("stat8021-a3").root)}))
"""
    done = _outside(tmp_path, installed, code)
    assert done.returncode == 0, done.stderr
    where = json.loads(done.stdout)
    assert Path(where["grader"]).is_relative_to(installed)
    assert Path(where["templates"]) == installed / "grader" / "_templates"
    assert Path(where["pages"]) == installed / "grader" / "_templates"
    assert Path(where["pack"]) == installed / "grader" / "_packs" / "stat8021-a3"


def test_installed_grader_says_did_you_mean_for_a_near_pack_id(installed, tmp_path):
    done = _outside(tmp_path, installed, "from grader.cli import run; run()",
                    "grade", "x.ipynb", "-a", "stat8021a3", "--out", str(tmp_path / "grades"))
    assert done.returncode == 2, done.stdout + done.stderr
    text = " ".join((done.stdout + done.stderr).split())
    assert "did you mean 'stat8021-a3'?" in text
    assert f"installed examples {installed / 'grader' / '_packs'}" in text


# The search path, through the CLI a TA uses (from the checkout's code, editable install)

SAMPLE = ROOT / "submissions" / "stat8021-a3" / "wrong-q1c-missing-scale.ipynb"


def _pack_copy(folder: Path, version: str) -> Path:
    """stat8021-a3 under `folder`, its version changed so a record tells which copy graded."""
    dest = folder / "stat8021-a3"
    shutil.copytree(ROOT / "reference" / "stat8021-a3", dest, ignore=JUNK)
    toml = dest / "pack.toml"
    text = toml.read_text(encoding="utf-8")
    assert 'version = "2025.1' in text
    toml.write_text(text.replace('version = "2025.1', f'version = "{version}', 1),
                    encoding="utf-8")
    return dest


def _grade_saved(tmp_path: Path, *extra: str, env: dict | None = None) -> dict:
    """`grader grade --no-execute` of one sample (nothing runs: seconds) from `tmp_path`."""
    out = tmp_path / "grades"
    shutil.rmtree(out, ignore_errors=True)
    grader = Path(sys.executable).with_name("grader")
    environ = {**os.environ, **(env or {})}
    if env is None or "GRADER_PACKS" not in env:
        environ.pop("GRADER_PACKS", None)
    done = subprocess.run([str(grader), "grade", str(SAMPLE), "-a", "stat8021-a3", "--out",
                           str(out), "--no-execute", "--no-report", "--json", *extra],
                          cwd=tmp_path, env=environ, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    (record,) = json.loads(done.stdout)
    return record["assignment"]


def test_pack_id_search_order_packs_dir_then_env_then_reference_then_examples(tmp_path):
    # nothing around: the examples installed with the grader (the checkout, editable)
    assert _grade_saved(tmp_path)["version"].startswith("2025.1")
    assert not _grade_saved(tmp_path)["version"].endswith("-local")
    # ./reference in the working folder beats the installed examples
    _pack_copy(tmp_path / "reference", "2025.1-local")
    assert _grade_saved(tmp_path)["version"] == "2025.1-local"
    # $GRADER_PACKS (a PATH-like list) beats ./reference
    _pack_copy(tmp_path / "env-packs", "2025.1-env")
    env = {"GRADER_PACKS": f"{tmp_path / 'nowhere'}{os.pathsep}{tmp_path / 'env-packs'}"}
    assert _grade_saved(tmp_path, env=env)["version"] == "2025.1-env"
    # --packs-dir (or --packs) beats them all
    _pack_copy(tmp_path / "mine", "2025.1-flag")
    assert _grade_saved(tmp_path, "--packs", str(tmp_path / "mine"),
                        env=env)["version"] == "2025.1-flag"


def test_unknown_pack_id_names_the_folders_searched(tmp_path):
    from grader.pack import PackError, resolve_pack

    with pytest.raises(PackError) as err:
        resolve_pack("stat8021_a3", tmp_path / "mine")
    message = str(err.value)
    assert "did you mean 'stat8021-a3'?" in message
    assert f"--packs-dir {tmp_path / 'mine'}" in message and "./reference" in message
    with pytest.raises(PackError, match="known: attention-module-hw, stat8021-a3, transfer-lab-a"):
        resolve_pack("zzz")
