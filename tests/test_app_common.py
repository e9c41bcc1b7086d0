"""The pages' shared helpers that need no running app."""

from __future__ import annotations

import re

import pytest

from pages.common import code_span, md, name_md


def test_md_shows_paths_symbols_and_messages_as_written() -> None:
    assert md("pkg/__init__.py") == r"pkg/\_\_init\_\_.py"
    assert md("Stack[T].push") == r"Stack\[T\].push"  # a ']' would end a badge early
    assert md("a*b `c` <b> $5 ~x~ | C:\\dir") == r"a\*b \`c\` \<b\> \$5 \~x\~ \| C:\\dir"
    assert md("plain words, dots. and: colons") == "plain words, dots. and: colons"
    assert md(ValueError("bad __x__")) == r"bad \_\_x\_\_"


def test_a_url_in_a_message_is_not_made_a_link() -> None:
    # GitHub-flavoured Markdown links "http://...", "www.x" and e-mail addresses on its own, in the
    # text after escapes are resolved: an invisible word joiner inside each start stops it.
    wj = "\u2060"
    assert md("skipped [a](http://evil)_x.py: binary") == rf"skipped \[a\](http:{wj}//evil)\_x.py: binary"
    assert md("HTTPS://x.org") == f"HTTPS:{wj}//x.org"
    assert md("see www.example.org and WWW.x.io") == f"see www{wj}.example.org and WWW{wj}.x.io"
    assert md("mail someone@example.org") == f"mail someone{wj}@example.org"
    assert md("a www_dir/config.yaml: a@") == rf"a www\_dir/config.yaml: a{wj}@"


def test_md_shows_the_text_itself_once_the_joiners_are_dropped() -> None:
    # What a reader sees (and copies, less the invisible joiners) is the text, not a backslash more.
    text = "bad cell 'www.x.org' in ops@corp.example at https://x.org/a_b"
    shown = md(text).replace("\u2060", "")
    assert re.sub(r"\\(.)", r"\1", shown) == text


def test_a_name_is_shown_in_code_as_written() -> None:
    assert name_md("[link](http://evil)_*x*.py") == "`[link](http://evil)_*x*.py`"
    assert name_md("a`b.py") == "``a`b.py``"


def test_code_span_fences_a_name_that_holds_backticks() -> None:
    assert code_span("src/app.py") == "`src/app.py`"
    assert code_span("we`ird *name* $a$.js") == "``we`ird *name* $a$.js``"
    assert code_span("`edge``") == "``` `edge`` ```"


def test_a_links_bad_value_names_a_range_of_numbers_only() -> None:
    from pages.common import _allowed, _choices_hint

    assert _choices_hint((16, 1024)) == " (16 to 1,024)"
    assert _choices_hint((True, False)) == ""  # a toggle's two values are no range ("1 to 0")
    assert _choices_hint(["any", "a.py"]) == ""
    assert _allowed(20, (1, 20)) and not _allowed(21, (1, 20))
    assert _allowed(False, (True, False)) and not _allowed(2, (True, False))


def test_the_cached_file_calls_give_streamlit_their_arguments_by_name(monkeypatch: pytest.MonkeyPatch) -> None:
    # Streamlit's cache looks up each positional argument's name with inspect.signature on every
    # call: half of a cached call's cost, six calls per file when a repository's list opens.
    import streamlit.runtime.caching.cache_utils as cache_utils

    from pages import common

    def no_lookup(func: object, index: int) -> str:
        raise AssertionError("a positional argument reached Streamlit's cache")

    monkeypatch.setattr(cache_utils, "_get_positional_arg_name", no_lookup)
    text = "def area(r):\n    return 3.14 * r * r\n"
    key = common.ChunkSettings().chunk_key()
    report = common.damage_for("geo.py", "python", text, key, "fixed")
    assert report.chunks == len(common.chunks_for("geo.py", "python", text, key, "fixed")) == 1
    assert [d.symbol for d in common.definitions_for("geo.py", "python", text)] == ["area"]
    assert common.prepared("geo.py", "python", text).doc.path == "geo.py"
    # By name or not, one cache entry: the call by position finds what the call by name stored.
    monkeypatch.undo()
    assert common.chunks_for.__wrapped__("geo.py", "python", text, key, "fixed") is common.chunks_for(
        path="geo.py", language="python", text=text, settings_key=key, strategy="fixed"
    )


def test_in_turn_says_when_it_must_wait_and_frees_the_slot() -> None:
    import threading

    from pages.common import TurnSlot, in_turn

    slot = TurnSlot()
    told: list[str] = []
    with in_turn(slot, lambda mine: told.append("waiting"), "me"):
        assert not slot.lock.acquire(blocking=False) and slot.holder == "me"  # held in the block
    assert told == [] and slot.holder is None, "a free slot is taken without a word"
    for holder, mine in (("another session", False), ("me", True)):
        slot.lock.acquire()  # held by another session, or by this one's earlier run, stopping
        slot.holder = holder
        releaser = threading.Timer(0.05, slot.lock.release)

        def waiting(is_mine: bool) -> None:
            told.append(f"waiting, mine={is_mine}")
            releaser.start()  # noqa: B023 - called within this loop's turn

        with in_turn(slot, waiting, "me"):
            told.append("indexing")
        assert told[-2:] == [f"waiting, mine={mine}", "indexing"]
    assert slot.lock.acquire(blocking=False), "the slot is free again after the block"
    slot.lock.release()
    try:
        with in_turn(slot):
            raise ValueError("failed")
    except ValueError:
        pass
    assert slot.lock.acquire(blocking=False), "a failed index frees the slot too"
