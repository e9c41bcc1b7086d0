"""Loading sources safely: single files, uploads, folders and zipped repositories.

Every refusal is an :class:`~core.errors.InputError` (for one file) or a :class:`Skipped` entry
(inside a folder or archive) whose reason says what was wrong, so the UI and the CLI can show it.
"""

from __future__ import annotations

import codecs
import io
import os
import re
import stat
import zipfile
import zlib
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from core.errors import InputError
from core.languages import CODE_LANGUAGES, TABLE_LANGUAGES, content_hint, detect_language, is_notebook, shebang_language
from core.notebook import notebook_script

# What marks a data folder of an index: Chroma's database, our own files beside it (a Chroma
# server's data folder holds ours alone), the embedding cache of ``eval``. (core.index's names,
# not imported: the chunk command never loads the index; a test keeps them equal.)
_INDEX_MARKS = ("chroma.sqlite3", "chunk_explorer/manifest.json", "embeddings.sqlite3")


def is_index_folder(folder: Path) -> bool:
    """Whether ``folder`` holds an index's data (:data:`_INDEX_MARKS`): never sources."""
    try:
        return any((folder / mark).is_file() for mark in _INDEX_MARKS)
    except OSError:
        return False


# Folders that hold other people's code or build output: skipped when walking a repository.
VENDORED = frozenset(
    {
        "node_modules",
        "vendor",
        "third_party",
        "site-packages",
        "dist",
        "build",
        "target",
        "__pycache__",
        "bower_components",
        "Pods",
    }
)


# Files no one wrote by hand, skipped when walking a repository (a file chosen alone is chunked):
# a minified bundle is one line of hundreds of kilobytes, thousands of chunks cut inside it.
_MINIFIED_SUFFIXES = (".min.js", ".min.mjs", ".min.cjs", "-min.js", ".bundle.js")
MINIFIED_MEAN_LINE = 400  # characters per line on average, over a file of MINIFIED_MIN_CHARS or more
MINIFIED_MIN_CHARS = 20_000


def generated_reason(source: SourceFile) -> str | None:
    """Why ``source`` looks minified or generated rather than written (None when it does not)."""
    if source.path.lower().endswith(_MINIFIED_SUFFIXES):
        return "minified (by its name); open it alone to chunk it"
    text = source.text
    if text is None or len(text) < MINIFIED_MIN_CHARS:
        return None
    mean = len(text) / (text.count("\n") + 1)
    if mean > MINIFIED_MEAN_LINE:
        return f"minified or generated (lines average {mean:,.0f} characters); open it alone to chunk it"
    return None


@dataclass(frozen=True)
class Limits:
    """Bounds that keep a hostile or accidental input from exhausting the machine."""

    max_file_bytes: int = 2_000_000  # a code or prose file (a notebook's script of its cells)
    max_notebook_bytes: int = 50_000_000  # a notebook's file, outputs (images) included
    max_table_bytes: int = 1_000_000_000  # tables are streamed, so they may be far larger
    max_files: int = 5_000  # files taken from one folder or archive
    max_total_bytes: int = 200_000_000  # uncompressed bytes taken from one archive
    max_ratio: int = 200  # compression ratio above which an archive member is a bomb


@dataclass(frozen=True)
class SourceFile:
    """One usable input: decoded ``text`` for code and prose; raw ``data`` or an on-disk
    ``origin`` for tables (streamed by :mod:`core.tables`)."""

    path: str
    language: str
    text: str | None = None
    data: bytes | None = None
    origin: Path | None = None
    encoding: str = "utf-8"
    declared_encoding: str | None = None  # a table's encoding as the user gave it (--encoding), not detected
    # How ``text`` was made from the file when it is not the file's own text (a notebook's cells
    # as a script): said to the user beside the chunks, whose spans count in ``text``.
    note: str | None = None


@dataclass(frozen=True)
class Skipped:
    """A file left out, and why; ``partial`` counts the chunks of it already given out before
    it failed (a streamed table found bad past its first blocks), which then stand alone."""

    path: str
    reason: str
    partial: int = 0


# Files that only mark a package: code, but rarely what a reader wants to see first.
PACKAGE_MARKERS = frozenset({"__init__.py"})


def first_code_file(files: list[SourceFile]) -> SourceFile | None:
    """The file to open first among ``files`` (in their order): the first in a programming
    language, a package's ``__init__.py`` only when there is no other; else the first file
    (a project of prose alone); None for no files. A project's README or config sorts first,
    and it is not what the chunk comparison is about."""
    code = [f for f in files if f.language in CODE_LANGUAGES]
    usual = [f for f in code if PurePosixPath(f.path).name not in PACKAGE_MARKERS]
    return (usual or code or files or [None])[0]


@dataclass(frozen=True)
class Note:
    """Something worth saying about a file that was read all the same (not a skip): a name
    stored twice in an archive, of which the last copy is the one read."""

    path: str
    text: str


@dataclass
class Corpus:
    """What a folder, archive or upload yielded: the files read, the files left out and why,
    and notes on files read (each said once, never counted as skipped)."""

    files: list[SourceFile] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)
    notes: list[Note] = field(default_factory=list)


# Byte order marks of the UTF-16/32 encodings, longest first (UTF-32 LE's begins with UTF-16 LE's).
_WIDE_BOMS = (
    (b"\xff\xfe\x00\x00", "utf-32"),
    (b"\x00\x00\xfe\xff", "utf-32"),
    (b"\xff\xfe", "utf-16"),
    (b"\xfe\xff", "utf-16"),
)


def wide_encoding(data: bytes) -> str | None:
    """``utf-16`` or ``utf-32`` when ``data`` starts with that encoding's byte order mark (what
    Windows editors and Excel's "Unicode Text" write); ``utf-16-le`` or ``utf-16-be`` for such
    text without the mark (PowerShell's and some exporters'); else None (full of NUL bytes, it
    would be taken for binary).

    Without the mark, text is known by one byte of each pair being NUL far more often than the
    other (its line breaks, delimiters, digits and Latin letters have a NUL high byte), and by
    reading as text: no control character but tab, line breaks and form feed, no lone surrogate,
    no private-use character or noncharacter (a line break is not needed: a table's header of
    20 columns is longer than the 512 bytes looked at). So German,
    Russian or Chinese rows read as well as ASCII ones; binary data hits one of those within a
    few hundred bytes."""
    for mark, encoding in _WIDE_BOMS:
        if data.startswith(mark):
            return encoding
    head = data[:512]
    head = head[: len(head) - len(head) % 2]
    if len(head) < 8:
        return None
    units = len(head) // 2
    for encoding, high, low in (("utf-16-le", head[1::2], head[0::2]), ("utf-16-be", head[0::2], head[1::2])):
        high_nuls, low_nuls = high.count(0), low.count(0)
        if high_nuls * 50 < units or low_nuls * 4 > high_nuls:
            continue  # (under 2% NUL high bytes, or as many low ones: not this byte order)
        # (Not final: a character cut at the head's end, half a surrogate pair, waits unread.)
        text = codecs.getincrementaldecoder(encoding)("replace").decode(head, final=False)
        if not _WIDE_FORBIDDEN.search(text):
            return encoding
    return None


# What UTF-16 text does not hold: control characters but tab, line breaks and form feed, lone
# surrogates (read as U+FFFD: "replace"), private use and noncharacters.
_WIDE_FORBIDDEN = re.compile("[\x00-\x08\x0b\x0e-\x1f\x7f-\x9f\ufffd\ue000-\uf8ff\ufdd0-\ufdef\ufffe\uffff]")


def is_binary(data: bytes) -> bool:
    """A NUL byte, or mostly control bytes, in the first 8 KB means binary."""
    head = data[:8192]
    if b"\x00" in head:
        return True
    if not head:
        return False
    control = len(head.translate(None, _NOT_CONTROL))  # the control bytes left (counted in C)
    return control / len(head) > 0.1


# Every byte value but the control bytes that mark binary data (tab, newlines, form feed and
# escape are text).
_NOT_CONTROL = bytes(b for b in range(256) if b >= 32 or b in (9, 10, 12, 13, 27))


# The Windows code pages of Latin-script text, most common first (ties go to the first), and
# the letters of the languages each is written for: French, German, Spanish, Portuguese,
# Italian, the Nordic languages, Dutch and Catalan; Polish, Czech, Slovak, Hungarian, Romanian
# and Croatian; Turkish. The same byte is a letter in each (0xB3 is "ł" in cp1250, "³" in
# cp1252; 0xFD "ı" in cp1254, "ý" in cp1252), so text read in the wrong one shows no letters at
# all inside its words, or letters that no one of its languages has together (Czech read as
# cp1252 is "Plzeò", "Budìjovice": Italian's ò and ì beside Czech's á).
_LATIN_LANGUAGES = {
    "cp1252": (
        "àâæçéèêëîïôœùûüÿ", "äöüß", "áéíñóúü", "àáâãçéêíóôõú", "àèéìíîòóùú", "åäöæøé", "éëïóöü", "àçèéíïòóúü",
    ),
    "cp1250": ("ąćęłńóśźż", "áčďéěíňóřšťúůýž", "áäčďéíĺľňóôŕšťúýž", "áéíóöőúüű", "ăâîșțşţ", "čćđšž"),
    "cp1254": ("çğıöşüâîû",),
}


def _with_capitals(letters: str) -> frozenset[str]:
    return frozenset(letters + "".join(ch.upper() for ch in letters if len(ch.upper()) == 1) + ("İ" if "ı" in letters else ""))


_LATIN_EXPECTED = {
    page: (_with_capitals("".join(languages)), tuple(map(_with_capitals, languages)))
    for page, languages in _LATIN_LANGUAGES.items()
}
_HIGH_RUNS = re.compile(rb"[\x80-\xff]+")
# Spanish opening marks, each before its closing one on the line: characters of the language as
# much as its letters. (Read as cp1250, "¿Qué?" is "żQué?": not a word.)
_SPANISH_MARKS = re.compile(r"(?<![^\W\d_])(?:¿[^\n?¿]{0,200}\?|¡[^\n!¡]{0,200}!)")
_SAMPLE = 1_000_000


def latin_code_page(data: bytes) -> str | None:
    """The Windows code page ``data`` (not UTF-8) is written in when it is Latin-script text:
    its non-ASCII bytes stand mostly alone inside ASCII words (``café``, ``Größe``), as they do
    not in Cyrillic, Greek or CJK text, whose words are runs of them. Of cp1252, cp1250 and
    cp1254, the one that reads the most of them as letters of its languages (Polish read as
    cp1252 shows ``Wroc³aw``; Turkish shows Icelandic ``ð``, ``ý``, ``þ``), or ISO 8859-2 for
    Central European text that reads better so (see below). None when the text is not
    Latin-script (a detector then guesses) or no page decodes it.

    Charset detectors guess poorly on such text, and most on short runs of names and cities
    (charset-normalizer 3 named cp1257 for French, cp1250 for German and cp1252 for Polish)."""
    sample = data[:_SAMPLE]
    runs = [len(run) for run in _HIGH_RUNS.findall(sample)]
    if not runs or sum(runs) > 2 * len(runs):
        return None  # no foreign byte, or words of them: another script
    best: tuple[tuple[int, int], str] | None = None
    first_text: str | None = None
    for page in _LATIN_EXPECTED:
        try:
            text = sample.decode(page)
        except UnicodeDecodeError:
            continue
        if first_text is None:
            first_text = text
        elif text == first_text:
            continue  # the same text ("Zürich, Málaga"): the more common page names it
        score = _letters_score(text, page)
        if best is None or score > best[0]:
            best = (score, page)
    if best is not None and best[1] == "cp1250" and not _C1_BYTES.search(sample):
        # ISO 8859-2 (Latin-2, the older Unix and web encoding of Central European text) has
        # control codes in 80-9F, where cp1250 has š, ś, ť, ž, ź; above them they read some
        # bytes apart (Latin-2's ``ą ś ź Š ť ž`` are cp1250's ``± ¶ Ľ © » ľ``). Latin-2 wins
        # when, inside words, those bytes read as more letters so, or as many but its reading
        # has more letters of one language (Polish ``Łódź``, where cp1250 reads ``ŁódĽ``).
        inside, lead = _latin2_letters(sample)
        if inside and (lead > 0 or (lead == 0 and _letters_score(sample.decode("iso8859_2"), "cp1250") > best[0])):
            return "iso8859_2"
    return None if best is None else best[1]


def _latin2_letters(sample: bytes) -> tuple[int, int]:
    """How many of the bytes cp1250 and ISO 8859-2 read apart stand inside words (beside a
    letter or another such byte), and by how many more of those ISO 8859-2 reads as Central
    European letters than cp1250 does. Bytes standing apart are left out: ``©`` or ``±`` in
    ``Copyright © 2024`` or ``± 5 zł`` are signs in a cp1250 file, though Latin-2 reads them as
    letters (``Š``, ``ą``)."""
    letters = _LATIN_EXPECTED["cp1250"][0]
    inside = lead = 0
    for found in _DIFFERING.finditer(sample):
        at = found.start()
        if not (_in_word(sample[at - 1 : at]) or _in_word(sample[at + 1 : at + 2])):
            continue
        byte = sample[at : at + 1]
        inside += 1
        lead += (byte.decode("iso8859_2") in letters) - (byte.decode("cp1250", "replace") in letters)
    return inside, lead


def _in_word(byte: bytes) -> bool:
    """Whether ``byte`` (one, or none at an end) is a letter's: ASCII's, or any past 7F."""
    return bool(byte) and (byte.isalpha() or byte[0] >= 0x80)


def _letters_score(text: str, page: str) -> tuple[int, int]:
    """How many of ``text``'s non-ASCII characters are letters of the languages written in
    ``page`` (a key of :data:`_LATIN_EXPECTED`), then (for a tie) of its one language that has
    the most."""
    anyone, each = _LATIN_EXPECTED[page]
    foreign = Counter(ch for ch in text if ord(ch) > 127)
    marks = len(_SPANISH_MARKS.findall(text)) if page == "cp1252" else 0
    return (
        sum(n for ch, n in foreign.items() if ch in anyone) + marks,
        max(sum(n for ch, n in foreign.items() if ch in letters) for letters in each) + marks,
    )


_C1_BYTES = re.compile(rb"[\x80-\x9f]")
# The bytes of A0-BF that cp1250 and ISO 8859-2 read as different characters.
_DIFFERING = re.compile(
    b"[" + bytes(b for b in range(0xA0, 0xC0) if bytes([b]).decode("cp1250", "replace") != bytes([b]).decode("iso8859_2")) + b"]"
)


_INVALID = re.compile("[\udc80-\udcff]")  # an undecodable byte, as surrogateescape keeps it
_MULTIBYTE = re.compile("[\u0080-\ud7ff\ue000-\U0010ffff]")  # a character UTF-8 writes in 2-4 bytes
# What UTF-8 text is full of and a legacy one nearly never holds by chance: Latin-1 letters and
# signs (bytes C2-C3 then one of 80-BF: "Ã©", "Â°" read as Windows-1252) and typographic
# punctuation (E2 80-82 ..: "â€™").
_UTF8_TELL = re.compile("[\u00a0-\u00ff\u2010-\u20bf]")
# Invalid bytes one such character outweighs. (Chance makes a few in legacy text: "В»" of a
# Cyrillic acronym closing a quote is C2 BB, a UTF-8 "»"; but there every letter is an invalid byte.)
TELL_WEIGHT = 10


def damaged_utf8_line(data: bytes) -> int | None:
    """The line of the first invalid byte when ``data`` (not valid UTF-8) is UTF-8 with a few bad
    bytes rather than a legacy encoding: it holds at least as many well-formed multi-byte
    characters as invalid bytes, or a tenth as many well-formed accented Latin letters, Latin-1
    signs and typographic punctuation marks. (In Windows-1252 text nearly every byte above 127
    stands alone, invalid as UTF-8; read as Windows-1252, a UTF-8 file's every "é" would become
    "Ã©". A file mixing the two is refused too: either reading garbles part of it.)"""
    text = data.decode("utf-8", "surrogateescape")
    invalid = _INVALID.findall(text)
    if not invalid:
        return None
    tells = len(_UTF8_TELL.findall(text)) * TELL_WEIGHT
    if max(tells, len(_MULTIBYTE.findall(text))) < len(invalid):
        return None
    first = _INVALID.search(text)
    assert first is not None
    return text.count("\n", 0, first.start()) + 1


def checked_encoding(encoding: str, name: str) -> str:
    """The codec name of an encoding a user gave (``--encoding``), or :class:`InputError`."""
    try:
        info = codecs.lookup(encoding)
    except LookupError:
        raise InputError(f"{name}: unknown encoding {encoding!r} (Python's names: cp1250, koi8_r, shift_jis, utf-16...)") from None
    if not getattr(info, "_is_text_encoding", True):  # rot13, base64, zip: codecs, but of no text
        raise InputError(f"{name}: {encoding!r} is no text encoding (Python's names: cp1250, koi8_r, shift_jis, utf-16...)")
    return info.name


def decode_as(data: bytes, name: str, encoding: str) -> tuple[str, str]:
    """Text of ``data`` in the ``encoding`` a user gave, when detection got it wrong; the line
    of the first byte it cannot decode in an :class:`InputError` otherwise."""
    codec = checked_encoding(encoding, name)
    try:
        text = data.decode(codec)
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise InputError(f"{name}: line {line}: bytes that are not valid {encoding} ({exc.reason})") from None
    if text.startswith("\ufeff") and codec != "utf-8":
        text = text[1:]  # a UTF-16/32 byte order mark, as decode drops it
    _refuse_nul(text, name)
    return _normalise(text), codec


# An encoding declared in a comment on one of the first two lines: Python's PEP 263 form
# (``# -*- coding: latin-1 -*-``, ``# vim: set fileencoding=cp1252``), Ruby's ``# encoding:``,
# and the same in ``//``, ``/*``, ``--`` and ``;`` comments.
_DECLARED = re.compile(rb"^[ \t\f]*(?:#|//|/\*|--|;).*?(?:en)?coding[:=][ \t]*([-\w.]+)")


def declared_encoding(data: bytes) -> str | None:
    """The codec a file declares on its first or second line, or None (none, or no text codec)."""
    for line in data.split(b"\n", 2)[:2]:
        found = _DECLARED.match(line)
        if found is not None:
            try:
                return checked_encoding(found.group(1).decode("ascii"), "")
            except (InputError, UnicodeDecodeError):
                return None
    return None


def decode(data: bytes, name: str) -> tuple[str, str]:
    """Text and encoding of ``data``: UTF-8, else a detected legacy encoding.

    A UTF-8 file's text is its bytes decoded and nothing else: a BOM stays (tree-sitter skips
    it) and ``\r\n`` stays, so every chunk's byte span is the file's own. Only a lone ``\r``
    (old Mac line ends) becomes ``\n``, byte for byte. Raises :class:`InputError` for binary
    data or bytes no encoding explains. UTF-16/32 text with its byte order mark is decoded (the
    mark dropped); its offsets, like a legacy encoding's, index the text's UTF-8 form.
    """
    wide = wide_encoding(data)
    if wide is not None:
        try:
            text = data.decode(wide)
        except UnicodeDecodeError as exc:
            raise InputError(f"{name}: starts as {wide.upper()} text but does not decode ({exc.reason})") from None
        if is_binary(text[:8192].encode("utf-8", "surrogatepass")):
            raise InputError(f"{name}: binary file (not text)")
        _refuse_nul(text, name)
        return _normalise(text), wide
    if is_binary(data):
        raise InputError(f"{name}: binary file (not text)")
    _refuse_nul(data, name)
    try:
        return _normalise(data.decode("utf-8")), "utf-8"
    except UnicodeDecodeError:
        pass
    declared = declared_encoding(data)
    if declared is not None:
        try:
            return _normalise(data.decode(declared)), declared
        except UnicodeDecodeError:
            pass  # the declaration is wrong: detect as for any other file
    damaged = damaged_utf8_line(data)
    if damaged is not None:
        raise InputError(
            f"{name}: line {damaged}: bytes that are not valid UTF-8 in a file otherwise written in UTF-8; "
            "fix that line or save the file as UTF-8 again"
        )
    latin = latin_code_page(data)
    if latin is not None:
        return _normalise(data.decode(latin)), latin
    from charset_normalizer import from_bytes

    best = from_bytes(data[:1_000_000]).best()
    if best is None or best.encoding is None:
        raise InputError(f"{name}: not valid UTF-8 and no text encoding fits; save it as UTF-8")
    try:
        return _normalise(data.decode(best.encoding)), best.encoding
    except (UnicodeDecodeError, LookupError):
        raise InputError(f"{name}: not valid UTF-8 (looks like {best.encoding} but does not decode)") from None


def nul_line(data: bytes | str) -> int | None:
    """The 1-based line of ``data``'s first NUL, or None. Text never holds one (:func:`is_binary`
    looks at the first 8 KB only): a file with one is binary from there on, cut short or glued to
    an image. One memchr over the data."""
    nul = data.find(b"\x00" if isinstance(data, bytes) else "\x00")
    return None if nul < 0 else data.count(b"\n" if isinstance(data, bytes) else "\n", 0, nul) + 1


def _refuse_nul(data: bytes | str, name: str) -> None:
    line = nul_line(data)
    if line is not None:
        raise InputError(f"{name}: binary data from line {line} on (a NUL byte)")


_LONE_CR = re.compile(r"\r(?!\n)")


def _normalise(text: str) -> str:
    # Lines end at "\n" everywhere (Document reads "\r\n" as one line end); a lone "\r" becomes
    # "\n", one byte for one, so offsets still match the file.
    return _LONE_CR.sub("\n", text) if "\r" in text else text


def binary_table_message(path: str, language: str, head: bytes) -> str:
    """Why binary ``head`` is no .csv/.tsv table, naming the spreadsheet formats it may be.

    A workbook whose name says so (``budget.xlsx``) is read as ``language`` only because that
    language was given (``--language csv``): the name is right, the language given is not."""
    if head.startswith(b"PK\x03\x04") and detect_language(path) == "xlsx" and language != "xlsx":
        return (f"{path}: an Excel workbook, which --language {language} does not fit; "
                "leave --language out to read it as a workbook (or give --language xlsx)")
    if head.startswith(b"PK\x03\x04"):
        what = "a zip archive (an Excel workbook under this name? rename it .xlsx)"
    elif head.startswith(b"\xd0\xcf\x11\xe0"):
        what = "an old Excel .xls or other Office file (save it as .xlsx or CSV)"
    else:
        what = "binary data"
    return f"{path}: {what} in a .{language} file, not a table"


_SHEBANG_BYTES = 256  # the start of a file without an extension read for its ``#!`` line


def script_language(name: str, data: bytes) -> str | None:
    """The language of a file named without an extension (``bin/deploy``) by its ``#!`` line
    (in the first :data:`_SHEBANG_BYTES` of ``data``: its bytes, or their start), or None. A
    name with an extension goes by that alone."""
    if PurePosixPath(name).suffix:
        return None
    return shebang_language(data[:_SHEBANG_BYTES])


def _head(full: Path) -> bytes:
    """The first bytes of a file named without an extension (for :func:`script_language`)."""
    if PurePosixPath(full.name).suffix:
        return b""
    try:
        with full.open("rb") as stream:
            return stream.read(_SHEBANG_BYTES)
    except OSError:
        return b""  # (reading it for real says what is wrong)


def _member_head(archive: zipfile.ZipFile, member: zipfile.ZipInfo) -> bytes:
    """The first bytes of an archive's member named without an extension (streamed: a bomb's
    first bytes cost no more than anyone's)."""
    if PurePosixPath(member.filename).suffix:
        return b""
    try:
        with archive.open(member) as stream:
            return stream.read(_SHEBANG_BYTES)
    except (OSError, RuntimeError, NotImplementedError, zipfile.BadZipFile, zlib.error, EOFError):
        return b""  # encrypted, damaged, an unknown method: reading it for real says so


def load_bytes(
    name: str, data: bytes, *, language: str | None = None, limits: Limits = Limits(), encoding: str | None = None,
    legacy_encoding: str | None = None,
) -> SourceFile:
    """One uploaded or read file, checked and decoded. ``language`` and ``encoding`` override
    detection; ``legacy_encoding`` is the encoding of a file that is not UTF-8 (nor UTF-16/32),
    in place of a detected one (a project's files in one code page: given once for all)."""
    clean = _clean_name(name)
    detected = language is None
    language = language or detect_language(clean) or script_language(clean, data)
    if encoding is None and legacy_encoding is not None and language != "xlsx" and _legacy(data):
        encoding = legacy_encoding
    if language is None:
        if data and is_binary(data):
            raise InputError(f"{clean}: binary file (not text)")
        raise InputError(f"{clean}: unknown file type; pick its language (--language in the CLI) or rename the file")
    if not data.strip():
        raise InputError(f"{clean}: empty file" + (" (only blank lines)" if data else ""))
    if language in TABLE_LANGUAGES:
        if len(data) > limits.max_table_bytes:
            raise InputError(f"{clean}: {len(data):,} bytes is over the table limit of {limits.max_table_bytes:,}")
        declared = _declared_table_encoding(encoding, clean, language)
        if language != "xlsx" and declared is None and wide_encoding(data) is None and is_binary(data):
            raise InputError(binary_table_message(clean, language, data))
        return SourceFile(clean, language, data=data, declared_encoding=declared)
    if is_notebook(clean):
        return _load_notebook(clean, data, None if detected else language, limits)
    if len(data) > limits.max_file_bytes:
        raise InputError(
            f"{clean}: {len(data):,} bytes is over the limit of {limits.max_file_bytes:,} for one source file"
        )
    text, encoding = decode(data, clean) if encoding is None else decode_as(data, clean, encoding)
    if not text.lstrip("\ufeff").strip():
        raise InputError(f"{clean}: empty file (only a byte order mark and blank lines)")
    hinted = content_hint(clean, text) if detected else None
    if hinted is not None and hinted != language:
        # A C++ header named .h: taken as C++ when it does not parse as C (a C header that
        # mentions C++ in a comment or an ``#ifdef __cplusplus`` block parses and stays C).
        # A ``.m`` file that writes ``@interface`` and does not parse as MATLAB: Objective-C.
        from core.parsing import parses_cleanly

        if language not in CODE_LANGUAGES or not parses_cleanly(language, text):
            language = hinted
    return SourceFile(clean, language, text=text, encoding=encoding)


def _load_notebook(name: str, data: bytes, language: str | None, limits: Limits) -> SourceFile:
    """A Jupyter notebook as the script of its cells (:mod:`core.notebook`), in ``language`` or
    its kernel's. Its file may be large (outputs hold images); its script is held to the limit
    of one source file."""
    if len(data) > limits.max_notebook_bytes:
        raise InputError(f"{name}: {len(data):,} bytes is over the limit of {limits.max_notebook_bytes:,} for a notebook")
    if is_binary(data):
        raise InputError(f"{name}: binary file (not text)")
    script = notebook_script(name, data, language=language)
    _refuse_nul(script.text, name)
    size = len(script.text.encode("utf-8"))
    if size > limits.max_file_bytes:
        raise InputError(
            f"{name}: its cells come to {size:,} bytes, over the limit of {limits.max_file_bytes:,} for one source file"
        )
    return SourceFile(name, script.language, text=script.text, note=script.note)


def load_file(
    path: Path, *, display: str | None = None, language: str | None = None, limits: Limits = Limits(),
    encoding: str | None = None, legacy_encoding: str | None = None,
) -> SourceFile:
    """One file from disk (tables are not read here but streamed later from ``origin``);
    ``encoding`` overrides detection, ``legacy_encoding`` as :func:`load_bytes` takes it."""
    name = display or path.name
    try:
        info = path.stat()
    except OSError as exc:
        raise InputError(f"{name}: cannot read ({exc.strerror})") from None
    if not stat.S_ISREG(info.st_mode):
        raise InputError(f"{name}: not a regular file")
    lang = language or detect_language(name)
    if lang in TABLE_LANGUAGES:
        if info.st_size == 0:
            raise InputError(f"{name}: empty file")
        if info.st_size > limits.max_table_bytes:
            raise InputError(f"{name}: {info.st_size:,} bytes is over the table limit of {limits.max_table_bytes:,}")
        if encoding is None and legacy_encoding is not None and lang != "xlsx" and _head_is_legacy(path, name):
            encoding = legacy_encoding
        return SourceFile(_clean_name(name), lang, origin=path, declared_encoding=_declared_table_encoding(encoding, name, lang))
    # (A notebook's file holds its outputs: its script is held to the file limit once read.)
    limit, what = (limits.max_notebook_bytes, "a notebook") if is_notebook(name) else (limits.max_file_bytes, "one source file")
    if info.st_size > limit:
        raise InputError(f"{name}: {info.st_size:,} bytes is over the limit of {limit:,} for {what}")
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise InputError(f"{name}: cannot read ({exc.strerror})") from None
    return load_bytes(name, data, language=language, limits=limits, encoding=encoding, legacy_encoding=legacy_encoding)


_UNICODE_HEAD = 1 << 20  # bytes of a table read to tell whether it is UTF-8, as its reader does


def reads_as_unicode(data: bytes) -> bool:
    """Whether ``data`` is UTF-8 (its first megabyte, for a table streamed later) or UTF-16/32
    by its byte order mark or its NULs: text no legacy code page is needed for."""
    if wide_encoding(data) is not None:
        return True
    head = data[:_UNICODE_HEAD]
    try:
        codecs.getincrementaldecoder("utf-8")().decode(head, final=len(data) <= _UNICODE_HEAD)
    except UnicodeDecodeError:
        return False
    return True


def _legacy(data: bytes) -> bool:
    """Whether ``data`` is text in a legacy code page: not Unicode, not binary (which a code
    page would read as garbage where detection refuses it), and not UTF-8 with a stray bad byte
    (refused by its line, as without the option: read in the code page, its every accent would
    be garbled)."""
    return not reads_as_unicode(data) and not is_binary(data) and damaged_utf8_line(data) is None


def _head_is_legacy(path: Path, name: str) -> bool:
    try:
        with path.open("rb") as handle:
            head = handle.read(_UNICODE_HEAD + 1)
    except OSError as exc:
        raise InputError(f"{name}: cannot read ({exc.strerror})") from None
    return _legacy(head)


def _declared_table_encoding(encoding: str | None, name: str, language: str) -> str | None:
    if encoding is None:
        return None
    if language == "xlsx":
        raise InputError(f"{name}: an .xlsx workbook has no text encoding to give")
    return checked_encoding(encoding, name)


def shown_name(name: str) -> str:
    """A file name fit for a message or an id: bytes that are not UTF-8 (which a POSIX name
    may hold, decoded by Python as surrogates) shown as U+FFFD."""
    return name.encode("utf-8", "surrogateescape").decode("utf-8", "replace")


def name_problem(name: str) -> str | None:
    """Why a name on disk cannot name a source, or None."""
    if shown_name(name) != name:
        return "the name is not valid UTF-8 (rename it)"
    if "\\" in name:  # a backslash reads as a folder separator in zips and on Windows
        return "a backslash in the name (it would read as a folder separator; rename it)"
    return None


def load_folder(root: Path, *, limits: Limits = Limits(), legacy_encoding: str | None = None) -> Corpus:
    """Every usable file under ``root``: vendored folders, symlinks, binary and oversized files
    and names that are not UTF-8 are skipped and listed with the reason; hidden files and folders
    (``.git``, ``.venv``, ``.env``) are left out without a word. ``legacy_encoding``: the
    encoding of its files that are not UTF-8, instead of one detected for each."""
    corpus = Corpus()
    root = root.resolve()

    def unreadable(error: OSError) -> None:  # os.walk's report of a folder it cannot list
        where = Path(error.filename or root)
        rel = where.relative_to(root).as_posix() if where != root and where.is_relative_to(root) else str(where)
        corpus.skipped.append(Skipped(rel + "/", f"folder cannot be read ({error.strerror or error})"))

    # os.walk without followlinks never enters a symlinked folder, so symlink loops cannot trap it.
    for folder, dirs, files in os.walk(root, followlinks=False, onerror=unreadable):
        rel_folder = Path(folder).relative_to(root)
        kept = []
        for d in sorted(dirs):
            rel = (rel_folder / d).as_posix()
            if d.startswith("."):
                continue  # hidden folders (.git, .venv) are never sources
            try:
                is_venv = (Path(folder) / d / "pyvenv.cfg").is_file()
            except OSError:  # a folder we may not look into: os.walk reports it below
                is_venv = False
            problem = name_problem(d)
            if problem:
                corpus.skipped.append(Skipped(shown_name(rel) + "/", problem))
                continue
            if d in VENDORED or is_venv:
                # A virtual environment is recognised by its pyvenv.cfg, not by its name: the
                # standard library's own ``venv`` package is source.
                corpus.skipped.append(Skipped(rel + "/", _VENDORED_REASON))
                continue
            if is_index_folder(Path(folder) / d):
                # (``index .`` from a project's root read its own data folder, data/chroma, and
                # indexed its manifest and keyword files more with every run.)
                corpus.skipped.append(Skipped(rel + "/", _INDEX_REASON))
                continue
            if (Path(folder) / d).is_symlink():
                corpus.skipped.append(Skipped(rel + "/", "symbolic link to a folder, not followed"))
                continue
            kept.append(d)
        dirs[:] = kept
        for name in sorted(files):
            rel = (rel_folder / name).as_posix()
            full = Path(folder) / name
            if name.startswith("."):
                continue
            problem = name_problem(name)
            if problem:
                corpus.skipped.append(Skipped(shown_name(rel), problem))
                continue
            if full.is_symlink():
                corpus.skipped.append(Skipped(rel, "symbolic link, not followed"))
                continue
            if len(corpus.files) >= limits.max_files:
                corpus.skipped.append(Skipped(rel, f"over the limit of {limits.max_files} files"))
                continue
            if detect_language(name) is None and script_language(name, _head(full)) is None:
                corpus.skipped.append(Skipped(rel, "unknown file type"))
                continue
            try:
                source = load_file(full, display=rel, limits=limits, legacy_encoding=legacy_encoding)
            except InputError as exc:
                corpus.skipped.append(Skipped(rel, reason_of(exc, rel)))
                continue
            _add_written(corpus, source, rel)
    return corpus


def _add_written(corpus: Corpus, source: SourceFile, rel: str) -> None:
    """Add ``source`` to a walked repository's files (with its note, a notebook's), or to its
    skipped ones when minified."""
    generated = generated_reason(source)
    if generated:
        corpus.skipped.append(Skipped(rel, generated))
    else:
        corpus.files.append(source)
        if source.note:
            corpus.notes.append(Note(rel, source.note))


DUPLICATE_MEMBER_NOTE = "stored more than once in the archive; its last copy is the one read"


def load_zip(
    data: bytes, *, name: str = "upload.zip", limits: Limits = Limits(), legacy_encoding: str | None = None
) -> Corpus:
    """The usable files of a zipped repository, read in memory and never extracted to disk.

    Refuses unsafe members (absolute paths, ``..``), counts and bounds the uncompressed total
    and the compression ratio (zip bombs), and skips hidden, vendored, binary and odd files.
    ``legacy_encoding`` as :func:`load_folder` takes it.
    """
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, OSError, ValueError):
        raise InputError(f"{name}: not a valid zip archive") from None
    corpus = Corpus()
    total = 0
    with archive:
        members = sorted((m for m in archive.infolist() if not m.is_dir()), key=lambda m: m.filename)
        prefix = _common_root(m.filename for m in members if _is_safe(m.filename))
        # A name stored twice (an archive appended to): its last copy is the file, as unzip
        # leaves it (the sort keeps the archive's order among equal names).
        last = {m.filename: index for index, m in enumerate(members)}
        # Folders left out as a folder walk leaves them (:func:`load_folder`), each said once.
        left_out = _zip_folders_left_out([m.filename[len(prefix) :] if prefix else m.filename for m in members])
        said: set[str] = set()
        for index, member in enumerate(members):
            raw = member.filename
            rel = raw[len(prefix) :] if prefix else raw
            parts = PurePosixPath(rel.replace("\\", "/")).parts
            if not _is_safe(raw):
                corpus.skipped.append(Skipped(raw, "unsafe path in archive (absolute, a drive such as C: or '..'), refused"))
                continue
            if last[raw] != index:
                # The file is read (its last copy): a note, not a skip.
                corpus.notes.append(Note(rel, DUPLICATE_MEMBER_NOTE))
                continue
            if any(p.startswith(".") for p in parts):
                continue
            folder = next((f for f in _folders_of(parts) if f in left_out), None)
            if folder is not None:
                if folder not in said:
                    said.add(folder)
                    corpus.skipped.append(Skipped(folder + "/", left_out[folder]))
                continue
            if stat.S_ISLNK(member.external_attr >> 16):
                corpus.skipped.append(Skipped(rel, "symbolic link in archive, not followed"))
                continue
            if detect_language(rel) is None and script_language(rel, _member_head(archive, member)) is None:
                corpus.skipped.append(Skipped(rel, "unknown file type"))
                continue
            if len(corpus.files) >= limits.max_files:
                corpus.skipped.append(Skipped(rel, f"over the limit of {limits.max_files} files"))
                continue
            if member.compress_size and member.file_size / member.compress_size > limits.max_ratio:
                corpus.skipped.append(Skipped(rel, "compression ratio too high (zip bomb?), refused"))
                continue
            if total + member.file_size > limits.max_total_bytes:
                corpus.skipped.append(Skipped(rel, f"archive exceeds {limits.max_total_bytes:,} uncompressed bytes"))
                continue
            try:
                content = _read_bounded(archive, member, limits.max_table_bytes)
            except InputError as exc:
                corpus.skipped.append(Skipped(rel, reason_of(exc, rel)))
                continue
            total += len(content)
            try:
                source = load_bytes(rel, content, limits=limits, legacy_encoding=legacy_encoding)
            except InputError as exc:
                corpus.skipped.append(Skipped(rel, reason_of(exc, rel)))
                continue
            _add_written(corpus, source, rel)
    if not corpus.files and not corpus.skipped:
        raise InputError(f"{name}: the archive holds no files")
    return corpus


_VENDORED_REASON = "vendored, build or virtual-environment folder"
_INDEX_REASON = "an index's data folder (Chroma's or ours), not sources"


def _folders_of(parts: tuple[str, ...]) -> list[str]:
    """The folders a member's path ``parts`` lie in, outermost first (``a``, ``a/b``)."""
    return ["/".join(parts[:k]) for k in range(1, len(parts))]


def _zip_folders_left_out(names: list[str]) -> dict[str, str]:
    """The folders of an archive's member ``names`` that a folder walk leaves out, with why:
    vendored and build folders by name, a virtual environment by its ``pyvenv.cfg``, an
    index's data folder by its files (:data:`_INDEX_MARKS`)."""
    found: dict[str, str] = {}
    for name in names:
        parts = PurePosixPath(name.replace("\\", "/")).parts
        for folder in _folders_of(parts):
            if folder.rsplit("/", 1)[-1] in VENDORED:
                found.setdefault(folder, _VENDORED_REASON)
        path = "/".join(parts)
        if parts and parts[-1] == "pyvenv.cfg" and len(parts) > 1:
            found.setdefault("/".join(parts[:-1]), _VENDORED_REASON)
        for mark in _INDEX_MARKS:
            if path.endswith("/" + mark):
                found.setdefault(path[: -len(mark) - 1], _INDEX_REASON)
    return found


def _is_safe(name: str) -> bool:
    """No absolute paths, drive letters or ``..``: a member must stay inside the archive's root."""
    parts = PurePosixPath(name.replace("\\", "/")).parts
    return not name.startswith(("/", "\\")) and ".." not in parts and not (parts and ":" in parts[0])


def _read_bounded(archive: zipfile.ZipFile, member: zipfile.ZipInfo, cap: int) -> bytes:
    # The declared size can lie: read in blocks and stop past the cap.
    if member.flag_bits & 0x1:
        raise InputError(f"{member.filename}: encrypted (password-protected) member, not read")
    chunks = []
    size = 0
    try:
        with archive.open(member) as handle:
            while block := handle.read(1 << 20):
                size += len(block)
                if size > cap:
                    raise InputError(f"{member.filename}: larger than declared or over {cap:,} bytes, refused")
                chunks.append(block)
    except (zipfile.BadZipFile, zlib.error, OSError, RuntimeError, EOFError, ValueError) as exc:
        raise InputError(f"{member.filename}: corrupt archive member ({exc})") from None
    return b"".join(chunks)


def _common_root(names: object) -> str:
    """``repo-main/`` when every member sits under one top folder (GitHub's zips), else ''."""
    tops = set()
    for name in names:  # type: ignore[attr-defined]
        head, sep, _ = str(name).partition("/")
        if not sep:
            return ""
        tops.add(head)
        if len(tops) > 1:
            return ""
    return f"{tops.pop()}/" if len(tops) == 1 else ""


def _clean_name(name: str) -> str:
    """A display path: forward slashes, no leading slash or drive."""
    cleaned = name.replace("\\", "/").lstrip("/")
    return cleaned or "untitled"


def reason_of(exc: InputError, rel: str) -> str:
    """The message of ``exc`` without its leading ``rel: `` (for lists that already name the file)."""
    message = str(exc)
    return message[len(rel) + 2 :] if message.startswith(rel + ": ") else message
