"""The shipped templates' compiled code (issue 29, anko_writer.prebuilt): used only when its key matches, exactly
the code a compile gives, and never for a host's override, an edited template, another Jinja or renderer."""

from __future__ import annotations

import marshal
import os
import shutil
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jinja2
import pytest

from anko_writer import cache, prebuilder, prebuilt, render, ruleset
from anko_writer.errors import TemplateError
from anko_writer.render import BoundedEnvironment
from tests import wheel_hook

ROOT = Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class Store:
    """A built folder and what :func:`prebuilt.build` said of it."""

    folder: Path
    built: prebuilder.Built


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Store:
    """A folder built for the 群英杯 and Blood Bowl, as the wheel's hook builds it."""
    folder = tmp_path_factory.mktemp("prebuilt")
    return Store(folder, prebuilder.build(folder, {"purasbar": "", "bloodbowl": ""}))


@pytest.fixture
def shipped(store: Store, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """The package reads ``store``'s folder; no cache folder; each test a new run."""
    folder = store.folder
    monkeypatch.setattr(prebuilt, "FOLDER", folder)
    monkeypatch.setenv(cache.ENV, "off")
    monkeypatch.delenv(prebuilt.ENV, raising=False)
    prebuilt._present.cache_clear()
    render._ENVS.clear()
    yield folder
    prebuilt._present.cache_clear()
    render._ENVS.clear()


@pytest.fixture
def compiles(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The template names Jinja parsed (compiled) during the test."""
    seen: list[str] = []
    parse = BoundedEnvironment._parse

    def counted(self: BoundedEnvironment, source: str, name: str | None, filename: str | None) -> Any:
        seen.append(str(name))
        return parse(self, source, name, filename)
    monkeypatch.setattr(BoundedEnvironment, "_parse", counted)
    return seen


def env_of(name: str, campaign_dir: Path | None = None) -> jinja2.Environment:
    """The environment a run of ruleset ``name`` renders in."""
    return render.make_env(ruleset.get(name).resources(campaign_dir))


def code_bytes(code: Any) -> bytes:
    """A code object's marshalled bytes, its file names made one."""
    return marshal.dumps(prebuilt.refile(code, "x"))


def test_every_shipped_template_loads_without_compiling_as_the_compiled_code(shipped: Path, compiles: list[str],
                                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """Each 群英杯 template (its ``_common`` imports too) comes from the folder: the very code a compile gives,
    its file names the template's file."""
    env = env_of("purasbar")
    names = sorted(n for n in env.list_templates() if n.endswith(".j2"))
    loaded = {n: env.get_template(n) for n in names}
    assert compiles == [] and len(names) == 14
    monkeypatch.setenv(prebuilt.ENV, "off")
    prebuilt._present.cache_clear()
    fresh = env_of("purasbar")
    for name, tpl in loaded.items():
        again = fresh.get_template(name)
        assert tpl.filename == again.filename and Path(str(tpl.filename)).is_file()
        assert code_bytes(tpl.root_render_func.__code__) == code_bytes(again.root_render_func.__code__), name
        codes = [c for c in tpl.root_render_func.__code__.co_consts if hasattr(c, "co_filename")]
        assert all(c.co_filename == tpl.filename for c in codes)
    assert len(compiles) == 14


def test_a_season_with_the_folder_writes_what_a_season_compiling_everything_writes(
        shipped: Path, compiles: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The 群英杯's rules chapter and the opening month: the same bytes whichever code renders them."""
    from typer.testing import CliRunner

    from anko_writer.cli import app

    def month(out: Path) -> dict[str, bytes]:
        render._ENVS.clear()
        result = CliRunner().invoke(app, ["month", str(ROOT / "campaigns" / "recht.yaml"), "--season", "1",
                                          "--month", "1", "--out", str(out)])
        assert result.exit_code == 0, result.output
        return {str(p.relative_to(out)): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}

    fast = month(tmp_path / "fast")
    templates = [n for n in compiles if n != render.PHRASE_NAME]
    monkeypatch.setenv(prebuilt.ENV, "off")
    prebuilt._present.cache_clear()
    slow = month(tmp_path / "slow")
    assert templates == [] and len([n for n in compiles if n != render.PHRASE_NAME]) > 5
    assert fast == slow and any(k.endswith(".md") for k in fast)


def test_a_host_override_and_an_edited_template_compile_as_before(shipped: Path, compiles: list[str],
                                                                  tmp_path: Path) -> None:
    """A campaign's own ``chapter.md.j2`` (another source) is compiled; the templates it leaves come shipped."""
    folder = tmp_path / "templates" / "purasbar"
    folder.mkdir(parents=True)
    shipped_source = (ROOT / "templates" / "purasbar" / "chapter.md.j2").read_text(encoding="utf-8")
    (folder / "chapter.md.j2").write_text(shipped_source.replace("\n", "\n\n", 1), encoding="utf-8")
    (folder / "money.j2").write_text((ROOT / "templates" / "purasbar" / "money.j2").read_text(encoding="utf-8"),
                                     encoding="utf-8")
    env = env_of("purasbar", tmp_path)
    override = env.get_template("chapter.md.j2")
    assert compiles == ["chapter.md.j2"] and override.filename == str(folder / "chapter.md.j2")
    same = env.get_template("money.j2")  # an override with the shipped bytes: the shipped code, its own file named
    assert compiles == ["chapter.md.j2"] and same.filename == str(folder / "money.j2")
    env.get_template("life.j2")
    assert compiles == ["chapter.md.j2"]


@pytest.mark.parametrize("change", ["jinja", "renderer", "python", "stamp", "name"])
def test_the_key_holds_what_the_code_is_made_of(shipped: Path, compiles: list[str], change: str,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """Another Jinja, another renderer source, another Python bytecode, another environment or template name:
    no entry matches, and the template is compiled as before."""
    env = env_of("purasbar")
    source, filename, _ = env.loader.get_source(env, "money.j2")
    stamp = render.env_stamp(env)
    assert prebuilt.template_code(stamp, "money.j2", filename, source) is not None
    if change == "jinja":
        monkeypatch.setattr(jinja2, "__version__", "9.9.9")
    elif change == "renderer":
        monkeypatch.setattr(prebuilt, "renderer_digest", lambda: "0" * 64)
    elif change == "python":
        monkeypatch.setattr(prebuilt, "MAGIC_NUMBER", b"\x00\x00\r\n")
    elif change == "stamp":
        stamp = cache.digest([stamp, "another filter"])
    name = "growth.j2" if change == "name" else "money.j2"
    assert prebuilt.template_code(stamp, name, filename, source) is None
    assert prebuilt.template_code(stamp, "money.j2", filename, source + " ") is None
    if change not in ("stamp", "name"):  # the environment a run makes has the stamp and name it has
        render._ENVS.clear()
        env_of("purasbar").get_template("money.j2")
        assert compiles == ["money.j2"]


def test_an_error_in_a_shipped_template_names_its_file_and_line(shipped: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A template from the folder that fails names the same file and line as the compiled one."""
    res = ruleset.get("purasbar").resources(None)

    def failure() -> str:
        render._ENVS.clear()
        with pytest.raises(TemplateError) as err:
            render.render_chapter(res, "settlement.md.j2", {"season": 1})
        return str(err.value)

    fast = failure()
    monkeypatch.setenv(prebuilt.ENV, "off")
    prebuilt._present.cache_clear()
    assert fast == failure() and "templates/purasbar/settlement.md.j2:" in fast


def test_no_ruleset_filter_runs_while_compiling_so_every_shipped_template_is_shipped(store: Store) -> None:
    """Blood Bowl's macros hold ``'…' | cn`` over constants; a ruleset's filter runs only while rendering
    (:func:`render.at_render`), so nothing folds the glossary into compiled code and every template ships."""
    built, folder = store.built, store.folder
    assert built.skipped == ()
    assert {t for r, t, _ in built.entries if r == "bloodbowl"} - {prebuilt.PHRASES_FILE} == {
        n for n in env_of("bloodbowl").list_templates() if n.endswith(".j2")}
    assert prebuilder.missing(folder, {"purasbar": "", "bloodbowl": ""}) == []


def test_a_constant_through_a_ruleset_filter_is_not_folded_into_the_compiled_code() -> None:
    """``{{ 'block' | cn('kind') }}`` compiles to a call of the filter, not to the word it gave at compile time."""
    env = env_of("bloodbowl")
    word = env.filters["cn"]
    source = "{{ 'block' | cn('kind') }}"
    code = env.compile(source, raw=True)
    assert env.from_string(source).render() == word(None, "block", "kind")
    assert word(None, "block", "kind") not in code and "'block'" in code


def test_an_edited_template_is_missing_from_the_folder_until_it_is_built_again(store: Store, tmp_path: Path) -> None:
    """``tools/prebuild.py --check``: a folder built before a template changed covers all but that one."""
    folder = store.folder
    copy = tmp_path / "copy"
    (copy / prebuilt.JINJA).mkdir(parents=True)
    keys = {k for r, t, k in store.built.entries if (r, t) != ("purasbar", "growth.j2") and t.endswith(".j2")}
    for key in keys:
        (copy / prebuilt.JINJA / f"{key}.code").write_bytes((folder / prebuilt.JINJA / f"{key}.code").read_bytes())
    assert prebuilder.missing(copy, {"purasbar": ""}) == [("purasbar", "growth.j2"), ("purasbar", prebuilt.PHRASES_FILE)]
    shutil.copytree(folder / prebuilt.PHRASES, copy / prebuilt.PHRASES)
    assert prebuilder.missing(copy, {"purasbar": ""}) == [("purasbar", "growth.j2")]


@pytest.mark.parametrize("content", [b"", b"not marshal", marshal.dumps([1, 2])])
def test_a_damaged_entry_is_compiled_again(shipped: Path, compiles: list[str], content: bytes,
                                           tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An entry that is not a code object is ignored and the template compiled (never an error)."""
    env = env_of("purasbar")
    source, filename, _ = env.loader.get_source(env, "money.j2")
    key = prebuilt.template_key(render.env_stamp(env), "money.j2", source)
    copy = tmp_path / "folder"
    (copy / prebuilt.JINJA).mkdir(parents=True)
    (copy / prebuilt.JINJA / f"{key}.code").write_bytes(content)
    monkeypatch.setattr(prebuilt, "FOLDER", copy)
    render._ENVS.clear()
    env_of("purasbar").get_template("money.j2")
    assert compiles == ["money.j2"]


def test_the_shipped_rulesets_are_those_pyproject_declares(tmp_path: Path) -> None:
    """The hook builds for the rulesets this package declares (三国 and 接战 are found only so), and without a
    pyproject for the registered ones that are this package's own, never for a plug-in installed beside it."""
    declared = prebuilder.shipped_rulesets()
    assert set(declared) == {"purasbar", "bloodbowl", "ball", "sanguo", "engage"}
    assert declared["sanguo"] == "anko_writer.rulesets.sanguo.ruleset:RULESET"
    assert prebuilder._ruleset("sanguo", declared["sanguo"]) is ruleset.get("sanguo")
    registered = prebuilder.shipped_rulesets(tmp_path / "absent.toml")
    assert set(registered) <= set(declared) and {"purasbar", "ball"} <= set(registered)


def test_a_shipped_phrase_bank_is_the_bank_read_from_its_text_and_is_not_parsed(
        shipped: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The 群英杯's bank comes from the folder (no YAML read), equal to what reading the file gives."""
    res = ruleset.get("purasbar").resources(None)
    path = res.find("templates", render.PHRASES_FILE)
    read = render.load_phrases(path)
    render._BANKS.clear()
    monkeypatch.setattr(render, "load_phrases", lambda *a: pytest.fail("the shipped bank was parsed"))
    assert render.phrase_bank(res) == read and len(read) > 100
    render._BANKS.clear()


@pytest.mark.parametrize("change", ["override", "pyyaml", "ruamel", "reader"])
def test_another_bank_text_or_reader_is_read_as_before(shipped: Path, change: str, tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """A campaign's own bank, another PyYAML or ruamel.yaml, another reader's source: no shipped bank."""
    import ruamel.yaml
    import yaml

    campaign = tmp_path if change == "override" else None
    if change == "override":
        (tmp_path / "templates" / "purasbar").mkdir(parents=True)
        (tmp_path / "templates" / "purasbar" / render.PHRASES_FILE).write_text("goal: 进了！\n", encoding="utf-8")
    elif change == "pyyaml":  # the version is read from PyYAML's distribution folder, as the import path holds it
        assert prebuilt._pyyaml_version() == yaml.__version__
        real = cache.installed
        monkeypatch.setattr(cache, "installed", lambda names: {**real(names), "pyyaml": "PyYAML-0.0.dist-info"})
    elif change == "ruamel":  # read from its distribution folder too (issue 29 round 6)
        assert prebuilt._ruamel_version() == ruamel.yaml.__version__
        real = cache.installed
        monkeypatch.setattr(cache, "installed", lambda names: {**real(names), "ruamel.yaml": "ruamel.yaml-0.0.dist-info"})
    else:
        monkeypatch.setattr(prebuilt, "_source_digest", lambda module: "0" * 64)
    parsed: list[Path] = []
    load = render.load_phrases
    monkeypatch.setattr(render, "load_phrases", lambda path, text=None: parsed.append(path) or load(path, text))
    render._BANKS.clear()
    bank = render.phrase_bank(ruleset.get("purasbar").resources(campaign))
    render._BANKS.clear()
    assert len(parsed) == 1 and (bank == {"goal": ["进了！"]} if change == "override" else len(bank) > 100)




def test_the_wheel_hook_needs_only_its_build_requirements(tmp_path: Path) -> None:
    """What the hook imports (``prebuilt.build`` over every declared ruleset) is Jinja, ruamel.yaml and PyYAML,
    which ``[build-system] requires`` lists; ``hatch_build.py`` is the wheel's hook. The run's own prebuilt
    folder was built so (tests/conftest.py): its record is read; a run given its folder builds one here."""
    import json
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert project["tool"]["hatch"]["build"]["targets"]["wheel"]["hooks"]["custom"] == {}
    assert (ROOT / "hatch_build.py").is_file()
    assert set(wheel_hook.ALLOWED.values()) <= set(project["build-system"]["requires"])
    record = os.environ.get(wheel_hook.RECORD)
    if record and Path(record).is_file() and os.environ.get(prebuilt.ENV):
        done, out = json.loads(Path(record).read_text(encoding="utf-8")), Path(os.environ[prebuilt.ENV])
    else:
        out = tmp_path / "out"
        done = wheel_hook.finish(wheel_hook.start(out))
    assert done["returncode"] == 0, str(done["stderr"])[-3000:]
    assert int(str(done["stdout"]).split()[0]) > 40 and len(list((out / prebuilt.JINJA).glob("*.code"))) > 30


def test_a_shipped_table_read_with_positions_comes_as_the_locating_parser_reads_it(
        shipped: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The 群英杯's glossary (read by the locating parser): from the folder, equal to a fresh read, positions and
    all, a new copy each time; an edited text is read by ruamel.yaml as before."""
    from anko_writer import yamlio

    path = ROOT / "tables" / "purasbar" / "glossary.yaml"
    text = path.read_text(encoding="utf-8")
    fresh = yamlio._yaml().load(text)
    monkeypatch.setattr(yamlio, "_yaml", lambda **_: pytest.fail("a shipped table was parsed"))
    first, again = yamlio.load_yaml_text(text, path), yamlio.load_yaml_text(text, path)
    assert first == fresh and first is not again
    key = next(iter(fresh))
    assert yamlio.position(first, key) == yamlio.position(fresh, key) and yamlio.position(first, key) is not None
    monkeypatch.undo()
    monkeypatch.setattr(prebuilt, "FOLDER", shipped)
    monkeypatch.setenv(cache.ENV, "off")
    parsed: list[str] = []
    real = yamlio._yaml
    monkeypatch.setattr(yamlio, "_yaml", lambda **kw: parsed.append("ruamel") or real(**kw))
    assert yamlio.load_yaml_text(text + "\n", path) == fresh and parsed == ["ruamel"]


@pytest.mark.parametrize("value", ["absolute", "relative", "on"])
def test_an_absolute_path_in_the_variable_names_the_folder_read(store: Store, compiles: list[str], value: str,
                                                                tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``ANKO_WRITER_PREBUILT=/a/folder`` reads that folder instead of the package's; any other value that is not
    ``off`` (a relative path, ``on``) reads the package's folder, as before."""
    monkeypatch.setattr(prebuilt, "FOLDER", tmp_path / "absent")
    monkeypatch.setenv(cache.ENV, "off")
    monkeypatch.chdir(store.folder.parent)
    named = {"absolute": str(store.folder), "relative": store.folder.name, "on": "on"}[value]
    monkeypatch.setenv(prebuilt.ENV, named)
    prebuilt._present.cache_clear()
    render._ENVS.clear()
    try:
        env_of("purasbar").get_template("money.j2")
    finally:
        prebuilt._present.cache_clear()
        render._ENVS.clear()
    assert compiles == ([] if value == "absolute" else ["money.j2"])
