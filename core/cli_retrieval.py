"""Retrieval sub-commands of the CLI: ``index``, ``query`` and ``eval`` (contract in DESIGN.md).

- ``index PATH --db DIR [chunk options]``: chunks PATH, embeds what is new, brings one Chroma
  collection per strategy in line with it, and records the run in DIR's manifest. One JSON line
  per strategy on stdout (the :class:`core.index.IndexReport`), a summary on stderr.
- ``query TEXT --db DIR [-k N] [--strategy ...] [--mode ...]``: searches the collections of the
  last ``index`` run in DIR; ranked chunks as JSONL (chunk fields plus rank, score, scores).
- ``eval PATH --queries FILE.jsonl [-k N] [chunk options] [--json]``: metrics per strategy and
  mode over an in-memory index; ``--sweep budget=128,254`` evaluates a grid of settings.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from core.chunk import Chunk
from core.errors import InputError, ModelError

if TYPE_CHECKING:
    from core.index import Store

_MODE_CHOICES = ("vector", "keyword", "hybrid")
# Equal to core.index.DEFAULT_DB (a test checks it); not imported from there so that building the
# parser, which every sub-command including ``chunk`` does, loads neither numpy nor Chroma.
DEFAULT_DB = Path("data") / "chroma"
DEFAULT_CACHE = DEFAULT_DB / "chunk_explorer" / "embeddings.sqlite3"  # Store(DEFAULT_DB).cache_path (tested)
DATA_VARIABLE = "CHUNK_EXPLORER_DATA"  # the app's data folder, when it is moved


def input_path(value: str) -> Path:
    """A PATH argument: an empty one (a script's unset ``"$VAR"``) is refused, not read as the
    current folder, as ``Path("")`` would be."""
    if not value.strip():
        raise argparse.ArgumentTypeError("an empty path; give a file, a folder or a zip")
    return Path(value)


def option_path(value: str) -> Path:
    """A ``--db``/``--cache`` argument: an empty one (``--db "$DATA"`` with ``DATA`` unset) is
    refused, not read as the current folder."""
    if not value.strip():
        raise argparse.ArgumentTypeError("an empty path; give one, or leave the option out for the default")
    return Path(value)


def default_db() -> Path:
    """The data folder when ``--db`` is not given: the app's, ``$CHUNK_EXPLORER_DATA/chroma``
    when that is set, else ``data/chroma`` below the current folder (the repository's root,
    where the app keeps it)."""
    moved = os.environ.get(DATA_VARIABLE)
    return Path(moved).expanduser() / "chroma" if moved else DEFAULT_DB


def default_cache() -> Path:
    """The embedding cache of :func:`default_db`'s store (``Store(db).cache_path``)."""
    return default_db() / DEFAULT_CACHE.relative_to(DEFAULT_DB)


_DB_HELP = f"data folder (default: ${DATA_VARIABLE}/chroma when set, as the app's, else {DEFAULT_DB} below the current folder)"
_PATH_HELP = "a file, a folder or a zipped repository"


_PARTS_HELP = (
    "rank the parts of a split definition as results of their own (default: a part found brings "
    "its whole definition, once, at the rank of its best part)"
)


def add_commands(sub: argparse._SubParsersAction, add_chunk_options: Callable[[argparse.ArgumentParser], None]) -> None:  # type: ignore[type-arg]
    """Register ``index``, ``query`` and ``eval`` on the CLI's sub-parsers."""
    index = sub.add_parser("index", help="embed a file or folder into a Chroma collection per strategy")
    index.add_argument("path", type=input_path, help=_PATH_HELP)
    index.add_argument("--db", type=option_path, help=_DB_HELP)
    add_chunk_options(index)
    index.add_argument("--quiet", action="store_true", help="no summary on stderr")
    index.set_defaults(handler=cmd_index)

    query = sub.add_parser("query", help="search what was last indexed in --db; JSONL ranked chunks")
    query.add_argument("text", help="what to search for (a description or a code snippet)")
    query.add_argument("--db", type=option_path, help=_DB_HELP + "; the search takes the settings and model of its last index")
    query.add_argument("-k", type=int, default=5, help="results per strategy (default 5)")
    query.add_argument("--strategy", choices=("fixed", "syntax", "both"), default="both", help="default: both")
    query.add_argument("--mode", choices=_MODE_CHOICES, default="hybrid", help="default: hybrid")
    query.add_argument("--path", dest="filter_path", help="only chunks of this file (path as indexed)")
    query.add_argument("--language", dest="filter_language", help="only chunks of this language")
    query.add_argument("--kind", dest="filter_kind", help="only chunks of this kind (function, class_header...)")
    query.add_argument("--bare-parts", action="store_true", help=_PARTS_HELP)
    query.set_defaults(handler=cmd_query)

    evaluate = sub.add_parser("eval", help="retrieval metrics of an annotated query set per strategy and mode")
    evaluate.add_argument("path", type=input_path, help=_PATH_HELP)
    evaluate.add_argument("--queries", type=Path, required=True, help="JSONL: query, path, symbol or start_line/end_line; also: more right answers")
    evaluate.add_argument("-k", type=int, default=5, help="cut-off of touched@k, whole@k, MRR (default 5; MRR's rank is the first result touching the answer)")
    evaluate.add_argument("--mode", choices=(*_MODE_CHOICES, "all"), default="all", help="default: all")
    evaluate.add_argument(
        "--context", type=int, default=1024,
        help="size of the context an LLM would be given, in model tokens: the share of targets wholly inside "
        "the results that fit it, in rank order (default 1024)",
    )
    # The index's and the app's cache (data/chroma/chunk_explorer/): an eval run warms both.
    evaluate.add_argument("--cache", type=option_path,
                          help="embedding cache file (default: that of the data folder, which index and the app use)")
    evaluate.add_argument("--no-cache", action="store_true", help="keep embeddings in memory only")
    evaluate.add_argument(
        "--sweep", action="append", default=[], metavar="NAME=V1,V2",
        help="grid axis, repeatable: budget, unit, overlap, raw_cuts, merge_siblings, breadcrumb, class_summary, "
        "head_weight, head_lines, model, table_rows, table_format",
    )
    evaluate.add_argument("--json", action="store_true", help="JSON on stdout instead of a table")
    evaluate.add_argument("--bare-parts", action="store_true", help=_PARTS_HELP)
    add_chunk_options(evaluate)
    evaluate.set_defaults(handler=cmd_eval)


def _settings(args: argparse.Namespace) -> Any:
    from core.__main__ import settings_from_args

    return settings_from_args(args)


def _corpus(args: argparse.Namespace) -> tuple[Any, Path]:
    from core.__main__ import limits_from_args, report_encodings, report_notes
    from core.chunking import load_any

    corpus = load_any(args.path, language=args.language, limits=limits_from_args(args), root=args.root, encoding=args.encoding)
    if not getattr(args, "quiet", False):
        report_encodings(corpus, args)
        report_notes(corpus.notes)  # files read all the same (a name stored twice in a zip): not skipped
    if not corpus.files:
        raise InputError(f"{args.path}: no files to index{_why(sorted((s.path, s.reason) for s in corpus.skipped))}")
    return corpus, args.path


def _why(skipped: Sequence[tuple[str, str]]) -> str:
    """`` (skipped: a.dat: unknown file type; ...)`` naming the first few files skipped."""
    if not skipped:
        return ""
    shown = "; ".join(f"{path}: {reason}" for path, reason in skipped[:3])
    more = f"; and {len(skipped) - 3} more" if len(skipped) > 3 else ""
    return f" (skipped: {shown}{more})"


def _header(args: argparse.Namespace) -> bool | None:
    from core.__main__ import HEADER_CHOICES

    return HEADER_CHOICES[args.header]


def _err(text: str) -> None:
    print(text, file=sys.stderr)


def cmd_index(args: argparse.Namespace) -> int:
    """``index``: one JSON report per strategy on stdout, a summary on stderr."""
    from core.chunking import chunk_corpus, strategies
    from core.embed import Embedder
    from core.index import Store, corpus_key

    settings = _settings(args)
    corpus, root = _corpus(args)
    embedder = Embedder(settings.model)  # an absent model fails here, before the data folder is set up
    store = Store(args.db or default_db())  # fails early on a bad data folder, before the model loads
    chosen = strategies(args.strategy)
    by_strategy: dict[str, list[Chunk]] = {s: [] for s in chosen}
    skipped = {(s.path, s.reason) for s in corpus.skipped}
    for strategy in chosen:
        # Per strategy, because the syntax choice also yields text and table chunks.
        for item in chunk_corpus(corpus, settings, strategy, has_header=_header(args)):
            if isinstance(item, Chunk):
                by_strategy[strategy].append(item)
            else:
                skipped.add((item.path, item.reason))
    if not any(by_strategy.values()):
        # Nothing to search: the last index stays the one queries find (empty collections
        # recorded as the last run would answer every later query with nothing).
        raise InputError(f"{args.path}: nothing to index{_why(sorted(skipped))}")
    embedder = embedder.with_cache(store.cache_path)
    reports = store.index(
        by_strategy,
        embedder,
        label=root.resolve().name or "corpus",
        key=corpus_key(root),
        settings=settings,
        skipped=sorted(skipped),
        progress=None if args.quiet else _progress("index"),
    )
    for report in reports:
        sys.stdout.write(json.dumps(report.to_dict()) + "\n")
        if not args.quiet:
            _err(
                f"{report.strategy}: {report.chunks} chunks in {report.collection} ({report.added} added, "
                f"{report.deleted} deleted, {report.unchanged} unchanged; embeddings {report.reused} re-used, "
                f"{report.embedded} computed)"
                + (f"; {_count(report.left_out, 'section divider', 'section dividers')} left out" if report.left_out else "")
            )
            if report.too_long:
                _err(
                    f"{report.strategy}: {len(report.too_long)} chunk(s) are longer than the model reads "
                    f"({embedder.max_tokens} tokens) and flagged over_model_limit: {', '.join(report.too_long[:5])}"
                    + (" ..." if len(report.too_long) > 5 else "")
                )
    if skipped and not args.quiet:
        _err(f"{len(skipped)} file(s) skipped (see the reports' 'skipped')")
    return 0


def cmd_query(args: argparse.Namespace) -> int:
    """``query``: JSONL hits of each strategy's collection, best first."""
    from core.embed import Embedder
    from core.index import MANIFEST, OURS, Store, check_query, check_where_indexed

    text = check_query(args.text, args.mode)
    args.db = args.db or default_db()
    if args.k < 1:
        raise InputError(f"-k must be at least 1, got {args.k}")
    if args.db.exists() and not args.db.is_dir():
        raise InputError(f"the data folder {args.db} is a file; pass a folder to --db")
    if not (args.db / OURS / MANIFEST).is_file():
        # A search creates nothing: a mistyped --db must not leave an empty data folder behind.
        # (The manifest lives in the data folder with a Chroma server too.)
        raise InputError(f"nothing is indexed in {args.db} yet; run `python -m core index PATH --db {args.db}` first")
    check_where_indexed(args.db)
    store = Store(args.db)
    collections = store.last_collections(args.strategy)
    settings = store.manifest()["last"]["settings"]
    embedder = None
    if args.mode != "keyword":
        try:
            embedder = Embedder(settings["model"])  # a query is embedded afresh: the cache is not needed (nor read)
        except ModelError:
            raise ModelError(
                f"the index in {args.db} was made with the model {settings['model']!r}, which cannot be loaded on "
                "this machine now; put that model back where it was, search with --mode keyword, or index "
                "again with another --model"
            ) from None
    where = {
        key: value
        for key, value in (
            ("path", args.filter_path),
            ("language", args.filter_language),
            ("kind", args.filter_kind),
        )
        if value is not None
    }
    _check_filters(store, collections, where)
    vector = embedder.embed_query(text) if embedder is not None else None
    # Every strategy searched before a line is written: one that fails (an index run cut
    # short) gives an error and no output, not one strategy's results and then exit 2.
    found = {
        strategy: store.search(
            name, text, embedder, k=args.k, mode=args.mode, where=where or None, query_vector=vector,
            whole_definitions=not args.bare_parts,
        )
        for strategy, name in collections.items()
    }
    for strategy, name in collections.items():
        hits = found[strategy]
        for hit in hits:
            sys.stdout.write(json.dumps({**hit.to_dict(), "mode": args.mode, "collection": name}, ensure_ascii=False) + "\n")
        if not hits:  # (nothing on stdout read as if the command had failed silently)
            why = "no chunk holds a word of the query" if args.mode == "keyword" else "no chunk passes the filters"
            print(f"{strategy}: no results ({why})", file=sys.stderr)
    return 0


def _check_filters(store: Store, collections: dict[str, str], where: dict[str, str]) -> None:
    """A filter value no searched collection holds is a typo (``--kind funtion``, ``--path ./a.py``),
    not a question with no answer: say so, with the values there are."""
    for key, value in where.items():
        if not value.strip():
            raise InputError(f"--{key} is empty; give a value or leave the filter out")
        known = set().union(*(store.filter_values(name, key) for name in collections.values()))
        if value not in known:
            shown = ", ".join(sorted(known)[:12]) + (f", ... ({len(known)} in all)" if len(known) > 12 else "")
            raise InputError(f"no indexed chunk has {key} {value!r}; {key}s in the index: {shown}")


def cmd_eval(args: argparse.Namespace) -> int:
    """``eval``: a metrics table (or JSON) per strategy and mode; unresolved queries on stderr."""
    from core.chunking import strategies
    from core.embed import Embedder
    from core.evaluate import Evaluation, load_queries, parse_grid, sweep
    from core.index import MODES

    settings = _settings(args)
    if args.k < 1 or args.context < 1:  # (before the corpus and the model: seconds of work)
        raise InputError(f"-k and --context must be at least 1, got -k {args.k}, --context {args.context}")
    queries = load_queries(args.queries)
    grid = parse_grid(args.sweep)
    corpus, root = _corpus(args)
    if args.cache is None:
        args.cache = default_cache()
    if root.is_dir():
        # A query set kept inside the corpus (sample_repos/queries/) would answer its own
        # queries, and so would the files beside it (the other sets, their README): its folder
        # is left out too, unless that folder is the corpus itself (as the app leaves it out).
        own = args.queries.resolve()
        folder = own.parent
        beside = folder != root.resolve() and folder.is_relative_to(root.resolve())

        def kept(path: Path) -> bool:
            return path != own and not (beside and path.is_relative_to(folder))

        corpus.files = [f for f in corpus.files if kept((root / f.path).resolve())]
    embedder = Embedder(settings.model, cache=None if args.no_cache else args.cache)
    evaluation = Evaluation(corpus, queries, embedder, has_header=_header(args))
    for line, reason in evaluation.unresolved:
        _err(f"{args.queries}:{line}: skipped: {reason}")
    for line, note in evaluation.notes:
        _err(f"{args.queries}:{line}: note: {note}")
    if not evaluation.resolved:
        raise InputError(f"{args.queries}: none of the {len(queries)} queries has a target in {args.path}")
    options: dict[str, Any] = {
        "strategies": strategies(args.strategy),
        "modes": MODES if args.mode == "all" else (args.mode,),
        "k": args.k,
        "context_tokens": args.context,
        "whole_definitions": not args.bare_parts,
    }
    if grid:
        table = sweep(evaluation, settings, grid, **options)
        if all("error" in row for row in table):  # nothing was evaluated: a bad grid, not a result
            raise InputError(f"--sweep: no combination is valid settings (first: {table[0]['error']})")
        if args.json:  # (the shape of a single run's: its rows under "metrics", one per setting)
            unresolved = [{"line": line, "reason": reason} for line, reason in evaluation.unresolved]
            notes = [{"line": line, "note": note} for line, note in evaluation.notes]
            data = {"settings": settings.to_dict(), "sweep": grid, "metrics": table, "unresolved": unresolved,
                    "notes": notes}
            sys.stdout.write(json.dumps(data, indent=2) + "\n")
        else:
            sys.stdout.write(format_table(table))
        return 0
    report = evaluation.run(settings, **options, progress=_progress("eval"))
    if args.json:
        sys.stdout.write(json.dumps(report.to_dict(), indent=2) + "\n")
    else:
        sys.stdout.write(format_table([r.to_dict() for r in report.rows]))
        _err(
            f"{_count(len(evaluation.resolved), 'query', 'queries')}; embeddings {report.reused} re-used, {report.embedded} computed"
            + (f"; {report.too_long} chunk(s) over the model's limit" if report.too_long else "")
        )
    return 0


def _progress(command: str) -> Callable[[str, int, int], None]:
    """A progress callback that says on stderr how far the embedding is, a line per tenth of a
    strategy's texts (a cold cache embeds for minutes: the command was silent meanwhile)."""
    said: dict[str, int] = {}

    def say(strategy: str, done: int, total: int) -> None:
        tenth = 10 * done // total if total else 10
        if total and said.get(strategy, -1) < tenth:
            said[strategy] = tenth
            _err(f"{command}: {strategy}: embedding {done:,}/{total:,} texts")

    return say


def _count(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def format_table(rows: Sequence[dict[str, Any]]) -> str:
    """Rows of dicts as a plain aligned text table (columns in first-seen order)."""
    if not rows:
        return "(no rows)\n"
    columns: list[str] = []
    for row in rows:
        columns.extend(c for c in row if c not in columns)

    def cell(value: Any) -> str:
        if isinstance(value, float):
            return f"{value:.3f}"
        return "" if value is None else str(value)

    cells = [[cell(row.get(c)) for c in columns] for row in rows]
    widths = [max(len(c), *(len(r[i]) for r in cells)) for i, c in enumerate(columns)]
    lines = ["  ".join(c.ljust(w) for c, w in zip(columns, widths)).rstrip()]
    lines += ["  ".join(v.ljust(w) for v, w in zip(r, widths)).rstrip() for r in cells]
    return "\n".join(lines) + "\n"
