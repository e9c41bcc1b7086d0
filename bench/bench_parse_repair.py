"""How often one typo costs a file its structure, with and without the parser's repair.

Each code file of ``sample_repos/`` gets one stray character (``(``, ``[``, ``{``, ``)``, ``"``
or ``'``) at a random place of a random non-blank line, ``--per-file`` times (seeded). For each
broken copy it records whether the raw tree-sitter parse has errors over more than half of the
file (the chunker's fallback threshold: the whole file would be cut into fixed windows), whether
the syntax chunker still falls back after :func:`core.parsing.parse` has mended a line, whether
the mended line is the one the typo is on, and how many of the intact file's definitions are
missing from the broken one. Every chunk list is checked to be lossless and exact.

    python bench/bench_parse_repair.py [--per-file 12] [--seed 11]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from core.chunking import chunk_document, prepare  # noqa: E402
from core.languages import LANGUAGES, CodeSpec, detect_language  # noqa: E402
from core.parsing import ERROR_FALLBACK_RATIO, _parser, find_damage  # noqa: E402
from core.settings import ChunkSettings  # noqa: E402
from core.syntax import list_definitions  # noqa: E402
from tests.helpers import assert_lossless, assert_slices_true  # noqa: E402

STRAYS = ["(", "[", "{", ")", '"', "'"]


def main() -> int:
    """Break every sample code file ``--per-file`` times and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-file", type=int, default=12)
    parser.add_argument("--seed", type=int, default=11)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    tried = fell_back_raw = fell_back = mended = on_typo = lost = 0
    slowest = (0.0, "")
    started = time.perf_counter()
    for path in sorted((ROOT / "sample_repos").rglob("*")):
        language = detect_language(path.name) if path.is_file() else None
        spec = LANGUAGES.get(language) if language else None
        if not isinstance(spec, CodeSpec):
            continue
        lines = path.read_text("utf-8").split("\n")
        intact = {d.symbol for d in list_definitions(prepare(path.name, language, "\n".join(lines)))}
        for _ in range(args.per_file):
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
            if prep.parsed.muted:
                mended += 1
                on_typo += (row + 1) in prep.parsed.muted
                lost += len(intact - {d.symbol for d in list_definitions(prep)})
    print(f"{tried} broken copies of the sample code files (one stray character each, seed {args.seed})")
    print(f"  would fall back to fixed windows on the raw parse: {fell_back_raw}")
    print(f"  fall back after the repair:                        {fell_back}")
    print(f"  repaired: {mended}; the mended line is the typo's own in {on_typo}; definitions lost: {lost}")
    print(f"  slowest file, parse + repair + chunking: {slowest[0] * 1000:.0f} ms ({slowest[1]}); "
          f"total {time.perf_counter() - started:.1f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
