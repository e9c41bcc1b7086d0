"""Retrieval speed: embedding throughput, cache re-use after a budget change, query latency.

    python bench/bench_retrieval.py [--bulk 20000] [--queries 100]

One run prints:

1. embedding throughput (chunks/s) indexing ``sample_repos/`` with both strategies into a fresh
   data folder and a cold embedding cache (model load excluded, timed separately);
2. re-indexing after the budget grows by 10%: share of embeddings re-used and the speed-up over
   the first index, per strategy (each is indexed and timed on its own) and for both together;
3. query latency p50/p95 for vector, keyword and hybrid search over a collection of ``--bulk``
   chunks in an embedded Chroma (the bulk gets random unit vectors, so no hours of embedding;
   each query is embedded for real, and that time is included; three in every ten bulk chunks are
   parts of a split function, so whole-definition results are part of what is timed);
4. peak memory (max RSS) of the process.

Aims (issue 5): p95 < 50 ms for vector and keyword, < 80 ms for hybrid; re-indexing after a
budget change >= 3x faster than the first index. Figures go to ``bench/out/retrieval.json``.
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from core.chunk import Chunk, chunk_id  # noqa: E402 - after the path set-up
from core.chunking import chunk_corpus, load_any  # noqa: E402
from core.embed import Embedded, Embedder  # noqa: E402
from core.index import Store, corpus_key  # noqa: E402
from core.keyword import Fusion  # noqa: E402
from core.settings import ChunkSettings  # noqa: E402

SAMPLES = REPO / "sample_repos"
OUT = REPO / "bench" / "out"
QUERIES = [
    "retry a request with exponential backoff",
    "parse the configuration file and validate it",
    "compute the checksum of a buffer",
    "release reservations that expired",
    "format an invoice total with tax",
    "open a connection pool to the database",
    "serialize the order to json",
    "read lines from a ring buffer",
    "handle a timeout in the http client",
    "convert currency with an exchange rate",
]


class RandomVectors:
    """Stands in for an :class:`Embedder` when filling the bulk collection: random unit vectors."""

    def __init__(self, dim: int, seed: int = 3) -> None:
        self.rng = np.random.default_rng(seed)
        self.dim = dim

    def embed(self, texts: list[str], *, progress: object = None) -> Embedded:
        vectors = self.rng.standard_normal((len(texts), self.dim)).astype(np.float32)
        vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
        return Embedded(vectors, 0, len(texts), ())


def corpus_chunks(settings: ChunkSettings) -> dict[str, list[Chunk]]:
    corpus = load_any(SAMPLES)
    corpus.files = [f for f in corpus.files if not f.path.startswith("queries/")]
    found: dict[str, list[Chunk]] = {}
    for strategy in ("fixed", "syntax"):
        found[strategy] = [c for c in chunk_corpus(corpus, settings, strategy) if isinstance(c, Chunk)]
    return found


def bulk_chunks(count: int, vocabulary: list[str], seed: int = 5) -> list[Chunk]:
    """``count`` synthetic chunks whose texts mix words of real code (for a realistic BM25).

    Like real code, some are parts of split functions: in every ten, chunks 0-2 are parts 1-3 of
    one function (so a search that finds a part reads its file to return the whole function)."""
    rng = random.Random(seed)
    chunks: list[Chunk] = []
    for n in range(count):
        part, parts = ((n % 10) + 1, 3) if n % 10 < 3 else (1, 1)
        parent = chunks[-(part - 1)].id if part > 1 else None
        words = rng.choices(vocabulary, k=rng.randint(40, 160))
        lines = [" ".join(words[i : i + 8]) for i in range(0, len(words), 8)]
        text = "\n".join(lines)
        path = f"bulk/module_{n // 50:04d}.py"
        first = (n % 50) * 20 + 1
        chunks.append(
            Chunk(
                id=chunk_id("bulk", n),
                path=path,
                language="python",
                strategy="syntax",
                kind="function",
                symbol=f"f{n - part + 1}",
                parent_id=parent,
                start_line=first,
                end_line=first + len(lines) - 1,
                start_byte=n * 1000,
                end_byte=n * 1000 + len(text),
                part=part,
                parts=parts,
                header="",
                text=text,
                embed_text=f"# {path} :: f{n - part + 1}\n{text}",
                size=len(words),
                unit="tokens",
            )
        )
    return chunks


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(share * (len(ordered) - 1))))
    return ordered[index]


def index_figures(
    store: Store, embedder: Embedder, chunks: dict[str, list[Chunk]], base: ChunkSettings, key: str, results: dict
) -> None:
    """1. The first index from a cold cache; 2. re-indexing after the budget grows by 10%.

    Each strategy is indexed (and timed) on its own, then both together are summed."""
    first_s: dict[str, float] = {}
    first_cpu: dict[str, float] = {}
    first_reports = {}
    for strategy, found in chunks.items():
        tick, cpu = time.monotonic(), time.process_time()
        (first_reports[strategy],) = store.index({strategy: found}, embedder, label="sample_repos", key=key, settings=base)
        first_s[strategy] = time.monotonic() - tick
        first_cpu[strategy] = time.process_time() - cpu
    total = sum(len(c) for c in chunks.values())
    embedded = sum(r.embedded for r in first_reports.values())
    seconds = sum(first_s.values())
    print(f"first index: {total} chunks ({embedded} distinct texts embedded) in {seconds:.1f}s: {total / seconds:.1f} chunks/s")
    for strategy, report in first_reports.items():
        print(f"  {strategy}: {report.chunks} chunks in {first_s[strategy]:.1f}s")
    results["first_index"] = {
        "chunks": total, "embedded": embedded, "seconds": round(seconds, 2), "chunks_per_s": round(total / seconds, 2),
        "seconds_by_strategy": {s: round(t, 2) for s, t in first_s.items()},
    }

    # 2. Budget +10%: only unseen texts are embedded.
    changed = base.with_(budget=round(base.budget * 1.1))
    chunks2 = corpus_chunks(changed)
    second_s: dict[str, float] = {}
    second_cpu: dict[str, float] = {}
    reuse: dict[str, float] = {}
    speedup: dict[str, float] = {}
    speedup_cpu: dict[str, float] = {}
    reused2 = total2 = 0
    for strategy, found in chunks2.items():
        tick, cpu = time.monotonic(), time.process_time()
        (report,) = store.index({strategy: found}, embedder, label="sample_repos", key=key, settings=changed)
        second_s[strategy] = time.monotonic() - tick
        second_cpu[strategy] = time.process_time() - cpu
        # Texts, not chunks: a syntax chunk embeds its head too (ChunkSettings.head_weight).
        looked_up = report.reused + report.embedded
        share = report.reused / looked_up if looked_up else 0.0
        reuse[strategy] = round(share, 3)
        speedup[strategy] = round(first_s[strategy] / second_s[strategy], 2)
        speedup_cpu[strategy] = round(first_cpu[strategy] / second_cpu[strategy], 2)
        reused2 += report.reused
        total2 += looked_up
        print(
            f"  budget {base.budget}->{changed.budget}, {strategy}: {report.reused}/{looked_up} embeddings re-used "
            f"({share:.0%}); re-index {second_s[strategy]:.1f}s, {speedup[strategy]:.1f}x faster than its first index "
            f"({speedup_cpu[strategy]:.1f}x in CPU time)"
        )
    both = sum(second_s.values())
    both_cpu = sum(second_cpu.values())
    print(
        f"re-index after the budget change, both strategies: {both:.1f}s, {seconds / both:.1f}x faster than the first "
        f"({sum(first_cpu.values()) / both_cpu:.1f}x in CPU time; {reused2}/{total2} = {reused2 / total2:.0%} re-used)"
    )
    results["reindex_budget_plus_10pct"] = {
        "seconds": round(both, 2),
        "speedup": round(seconds / both, 2),
        "speedup_cpu": round(sum(first_cpu.values()) / both_cpu, 2),
        "speedup_by_strategy": speedup,
        "speedup_cpu_by_strategy": speedup_cpu,
        "reused_share": reuse,
        "reused_share_all": round(reused2 / total2, 3),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bulk", type=int, default=20_000)
    parser.add_argument("--queries", type=int, default=100, help="queries per mode")
    parser.add_argument("--latency-only", action="store_true", help="skip the indexing figures (1 and 2)")
    args = parser.parse_args()
    results: dict[str, object] = {}
    tick = time.monotonic()
    embedder = Embedder()
    embedder.model  # noqa: B018 - load now, so that indexing below is timed without it
    results["model_load_s"] = round(time.monotonic() - tick, 2)
    print(f"model load: {results['model_load_s']}s (excluded below)")

    with tempfile.TemporaryDirectory(prefix="bench-retrieval-") as tmp:
        store = Store(Path(tmp) / "db")
        embedder = embedder.with_cache(store.cache_path)
        base = ChunkSettings()
        key = corpus_key(SAMPLES)

        chunks = corpus_chunks(base)
        if not args.latency_only:
            index_figures(store, embedder, chunks, base, key, results)

        # 3. Query latency over a bulk collection.
        vocabulary = sorted({w for c in chunks["syntax"] for w in c.text.split() if w.isidentifier()})
        bulk = bulk_chunks(args.bulk, vocabulary)
        tick = time.monotonic()
        report = store.sync("bench_bulk", bulk, RandomVectors(384), {"strategy": "syntax"})  # type: ignore[arg-type]
        print(f"bulk collection: {report.chunks} chunks added in {time.monotonic() - tick:.1f}s")
        latency = {}
        queries = [QUERIES[i % len(QUERIES)] + ("" if i < len(QUERIES) else f" {i}") for i in range(args.queries)]
        for mode in ("vector", "keyword", "hybrid"):
            store.search("bench_bulk", QUERIES[0], embedder, k=10, mode=mode)  # warm: caches, first call
            times = []
            for query in queries:
                tick = time.perf_counter()
                hits = store.search("bench_bulk", query, embedder, k=10, mode=mode, fusion=Fusion())
                times.append((time.perf_counter() - tick) * 1000)
                if not hits:
                    raise RuntimeError(f"no hits for {query!r} in mode {mode}")
            p50, p95 = percentile(times, 0.5), percentile(times, 0.95)
            latency[mode] = {"p50_ms": round(p50, 1), "p95_ms": round(p95, 1), "mean_ms": round(statistics.mean(times), 1)}
            print(f"query latency over {args.bulk} chunks, {mode:<7}: p50 {p50:6.1f} ms  p95 {p95:6.1f} ms")
        results["latency"] = latency

    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    results["peak_rss_mib"] = round(peak, 1)
    print(f"peak memory (max RSS): {peak:.0f} MiB")
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "retrieval.json").write_text(json.dumps(results, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
