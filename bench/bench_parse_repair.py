"""How often one typo costs a file its structure, with and without the parser's repair.

Each code file of ``sample_repos/`` gets one stray character (``(``, ``[``, ``{``, ``)``, ``"``
or ``'``) at a random place of a random non-blank line, ``--per-file`` times (seeded). For each
broken copy it records whether the raw tree-sitter parse has errors over more than half of the
file (the chunker's fallback threshold: the whole file would be cut into fixed windows), whether
the syntax chunker still falls back after :func:`core.parsing.parse` has mended a line, whether
the mended line is the one the typo is on, and how many of the intact file's definitions are
missing from the broken one. Every chunk list is checked to be lossless and exact.

With ``--delete-closers`` each copy instead loses one line that holds only a closer (``}``,
``end``, ``fi``, ...): the parser then closes that block at the end of the file and reads every
later definition into it. For every copy the script also counts the definitions missing when
the parse does not try the mend for a closer missing at the end (``core.parsing._close_early``
switched off), to compare: over all copies, with and without it, and the copies it made better
or worse.

    python bench/bench_parse_repair.py [--per-file 12] [--seed 11] [--delete-closers]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import core.parsing  # noqa: E402
from core.chunking import chunk_document, prepare  # noqa: E402
from core.languages import LANGUAGES, CodeSpec, detect_language  # noqa: E402
from core.parsing import ERROR_FALLBACK_RATIO, _parser, find_damage  # noqa: E402
from core.settings import ChunkSettings  # noqa: E402
from core.syntax import list_definitions  # noqa: E402
from tests.helpers import assert_lossless, assert_slices_true  # noqa: E402

STRAYS = ["(", "[", "{", ")", '"', "'"]
CLOSERS = {"}", "};", "})", "});", "end", "fi", "done", "esac"}


def _missing_definitions(path: Path, language: str, text: str, intact: set[str]) -> int:
    """Definitions of the intact file that the broken ``text`` does not have."""
    return len(intact - {d.symbol for d in list_definitions(prepare(path.name, language, text))})


def main() -> int:
    """Break every sample code file ``--per-file`` times and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-file", type=int, default=12)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--delete-closers", action="store_true", help="delete a closer line instead of adding a character")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    tried = fell_back_raw = fell_back = mended = on_typo = lost = 0
    lost_all = lost_unmended = better = worse = 0
    close_early = core.parsing._close_early
    slowest = (0.0, "")
    started = time.perf_counter()
    for path in sorted((ROOT / "sample_repos").rglob("*")):
        language = detect_language(path.name) if path.is_file() else None
        spec = LANGUAGES.get(language) if language else None
        if not isinstance(spec, CodeSpec):
            continue
        lines = path.read_text("utf-8").split("\n")
        intact = {d.symbol for d in list_definitions(prepare(path.name, language, "\n".join(lines)))}
        closers = [i for i, line in enumerate(lines) if line.strip() in CLOSERS]
        for _ in range(args.per_file):
            if args.delete_closers:
                if not closers:
                    break
                row = rng.choice(closers)
                broken = lines[:row] + lines[row + 1 :]
            else:
                row = rng.randrange(len(lines))
                if not lines[row].strip():
                    continue
                col = rng.randrange(len(lines[row]) + 1)
                broken = list(lines)
                broken[row] = lines[row][:col] + rng.choice(STRAYS) + lines[row][col:]
            text = "\n".join(broken)
            tick = time.perf_counter()
            prep = prepare(path.name, language, text)
            chunks = chunk_document(prep, ChunkSettings(), "syntax")
            seconds = time.perf_counter() - tick
            slowest = max(slowest, (seconds, path.name))
            assert_lossless(prep, chunks)
            assert_slices_true(prep, chunks)
            assert prep.parsed is not None
            raw = find_damage(_parser(spec.parser_name).parse(prep.doc.data))  # no mending
            tried += 1
            fell_back_raw += raw.ratio > ERROR_FALLBACK_RATIO
            fell_back += chunks[0].fallback == "parse_error"
            missing = len(intact - {d.symbol for d in list_definitions(prep)})
            if prep.parsed.muted:
                mended += 1
                on_typo += (row + 1) in prep.parsed.muted
                lost += missing
            core.parsing._close_early = lambda *_args: None  # the same copy without the end mend
            try:
                unmended = _missing_definitions(path, language, text, intact)
            finally:
                core.parsing._close_early = close_early
            lost_all, lost_unmended = lost_all + missing, lost_unmended + unmended
            better, worse = better + (missing < unmended), worse + (missing > unmended)
    how = "one closer line deleted" if args.delete_closers else "one stray character"
    print(f"{tried} broken copies of the sample code files ({how} each, seed {args.seed})")
    print(f"  would fall back to fixed windows on the raw parse: {fell_back_raw}")
    print(f"  fall back after the repair:                        {fell_back}")
    where = "" if args.delete_closers else f"; the mended line is the typo's own in {on_typo}"
    print(f"  repaired: {mended}{where}; definitions lost in those: {lost}")
    print(f"  definitions missing over all copies: {lost_all}; without the mend for a closer missing at the "
          f"end: {lost_unmended} (copies better with it: {better}, worse: {worse})")
    print(f"  slowest file, parse + repair + chunking: {slowest[0] * 1000:.0f} ms ({slowest[1]}); "
          f"total {time.perf_counter() - started:.1f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
