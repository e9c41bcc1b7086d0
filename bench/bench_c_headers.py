"""Retrieval quality on real C headers none of us wrote: can a prototype's doc comment find it?

    python bench/bench_c_headers.py [--per-header 120] [--seed 7] [--corpus DIR] [--json FILE]
                                    [--cache FILE] [--compare OTHER.json]

Corpus: documented C API headers found on this machine (``HEADERS``: sqlite3.h, zlib.h, Z3's,
OpenSSL's ``ec.h``, libgcrypt's, CPython's ``abstract.h``, ICU's ``ustring.h`` and ``uregex.h``,
expat's, readline's ``history.h``); a header that is not there is left out, and said so. Each
documented function prototype (a declaration whose name a function declarator holds, at file level
or in ``extern "C" {}`` and ``#if`` blocks) loses its doc comment: the comment right above it
(right below it in zlib, whose documentation follows each prototype) is REPLACED by blank lines,
so line numbers do not move and the target spans stay true. Every such comment is removed, used as
a query or not.

Queries: the first sentence of each removed comment (its first paragraph, comment marks, Doxygen's
``\\brief`` and HTML tags dropped, cut at the first full stop; SQLite's ``CAPI3REF:`` title line is
its first sentence), when it has at least four words. At most ``--per-header`` per header (a
seeded sample: Z3's 480 would otherwise be half the set). The target is the prototype's line span
(an export macro line above it included). A comment over several prototypes written one under the
other (SQLite's ``sqlite3_errcode`` ... ``sqlite3_error_offset``) is about all of them: the others
are answers just as right (``also``), as are prototypes whose comment opens with the same sentence.

The queries are split in two halves by a seeded shuffle: ``dev`` (look at it while changing the
chunker) and ``held`` (report it, do not tune on it); both are reported, and all.

The corpus and the queries are built once and written to ``--corpus`` (default
``bench/out/c_headers``), so that another checkout (the chunker before a change) can be measured
on the very same texts and queries: run this script from that checkout with ``--corpus`` pointing
here and ``--json`` elsewhere, then ``--compare`` its JSON from this one.

Reported per strategy and mode at the project's default settings: whole@5, touched@5, MRR@5 and
ctx@1024 (``core.evaluate``), the number of chunks and their median size in tokens and in characters.
``--keep-docs`` (with a ``--corpus`` of its own) builds the corpus with every doc comment left
in place: the query's words are then in the corpus, so it measures no search for meaning, only
whether a doc comment and its prototype are in one result (the target is still the prototype).

``--merge`` measures the same with small sibling definitions packed together (``merge_siblings``,
off by default). Embeddings are cached (``--cache``, default ``bench/out/embeddings.sqlite3``):
a cold run embeds ~4,900 texts (8 minutes on 2 shared cores), the chunker before this change
~2,000 more.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import statistics
import sys
import sysconfig
import time
from dataclasses import dataclass, replace
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from core.chunking import prepare  # noqa: E402 - after the path set-up, so the bench runs from anywhere
from core.embed import Embedder  # noqa: E402
from core.evaluate import EvalReport, Evaluation, QuerySpec, aggregate  # noqa: E402
from core.settings import ChunkSettings  # noqa: E402
from core.sources import Corpus, SourceFile  # noqa: E402

OUT = REPO / "bench" / "out"
MIN_WORDS = 4
_PYTHON_INCLUDE = Path(sysconfig.get_paths()["include"])

# (name in the corpus, file, where its doc comments stand)
HEADERS: tuple[tuple[str, Path, str], ...] = (
    ("sqlite3.h", Path("/usr/include/sqlite3.h"), "above"),
    ("zlib.h", Path("/usr/include/zlib.h"), "below"),
    ("z3_api.h", Path("/usr/include/z3_api.h"), "above"),
    ("openssl/ec.h", Path("/usr/include/openssl/ec.h"), "above"),
    ("gcrypt.h", Path("/usr/include/gcrypt.h"), "above"),
    ("python/abstract.h", _PYTHON_INCLUDE / "abstract.h", "above"),
    ("unicode/ustring.h", Path("/usr/include/unicode/ustring.h"), "above"),
    ("unicode/uregex.h", Path("/usr/include/unicode/uregex.h"), "above"),
    ("expat.h", Path("/usr/include/expat.h"), "above"),
    ("readline/history.h", Path("/usr/include/readline/history.h"), "above"),
)

# Read through, as the chunker reads them: blocks whose children are at the file's level.
_OPEN = frozenset(
    {"translation_unit", "ERROR", "preproc_ifdef", "preproc_if", "preproc_else", "preproc_elif",
     "linkage_specification", "declaration_list"}
)  # fmt: skip
_DECLARATORS = frozenset(
    {"function_declarator", "pointer_declarator", "reference_declarator", "parenthesized_declarator",
     "array_declarator", "init_declarator"}
)  # fmt: skip
# K&R parameter-list macros, blanked before the parse here (see ``find_prototypes``).
_ARGUMENT_MACRO = re.compile(rb"\b(?:OF|__P|PARAMS|_PROTO|PNGARG|_ANSI_ARGS_)[ \t]*\(\(")


@dataclass(frozen=True)
class Prototype:
    """A function prototype: its lines, name, and the doc comment's lines and text, if any."""

    path: str
    name: str
    first: int
    last: int
    doc_first: int = 0
    doc_last: int = 0
    doc: str = ""


# ---- finding prototypes and their doc comments ------------------------------------------------


def _declares_function(node) -> bool:  # type: ignore[no-untyped-def]
    """Whether a declaration's name is held by a function declarator (not a pointer's: ``void
    (*cb)(int);`` is a variable)."""
    holder = None
    declarator = node.child_by_field_name("declarator")
    for _ in range(12):
        if declarator is None:
            return False
        if declarator.type not in _DECLARATORS:
            return holder is not None and holder.type == "function_declarator"
        if declarator.type != "parenthesized_declarator":
            holder = declarator
        declarator = declarator.child_by_field_name("declarator") or next(
            (c for c in declarator.named_children if c.type in _DECLARATORS or c.type.endswith(("identifier", "_name"))),
            None,
        )
    return False


def _name(node, data: bytes) -> str:  # type: ignore[no-untyped-def]
    declarator = node.child_by_field_name("declarator")
    for _ in range(12):
        if declarator is None:
            return "?"
        if declarator.type not in _DECLARATORS:
            return data[declarator.start_byte : declarator.end_byte].decode("utf-8", "replace")
        declarator = declarator.child_by_field_name("declarator") or next(
            (c for c in declarator.named_children if c.type in _DECLARATORS or c.type.endswith(("identifier", "_name"))),
            None,
        )
    return "?"


def _blank_argument_macros(data: bytes) -> bytes:
    """``OF((a, b))`` read as ``   (a, b) `` (same offsets), so zlib's prototypes parse as such."""
    out = bytearray(data)
    for found in _ARGUMENT_MACRO.finditer(data):
        outer = found.end() - 2
        depth, at = 0, outer + 1
        while at < len(data) and at < outer + 4096:
            if data[at] == 40:
                depth += 1
            elif data[at] == 41:
                depth -= 1
                if depth == 0:
                    break
            at += 1
        after = at + 1
        while after < len(data) and data[after] in b" \t\r\n":
            after += 1
        if after < len(data) and data[after] == 41:
            out[found.start() : outer + 1] = b" " * (outer + 1 - found.start())
            out[after] = 32
    return bytes(out)


def find_prototypes(path: str, text: str, where: str) -> list[Prototype]:
    """The prototypes of a header, each with the doc comment right above it (``where`` is
    "above") or right below it ("below"), in source order. Found on the tree of the text with
    K&R macros blanked (zlib's ``OF((...))``), whatever the chunker makes of them."""
    data = text.encode("utf-8")
    prep = prepare(path, "c", _blank_argument_macros(data).decode("utf-8"))
    assert prep.tree is not None
    lines = text.split("\n")
    siblings: list[list] = []  # each level's children, in order
    stack = [prep.tree.root_node]
    while stack:
        node = stack.pop()
        siblings.append(list(node.children))
        stack.extend(c for c in node.children if c.type in _OPEN)
    found: list[Prototype] = []
    for level in siblings:
        for i, node in enumerate(level):
            if node.type != "declaration" or not _declares_function(node):
                continue
            first, last = node.start_point.row + 1, node.end_point.row + 1
            j = i
            # An export macro the grammar read as a statement of its own (``U_CAPI void
            # U_EXPORT2`` over the name, ``ZEXTERN int``): it starts the prototype.
            while j > 0 and level[j - 1].type == "declaration" and level[j - 1].end_point.row + 1 >= first - 1 \
                    and level[j - 1].children and level[j - 1].children[-1].is_missing:  # fmt: skip
                j -= 1
                first = level[j].start_point.row + 1
            comments: list = []
            if where == "above":
                k = j - 1
                top = first
                while k >= 0 and level[k].type == "comment" and level[k].end_point.row + 1 == top - 1:
                    comments.insert(0, level[k])
                    top = level[k].start_point.row + 1
                    k -= 1
            else:
                k = i + 1
                if k < len(level) and level[k].type == "comment" and level[k].start_point.row + 1 == last + 1:
                    end = level[k].end_point.row + 1
                    if end >= len(lines) or not lines[end].strip():  # a blank line below it: about what is above
                        comments.append(level[k])
            comments = [c for c in comments if not lines[c.start_point.row][: c.start_point.column].strip()]
            if comments:
                doc_first, doc_last = comments[0].start_point.row + 1, comments[-1].end_point.row + 1
                if lines[doc_last - 1][comments[-1].end_point.column :].strip():
                    comments = []  # code after the comment on its last line: not removable
            if comments:
                doc = "\n".join(data[c.start_byte : c.end_byte].decode("utf-8", "replace") for c in comments)
                found.append(Prototype(path, _name(node, data), first, last, doc_first, doc_last, doc))
            else:
                found.append(Prototype(path, _name(node, data), first, last))
    found.sort(key=lambda p: p.first)
    return found


_TAG_LINE = re.compile(r"^\s*[@\\](?!brief\b|short\b)\w+")
_SENTENCE_END = re.compile(r"(?<=[a-z0-9)`'\"\]])[.!?](\s|$)")


def first_sentence(doc: str) -> str:
    """The comment's first sentence: comment marks, ``\\brief`` and HTML tags dropped, its first
    paragraph (up to a blank line or a ``@param``-like tag line) cut at the first full stop.
    SQLite's ``CAPI3REF: Title`` line is its sentence."""
    lines = []
    for raw in doc.split("\n"):
        line = raw.strip()
        line = re.sub(r"^(/\*+!?|//[/!]?|\*+/?)", "", line)
        line = re.sub(r"\*+/$", "", line).strip()
        lines.append(line)
    for line in lines:
        if line.startswith("CAPI3REF:"):
            return " ".join(line[len("CAPI3REF:") :].split())
    paragraph: list[str] = []
    for line in lines:
        if not line:
            if paragraph:
                break
            continue
        if _TAG_LINE.match(line) or re.match(r"^[A-Z][A-Z0-9_]*:\s", line):
            if paragraph:
                break
            continue
        paragraph.append(line)
    text = " ".join(" ".join(paragraph).split())
    text = re.sub(r"^[@\\](brief|short)\s+", "", text)
    text = re.sub(r"</?[a-zA-Z][^>]*>", "", text).replace("^", "")
    match = _SENTENCE_END.search(text)
    return (text[: match.start() + 1] if match else text).strip()


def strip_docs(text: str, prototypes: list[Prototype]) -> str:
    """``text`` with the doc comments' lines blank (the line count kept)."""
    lines = text.split("\n")
    for p in prototypes:
        if p.doc:
            for n in range(p.doc_first - 1, p.doc_last):
                lines[n] = ""
    stripped = "\n".join(lines)
    if stripped.count("\n") != text.count("\n"):
        raise RuntimeError("line count changed while stripping doc comments")
    return stripped


# ---- the corpus and the queries -----------------------------------------------------------------


def build(out: Path, per_header: int, seed: int, keep_docs: bool = False) -> None:
    """Write the stripped headers (as they are with ``keep_docs``) and ``queries.jsonl`` under ``out``."""
    rng = random.Random(seed)
    (out / "files").mkdir(parents=True, exist_ok=True)
    queries: list[dict] = []
    manifest = []
    for name, source, where in HEADERS:
        if not source.is_file():
            print(f"  {name}: {source} not on this machine, left out")
            continue
        text = source.read_text(encoding="utf-8")
        prototypes = find_prototypes(name, text, where)
        stripped = strip_docs(text, prototypes)
        target = out / "files" / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text if keep_docs else stripped, encoding="utf-8")
        documented = [p for p in prototypes if p.doc]
        usable = [(p, s) for p in documented if len((s := first_sentence(p.doc)).split()) >= MIN_WORDS]
        # Prototypes one under the other with their one comment: answers just as right.
        runs: dict[int, list[Prototype]] = {}
        run: list[Prototype] = []
        for p in prototypes:
            if run and p.first == run[-1].last + 1 and not p.doc and not (where == "below" and run[-1].doc):
                run.append(p)
            elif run and where == "below" and p.doc and p.first == run[-1].last + 1 and not any(r.doc for r in run):
                run.append(p)
            else:
                run = [p]
            for q in run:
                runs[id(q)] = run
        sample = usable if len(usable) <= per_header else rng.sample(usable, per_header)
        sample.sort(key=lambda ps: ps[0].first)
        for p, sentence in sample:
            others = [q for q in runs[id(p)] if q is not p]
            queries.append(
                {"query": sentence, "path": name, "start_line": p.first, "end_line": p.last, "name": p.name,
                 "also": [{"path": name, "start_line": q.first, "end_line": q.last} for q in others]}
            )  # fmt: skip
        manifest.append(
            {"header": name, "source": str(source), "docs": where, "lines": text.count("\n") + 1,
             "chars": len(text), "chars_stripped": len(stripped), "prototypes": len(prototypes),
             "documented": len(documented), "usable": len(usable), "queries": len(sample)}
        )  # fmt: skip
        print(
            f"  {name}: {len(prototypes)} prototypes, {len(documented)} with a doc comment {where} them, "
            f"{len(usable)} of 4+ words, {len(sample)} queries"
        )
    # Twins: the same sentence opens other comments too.
    by_sentence: dict[str, list[dict]] = {}
    for q in queries:
        by_sentence.setdefault(q["query"], []).append(q)
    for q in queries:
        q["also"] = q["also"] + [
            {"path": t["path"], "start_line": t["start_line"], "end_line": t["end_line"]}
            for t in by_sentence[q["query"]] if t is not q
        ]  # fmt: skip
    order = list(range(len(queries)))
    random.Random(seed + 1).shuffle(order)
    held = set(order[: len(order) // 2])
    for number, q in enumerate(queries):
        q["half"] = "held" if number in held else "dev"
    with (out / "queries.jsonl").open("w", encoding="utf-8") as handle:
        for q in queries:
            handle.write(json.dumps(q) + "\n")
    (out / "manifest.json").write_text(json.dumps(manifest, indent=2))


def load(out: Path) -> tuple[Corpus, list[QuerySpec], dict[int, dict]]:
    """The corpus, the query specs (numbered from 1) and each query's record by number."""
    manifest = json.loads((out / "manifest.json").read_text())
    files = [
        SourceFile(m["header"], "c", (out / "files" / m["header"]).read_text(encoding="utf-8")) for m in manifest
    ]
    specs, records = [], {}
    for number, raw in enumerate((out / "queries.jsonl").read_text(encoding="utf-8").splitlines(), start=1):
        q = json.loads(raw)
        spec = QuerySpec(number, q["query"], q["path"], start_line=q["start_line"], end_line=q["end_line"])
        also = tuple(replace(spec, path=a["path"], start_line=a["start_line"], end_line=a["end_line"]) for a in q["also"])
        specs.append(replace(spec, also=also))
        records[number] = q
    return Corpus(files=files), specs, records


# ---- reporting --------------------------------------------------------------------------------


def rows_of(report: EvalReport, records: dict[int, dict], chunk_sizes: dict[str, tuple[int, float, float]]) -> list[dict]:
    """Per strategy, mode and query subset (all, dev, held, each header): the figures."""
    rows = []
    subsets: list[tuple[str, object]] = [("all", None), ("dev", "dev"), ("held", "held")]
    headers = sorted({r["path"] for r in records.values()})
    subsets += [(f"header:{h}", h) for h in headers]
    keys = sorted({(o.strategy, o.mode) for o in report.outcomes})
    for strategy, mode in keys:
        outcomes = [o for o in report.outcomes if o.strategy == strategy and o.mode == mode]
        for label, wanted in subsets:
            if wanted is None:
                subset = outcomes
            elif label.startswith("header:"):
                subset = [o for o in outcomes if records[o.line]["path"] == wanted]
            else:
                subset = [o for o in outcomes if records[o.line]["half"] == wanted]
            if not subset:
                continue
            row = aggregate(subset, k=5, context_tokens=1024, chunks=[]).to_dict()
            count, median_tokens, median_chars = chunk_sizes[strategy]
            rows.append(
                {"subset": label, "strategy": strategy, "mode": mode, "queries": len(subset),
                 "whole@5": row["whole@5"], "touched@5": row["touched@5"], "mrr@5": row["mrr@5"],
                 "ctx@1024": row["in_context@1024"], "chunks": count, "median_tokens": median_tokens,
                 "median_chars": median_chars}
            )  # fmt: skip
    return rows


def print_table(rows: list[dict], label: str, subsets: tuple[str, ...] = ("all", "dev", "held")) -> None:
    print(f"{'run':<10} {'subset':<8} {'strategy':<8} {'mode':<8} {'n':>4} {'whole@5':>8} {'touched@5':>9} "
          f"{'mrr@5':>6} {'ctx@1024':>8} {'chunks':>6} {'med tok':>7} {'med chr':>7}")  # fmt: skip
    for r in rows:
        if r["subset"] in subsets:
            print(
                f"{label:<10} {r['subset']:<8} {r['strategy']:<8} {r['mode']:<8} {r['queries']:>4} {r['whole@5']:>8.1%} "
                f"{r['touched@5']:>9.1%} {r['mrr@5']:>6.3f} {r['ctx@1024']:>8.1%} {r['chunks']:>6} "
                f"{r['median_tokens']:>7.0f} {r['median_chars']:>7.0f}"
            )


def compare(mine: list[dict], other: list[dict], other_label: str) -> None:
    """Syntax rows of ``other`` (the chunker before) beside this run's, and the differences."""
    theirs = {(r["subset"], r["strategy"], r["mode"]): r for r in other}
    print(f"\nsyntax: {other_label} -> this checkout (points of whole@5 and ctx@1024; MRR)")
    print(f"{'subset':<28} {'mode':<8} {'n':>4} {'whole@5':>17} {'ctx@1024':>17} {'mrr@5':>13} {'touched@5':>17}")
    for r in mine:
        if r["strategy"] != "syntax":
            continue
        b = theirs.get((r["subset"], "syntax", r["mode"]))
        if b is None:
            continue
        print(
            f"{r['subset']:<28} {r['mode']:<8} {r['queries']:>4} "
            f"{b['whole@5']:>7.1%} > {r['whole@5']:>6.1%} {b['ctx@1024']:>7.1%} > {r['ctx@1024']:>6.1%} "
            f"{b['mrr@5']:>5.3f} > {r['mrr@5']:>5.3f} {b['touched@5']:>7.1%} > {r['touched@5']:>6.1%}"
        )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--per-header", type=int, default=120, help="queries per header at most (default 120)")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--corpus", type=Path, default=OUT / "c_headers", help="where the corpus is (built if missing)")
    parser.add_argument("--rebuild", action="store_true", help="build the corpus anew")
    parser.add_argument("--json", type=Path, default=OUT / "c_headers.json")
    parser.add_argument("--cache", type=Path, default=OUT / "embeddings.sqlite3")
    parser.add_argument("--compare", type=Path, help="JSON of another run (the chunker before) to set beside this one")
    parser.add_argument("--label", default="this", help="name of this run in the tables")
    parser.add_argument("--keep-docs", action="store_true", help="build the corpus with its doc comments (see above)")
    parser.add_argument("--merge", action="store_true", help="pack small sibling definitions together (merge_siblings)")
    args = parser.parse_args()
    started = time.monotonic()
    if args.rebuild or not (args.corpus / "queries.jsonl").is_file():
        print(f"building the corpus in {args.corpus}")
        build(args.corpus, args.per_header, args.seed, keep_docs=args.keep_docs)
    corpus, specs, records = load(args.corpus)
    chars = sum(len(f.text or "") for f in corpus.files)
    print(
        f"corpus: {len(corpus.files)} headers, {chars:,} characters; "
        f"{len(specs)} queries ({sum(1 for r in records.values() if r['half'] == 'dev')} dev, "
        f"{sum(1 for r in records.values() if r['half'] == 'held')} held out), "
        f"{sum(1 for s in specs if s.also)} with other answers just as right"
    )
    args.cache.parent.mkdir(parents=True, exist_ok=True)
    embedder = Embedder(cache=args.cache)
    evaluation = Evaluation(corpus, specs, embedder)
    if evaluation.unresolved:
        print(f"unresolved: {evaluation.unresolved[:5]}")
    settings = ChunkSettings(merge_siblings=True) if args.merge else ChunkSettings()
    report = evaluation.run(settings, k=5, context_tokens=1024, strategies=("fixed", "syntax"))
    sizes = {}
    for strategy in ("fixed", "syntax"):
        chunks = evaluation.chunks(settings, strategy)
        sizes[strategy] = (
            len(chunks),
            float(statistics.median(c.size for c in chunks)),
            float(statistics.median(len(c.text) for c in chunks)),
        )
    print(f"({report.embedded} texts embedded, {report.reused} re-used, {report.too_long} over the model limit)")
    rows = rows_of(report, records, sizes)
    print_table(rows, args.label)
    print("\nper header (hybrid):")
    print_table([r for r in rows if r["mode"] == "hybrid"], args.label, tuple(r["subset"] for r in rows if r["subset"].startswith("header:")))
    if args.compare is not None:
        other = json.loads(args.compare.read_text())
        compare(rows, other["rows"], other.get("label", "other"))
        fixed_mine = [(r["subset"], r["mode"], r["whole@5"], r["ctx@1024"]) for r in rows if r["strategy"] == "fixed"]
        fixed_theirs = [(r["subset"], r["mode"], r["whole@5"], r["ctx@1024"]) for r in other["rows"] if r["strategy"] == "fixed"]
        print(f"fixed windows the same in both runs: {fixed_mine == fixed_theirs}")
    outcomes = [
        {"line": o.line, "strategy": o.strategy, "mode": o.mode, "whole": o.whole_rank, "touched": o.touched_rank,
         "in_context": o.in_context, "top": list(o.top)}
        for o in report.outcomes
    ]  # fmt: skip
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps({"label": args.label, "rows": rows, "outcomes": outcomes}, indent=1))
    print(f"total {time.monotonic() - started:.0f}s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
