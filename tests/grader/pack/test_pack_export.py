"""`export_public` drops the private part of a rubric however the TOML spells it.

Every pack under reference/ is exported and searched for every private value: the
contents of its reference, solution and hidden-data files, and each answer key
(`expected`) as written and as data. A copy of stat8021-a3 then spells Part 3's answer
keys in equivalent TOML forms a line filter misses (dotted keys, an inline table whose
arrays span lines, sub-tables); its public part must hold none of them and still load.
"""

from __future__ import annotations

import json
import re
import shutil
import tomllib
from pathlib import Path
from typing import Any

import pytest
import tomlkit

from grader.pack import PACK_FILE, PRIVATE_KEYS, load_pack
from grader.pack.export import PRIVATE_PATHS, private_fields, public_rubric
from tests.conftest import PACK_DIR, ROOT

PACKS = sorted(p.parent for p in (ROOT / "reference").glob(f"*/{PACK_FILE}"))
CALCS = ("attention_scores_memory", "ffn_parameters", "lora_matrices", "optimizer_state_memory")
"""The calculators Part 3's answer keys call; nothing public names them."""


def _export(pack_dir: Path, dest: Path):
    from grader.pack import export_public

    pack = load_pack(pack_dir)
    export_public(pack, dest)
    return pack


def _haystacks(folder: Path) -> dict[str, str]:
    """Each exported file as text; a notebook also as its cells' sources, unescaped."""
    out = {}
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        text = path.read_bytes().decode("utf-8", errors="replace")
        if path.suffix == ".ipynb":
            cells = json.loads(text).get("cells", [])
            text += "\n".join(_source(c) for c in cells)
        out[str(path.relative_to(folder))] = text
    return out


def _source(cell: dict[str, Any]) -> str:
    src = cell.get("source", "")
    return "".join(src) if isinstance(src, list) else str(src)


def _expected_items(doc: Any) -> list[tuple[str, Any]]:
    """(where, item) of every `expected` of a check or of its conventions (tomlkit)."""
    found = []
    for i, q in enumerate(doc.get("questions", [])):
        for j, c in enumerate(q.get("checks", [])):
            if "expected" in c:
                found.append((f"questions[{i}].checks[{j}]", c["expected"]))
            for k, conv in enumerate(c.get("conventions", [])):
                if "expected" in conv:
                    found.append((f"questions[{i}].checks[{j}].conventions[{k}]",
                                  conv["expected"]))
    return found


def _keys_named(value: Any, name: str, where: str = "") -> list[str]:
    if isinstance(value, dict):
        return [f"{where}.{k}" for k in value if k == name] + [
            hit for k, v in value.items() for hit in _keys_named(v, name, f"{where}.{k}")]
    if isinstance(value, list):
        return [hit for i, v in enumerate(value) for hit in _keys_named(v, name, f"{where}[{i}]")]
    return []


def _private_needles(pack) -> dict[str, str]:
    """Every private value of `pack`, as text that must not appear in its public part."""
    needles: dict[str, str] = {}
    files = {"reference": pack.reference_path, "solution": pack.solution,
             "hidden data": pack.data.get("hidden")}
    for role, path in files.items():
        if path is None or not path.is_file():
            continue
        text = path.read_text(encoding="utf-8")
        needles[f"{role} file"] = text
        if role == "reference":  # its own code, line by line: the lines that the probes
            # and the template do not hold too (they share signatures and class names),
            # and the starter (its notebook and the module files beside it) hold too
            starter = [f for f in pack.template.parent.rglob("*.py")
                       if pack.template.parent != pack.root]
            shared = "\n".join([*(p.read_text(encoding="utf-8") for p in pack.probes),
                                *(f.read_text(encoding="utf-8") for f in starter),
                                *(_source(c) for c in
                                  json.loads(pack.template.read_text())["cells"])])
            for line in text.splitlines():
                line = line.strip()
                if len(line) > 30 and line[0] not in "#\"'" and line not in shared:
                    needles[f"reference line {line!r}"] = line
        if role == "hidden data":
            for n, line in enumerate(text.splitlines(), 1):
                if line.strip():
                    needles[f"hidden data line {n}"] = line.strip()
        if role == "solution":  # the solved cells, i.e. those the template does not hold
            template = {_source(c) for c in json.loads(pack.template.read_text())["cells"]}
            for n, cell in enumerate(json.loads(text)["cells"]):
                src = _source(cell).strip()
                if cell.get("cell_type") == "code" and src and _source(cell) not in template:
                    needles[f"solution cell {n}"] = src
    doc = tomlkit.parse((pack.root / PACK_FILE).read_text(encoding="utf-8"))
    for where, item in _expected_items(doc):
        if hasattr(item, "as_string"):  # a table spread over headers is searched as data
            needles[f"{where}.expected as written"] = item.as_string().strip()
        value = item.unwrap() if hasattr(item, "unwrap") else dict(item)
        needles[f"{where}.expected as JSON"] = json.dumps(value)
    return needles


@pytest.mark.parametrize("pack_dir", PACKS, ids=[p.name for p in PACKS])
def test_no_private_value_reaches_the_public_part(pack_dir, tmp_path):
    pack = _export(pack_dir, tmp_path / "public")
    needles = _private_needles(pack)
    assert any(k.endswith("as written") for k in needles) and "reference file" in needles
    haystacks = _haystacks(tmp_path / "public")
    for name, text in haystacks.items():
        leaked = [k for k, needle in needles.items() if needle in text]
        assert not leaked, (pack_dir.name, name, leaked[:5])
    private_bytes = {p.read_bytes() for p in (pack.reference_path, pack.solution,
                                              pack.data.get("hidden")) if p and p.is_file()}
    assert not any(p.read_bytes() in private_bytes
                   for p in (tmp_path / "public").rglob("*") if p.is_file())
    raw = tomllib.loads(haystacks[PACK_FILE])
    assert private_fields(raw) == [] and _keys_named(raw.get("questions"), "expected") == []
    assert "reference" not in raw["assignment"] and "hidden" not in raw.get("data", {})
    public = load_pack(tmp_path / "public")
    assert public.is_public and public.total == pack.total
    assert [[c.kind for c in q.checks] for q in public.questions] == \
        [[c.kind for c in q.checks] for q in pack.questions]


def test_comments_and_layout_are_kept(tmp_path):
    _export(PACK_DIR, tmp_path / "public")
    source = (PACK_DIR / PACK_FILE).read_text(encoding="utf-8")
    rubric = (tmp_path / "public" / PACK_FILE).read_text(encoding="utf-8")
    comments = [line for line in source.splitlines() if line.lstrip().startswith("#")]
    assert comments and all(c in rubric for c in comments)
    kept = [line for line in source.splitlines()
            if not re.match(r"\s*(reference|solution|hidden|expected|rubric)\s*=", line)]
    assert rubric.splitlines()[1:] == kept  # only the private lines went


def test_every_private_key_has_a_structural_path():
    assert {path[-1] for path in PRIVATE_PATHS} == set(PRIVATE_KEYS)


# --- the same answer keys, spelled in other TOML -----------------------------------------

def _toml_value(value: Any) -> str:
    return tomlkit.item(value).as_string()


def _dotted(prefix: str, value: dict[str, Any]) -> list[str]:
    lines = []
    for key, v in value.items():
        if isinstance(v, dict):
            lines += _dotted(f"{prefix}.{key}", v)
        else:
            lines.append(f"{prefix}.{key} = {_toml_value(v)}")
    return lines


def _tables(header: str, value: dict[str, Any]) -> list[str]:
    lines = [f"[{header}]"]
    lines += [f"{k} = {_toml_value(v)}" for k, v in value.items() if not isinstance(v, dict)]
    for k, v in value.items():
        if isinstance(v, dict):
            lines += ["", *_tables(f"{header}.{k}", v)]
    return lines


EXPECTED_LINE = re.compile(r"^(?P<indent>[ \t]*)expected = (?P<value>\{.*\})[ \t]*$", re.MULTILINE)


def _rewrite(block: str, form: str) -> str:
    """One question's block with each `expected = {...}` line in another TOML form."""
    def one(match: re.Match[str]) -> str:
        indent = match["indent"]
        value = tomllib.loads(f"v = {match['value']}")["v"]
        in_convention = block.rfind("[[questions.checks.conventions]]", 0, match.start()) > \
            block.rfind("[[questions.checks]]", 0, match.start())
        if form == "dotted":
            lines = _dotted("expected", value)
        elif form == "subtable":  # each expected is its table's last key, so a header fits
            table = "questions.checks.conventions.expected" if in_convention \
                else "questions.checks.expected"
            lines = _tables(table, value)
        else:  # an inline table whose arrays span lines (TOML 1.0 allows newlines there)
            text = match["value"].replace("[[", f"[\n{indent}    [").replace(
                "], [", f"],\n{indent}    [").replace("]]", f"],\n{indent}  ]")
            lines = [f"expected = {text}"]
        return "\n".join(indent + line if line else "" for line in lines)
    return EXPECTED_LINE.sub(one, block)


FORMS = {"q3c": "dotted", "q3d": "subtable", "q3e1": "multiline", "q3e2": "dotted",
         "q3e3": "subtable"}


@pytest.fixture
def respelled(tmp_path) -> Path:
    """stat8021-a3 with Part 3's answer keys in dotted, sub-table and multi-line forms."""
    root = tmp_path / "respelled"
    shutil.copytree(PACK_DIR, root, ignore=shutil.ignore_patterns(".ruff_cache"))
    text = (root / PACK_FILE).read_text(encoding="utf-8")
    blocks = text.split("\n[[questions]]\n")
    for i, block in enumerate(blocks):
        qid = re.search(r'^id = "([^"]+)"', block, re.MULTILINE)
        if qid and qid[1] in FORMS:
            blocks[i] = _rewrite(block, FORMS[qid[1]])
    new = "\n[[questions]]\n".join(blocks)
    assert new.count("expected.calc") >= 3 and "[questions.checks.expected.args]" in new
    assert "[questions.checks.conventions.expected]" in new and "[\n" in new
    (root / PACK_FILE).write_text(new, encoding="utf-8")
    return root


def test_respelled_answer_keys_stay_private(respelled, tmp_path):
    original, copy = load_pack(PACK_DIR), load_pack(respelled)
    assert copy.raw == original.raw  # the same rubric, only spelled differently
    _export(respelled, tmp_path / "public")
    rubric = (tmp_path / "public" / PACK_FILE).read_text(encoding="utf-8")
    raw = tomllib.loads(rubric)
    assert _keys_named(raw.get("questions"), "expected") == [] and private_fields(raw) == []
    assert "expected." not in rubric and "checks.expected" not in rubric
    assert "conventions.expected" not in rubric and "[6144, 6144]" not in rubric
    for name, text in _haystacks(tmp_path / "public").items():
        assert not any(calc in text for calc in CALCS), name
        assert not [k for k, v in _private_needles(copy).items() if v in text], name
    public = load_pack(tmp_path / "public")
    assert public.is_public and public.total == original.total
    q3c = public.question("q3c").checks[0]
    assert q3c.kind == "answer" and q3c.settings.unit == "GB"  # a self-check still can
    assert [c["name"] for c in public.raw["questions"][12]["checks"][0]["conventions"]] == [
        "no_biases", "one_layer"]  # q3d's conventions keep their names, lose their keys


def test_a_rubric_tomlkit_cannot_parse_is_refused():
    from grader.pack import PackError

    with pytest.raises(PackError):
        public_rubric("[assignment\nid = 1\n")


def test_a_module_pack_exports_what_a_student_needs(tmp_path):
    """A pack whose students write a module beside a Colab notebook (attention-module-hw):
    the public part holds the starter module the template imports, the file the
    starter's `!wget` is served, and the wheelhouse `grader env build` installs from
    offline; still nothing private."""
    from grader.pack import load_pack
    from grader.pack.export import export_public

    root = ROOT / "reference" / "attention-module-hw"
    dest = tmp_path / "public-pack"
    export_public(load_pack(root), dest)
    got = {p.relative_to(dest).as_posix() for p in dest.rglob("*") if p.is_file()}
    wheels = {f"wheelhouse/{p.name}" for p in (root / "wheelhouse").glob("*.whl")}
    starter = {p.relative_to(root).as_posix() for p in (root / "template").rglob("*.py")}
    assert wheels and starter and wheels | starter <= got
    assert not any(p.startswith(("solution/", "private/")) for p in got), got
    public = load_pack(dest)
    assert public.is_public and public.files == load_pack(root).files
