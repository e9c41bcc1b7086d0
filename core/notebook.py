"""Jupyter notebooks (``.ipynb``) read as the script of their cells.

A notebook is JSON: its code sits in string arrays, escaped, beside outputs that may be
megabytes of base64 images. Chunked as JSON, a chunk would hold ``"    return x\\n",`` and
pixels. Chunked as its cells, it is code like any other. So a notebook's text, for every
strategy, is its cells written out in the *percent* format that jupytext, VS Code, Spyder and
PyCharm read back as cells:

    # %% cell 1 [markdown]
    # # Churn model
    # We fit ...
    # %% cell 2
    import pandas as pd

    # %% cell 3
    model = fit(frame)

Code cells are written as they are, a blank line after each; markdown and raw cells as comment
lines in the kernel's language, with no blank line after them, so that the syntax chunker
keeps the prose with the definition below it that it explains; outputs,
attachments and metadata are left out. Cells are numbered as the notebook has them (1-based,
empty cells counted, not written). In Python notebooks, IPython's magics and shell escapes
(``%matplotlib inline``, ``!pip install``, a ``%%bash`` cell) are commented out: they are not
Python, and the parser would mark the code around them damaged.

A chunk's lines and bytes then count in that script, not in the JSON file; the cell markers
inside a chunk's text say which cells it holds.
"""

from __future__ import annotations

import re

import json
from dataclasses import dataclass

from core.errors import InputError
from core.languages import CODE_LANGUAGES, LANGUAGES, TEXT_LANGUAGES

# What a notebook's cells may be read as: code, or text cut at blank lines.
_KNOWN = frozenset(CODE_LANGUAGES + TEXT_LANGUAGES)

# Kernel language names (``kernelspec.language``, ``language_info.name``) spelled otherwise than ours.
_ALIASES = {
    "python3": "python", "python2": "python", "ipython": "python", "ipython3": "python", "py": "python",
    "c#": "csharp", "cs": "csharp", "c++": "cpp", "c++11": "cpp", "c++14": "cpp", "c++17": "cpp", "c++20": "cpp",
    "js": "javascript", "node": "javascript", "nodejs": "javascript", "ts": "typescript",
    "sh": "bash", "shell": "bash", "zsh": "bash", "golang": "go", "rs": "rust", "rb": "ruby", "kt": "kotlin",
}  # fmt: skip


@dataclass(frozen=True)
class NotebookScript:
    """A notebook's cells as one script: its ``text``, its ``language``, and a ``note`` saying
    how it was read (for the CLI's and the app's notes)."""

    text: str
    language: str
    note: str


def notebook_script(name: str, data: bytes, *, language: str | None = None) -> NotebookScript:
    """The script of notebook ``data`` (nbformat 4, or 3's worksheets) named ``name``.

    Its kernel's language is the script's; a kernel in a language this library does not chunk
    (SAS, Wolfram) gives plain text, cut at blank lines. ``language`` overrides the kernel's.
    :class:`InputError` for what is no notebook: invalid UTF-8 or JSON, no cells, a cell whose
    source is not text, nothing in any cell."""
    try:
        raw = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise InputError(f"{name}: line {line}: not valid UTF-8, which a notebook is always written in") from None
    try:
        book = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise InputError(f"{name}: not a valid notebook: line {exc.lineno}: {exc.msg}") from None
    except RecursionError:
        raise InputError(f"{name}: not a valid notebook: JSON nested too deeply") from None
    cells = _cells(name, book)
    kernel = _kernel_language(book)
    if language is not None and language not in _KNOWN:
        raise InputError(f"{name}: a notebook's cells are read as code or text, not as {language}")
    chosen = language or _ours(kernel)
    prefix, suffix = LANGUAGES[chosen].comment
    parts: list[str] = []
    written = 0
    for number, cell in enumerate(cells, start=1):
        kind, source = _cell(name, number, cell)
        if not source.strip():
            continue
        written += 1
        lines = source.rstrip("\n").split("\n")
        if kind == "code":
            marker = f"{prefix} %% cell {number}{suffix}"
            if chosen == "python":
                lines = _magics_commented(lines)
            body = lines
        else:
            marker = f"{prefix} %% cell {number} [{kind}]{suffix}"
            body = [f"{prefix} {line}{suffix}".rstrip() if line.strip() else f"{prefix}{suffix}" for line in lines]
        # A blank line after code; none after prose, which then sits right above the code it
        # explains, as a comment the syntax chunker keeps with the definition below it.
        parts.append("\n".join([marker, *body]) + ("\n\n" if kind == "code" else "\n"))
    if not written:
        raise InputError(f"{name}: empty notebook (no cell holds anything)")
    said = f"{kernel} kernel" if kernel else "no kernel named"
    how = "plain text" if chosen == "text" else chosen.upper() if len(chosen) == 1 else chosen  # (R)
    article = "an" if how[0] in "aeiouAEIOR" else "a"  # ("an R script")
    cells = "its one cell with content, after" if written == 1 else f"its {written:,} cells with content, each after"
    note = (
        f"a Jupyter notebook ({said}) read as {article} {how} script of {cells} "
        f"a '{prefix} %% cell N{suffix}' line; outputs left out, and lines count in that script"
    )
    # (JSON may escape a lone surrogate, ``"\\ud800"``, which no UTF-8 text holds: it reads "?".)
    text = "".join(parts).rstrip("\n") + "\n"
    text = text.encode("utf-8", "replace").decode("utf-8")
    return NotebookScript(text, chosen, note)


def _cells(name: str, book: object) -> list[object]:
    """The cells of ``book``: nbformat 4's ``cells``, or 3's worksheets' (all of them, in order)."""
    if isinstance(book, dict):
        cells = book.get("cells")
        if isinstance(cells, list):
            return cells
        sheets = book.get("worksheets")
        if isinstance(sheets, list) and all(isinstance(s, dict) and isinstance(s.get("cells", []), list) for s in sheets):
            return [cell for sheet in sheets for cell in sheet.get("cells", [])]
    raise InputError(f"{name}: not a Jupyter notebook (JSON without a list of cells)")


def _cell(name: str, number: int, cell: object) -> tuple[str, str]:
    """A cell's kind (``code``, ``markdown``, ``raw``) and source text."""
    if not isinstance(cell, dict):
        raise InputError(f"{name}: cell {number} is not a cell (a JSON object)")
    kind = cell.get("cell_type")
    # nbformat 3 keeps a code cell's source under "input", and has heading cells with a level.
    source = cell.get("source", cell.get("input", ""))
    if isinstance(source, list) and all(isinstance(piece, str) for piece in source):
        source = "".join(source)
    if not isinstance(source, str):
        raise InputError(f"{name}: cell {number}: its source is not text")
    source = source.replace("\r\n", "\n").replace("\r", "\n")
    if kind == "heading":
        level = cell.get("level", 1)
        hashes = "#" * (level if isinstance(level, int) and 1 <= level <= 6 else 1)
        return "markdown", f"{hashes} {source}"
    if kind not in ("code", "markdown", "raw"):
        raise InputError(f"{name}: cell {number}: unknown cell type {kind!r} (code, markdown or raw)")
    return kind, source


def _kernel_language(book: dict) -> str | None:
    """The kernel's language as the notebook names it, lower case; None when it names none."""
    meta = book.get("metadata")
    if not isinstance(meta, dict):
        return None
    for holder, key in (("kernelspec", "language"), ("language_info", "name")):
        value = meta.get(holder)
        if isinstance(value, dict) and isinstance(value.get(key), str) and value[key].strip():
            return value[key].strip().lower()
    return None


def _ours(kernel: str | None) -> str:
    """Our language for a kernel's (Python when the notebook names none, as nbformat's default)."""
    if kernel is None:
        return "python"
    name = _ALIASES.get(kernel, kernel)
    return name if name in _KNOWN else "text"


# Cell magics whose cell is Python all the same (timed, captured, profiled): only their line is
# commented out. The cell of any other (``%%bash``, ``%%sql``, ``%%writefile``) is not Python.
_PYTHON_CELL_MAGICS = frozenset({"time", "timeit", "capture", "prun", "debug", "memit", "mprun"})


def _magics_commented(lines: list[str]) -> list[str]:
    """A Python cell's lines with IPython's magics and shell escapes commented out: the whole
    cell under a cell magic whose body is no Python (``%%bash``), else each line that starts
    a statement with ``%`` or ``!`` (no Python statement does; a line inside a string or
    brackets may: ``% count)`` continuing a ``"%d items"`` format)."""
    first = next((at for at, line in enumerate(lines) if line.strip()), 0)
    magic = lines[first].strip()[2:].split(maxsplit=1) if lines[first].lstrip().startswith("%%") else None
    if magic is not None and (not magic or magic[0] not in _PYTHON_CELL_MAGICS):
        return [f"# {line}".rstrip() for line in lines]
    starts = _statement_starts(lines)
    return [f"# {line}" if at in starts and _is_ipython(line) else line for at, line in enumerate(lines)]


# IPython's forms beside a leading ``%`` or ``!``: a shell's or a magic's output assigned
# (``files = !ls``, ``res = %timeit -o f()``) and help (``df?``, ``np.mean??``, ``?len``).
_IPYTHON_ASSIGNED = re.compile(r"^\s*[\w.\[\], ()*]+?\s*=\s*[!%]")
_IPYTHON_HELP = re.compile(r"^\s*(\?{1,2}[\w.]+|[\w.\[\]'\"]+\?{1,2})\s*$")


def _is_ipython(line: str) -> bool:
    """Whether a statement's first line is IPython's, no Python (see the patterns above)."""
    return line.lstrip().startswith(("%", "!")) or bool(_IPYTHON_ASSIGNED.match(line) or _IPYTHON_HELP.match(line))


def _statement_starts(lines: list[str]) -> set[int]:
    """The indexes of the lines that start a statement in Python ``lines``: not inside a
    string (a docstring's ``!`` line), brackets or a backslash's continuation. A rough scanner
    (quotes, brackets, comments, backslashes), not Python's tokenizer: a cell with magics is
    no Python until they are out, and a magic's own line is not scanned."""
    starts: set[int] = set()
    depth, quote, continued = 0, "", False
    for at, line in enumerate(lines):
        if not depth and not quote and not continued:
            starts.add(at)
            if line.lstrip().startswith(("%", "!")):
                continue
        continued = False
        i, end = 0, len(line)
        while i < end:
            char = line[i]
            if quote:
                if char == "\\":
                    i += 2  # an escaped character (a raw string's quote too) ends nothing
                elif line.startswith(quote, i):
                    i, quote = i + len(quote), ""
                else:
                    i += 1
                continue
            if char == "#":
                break
            if char in "'\"":
                quote = line[i : i + 3] if line[i : i + 3] in ("'''", '"""') else char
                i += len(quote)
                continue
            if char in "([{":
                depth += 1
            elif char in ")]}":
                depth = max(depth - 1, 0)
            elif char == "\\" and not line[i + 1 :].strip():
                continued = True
            i += 1
        if len(quote) == 1:
            quote = ""  # a one-line string left open ends with its line (a syntax error)
    return starts
