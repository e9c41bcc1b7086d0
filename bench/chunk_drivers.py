"""Timed workloads run by ``bench_chunking.py``, one per subprocess.

Usage: ``python bench/chunk_drivers.py WORKLOAD JOB.json``

``JOB.json`` names the corpus (``root`` and relative ``files``) and the chunk sizes. The driver
imports only what its workload needs, loads its parser/tokenizer/chunker (``load_s``), then reads
and processes every file (``loop_s`` wall, ``loop_cpu_s`` CPU: read + decode + work, no output
written) and prints one JSON object on stdout. The caller times the whole subprocess from outside
as well, so interpreter start and imports are visible as the difference.

The same file serves two interpreters: the project's (references and our library in-process)
and the peers' venv ``bench/.peers`` (the other chunkers); each workload imports lazily, so a
peer's driver never needs ``core`` and ours never needs a peer.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable
from pathlib import Path

# A workload's setup returns the per-file function: (relative path, text) -> list of chunk texts
# (or, for the references, a list whose length is what was counted: nodes or tokens).
Work = Callable[[str, str], list]
Setup = Callable[[dict], Work]


def _ts_python_parser():
    """A tree-sitter parser for Python: the language pack 0.13 (bundled grammars) if present."""
    try:
        from tree_sitter_language_pack import get_parser

        return get_parser("python")
    except ImportError:
        import tree_sitter
        import tree_sitter_python

        return tree_sitter.Parser(tree_sitter.Language(tree_sitter_python.language()))


# ---- references (project interpreter) --------------------------------------------------------


def setup_parse(job: dict) -> Work:
    """Parse only: what any tree-sitter chunker has to pay at least."""
    parser = _ts_python_parser()

    def work(path: str, text: str) -> list:
        tree = parser.parse(text.encode("utf-8"))
        return [tree.root_node.child_count]

    return work


def setup_parse_tokens(job: dict) -> Work:
    """Parse plus one whole-file tokenization with the model's tokenizer."""
    from core.sizing import load_tokenizer

    parser = _ts_python_parser()
    tokenizer = load_tokenizer()

    def work(path: str, text: str) -> list:
        parser.parse(text.encode("utf-8"))
        return tokenizer.encode(text, add_special_tokens=False).ids

    return work


def _setup_ours(job: dict, unit: str) -> Work:
    from core.chunking import chunk_document, prepare
    from core.settings import ChunkSettings

    budget = job["chars_budget"] if unit == "chars" else job["tokens_budget"]
    settings = ChunkSettings(unit=unit, budget=budget)
    if unit == "tokens":
        from core.sizing import load_tokenizer

        load_tokenizer()  # part of load_s, like the peers' tokenizer setup

    def work(path: str, text: str) -> list:
        # The real relative path, as the CLI uses it: breadcrumbs count against the budget.
        chunks = chunk_document(prepare(path, "python", text), settings, "syntax")
        return [c.text for c in chunks]

    return work


def setup_ours_chars(job: dict) -> Work:
    """Our syntax chunker in-process (no CLI, no JSON), chars budget."""
    return _setup_ours(job, "chars")


def setup_ours_tokens(job: dict) -> Work:
    """Our syntax chunker in-process (no CLI, no JSON), tokens budget."""
    return _setup_ours(job, "tokens")


# ---- peers (bench/.peers interpreter) --------------------------------------------------------


def setup_astchunk(job: dict) -> Work:
    """astchunk's ASTChunkBuilder; its size unit is non-whitespace characters."""
    from astchunk import ASTChunkBuilder

    builder = ASTChunkBuilder(max_chunk_size=job["nws_budget"], language="python", metadata_template="default")

    def work(path: str, text: str) -> list:
        return [window["content"] for window in builder.chunkify(text)]

    return work


def setup_llamaindex(job: dict) -> Work:
    """LlamaIndex's CodeSplitter in char mode, line cap lifted so only max_chars decides."""
    from llama_index.core.node_parser import CodeSplitter

    # Passing the parser and a tokenizer keeps CodeSplitter from fetching tiktoken data (offline).
    splitter = CodeSplitter(
        language="python",
        max_chars=job["chars_budget"],
        chunk_lines=10**6,
        parser=_ts_python_parser(),
        tokenizer=str.split,
    )
    return lambda path, text: splitter.split_text(text)


def _peer_tokenizer(job: dict):
    """The model's tokenizer for a peer, truncation and padding off (as core.sizing does)."""
    from tokenizers import Tokenizer

    tokenizer = Tokenizer.from_file(job["tokenizer_json"])
    tokenizer.no_truncation()
    tokenizer.no_padding()
    return tokenizer


def setup_llamaindex_tokens(job: dict) -> Work:
    """LlamaIndex's CodeSplitter in token mode, counting with the model's tokenizer."""
    from llama_index.core.node_parser import CodeSplitter

    tokenizer = _peer_tokenizer(job)
    splitter = CodeSplitter(
        language="python",
        count_mode="token",
        max_tokens=job["tokens_budget"],
        chunk_lines=10**6,
        parser=_ts_python_parser(),
        tokenizer=lambda text: tokenizer.encode(text, add_special_tokens=False).ids,
    )
    return lambda path, text: splitter.split_text(text)


def setup_chonkie_tokens(job: dict) -> Work:
    """chonkie's CodeChunker counting with the model's tokenizer (a tokenizers.Tokenizer)."""
    from chonkie import CodeChunker

    chunker = CodeChunker(tokenizer=_peer_tokenizer(job), chunk_size=job["tokens_budget"], language="python")

    def work(path: str, text: str) -> list:
        return [chunk.text for chunk in chunker.chunk(text)]

    return work


def setup_chonkie(job: dict) -> Work:
    """chonkie's CodeChunker with the character tokenizer."""
    from chonkie import CodeChunker

    chunker = CodeChunker(tokenizer="character", chunk_size=job["chars_budget"], language="python")

    def work(path: str, text: str) -> list:
        return [chunk.text for chunk in chunker.chunk(text)]

    return work


def setup_semantic_text_splitter(job: dict) -> Work:
    """semantic-text-splitter's CodeSplitter (Rust) with a character capacity."""
    import tree_sitter_python
    from semantic_text_splitter import CodeSplitter

    splitter = CodeSplitter(tree_sitter_python.language(), job["chars_budget"])
    return lambda path, text: splitter.chunks(text)


def setup_semantic_text_splitter_tokens(job: dict) -> Work:
    """semantic-text-splitter's CodeSplitter sized in the model's tokens (its Rust tokenizer).

    The model's tokenizer.json truncates at 128 tokens and pads; both are switched off here, as
    core.sizing.load_tokenizer does, or every file would count as at most 128 tokens.
    """
    import tree_sitter_python
    from semantic_text_splitter import CodeSplitter

    config = json.loads(Path(job["tokenizer_json"]).read_text(encoding="utf-8"))
    config["truncation"] = None
    config["padding"] = None
    splitter = CodeSplitter.from_huggingface_tokenizer_str(
        tree_sitter_python.language(), json.dumps(config), job["tokens_budget"]
    )
    return lambda path, text: splitter.chunks(text)


WORKLOADS: dict[str, Setup] = {
    "parse": setup_parse,
    "parse_tokens": setup_parse_tokens,
    "ours_chars": setup_ours_chars,
    "ours_tokens": setup_ours_tokens,
    "astchunk": setup_astchunk,
    "llamaindex": setup_llamaindex,
    "chonkie": setup_chonkie,
    "semantic_text_splitter": setup_semantic_text_splitter,
    "semantic_text_splitter_tokens": setup_semantic_text_splitter_tokens,
    "llamaindex_tokens": setup_llamaindex_tokens,
    "chonkie_tokens": setup_chonkie_tokens,
}


def _versions(dists: list[str]) -> dict[str, str]:
    from importlib.metadata import PackageNotFoundError, version

    found = {}
    for dist in dists:
        try:
            found[dist] = version(dist)
        except PackageNotFoundError:
            found[dist] = "not installed"
    return found


def run(workload: str, job: dict) -> dict:
    """Set the workload up, then time it over every file of the job."""
    t0 = time.perf_counter()
    work = WORKLOADS[workload](job)
    load_s = time.perf_counter() - t0
    root = Path(job["root"])
    # A slow workload may stop early, after ``deadline_s`` of CPU time (not wall: other load on
    # the machine must not shrink the sample): its throughput is then that of the files it did
    # (the job lists them in a shuffled order, so those are a fair sample).
    deadline = job.get("deadline_s")
    count = total_bytes = pieces = piece_chars = piece_max = 0
    t1 = time.perf_counter()
    c1 = time.process_time()
    for rel in job["files"]:
        data = (root / rel).read_bytes()
        out = work(rel, data.decode("utf-8"))
        count += 1
        total_bytes += len(data)
        pieces += len(out)
        if out and isinstance(out[0], str):
            sizes = [len(s) for s in out]
            piece_chars += sum(sizes)
            piece_max = max(piece_max, *sizes)
        if deadline is not None and time.process_time() - c1 > deadline:
            break
    loop_s = time.perf_counter() - t1
    loop_cpu_s = time.process_time() - c1
    return {
        "workload": workload,
        "load_s": load_s,
        "loop_s": loop_s,
        "loop_cpu_s": loop_cpu_s,
        "files": count,
        "partial": count < len(job["files"]),
        "bytes": total_bytes,
        "pieces": pieces,
        "piece_chars": piece_chars,
        "piece_max_chars": piece_max,
        "modules": len(sys.modules),
        "torch_imported": "torch" in sys.modules,
        "versions": _versions(job.get("dists", [])),
    }


def main(argv: list[str]) -> int:
    """Entry point: ``WORKLOAD JOB.json``; one JSON line on stdout."""
    if len(argv) != 2 or argv[0] not in WORKLOADS:
        print(f"usage: chunk_drivers.py {{{'|'.join(WORKLOADS)}}} JOB.json", file=sys.stderr)
        return 2
    job = json.loads(Path(argv[1]).read_text(encoding="utf-8"))
    print(json.dumps(run(argv[0], job)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
