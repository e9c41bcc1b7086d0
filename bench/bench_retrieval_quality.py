"""Retrieval quality on real code none of us wrote: can a docstring's first sentence find its function?

    python bench/bench_retrieval_quality.py [--functions 300] [--seed 7] [--tune] [--json FILE]

Corpus: the pure-Python packages ``requests``, ``click`` and ``httpx`` as installed with our
dependencies (not the standard library), with every docstring REMOVED. Each docstring is
replaced in place by blank lines (or by ``pass`` where it was the only statement, or shared its
line with code), so line numbers do not move and the target spans stay true; the result is
checked with ``ast`` before use.

Queries: the first sentence of the docstrings of a seeded sample of documented functions and
methods (at least four words, dunder methods left out). The target of each query is its
function, decorators included, as a line span. Where other documented functions open their
docstrings with the very same sentence (36 of the 300 sampled queries at seed 7: ``get`` in
httpx's ``Client`` and ``AsyncClient``, ``requests.api.post`` and ``Session.post``), those are
answers just as right (``also``): no reading of the query could prefer one. "strict" rows count
the sampled function alone.

Reported, for both strategies and the three search modes, at the project's default settings:

- ``whole@5``: the target function wholly inside one of the top-5 results. A result is a chunk,
  or, for a part of a function too big for one chunk, the whole function (all its parts:
  ``core.groups``); a row "parts ranked bare" ranks the same chunks without that;
- ``ctx@1024``: the target wholly inside a 1,024-token context filled with results in rank
  order (size-neutral: big results fill the context sooner; a whole function costs its parts'
  tokens, its repeated signature headers counted once);
- touched@5 and MRR@5 for reference.

``--tune`` also evaluates variants, one change at a time: merge_siblings, then (siblings not
merged) breadcrumb, class_summary, budget 192 and 128, head weight and lines, RRF k, the keyword
weight, the name weight of the keyword documents, and all of the last three undone at once, on
the same queries.
Every run ends with the defaults on a held-out set: the documented functions not sampled.
Embeddings are cached in ``bench/out/embeddings.sqlite3``: only new chunk texts are embedded.

Runtime on 2 cores: about 4 minutes for the default run from a cold cache (embedding ~4,500
texts, chunks and the heads of syntax chunks, dominates; measured with tests running beside it),
under 10 seconds with a warm cache. ``--tune`` embeds ~10,000 more texts from cold (expect
15-25 minutes), about a minute warm.
"""

from __future__ import annotations

import argparse
import ast
import importlib
import json
import random
import re
import sys
import time
from dataclasses import dataclass, replace
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from core.embed import Embedder  # noqa: E402 - after the path set-up, so the bench runs from anywhere
from core.evaluate import EvalReport, Evaluation, QuerySpec, aggregate  # noqa: E402
from core.chunking import prepare  # noqa: E402
from core import keyword  # noqa: E402
from core.keyword import NAME_WEIGHT, Fusion  # noqa: E402
from core.settings import ChunkSettings  # noqa: E402
from core.sources import Corpus, SourceFile  # noqa: E402
from core.syntax import list_definitions  # noqa: E402

PACKAGES = ("requests", "click", "httpx")
OUT = REPO / "bench" / "out"
MIN_WORDS = 4


@dataclass(frozen=True)
class Function:
    """A documented function of the corpus: where it is and what its docstring says first."""

    path: str
    qualname: str
    def_line: int
    sentence: str


def first_sentence(doc: str) -> str:
    """The docstring's first sentence (its first paragraph cut at the first full stop)."""
    paragraph = doc.strip().split("\n\n")[0]
    text = " ".join(paragraph.split())
    match = re.search(r"(?<=[a-z0-9)`'\"])[.!?](\s|$)", text)
    return (text[: match.start() + 1] if match else text).strip()


def strip_docstrings(source: str) -> tuple[str, list[tuple[str, int, str]]]:
    """``source`` without docstrings (same line count), and ``(qualname, def line, docstring)``
    of every documented function."""
    tree = ast.parse(source)
    lines = source.split("\n")
    found: list[tuple[str, int, str]] = []
    edits: list[tuple[ast.Expr, bool]] = []

    def visit(node: ast.AST, prefix: str) -> None:
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and _is_docstring(body[0]):
            edits.append((body[0], len(body) == 1))
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                found.append((prefix + node.name, node.lineno, ast.get_docstring(node) or ""))
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                visit(child, prefix + child.name + ".")
            elif not isinstance(child, ast.expr):
                visit(child, prefix)

    visit(tree, "")
    # Edit from the bottom up so earlier positions stay valid.
    for expr, alone in sorted(edits, key=lambda e: (e[0].lineno, e[0].col_offset), reverse=True):
        first, last = expr.lineno - 1, (expr.end_lineno or expr.lineno) - 1
        head = lines[first][: expr.col_offset]
        tail = lines[last][expr.end_col_offset or 0 :]
        own_lines = not head.strip() and not tail.strip()
        # A docstring on lines of its own with statements after it becomes blank lines; one that
        # is the whole body, or shares a line with code, becomes ``pass`` so the code stays valid.
        filler = "" if own_lines and not alone else head + "pass" + tail
        lines[first : last + 1] = [filler] + [""] * (last - first)
    stripped = "\n".join(lines)
    ast.parse(stripped)  # still valid Python
    if stripped.count("\n") != source.count("\n"):
        raise RuntimeError("line count changed while stripping docstrings")
    return stripped, found


def _is_docstring(node: ast.stmt) -> bool:
    return isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)


def build_corpus() -> tuple[Corpus, list[Function]]:
    """The stripped packages as an in-memory corpus, and their documented functions."""
    files: list[SourceFile] = []
    functions: list[Function] = []
    for name in PACKAGES:
        module = importlib.import_module(name)
        root = Path(module.__file__).resolve().parent  # type: ignore[arg-type]
        for path in sorted(root.rglob("*.py")):
            rel = f"{name}/{path.relative_to(root).as_posix()}"
            source = path.read_text(encoding="utf-8")
            try:
                stripped, documented = strip_docstrings(source)
            except SyntaxError:
                continue  # a file this Python cannot parse: leave it out
            files.append(SourceFile(rel, "python", stripped))
            for qualname, line, doc in documented:
                leaf = qualname.rsplit(".", 1)[-1]
                if leaf.startswith("__") and leaf.endswith("__"):
                    continue
                sentence = first_sentence(doc)
                if len(sentence.split()) >= MIN_WORDS:
                    functions.append(Function(rel, qualname, line, sentence))
    return Corpus(files=files), functions


def make_queries(corpus: Corpus, functions: list[Function], count: int, seed: int) -> list[QuerySpec]:
    """A seeded sample of ``count`` functions as query specs with their line spans."""
    texts = {f.path: f.text or "" for f in corpus.files}
    spans: dict[tuple[str, int], tuple[int, int]] = {}
    for path in {f.path for f in functions}:
        for d in list_definitions(prepare(path, "python", texts[path])):
            if d.is_function:
                spans[(path, d.name_line)] = (d.first, d.last)
    usable = [f for f in functions if (f.path, f.def_line) in spans]
    by_sentence: dict[str, list[Function]] = {}
    for f in usable:
        by_sentence.setdefault(f.sentence, []).append(f)
    rng = random.Random(seed)
    sample = rng.sample(usable, min(count, len(usable)))
    specs = []
    for number, f in enumerate(sample, start=1):
        first, last = spans[(f.path, f.def_line)]
        spec = QuerySpec(number, f.sentence, f.path, start_line=first, end_line=last)
        # Functions whose docstrings open with the very same sentence (a sync and an async twin,
        # a module-level helper and the method it calls) are answers just as right: the query's
        # words cannot tell them apart.
        twins = [g for g in by_sentence[f.sentence] if g is not f]
        also = tuple(replace(spec, path=g.path, start_line=spans[(g.path, g.def_line)][0],
                             end_line=spans[(g.path, g.def_line)][1]) for g in twins)
        specs.append(replace(spec, also=also))
    return specs


def strict(queries: list[QuerySpec]) -> list[QuerySpec]:
    """The same queries, each with only its own function as the answer."""
    return [replace(q, also=()) for q in queries]


def row_text(label: str, row: dict) -> str:
    return (
        f"{label:<52} {row['strategy']:<7} {row['mode']:<8} {row['whole@5']:>8.1%} {row['in_context@1024']:>9.1%} "
        f"{row['whole@5_fits']:>8.1%} {row['in_context@1024_fits']:>9.1%} "
        f"{row['touched@5']:>10.1%} {row['mrr@5']:>6.3f} {row['chunks']:>6} {row['median_size']:>6.0f}"
    )


HEADER = (
    f"{'settings':<52} {'strategy':<7} {'mode':<8} {'whole@5':>8} {'ctx@1024':>9} {'whole@5':>8} {'ctx@1024':>9} "
    f"{'touched@5':>10} {'mrr@5':>6} {'chunks':>6} {'median':>6}\n"
    f"{'':<52} {'':<7} {'':<8} {'(all targets)':>18} {'(targets that fit)':>18}"
)


def describe(settings: ChunkSettings, fusion: Fusion) -> str:
    base = ChunkSettings()
    parts = [f"budget={settings.budget}"]
    for name in ("merge_siblings", "breadcrumb", "class_summary", "head_weight", "head_lines"):
        if getattr(settings, name) != getattr(base, name):
            parts.append(f"{name}={getattr(settings, name)}")
    if fusion != Fusion():
        parts.append(f"rrf_k={fusion.rrf_k},w={fusion.vector_weight:g}/{fusion.keyword_weight:g}")
    return " ".join(parts)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--functions", type=int, default=300, help="queries to sample (default 300)")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--tune", action="store_true", help="also evaluate a grid of settings and fusions")
    parser.add_argument("--json", type=Path, default=OUT / "retrieval_quality.json")
    args = parser.parse_args()
    started = time.monotonic()
    corpus, functions = build_corpus()
    queries = make_queries(corpus, functions, args.functions, args.seed)
    OUT.mkdir(parents=True, exist_ok=True)
    embedder = Embedder(cache=OUT / "embeddings.sqlite3")
    evaluation = Evaluation(corpus, queries, embedder)
    lines = sum((f.text or "").count("\n") for f in corpus.files)
    print(
        f"corpus: {', '.join(PACKAGES)}: {len(corpus.files)} files, {lines:,} lines, docstrings removed; "
        f"{len(functions)} documented functions, {len(evaluation.resolved)} sampled (seed {args.seed})"
    )
    twinned = sum(1 for q in queries if q.also)
    print(
        f"{twinned} of the {len(queries)} queries open the docstrings of other functions too (twins): "
        "any of those counts as the answer; the 'strict' rows count only the sampled function"
    )
    fits = _fitting(evaluation)
    print(
        f"{len(fits)} of {len(evaluation.resolved)} targets fit the default budget ({ChunkSettings().budget} tokens); "
        "the others are cut into parts, whole only as a group; the 'fits' columns are over the ones that fit"
    )
    base = ChunkSettings()
    # The defaults, then the same chunks ranked bare (a part of a split function is a result on
    # its own instead of bringing its whole function: core.groups).
    # (settings, fusion, strategies, whole definitions, name weight of the keyword documents)
    runs: list[tuple[ChunkSettings, Fusion, tuple[str, ...], bool, int]] = [
        (base, Fusion(), ("fixed", "syntax"), True, NAME_WEIGHT),
        (base, Fusion(), ("syntax",), False, NAME_WEIGHT),
    ]
    if args.tune:
        # Each variant changes one thing against the best chunking found (siblings not merged:
        # a chunk of several small methods embeds as their blur and is found for none of them).
        syntax = ("syntax",)
        alone = base.with_(merge_siblings=False)
        variants = [
            (alone, Fusion(), ("fixed", "syntax")) if base.merge_siblings else (base.with_(merge_siblings=True), Fusion(), syntax),
            (alone.with_(breadcrumb=False), Fusion(), syntax),
            (alone.with_(class_summary=False), Fusion(), syntax),
            (alone.with_(budget=192), Fusion(), syntax),
            (alone.with_(budget=128), Fusion(), syntax),
            (alone.with_(head_weight=0.0), Fusion(), syntax),  # chunk vectors without their heads
            *((alone.with_(head_weight=w), Fusion(), syntax) for w in (0.3, 0.5, 0.7) if w != base.head_weight),
            (alone.with_(head_lines=3), Fusion(), syntax),
            (alone.with_(head_lines=10), Fusion(), syntax),
            (alone, Fusion(rrf_k=60), syntax),  # the customary constant (ours is 10)
            (alone, Fusion(keyword_weight=0.5), syntax),
            (alone, Fusion(keyword_weight=1.0), syntax),  # equal weights (the default until the heads)
        ]
        runs += [(settings, fusion, strategies, True, NAME_WEIGHT) for settings, fusion, strategies in variants]
        runs.append((alone, Fusion(), syntax, True, 0))  # keyword documents without the names
        # The state before chunk heads, name weights and the fusion weights: all three undone.
        runs.append((alone.with_(head_weight=0.0), Fusion(keyword_weight=1.0), ("fixed", "syntax"), True, 0))
    print(HEADER)
    table = []
    for settings, fusion, strategies, whole, name_weight in runs:
        tick = time.monotonic()
        # The name weight is a constant of the keyword documents, not a setting: set it for the run.
        keyword.NAME_WEIGHT = name_weight
        try:
            report = evaluation.run(
                settings, k=5, context_tokens=1024, fusion=fusion, strategies=strategies, whole_definitions=whole
            )
        finally:
            keyword.NAME_WEIGHT = NAME_WEIGHT
        label = describe(settings, fusion) + ("" if whole else " parts ranked bare")
        label += "" if name_weight == NAME_WEIGHT else f" name_weight={name_weight}"
        table += print_rows(report, label, fits)
        print(
            f"{'':<52} ({report.embedded} texts embedded, {report.reused} re-used, "
            f"{report.too_long} over the model limit; {time.monotonic() - tick:.0f}s)"
        )
    strict_eval = Evaluation(corpus, strict(queries), embedder)
    report = strict_eval.run(base, k=5, context_tokens=1024, strategies=("fixed", "syntax"))
    table += print_rows(report, "strict (twins not counted), " + describe(base, Fusion()), fits)
    # The defaults were tuned on the sample above: check them on the documented functions that
    # were not sampled (a held-out set from the same code).
    sampled = {(q.path, q.start_line) for q in queries}
    held = [q for q in make_queries(corpus, functions, len(functions), args.seed) if (q.path, q.start_line) not in sampled]
    if held:
        held_eval = Evaluation(corpus, held, embedder)
        report = held_eval.run(base, k=5, context_tokens=1024, strategies=("fixed", "syntax"))
        print(f"held out: the {len(held_eval.resolved)} documented functions not in the sample, defaults")
        held_fits = _fitting(held_eval)
        table += print_rows(report, "held out, " + describe(base, Fusion()), held_fits)
        report = Evaluation(corpus, strict(held), embedder).run(base, k=5, context_tokens=1024, strategies=("fixed", "syntax"))
        table += print_rows(report, "held out, strict (twins not counted)", held_fits)
        if args.tune:  # and the state before chunk heads, name weights and fusion weights
            before, fusion = base.with_(head_weight=0.0), Fusion(keyword_weight=1.0)
            keyword.NAME_WEIGHT = 0
            try:
                report = held_eval.run(before, k=5, context_tokens=1024, fusion=fusion, strategies=("syntax",))
            finally:
                keyword.NAME_WEIGHT = NAME_WEIGHT
            label = f"held out, {describe(before, fusion)} name_weight=0"
            table += print_rows(report, label, _fitting(held_eval))
    print(f"total {time.monotonic() - started:.0f}s")
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps({"queries": len(evaluation.resolved), "rows": table}, indent=2))
    return 0


def print_rows(report: EvalReport, label: str, fits: set[int]) -> list[dict]:
    """Print a report's rows, each with its figures over the targets that fit (query lines in
    ``fits``); return them as table rows."""
    rows = []
    for row in report.rows:
        data = row.to_dict()
        subset = [o for o in report.outcomes if o.strategy == row.strategy and o.mode == row.mode and o.line in fits]
        fit_row = aggregate(subset, k=5, context_tokens=1024, chunks=[]).to_dict()
        data["whole@5_fits"] = fit_row["whole@5"]
        data["in_context@1024_fits"] = fit_row["in_context@1024"]
        print(row_text(label, data))
        rows.append({"settings": label, **data})
    return rows


def _fitting(evaluation: Evaluation) -> set[int]:
    """Query lines whose target, with its breadcrumb, fits the default budget in model tokens."""
    from core.sizing import make_sizer

    sizer = make_sizer("tokens")
    budget = ChunkSettings().budget
    texts = {f.path: (f.text or "").encode() for f in evaluation.corpus.files}
    found = set()
    for spec, (target, *_) in evaluation.resolved:
        body = texts[spec.path][target.start_byte : target.end_byte].decode()
        crumb = f"# {spec.path} :: Class.method"  # about what the breadcrumb line costs
        if sizer.measure(crumb + "\n" + body) <= budget:
            found.add(spec.line)
    return found


if __name__ == "__main__":
    sys.exit(main())
