"""Table chunking speed and memory against pandas' own ``read_csv`` on the same file.

Run from the repository root:

    python bench/bench_tables.py                      # 1,000,000 rows x 10 columns, 3 rounds
    python bench/bench_tables.py --rows 200000 --rounds 1 --tokens
    python bench/bench_tables.py --stages                 # plus each stage alone, on one thread

It writes a CSV of ``--rows`` rows and 10 columns (order lines: ids, dates, regions, products,
quantities, prices, discounts, revenue, customers, notes) under ``bench/out/`` (git-ignored),
then, in a fresh subprocess per measurement so each gets its own peak RSS:

- ``pandas.read_csv``: the reference;
- ``table chunks``: ``core.tables.iter_table_chunks`` into 50-row chunks with the profile chunk,
  consumed one by one (as the CLI writes JSONL), in each serialisation (CSV, Markdown, records),
  sizes in characters;
- ``... as a list``: ``chunk_table_source``, which keeps every chunk (text and embed_text) in
  memory;
- with ``--tokens``: the same in model tokens (the tokenizer then dominates).

Times exclude interpreter start-up and imports; each figure is the best of ``--rounds`` runs,
rounds interleaved so that a busy machine slows every variant alike. CPU time is shown too (on a
shared machine it is the steadier figure; pandas' reader uses two threads here, the chunker
three: it builds the chunks while one worker thread reads and parses the next batch and another
folds the current one into the profile, so its wall time can be well under its CPU time only
when two cores are free). Peak memory is the child's peak RSS (``ru_maxrss``), shown whole and
above the child's RSS after its imports. The children allocate Arrow's memory as the CLI and the
app do (``core.arrow_pool``: the system allocator, not mimalloc), unless
``ARROW_DEFAULT_MEMORY_POOL`` is set.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import random
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from core.arrow_pool import ARROW_POOL  # noqa: E402  (os and sys only: no Arrow in the parent)
OUT = ROOT / "bench" / "out"

VARIANTS = {
    "pandas.read_csv": {"kind": "pandas"},
    "table chunks, csv": {"kind": "stream", "format": "csv", "unit": "chars"},
    "table chunks, markdown": {"kind": "stream", "format": "markdown", "unit": "chars"},
    "table chunks, records": {"kind": "stream", "format": "records", "unit": "chars"},
    "table chunks, csv, as a list": {"kind": "list", "format": "csv", "unit": "chars"},
}
TOKEN_VARIANTS = {"table chunks, csv, tokens": {"kind": "stream", "format": "csv", "unit": "tokens"}}


def write_table(path: Path, rows: int, seed: int = 7) -> None:
    """A realistic order-lines table of ``rows`` rows and 10 columns."""
    rng = random.Random(seed)
    regions = ["North", "South", "East", "West", "Central"]
    products = [f"Product {i}" for i in range(200)]
    notes = ["", "", "rush", "gift wrap", "call before delivery"]
    with path.open("w", newline="", encoding="utf-8") as handle:
        out = csv.writer(handle, lineterminator="\n")
        out.writerow(["order_id", "order_date", "region", "product", "quantity", "unit_price", "discount",
                      "revenue", "customer", "note"])  # fmt: skip
        for i in range(rows):
            quantity = rng.randint(1, 50)
            price = round(rng.uniform(1, 500), 2)
            discount = rng.choice([0, 0.05, 0.1, 0.15])
            out.writerow([
                100000 + i, f"2024-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}", rng.choice(regions),
                rng.choice(products), quantity, price, discount, round(quantity * price * (1 - discount), 2),
                f"C{rng.randint(1, 50000):06d}", rng.choice(notes),
            ])  # fmt: skip


def child(variant: str, path: str) -> None:
    """Measure one variant in this (fresh) process and print its figures as JSON."""
    spec = {**VARIANTS, **TOKEN_VARIANTS}[variant]
    import psutil

    if spec["kind"] == "pandas":
        import pandas as pd

        base = psutil.Process().memory_info().rss
        start, cpu = time.perf_counter(), time.process_time()
        frame = pd.read_csv(path)
        seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
        rows = len(frame)
        chunks = 0
    else:
        from core.settings import ChunkSettings
        from core.sizing import load_tokenizer
        from core.sources import load_file
        from core.tables import chunk_table_source, iter_table_chunks

        settings = ChunkSettings(unit=spec["unit"], budget=800 if spec["unit"] == "chars" else 254,
                                 table_rows=50, table_format=spec["format"])  # fmt: skip
        if spec["unit"] == "tokens":
            load_tokenizer(settings.model)
        source = load_file(Path(path))
        base = psutil.Process().memory_info().rss
        start, cpu = time.perf_counter(), time.process_time()
        if spec["kind"] == "list":
            found = chunk_table_source(source, settings, "syntax")
            chunks, rows = len(found), found[-1].row_end
        else:
            chunks = rows = 0
            for chunk in iter_table_chunks(source, settings, "syntax"):
                chunks += 1
                rows = chunk.row_end or rows
        seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    print(json.dumps({"seconds": seconds, "cpu": cpu, "rows": rows, "chunks": chunks, "peak": peak, "base": base}))


def measure(variant: str, path: Path) -> dict[str, float]:
    """Run ``variant`` in a subprocess and return its figures."""
    done = subprocess.run(
        [sys.executable, __file__, "--child", variant, str(path)],
        cwd=ROOT, capture_output=True, text=True, check=False,
        # As the CLI and the app set it (core.arrow_pool), unless the caller chose otherwise.
        env={"ARROW_DEFAULT_MEMORY_POOL": ARROW_POOL, **os.environ, "PYTHONPATH": str(ROOT)},
    )  # fmt: skip
    if done.returncode != 0:
        raise SystemExit(f"{variant} failed:\n{done.stderr}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    """Generate the table, measure every variant, print the comparison."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--tokens", action="store_true", help="also measure sizes in model tokens")
    parser.add_argument("--stages", action="store_true", help="also time each stage of the chunker alone")
    parser.add_argument("--child", nargs=2, metavar=("VARIANT", "PATH"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(*args.child)
        return
    OUT.mkdir(parents=True, exist_ok=True)
    path = OUT / f"orders_{args.rows}.csv"
    if not path.exists():
        write_table(path, args.rows)
    size = path.stat().st_size
    variants = list(VARIANTS) + (list(TOKEN_VARIANTS) if args.tokens else [])
    best: dict[str, dict[str, float]] = {}
    for _ in range(args.rounds):
        for variant in variants:
            found = measure(variant, path)
            if variant not in best or found["seconds"] < best[variant]["seconds"]:
                best[variant] = {**found, "peak": min(found["peak"], best.get(variant, found)["peak"])}
            best[variant]["cpu"] = min(found["cpu"], best[variant]["cpu"])
    reference = best["pandas.read_csv"]["seconds"]
    reference_cpu = best["pandas.read_csv"]["cpu"]
    print(f"{path.name}: {args.rows:,} rows x 10 columns, {size / 1e6:.1f} MB; best of {args.rounds} round(s)\n")
    head = (
        f"{'variant':<30} {'seconds':>7} {'rows/s':>10} {'x read_csv':>10} {'cpu s':>6} {'x cpu':>6} "
        f"{'peak MB':>7} {'peak/file':>9} {'added/file':>10}"
    )
    print(head)
    print("-" * len(head))
    for variant in variants:
        f = best[variant]
        rate = f["rows"] / f["seconds"] if f["seconds"] else 0.0
        print(
            f"{variant:<30} {f['seconds']:>7.2f} {rate:>10,.0f} {f['seconds'] / reference:>10.2f} "
            f"{f['cpu']:>6.2f} {f['cpu'] / reference_cpu:>6.2f} "
            f"{f['peak'] / 1e6:>7.0f} {f['peak'] / size:>9.2f} {(f['peak'] - f['base']) / size:>10.2f}"
        )
    print(
        "\nseconds: wall time, best round; cpu s: CPU time of the process (all its threads); "
        "peak: peak RSS;\nadded: peak RSS above the process's RSS after imports, both over the file's size."
    )
    if args.stages:
        stages(path, reference)


def stages(path: Path, reference: float) -> None:
    """Each stage of the CSV chunker alone, one after the other on one thread (the chunker runs
    them in three threads at once): where the time goes, and how far one stage alone is from the
    aim. The batches are kept in memory for the profile and chunk stages: no memory figure."""
    from core.settings import ChunkSettings
    from core.sources import load_file
    from core.table_profile import TableProfiler
    from core.tables import _TableChunker, open_tables

    source = load_file(path)
    settings = ChunkSettings(unit="chars", budget=800, table_rows=50, table_format="csv")
    timed: dict[str, tuple[float, float]] = {}

    def clock() -> tuple[float, float]:
        return time.perf_counter(), time.process_time()

    wall, cpu = clock()
    with open_tables(source) as tables:
        for table in tables:
            for _ in table.batches:
                pass  # streamed, as the chunker reads (kept batches would add page faults)
    timed["read: Arrow's parse and the row spans"] = (time.perf_counter() - wall, time.process_time() - cpu)
    with open_tables(source) as tables:  # again, kept this time, for the other two stages
        (table,) = list(tables)
        batches = list(table.batches)
    profiler = TableProfiler(table.name, list(table.columns))
    per_column = dict.fromkeys(table.columns, 0.0)
    wall, cpu = clock()
    for batch in batches:
        for stats, column in zip(profiler.profile.columns, batch.columns):
            tick = time.process_time()
            stats.add(column)
            per_column[stats.name] += time.process_time() - tick
    timed["profile: every column's figures"] = (time.perf_counter() - wall, time.process_time() - cpu)
    chunker = _TableChunker(table, source, settings)
    wall, cpu = clock()
    count = sum(len(list(chunker._cut(batch, final=True)[0])) for batch in batches)
    timed[f"chunks: {count:,} row chunks (text, ids)"] = (time.perf_counter() - wall, time.process_time() - cpu)
    print(f"\nstages alone (csv, 50 rows a chunk), against read_csv's {reference:.2f} s wall:")
    for label, (seconds, cpu_s) in timed.items():
        print(f"  {label:<42} {seconds:>6.2f} s wall {cpu_s:>6.2f} s CPU {seconds / reference:>6.2f}x read_csv")
    slowest = sorted(per_column.items(), key=lambda item: -item[1])[:3]
    print("  profile's costliest columns: " + ", ".join(f"{name} {cpu_s:.2f} s" for name, cpu_s in slowest))


if __name__ == "__main__":
    main()
