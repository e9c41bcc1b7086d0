"""The CLI: ``python -m core chunk|index|query|eval`` (contract in DESIGN.md).

Errors go to stderr as one line per problem, with a non-zero exit; never a traceback for bad
input.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import NoReturn

from core.chunking import STRATEGY_CHOICES, load_any, strategies
from core.errors import ChunkExplorerError, InputError, SettingsError
from core.languages import LANGUAGES
from core.settings import (
    DEFAULT_BUDGETS,
    DEFAULT_HEAD_LINES,
    DEFAULT_HEAD_WEIGHT,
    DEFAULT_MODEL,
    TABLE_FORMATS,
    UNITS,
    ChunkSettings,
)
from core.sizing import is_default_model
from core.sources import Corpus, Limits, Note, Skipped, SourceFile

EXIT_BAD_INPUT = 2
EXIT_INTERRUPTED = 130  # as a shell reports a process Ctrl-C ended
EXIT_OUTPUT = 1  # the output could not be written (a full disk)
HEADER_CHOICES: dict[str, bool | None] = {"detect": None, "yes": True, "no": False}  # --header: tables' first row


def _whole_number(text: str, low: int, says: str) -> int:
    """``text`` as a whole number of at least ``low`` (argparse's error, ``says`` what it takes)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < low:
        raise argparse.ArgumentTypeError(f"must be {says}, got {value}")
    return value


def _positive(text: str) -> int:
    """An argparse type: a whole number of at least 1."""
    return _whole_number(text, 1, "at least 1")


def _rows(text: str) -> int:
    """An argparse type for ``--rows``: 0 (by the budget) or a whole number of rows."""
    return _whole_number(text, 0, "0 (by the budget) or a number of rows")


def _switch(parser: argparse.ArgumentParser, on: str, off: str, on_help: str, off_help: str) -> None:
    """A pair of exclusive flags for one setting (``--merge``/``--no-merge``): either overrides
    ``--settings``' value; neither leaves it."""
    group = parser.add_mutually_exclusive_group()
    group.add_argument(on, action="store_true", default=None, help=on_help)
    group.add_argument(off, action="store_true", default=None, help=off_help)


# What chunk's help says of the options that only shape vectors.
_EMBED_ONLY = ("; used by index and eval, accepted here so that the app's settings file and the same option "
               "line fit every command: chunk's output does not change")
_DEFAULTS_SHOWN = ", ".join(f"{budget} {unit}" for unit, budget in DEFAULT_BUDGETS.items())


def _add_chunk_options(parser: argparse.ArgumentParser, *, embeds: bool = True) -> None:
    # Settings options default to None ("not given"): they override --settings, whose file
    # (the app's export) otherwise decides, and ChunkSettings' defaults after that.
    # ``embeds``: the command embeds chunks (index, eval); chunk takes the embedding-only
    # options too, so that one settings file and one option line fit every command.
    parser.add_argument("--strategy", choices=STRATEGY_CHOICES, default="both", help="default: both")
    parser.add_argument(
        "--settings", type=Path, metavar="FILE",
        help="settings JSON exported by the app; options given beside it override its values (a --unit "
        "other than the file's starts from that unit's default budget, the overlap kept in proportion, "
        "unless --budget is given too)",
    )
    parser.add_argument(
        "--budget", type=int,
        help=f"chunk size limit in --unit (default: {_DEFAULTS_SHOWN}); chunks longer than the model reads "
        "are flagged over_model_limit (by chunk in tokens or with --model-check; always by index and query), "
        "never cut silently",
    )
    parser.add_argument("--unit", choices=UNITS, help="default: tokens of the model")
    parser.add_argument("--overlap", type=int, help="fixed windows only (default 0)")
    parser.add_argument("--language", choices=sorted(LANGUAGES), help="override detection (one file only)")
    parser.add_argument(
        "--encoding",
        help="the file's text encoding, when detection gets it wrong: cp1250, koi8_r, ...; for a folder or a zip, "
        "that of its files that are not UTF-8",
    )
    _switch(parser, "--raw-cuts", "--no-raw-cuts", "fixed windows cut anywhere, not at line ends",
            "fixed windows cut at line ends (the default)")  # fmt: skip
    _switch(parser, "--merge", "--no-merge", "pack small sibling definitions together up to the budget",
            "keep every definition its own chunk (the default)")  # fmt: skip
    _switch(parser, "--breadcrumb", "--no-breadcrumb", "a 'path :: symbol' line on top of embed_text (the default)",
            "no 'path :: symbol' line in embed_text")  # fmt: skip
    _switch(parser, "--class-summary", "--no-class-summary", "member list in class headers (the default)",
            "no member list in class headers")  # fmt: skip
    parser.add_argument(
        "--model",
        help=("the embedding model: its tokenizer counts tokens and it embeds the chunks" if embeds
              else "the embedding model, whose tokenizer counts tokens (index and eval embed with it)")
        + f"; a name or a local folder (default {DEFAULT_MODEL}, bundled)",
    )
    parser.add_argument("--rows", type=_rows, help="tables: rows per chunk instead of the budget (0: by the budget, the default)")
    parser.add_argument("--format", choices=TABLE_FORMATS, help="tables: serialisation (default csv)")
    parser.add_argument(
        "--head-weight",
        type=float,
        help=f"weight of a syntax chunk's first lines in its vector, 0 to <1 (default {DEFAULT_HEAD_WEIGHT})"
        + ("" if embeds else _EMBED_ONLY),
    )
    parser.add_argument(
        "--head-lines",
        type=int,
        help=f"non-blank lines that make a chunk's head (default {DEFAULT_HEAD_LINES})" + ("" if embeds else _EMBED_ONLY),
    )
    parser.add_argument(
        "--max-bytes", type=_positive, default=Limits().max_file_bytes,
        help=f"skip code, prose and config files larger than this (default {Limits().max_file_bytes:,}; tables "
        "stream and may be larger)",
    )
    parser.add_argument(
        "--max-files", type=_positive, default=Limits().max_files,
        help=f"files taken from a folder or archive; the rest are skipped and named (default {Limits().max_files:,})",
    )
    parser.add_argument(
        "--header", choices=HEADER_CHOICES, default="detect",
        help="tables: whether the first row holds column names (default: detect)",
    )
    parser.add_argument(
        "--root", type=Path,
        help="name files by their path below this folder (as the app names a project's files); "
        "default: below the folder given, or a file's own name",
    )


def limits_from_args(args: argparse.Namespace) -> Limits:
    """The input bounds the options ask for."""
    return Limits(max_file_bytes=args.max_bytes, max_files=args.max_files)


def settings_from_args(args: argparse.Namespace) -> ChunkSettings:
    """The ChunkSettings a parsed command line stands for: ``--settings``' file (else the
    defaults), with every option given on the line applied over it."""
    base = ChunkSettings()
    if args.settings is not None:
        try:
            text = args.settings.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise SettingsError(f"{args.settings}: cannot read the settings ({exc})") from None
        base = ChunkSettings.from_json(text, str(args.settings))
    changes: dict[str, object] = {}
    if args.unit is not None:
        changes["unit"] = args.unit
        if args.unit != base.unit:  # a budget and an overlap are in their unit: take the new unit's
            budget = args.budget if args.budget is not None else DEFAULT_BUDGETS[args.unit]
            changes["budget"] = budget
            changes["overlap"] = base.overlap * budget // base.budget  # the same share of the budget
    given = {
        "budget": args.budget,
        "overlap": args.overlap,
        "raw_cuts": _flag(args.raw_cuts, args.no_raw_cuts),
        "merge_siblings": _flag(args.merge, args.no_merge),
        "breadcrumb": _flag(args.breadcrumb, args.no_breadcrumb),
        "class_summary": _flag(args.class_summary, args.no_class_summary),
        "model": args.model,
        "table_rows": args.rows if args.rows != 0 else None,
        "table_format": args.format,
        "head_weight": args.head_weight,
        "head_lines": args.head_lines,
    }
    changes.update({name: value for name, value in given.items() if value is not None})
    if args.rows == 0:
        changes["table_rows"] = None  # by the budget, whatever the file said
    try:
        settings = base.with_(**changes)
    except SettingsError as exc:
        if args.settings is None:
            raise
        raise SettingsError(f"{exc} (the settings of {args.settings}, with the options given over them)") from None
    # A model folder given relative to here is kept as its absolute path: the settings go into
    # an index's manifest, and a later ``query`` from another folder must load the same model.
    local = Path(settings.model).expanduser()
    if not is_default_model(settings.model) and not local.is_absolute() and local.is_dir():
        settings = settings.with_(model=str(local.resolve()))
    return settings


def _flag(on: bool | None, off: bool | None) -> bool | None:
    """A switch's value: True, False, or None when neither flag was given."""
    return True if on else False if off else None


class _OneLineParser(argparse.ArgumentParser):
    """argparse, but a usage error is one line on stderr (exit 2), as every other bad input."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_BAD_INPUT, f"error: {self.prog}: {message} (see {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of every sub-command."""
    from core import cli_retrieval

    parser = _OneLineParser(prog="python -m core", description="Chunk Explorer's command line.")
    sub = parser.add_subparsers(dest="command", required=True)
    chunk = sub.add_parser("chunk", help="write chunks of a file or folder as JSONL on stdout")
    chunk.add_argument("path", type=cli_retrieval.input_path, help="a file, a folder or a zipped repository")
    _add_chunk_options(chunk, embeds=False)
    chunk.add_argument(
        "--jobs", type=int, default=0,
        help="processes for a folder (default 0: one per CPU for big inputs, else 1); the output is the same",
    )
    chunk.add_argument(
        "--model-check", action="store_true",
        help="flag over_model_limit the chunks longer than the model reads in every unit (always done in tokens, "
        "where it is free; in the other units it costs a tokenization of every chunk)",
    )
    cli_retrieval.add_commands(sub, _add_chunk_options)
    for command in sub.choices.values():  # (an option a command does not take is named by it)
        command.set_defaults(command_parser=command)
    return parser


def _legacy_encoding(source: SourceFile) -> list[str]:
    """The encoding ``source`` is read in when it is not UTF-8 (a code file's offsets then index
    its decoded text; a UTF-16 table's, its UTF-8 form), else nothing. A table that cannot be
    opened says nothing here: chunking it reports why."""
    if source.text is not None:
        return [] if source.encoding == "utf-8" else [source.encoding]
    from core.tables import table_encoding

    try:
        encoding = table_encoding(source)
    except InputError:
        return []
    return [] if encoding in (None, "utf-8") else [encoding]


_LINES_PER_WRITE = 256
_CHARS_PER_WRITE = 1 << 20


def cmd_chunk(args: argparse.Namespace) -> int:
    """``chunk``: JSONL chunks on stdout, skipped files on stderr. Exit 2 when nothing could be
    chunked, or when a file failed after some of its chunks were written (a table found bad past
    its first blocks: its output is partial)."""
    from core.jsonl import choose_jobs, iter_jsonl
    from core.sizing import model_token_limit

    settings = settings_from_args(args)
    limits = limits_from_args(args)
    corpus = load_any(args.path, language=args.language, limits=limits, root=args.root, encoding=args.encoding)
    strategies(args.strategy)  # an unknown strategy is refused before any worker starts
    jobs = choose_jobs(args.jobs, corpus.files)
    report_encodings(corpus, args)
    report_notes(corpus.notes)
    out = sys.stdout
    skipped = list(corpus.skipped)
    count = 0
    # Written a few hundred lines at a time (one write per chunk cost 3% of a run), and never
    # more than a megabyte held back (a worker's item is the JSONL of many files).
    lines: list[str] = []
    held = 0
    if args.model_check or settings.unit == "tokens":
        model_token_limit(settings.model)  # a model that cannot be had fails here, before any worker starts
    items = iter_jsonl(corpus, settings, args.strategy, jobs, has_header=HEADER_CHOICES[args.header],
                       model_check=args.model_check)  # fmt: skip
    for item in items:
        if isinstance(item, str):
            lines.append(item)
            held += len(item)
            count += 1
            if len(lines) >= _LINES_PER_WRITE or held >= _CHARS_PER_WRITE:
                out.write("".join(lines))
                lines.clear()
                held = 0
        else:
            skipped.append(item)
    out.write("".join(lines))
    partial = [s for s in skipped if s.partial]
    if args.path.is_file() and len(corpus.files) + len(corpus.skipped) == 1 and skipped:
        # One file asked for, and it failed: one error line, as for any other bad input.
        print(f"error: {shown(skipped[0].path)}: {skipped[0].reason}{_partial_note(skipped[0])}", file=sys.stderr)
        return EXIT_BAD_INPUT
    report_skipped(skipped)
    if count == 0:
        print(f"error: {shown(str(args.path))}: nothing to chunk" + (" (every file was skipped)" if skipped else ""),
              file=sys.stderr)
        return EXIT_BAD_INPUT
    if partial:
        print(f"error: {len(partial)} file(s) failed after some of their chunks were written: their output is partial",
              file=sys.stderr)
        return EXIT_BAD_INPUT
    return 0


def shown(path: str) -> str:
    """A path fit for one stderr line: control characters (a newline in a file name) escaped."""
    return "".join(c if c.isprintable() or c == " " else repr(c)[1:-1] for c in path)


def _partial_note(item: Skipped) -> str:
    return f" (after {item.partial:,} of its chunks were written: they are partial)" if item.partial else ""


def report_encodings(corpus: Corpus, args: argparse.Namespace) -> None:
    """One stderr line per file not read as UTF-8, with the encoding it was read in (``chunk``,
    ``index`` and ``eval`` alike: a Latin-1 file indexed without a word was searched as such)."""
    # (For a folder or a zip, --encoding is that of its files not in UTF-8: those are noted as such.)
    forced = args.encoding is not None and args.path.is_file() and not (args.path.suffix.lower() == ".zip" and args.language is None)
    for source in corpus.files:
        for encoding in _legacy_encoding(source):
            said = f"read as {encoding}, as --encoding says" if forced else f"not UTF-8, read as {encoding}"
            print(f"note: {shown(source.path)}: {said}", file=sys.stderr)


def report_notes(notes: Sequence[Note]) -> None:
    """One stderr line per note on a file that was read all the same (not counted as skipped)."""
    for note in notes:
        print(f"note: {shown(note.path)}: {note.text}", file=sys.stderr)


def report_skipped(skipped: Sequence[Skipped]) -> None:
    """One stderr line per skipped file, then a count."""
    for item in skipped:
        print(f"skipped {shown(item.path)}: {item.reason}{_partial_note(item)}", file=sys.stderr)
    if skipped:
        print(f"{len(skipped)} file(s) skipped", file=sys.stderr)


def _utf8_output() -> None:
    """JSONL is UTF-8 whatever the locale (a Windows console's cp1252 could not write "日本"
    and ended in a traceback); messages on stderr escape what its encoding cannot write."""
    for stream, errors in ((sys.stdout, "strict"), (sys.stderr, "backslashreplace")):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None and (stream is sys.stderr or (stream.encoding or "").lower().replace("-", "") != "utf8"):
            reconfigure(encoding="utf-8" if stream is sys.stdout else stream.encoding, errors=errors)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; returns the exit code."""
    _utf8_output()
    parser = build_parser()
    args, unknown = parser.parse_known_args(argv)
    if unknown:
        # (argparse's own message came from the top: "python -m core: unrecognized arguments
        # ... see python -m core --help", whose help lists no command's options.)
        getattr(args, "command_parser", parser).error(f"unrecognized arguments: {' '.join(unknown)}")
    try:
        return int(args.handler(args)) if hasattr(args, "handler") else cmd_chunk(args)
    except ChunkExplorerError as exc:
        print(f"error: {shown(str(exc))}", file=sys.stderr)  # one line, whatever a file name holds
        return EXIT_BAD_INPUT
    except BrokenPipeError:  # `... | head` closed the pipe: not an error of ours
        return 0
    except OSError as exc:
        if exc.filename is not None:
            raise  # (a file of ours: not the output)
        # The output cannot be written (a full disk, ``> /dev/full``): one line, not a traceback.
        print(f"error: cannot write the output: {exc.strerror or exc}", file=sys.stderr)
        return EXIT_OUTPUT
    except KeyboardInterrupt:  # Ctrl-C: one line, not a traceback (an index cut short is said so by the next run, and mended)
        print(_interrupted(getattr(args, "command", None)), file=sys.stderr)
        return EXIT_INTERRUPTED


def _interrupted(command: str | None) -> str:
    """The one line a command cut short by Ctrl-C ends with: for ``index``, where that leaves
    the searches (an index is searched once the run that made it ends)."""
    if command == "index":
        return ("interrupted: this index is not finished; query and eval still search the last one that was "
                "(run the same index command again to finish it: what was embedded is cached)")
    return "interrupted"


if __name__ == "__main__":
    from core.arrow_pool import prefer_returning_pool

    prefer_returning_pool()  # this process is the CLI's own: its tables stream with less memory
    sys.exit(main())
