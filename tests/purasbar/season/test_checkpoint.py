"""``month --month M`` resumes from the checkpoint an earlier run kept, and writes exactly what a full
replay writes; a vote typed in for a later month keeps the checkpoint, any vote it read does not."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from anko_writer import cache
from anko_writer.cli import app
from anko_writer.rulesets.purasbar.season import checkpoint
from anko_writer.rulesets.purasbar.season import run as season_run

BUILT_IN = Path(__file__).parents[3] / "campaigns" / "recht.yaml"


def _month(camp: Path, month: int, out: Path) -> tuple[str, str]:
    """Run ``month`` and return the chapter's Markdown and JSON."""
    res = CliRunner().invoke(app, ["month", str(camp), "--season", "1", "--month", str(month), "--out", str(out)])
    assert res.exit_code == 0, res.output
    return ((out / "s01" / f"m{month:02d}.md").read_text(encoding="utf-8"),
            (out / "s01" / f"m{month:02d}.json").read_text(encoding="utf-8"))


def _vote(camp: Path, key: str, formation: str) -> None:
    """Type a formation vote for month ``key`` into the campaign's ``decisions: {}``."""
    text = camp.read_text(encoding="utf-8")
    assert "decisions: {}" in text
    camp.write_text(text.replace("decisions: {}", f"decisions:\n  {key}:\n    formation: {formation}"),
                    encoding="utf-8")


@pytest.fixture
def camp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The built-in campaign in a fresh folder with a private cache."""
    monkeypatch.setenv(cache.ENV, str(tmp_path / "cache"))
    shutil.copy(BUILT_IN, tmp_path / "recht.yaml")
    return tmp_path / "recht.yaml"


def _replay(camp: Path, month: int, out: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[str, str]:
    """The chapter from a full replay (cache off)."""
    with monkeypatch.context() as m:
        m.setenv(cache.ENV, "off")
        return _month(camp, month, out)


def test_a_resumed_month_is_byte_identical_to_a_replay(camp: Path, tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """Month 2 keeps checkpoints after months 1 and 2; month 3 resumes from month 2's without playing
    months 1–2 again and writes the replay's bytes; a vote for month 4 typed in meanwhile changes nothing."""
    _month(camp, 2, tmp_path / "a")
    assert len(list((tmp_path / "cache" / checkpoint.KIND).glob("*.entry"))) == 2
    _vote(camp, "s1m4", "4 4 2")
    began = []
    real = season_run.Season.begin
    monkeypatch.setattr(season_run.Season, "begin",
                        classmethod(lambda cls, *a: began.append(1) or real(*a)))
    resumed = _month(camp, 3, tmp_path / "a")
    assert began == []  # months 1–2 came from the checkpoint
    assert resumed == _replay(camp, 3, tmp_path / "b", monkeypatch)


def test_a_changed_vote_of_an_earlier_month_is_played_again(camp: Path, tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """A vote for month 2 typed in after the checkpoints were kept: month 3 replays from month 1's
    checkpoint (which month 2's vote cannot touch) and matches a full replay with the vote."""
    before = _month(camp, 2, tmp_path / "a")
    _vote(camp, "s1m2", "5 4 1")
    after = _month(camp, 2, tmp_path / "a2")
    assert after == _replay(camp, 2, tmp_path / "b", monkeypatch)
    assert after != before


class _LastMonth:
    """A season after its last month: only ``month`` may be read (its world and arc are not there)."""

    month = checkpoint.MONTHS


def test_the_last_month_is_not_kept(camp: Path) -> None:
    """Issue 29: a checkpoint after month 12 is never resumed from (a run resumes from a month before the one it
    plays), so none is written (the months before it are kept, as above)."""
    key = checkpoint.Key((b"x",), 1, {})
    checkpoint.keep(key, _LastMonth())  # type: ignore[arg-type]
    assert cache.load(cache.entry_path(checkpoint.KIND, key.after(checkpoint.MONTHS))) == (False, None)
    assert checkpoint.MONTHS == 12


def test_the_key_holds_every_table_files_bytes_read_once(camp: Path) -> None:
    """Issue 29 round 5: the checkpoint's key reads the table files' paths and bytes as the bundle's key does (one
    copy a process, by the files' stamp); an edited table, with its new stamp, is read again and moves the key."""
    from anko_writer.resources import Resources
    from anko_writer.rulesets.purasbar.ruleset import INFO
    from anko_writer.rulesets.purasbar.setup.data import tables_stamp
    from anko_writer.rulesets.purasbar.setup.tables import table_contents
    from anko_writer.textfile import read_bytes

    folder = camp.parent / "tables" / "purasbar"
    folder.mkdir(parents=True)
    shipped = Resources("purasbar", None, INFO).search_path("tables")[-1] / "cities.yaml"
    shutil.copy(shipped, folder / "cities.yaml")
    resources = Resources("purasbar", camp.parent, INFO)
    plain = [part for path, _ in tables_stamp(resources) for part in (path, read_bytes(path))]
    data = {"seed": 1, "decisions": {}}
    before = checkpoint.Key.of(data, None, 1, resources)
    assert table_contents(resources) == plain and before.parts[3:] == tuple(plain)
    (folder / "cities.yaml").write_bytes(shipped.read_bytes() + b"\n# edited\n")
    after = checkpoint.Key.of(data, None, 1, resources)
    assert after.parts != before.parts and (folder / "cities.yaml").read_bytes() in after.parts
