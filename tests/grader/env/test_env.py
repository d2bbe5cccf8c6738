"""Pack kernel environments (grader/env), offline: a tiny real package of our own is written
into a wheelhouse here, an environment is built from it with the real installers, and a
real sandboxed kernel of that pack imports it while the grader's process does not."""

from __future__ import annotations

import importlib.util
import json
import os
import textwrap
from pathlib import Path

import nbformat
import pytest

from grader.env import EnvError, EnvMissing, find, kernel_sandbox, require, spec_for
from grader.env.build import build, read_lock, write_lock
from grader.pack import load_pack
from tests.grader.conftest import needs_bwrap

PACKAGE = "gradertinypkg"


def _wheel(wheelhouse: Path, name: str, version: str, modules: dict[str, str]) -> None:
    """A real wheel (PEP 427: a zip with its .dist-info and a RECORD of hashes), written
    here rather than by setuptools, so the test needs no build backend and no network."""
    import base64
    import hashlib
    import zipfile

    info = f"{name}-{version}.dist-info"
    files = {**modules,
             f"{info}/METADATA": f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n",
             f"{info}/WHEEL": "Wheel-Version: 1.0\nGenerator: test_env\n"
                              "Root-Is-Purelib: true\nTag: py3-none-any\n"}
    record = []
    for rel, text in files.items():
        digest = base64.urlsafe_b64encode(hashlib.sha256(text.encode()).digest()).rstrip(b"=")
        record.append(f"{rel},sha256={digest.decode()},{len(text.encode())}")
    record.append(f"{info}/RECORD,,")
    with zipfile.ZipFile(wheelhouse / f"{name}-{version}-py3-none-any.whl", "w") as whl:
        for rel, text in files.items():
            whl.writestr(rel, text)
        whl.writestr(f"{info}/RECORD", "\n".join(record) + "\n")


def write_pack(root: Path, environment: str) -> Path:
    """A small pack: one manual question, an [environment] table."""
    root.mkdir(parents=True, exist_ok=True)
    nbformat.write(nbformat.v4.new_notebook(), root / "template.ipynb")
    (root / "probes.py").write_text("def nothing(student, case):\n    return {}\n")
    (root / "reference.py").write_text("")
    (root / "pack.toml").write_text(textwrap.dedent("""\
        [assignment]
        id = "env-pack"
        title = "A pack with an environment"
        notebook = "nb.ipynb"
        total = 1
        template = "template.ipynb"
        probes = "probes.py"
        reference = "reference.py"

        [[questions]]
        id = "q"
        title = "Q"
        points = 1
          [[questions.checks]]
          kind = "manual"

        """) + environment)
    return root


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """The pack, its built environment (uv when installed, else pip) and the envs root."""
    tmp = tmp_path_factory.mktemp("env")
    wheels = tmp / "pack" / "wheels"
    wheels.mkdir(parents=True)
    # Our package, and one that tries to shadow a kernel package with its own
    # `safetensors/` folder: the grader's safetensors must still be the one imported.
    _wheel(wheels, PACKAGE, "1.2.0",
           {f"{PACKAGE}/__init__.py": "VALUE = 42\n"})
    _wheel(wheels, "shadowkernel", "0.1.0",
           {"shadowkernel/__init__.py": "", "safetensors/__init__.py":
            "raise ImportError('the pack shadowed the grader safetensors')\n"})
    pack_dir = write_pack(tmp / "pack", textwrap.dedent(f"""\
        [environment]
        packages = ["{PACKAGE}>=1.0", "shadowkernel"]
        wheelhouse = "wheels"
        """))
    pack = load_pack(pack_dir)
    root = tmp / "envs"
    env, fresh = build(spec_for(pack), root=root)
    return pack, env, root, fresh


def test_the_grader_process_does_not_have_the_pack_package(built):
    pack, env, _root, fresh = built
    assert fresh and importlib.util.find_spec(PACKAGE) is None
    assert [p["name"] for p in env.manifest["pins"]] == [PACKAGE, "shadowkernel"]
    assert all(p["sha256"] for p in env.manifest["pins"])  # installed with hashes required
    # the kernel packages the environment imports are the grader's own files
    for module in ("torch", "ipykernel", "safetensors"):
        assert env.manifest["kernel_files"][module].startswith(
            str(Path(importlib.util.find_spec(module).origin).resolve().parent.parent))


def test_built_once_then_found_and_a_changed_table_is_another_environment(built, tmp_path):
    pack, env, root, _fresh = built
    again, fresh = build(spec_for(pack), root=root)
    assert not fresh and again.path == env.path
    assert require(pack, root).path == env.path
    changed = write_pack(tmp_path / "p2", '[environment]\npackages = ["gradertinypkg"]\n'
                         f'wheelhouse = "{pack.root / "wheels"}"\n')
    assert find(spec_for(load_pack(changed)), root) is None


def test_a_missing_environment_names_the_command_that_builds_it(built, tmp_path):
    pack, _env, _root, _fresh = built
    with pytest.raises(EnvMissing, match=r"grader env build .*env-pack|grader env build"):
        require(pack, tmp_path / "empty")


@pytest.mark.sandbox
def test_grade_stops_at_once_when_the_environment_is_not_built(built, tmp_path, capsys,
                                                                 monkeypatch):
    from grader.cli import main

    pack, _env, _root, _fresh = built
    monkeypatch.setenv("GRADER_ENVS", str(tmp_path / "nothing-built"))
    nb = tmp_path / "nb.ipynb"
    nbformat.write(nbformat.v4.new_notebook(), nb)
    code = main(["grade", str(nb), "-a", str(pack.root), "--out", str(tmp_path / "out")])
    assert code == 2
    err = capsys.readouterr().err
    assert "grader env build" in err and "not built on this machine" in err
    assert not (tmp_path / "out" / "records").exists()


def test_a_lock_rebuilds_the_same_environment_on_another_machine_with_pip(built, tmp_path):
    pack, env, _root, _fresh = built
    lock = tmp_path / "env.lock"
    spec = spec_for(pack)
    write_lock(lock, spec, env.manifest["pins"])
    other, fresh = build(spec, root=tmp_path / "node2", tool="pip", lock=lock)
    assert fresh and other.id == env.id and other.manifest["installer"] == "pip"
    assert other.manifest["pins"] == env.manifest["pins"]
    stale = json.loads(lock.read_text())
    stale["table"] = "0" * 20
    lock.write_text(json.dumps(stale))
    with pytest.raises(EnvError, match="another"):
        read_lock(lock, spec)


@pytest.mark.venv
def test_a_pack_cannot_replace_the_grader_torch(tmp_path):
    pack = load_pack(write_pack(tmp_path / "p", '[environment]\npackages = ["torch==1.0"]\n'
                                f'wheelhouse = "{tmp_path}"\n'))
    with pytest.raises(EnvError, match="resolving"):
        build(spec_for(pack), root=tmp_path / "envs")


def test_a_pack_python_the_grader_does_not_run_is_refused(tmp_path):
    pack = load_pack(write_pack(tmp_path / "p", '[environment]\npackages = ["x"]\n'
                                'python = "2.7"\n'))
    with pytest.raises(EnvError, match="the grader runs Python"):
        build(spec_for(pack), root=tmp_path / "envs")


@pytest.mark.sandbox
def test_a_kernel_of_the_pack_imports_its_package_and_the_grader_kernel_packages(built):
    needs_bwrap()
    from grader.run.limits import Limits
    from grader.run.runner import Runner
    from grader.run.sandbox import Sandbox

    pack, env, root, _fresh = built
    box = kernel_sandbox(pack, Sandbox.create(), root)
    assert box.python == str(env.python)
    folder = env.path.parent / "nb"
    folder.mkdir(exist_ok=True)
    nb = folder / "nb.ipynb"
    nbformat.write(nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in (
        f"import {PACKAGE}, sys\nprint({PACKAGE}.VALUE, sys.prefix)",
        "import os, safetensors, torch, ipykernel\n"
        "print([os.path.realpath(m.__file__) for m in (safetensors, torch, ipykernel)])",
        f"!pip install -q {PACKAGE}",
        "import os\nprint(os.access(sys.prefix, os.W_OK))",
    )]), nb)
    result = Runner(box, Limits(cell_timeout=120)).run(nb)
    assert [c.status for c in result.cells] == ["ok"] * 4, result.cells
    out = [("".join(o.get("text", "") for o in c.outputs)) for c in result.executed.cells]
    assert out[0].split() == ["42", str(env.path)]
    grader_site = os.path.dirname(os.path.dirname(importlib.util.find_spec("torch").origin))
    assert all(p.startswith(grader_site) for p in eval(out[1]))  # noqa: S307 - our own print
    assert f"{PACKAGE} 1.2.0" in out[2]  # the shim saw it installed: nothing to do
    assert out[3].strip() == "False"  # the environment is read-only in the sandbox


@pytest.mark.parametrize(("table", "field", "says"), [
    ('pakages = ["x"]', "environment.pakages", "did you mean 'packages'"),
    ('packages = ["a b"]', "environment.packages", "not a pip requirement"),
    ('python = "three"', "environment.python", "a version"),
])
def test_the_environment_table_is_typed(tmp_path, table, field, says):
    from grader.pack import PackError

    with pytest.raises(PackError) as caught:
        load_pack(write_pack(tmp_path / "p", f"[environment]\n{table}\n"))
    assert caught.value.field == field and says in str(caught.value)
