"""Loading sources: every kind of bad input gets a clear error or a named skip."""

from __future__ import annotations

import io
import json
import os
import random
import shutil
import subprocess
import sys
import warnings
import zipfile
from pathlib import Path

import pytest

from core.chunking import chunk_document, prepare
from core.errors import InputError
from core.settings import ChunkSettings
from core.sources import Limits, SourceFile, decode, first_code_file, load_bytes, load_file, load_folder, load_zip, wide_encoding

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("raw", [
    b"\xef\xbb\xbfdef f():\r\n    return 1\r\n\r\nclass A:\r\n    x = 'caf\xc3\xa9'\r\n",  # BOM, CRLF
    b"def f():\r    return 1\r\rclass A:\r    x = 2\r",  # old Mac line ends
])
def test_chunks_of_a_utf8_file_are_its_own_bytes_whatever_its_line_ends(raw: bytes) -> None:
    # (a CLI audit found offsets drifting a byte per CRLF line and 3 bytes early after a BOM)
    from core.chunking import chunk_document, prepare
    from core.settings import ChunkSettings

    source = load_bytes("a.py", raw)
    assert source.language == "python" and len(source.text.encode()) == len(raw)
    prep = prepare(source.path, source.language, source.text)
    for strategy in ("fixed", "syntax"):
        chunks = chunk_document(prep, ChunkSettings(budget=40, unit="tokens"), strategy)
        assert chunks and [c.symbol for c in chunks if c.kind == "function"] == (["f"] if strategy == "syntax" else [])
        for chunk in chunks:
            own = raw[chunk.start_byte : chunk.end_byte].decode()
            if b"\r\n" not in raw:
                own = own.replace("\r", "\n")  # a lone CR is read as LF, byte for byte
            assert chunk.text == own, (chunk.start_byte, chunk.end_byte)


def test_latin1_is_detected_and_decoded() -> None:
    data = "# Grüße aus Köln, café crème\nname = 'Müller'\n".encode("latin-1") * 5
    text, encoding = decode(data, "legacy.py")
    assert "Grüße" in text and encoding.lower() != "utf-8"


@pytest.mark.parametrize(
    "line",
    [
        "x = 'café'", "# crème brûlée, Grüße", "name = 'Ångström'", "MOTTO = 'SEÑOR ESPAÑA ¿Qué? ¡Olé!'",
        "CITIES = 'Zürich, Málaga, Köln'",  # (cp1250 reads it the same, and was named for Hungarian's á, ö, ü)
    ],
)
def test_a_few_accented_letters_in_legacy_code_decode_as_cp1252(line: str) -> None:
    # (a statistical detector guessed cp1006 and cp1250 for these, and showed mojibake)
    text, encoding = decode(f"{line}\nprint(1)\n".encode("cp1252"), "legacy.py")
    assert (text, encoding) == (f"{line}\nprint(1)\n", "cp1252")


def test_invalid_utf8_gets_a_clear_error_or_a_detected_encoding() -> None:
    data = b"x = '\xff\xfe\xfd\xfc'\n" * 3
    try:
        text, _ = decode(data, "bad.py")
    except InputError as exc:
        assert "bad.py" in str(exc) and "UTF-8" in str(exc)
    else:
        assert text.startswith("x = ")


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-be", "utf-32"])
def test_utf16_and_utf32_with_a_byte_order_mark_are_text(encoding: str) -> None:
    # Windows editors save "Unicode" as UTF-16 with a BOM: full of NUL bytes, yet text.
    code = "def greet():\n    return 'Grüße'\n"
    data = code.encode(encoding) if encoding != "utf-16-be" else "\ufeff".encode(encoding) + code.encode(encoding)
    source = load_bytes("greet.py", data)
    assert (source.text, source.encoding) == (code, encoding[:6])


def test_utf16_without_a_mark_is_text_in_any_script_and_binary_is_not() -> None:
    code = "def größe():\n    return 'Привет, 世界'\n"
    for encoding in ("utf-16-le", "utf-16-be"):
        source = load_bytes("greet.py", code.encode(encoding))
        assert (source.text, source.encoding) == (code, encoding)
    # Binary with a NUL in every other byte is still binary: small little-endian integers
    # (control characters as UTF-16), or bytes beside NULs at random (surrogates, private use).
    assert wide_encoding(b"".join(n.to_bytes(2, "little") for n in range(1, 300))) is None
    rng = random.Random(3)
    assert not any(wide_encoding(bytes(rng.getrandbits(8) if i % 2 else 0 for i in range(600))) for _ in range(200))


def test_a_byte_order_mark_over_bytes_that_are_not_utf16_is_refused() -> None:
    with pytest.raises(InputError, match=r"odd\.py: starts as UTF-16 text but does not decode"):
        load_bytes("odd.py", b"\xff\xfe" + "x = 1".encode("utf-16-le") + b"\x00\xd8")
    with pytest.raises(InputError, match=r"nul\.py: binary"):
        load_bytes("nul.py", "x\x00\x00\x00\x00 = 1".encode("utf-16"))


def test_binary_file_is_refused_by_name() -> None:
    with pytest.raises(InputError, match=r"logo\.py: binary"):
        load_bytes("logo.py", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)))
    # Text for 12 KB, then a binary tail (a file cut short, or glued to an image).
    with pytest.raises(InputError, match=r"glued\.py: binary data from line 2001 on"):
        load_bytes("glued.py", b"x = 1\n" * 2000 + b"\x00\x01\x02" * 100)
    with pytest.raises(InputError, match=r"wide\.py: binary data from line 2001 on"):
        load_bytes("wide.py", ("x = 1\n" * 2000 + "y = '\x00'\n").encode("utf-16"))


def test_empty_file_is_refused() -> None:
    with pytest.raises(InputError, match="empty"):
        load_bytes("empty.py", b"")
    with pytest.raises(InputError, match=r"^blank\.py: empty file \(only blank lines\)$"):  # (it holds bytes)
        load_bytes("blank.py", b"  \n\n")
    assert load_bytes("rows.ndjson", b'{"a": 1}\n').language == "json"  # (was "unknown file type")
    for only_a_mark in (b"\xef\xbb\xbf\n", "\n".encode("utf-16")):  # nothing to chunk, whatever a chunker makes of it
        with pytest.raises(InputError, match="empty file"):
            load_bytes("mark.py", only_a_mark)


def test_unknown_extension_is_refused_unless_a_language_is_given() -> None:
    with pytest.raises(InputError, match="unknown file type"):
        load_bytes("data.xyz", b"hello")
    assert load_bytes("data.xyz", b"def f(): pass\n", language="python").language == "python"
    with pytest.raises(InputError, match=r"^blob\.xyz: binary file \(not text\)$"):  # no language would help
        load_bytes("blob.xyz", bytes(range(256)) * 8)


def test_file_over_the_limit_is_refused(tmp_path: Path) -> None:
    big = tmp_path / "big.py"
    big.write_bytes(b"x = 1\n" * (5_000_000 // 6))  # 5 MB
    with pytest.raises(InputError, match="over the limit"):
        load_file(big)
    assert load_file(big, limits=Limits(max_file_bytes=10_000_000)).text


def test_folder_walk_skips_hidden_vendored_binary_and_symlink_loops(tmp_path: Path) -> None:
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "ok.py").write_text("def f():\n    return 1\n")
    (tmp_path / ".git").mkdir()
    (tmp_path / ".git" / "config.py").write_text("x = 1\n")
    (tmp_path / "node_modules").mkdir()
    (tmp_path / "node_modules" / "dep.js").write_text("var x = 1;\n")
    (tmp_path / "src" / "blob.py").write_bytes(b"\x00\x01\x02" * 100)
    (tmp_path / "src" / "loop").symlink_to(tmp_path / "src", target_is_directory=True)
    (tmp_path / "src" / "link.py").symlink_to(tmp_path / "src" / "ok.py")
    (tmp_path / "image.png").write_bytes(b"\x89PNG")
    corpus = load_folder(tmp_path)
    assert [f.path for f in corpus.files] == ["src/ok.py"]
    reasons = {s.path: s.reason for s in corpus.skipped}
    assert "binary" in reasons["src/blob.py"]
    assert "symbolic link" in reasons["src/loop/"]
    assert "symbolic link" in reasons["src/link.py"]
    assert "vendored" in reasons["node_modules/"]
    assert "unknown file type" in reasons["image.png"]


def test_a_folder_that_cannot_be_read_is_skipped_by_name(tmp_path: Path) -> None:
    (tmp_path / "ok.py").write_text("def f():\n    return 1\n")
    (tmp_path / "closed").mkdir()
    (tmp_path / "closed" / "secret.py").write_text("x = 1\n")
    (tmp_path / "closed").chmod(0)
    script = (f"import sys; sys.path.insert(0, {str(ROOT)!r}); from pathlib import Path; "
              f"from core.sources import load_folder; c = load_folder(Path({str(tmp_path)!r})); "
              "print([f.path for f in c.files]); print([(s.path, s.reason) for s in c.skipped])")
    command = [sys.executable, "-c", script]
    if os.geteuid() == 0:  # root reads anything: drop the capabilities that let it
        if shutil.which("setpriv") is None:
            pytest.skip("running as root without setpriv: cannot make a folder unreadable")
        caps = "-dac_override,-dac_read_search"
        command = ["setpriv", "--bounding-set", caps, "--inh-caps", caps, "--", *command]
    try:
        done = subprocess.run(command, capture_output=True, text=True)
    finally:
        (tmp_path / "closed").chmod(0o755)
    assert done.returncode == 0, done.stderr  # once a PermissionError traceback
    files, skipped = done.stdout.splitlines()
    assert files == "['ok.py']"
    assert "('closed/', 'folder cannot be read (Permission denied)')" in skipped


def _zip(entries: dict[str, bytes], compression: int = zipfile.ZIP_DEFLATED) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression) as archive:
        for name, data in entries.items():
            archive.writestr(name, data)
    return buffer.getvalue()


def test_a_zip_leaves_out_the_folders_a_folder_walk_leaves_out_and_says_so() -> None:
    # A zipped repository chunked its venv and its index's data folder, and dropped node_modules
    # without a word; the same repository as a folder skips and lists all three.
    corpus = load_zip(_zip({
        "repo/a.py": b"def a():\n    return 1\n", "repo/node_modules/m/b.js": b"function b(){}\n",
        "repo/node_modules/m/c.js": b"function c(){}\n", "repo/venv/pyvenv.cfg": b"home = /usr/bin\n",
        "repo/venv/lib/v.py": b"def v():\n    pass\n", "repo/data/chroma/chunk_explorer/manifest.json": b"{}\n",
        "repo/data/chroma/x.py": b"x = 1\n", "repo/venv_tools/t.py": b"t = 1\n",
    }))  # fmt: skip
    assert [f.path for f in corpus.files] == ["a.py", "venv_tools/t.py"]
    assert sorted((s.path, s.reason) for s in corpus.skipped) == [
        ("data/chroma/", "an index's data folder (Chroma's or ours), not sources"),
        ("node_modules/", "vendored, build or virtual-environment folder"),
        ("venv/", "vendored, build or virtual-environment folder"),
    ]


def test_zip_of_a_repository_strips_its_top_folder() -> None:
    corpus = load_zip(_zip({"repo-main/a.py": b"x = 1\n", "repo-main/docs/b.md": b"# T\n"}))
    assert sorted(f.path for f in corpus.files) == ["a.py", "docs/b.md"]


def test_zip_path_traversal_is_refused() -> None:
    corpus = load_zip(_zip({"../evil.py": b"x = 1\n", "/abs.py": b"x = 1\n", "ok.py": b"x = 1\n"}))
    assert [f.path for f in corpus.files] == ["ok.py"]
    assert all("unsafe path" in s.reason for s in corpus.skipped)


def test_a_name_stored_twice_in_a_zip_is_read_once_from_its_last_copy() -> None:
    buffer = io.BytesIO()
    with warnings.catch_warnings(), zipfile.ZipFile(buffer, "w") as archive:
        warnings.simplefilter("ignore")  # zipfile warns of the duplicate name
        archive.writestr("a.py", b"old = 1\n")
        archive.writestr("b.py", b"b = 1\n")
        archive.writestr("a.py", b"new = 2\n")
    corpus = load_zip(buffer.getvalue())
    assert [(f.path, f.text) for f in corpus.files] == [("a.py", "new = 2\n"), ("b.py", "b = 1\n")]
    # a.py is read (its last copy): a note, not a skipped file.
    assert corpus.skipped == []
    assert [(n.path, n.text) for n in corpus.notes] == [("a.py", "stored more than once in the archive; its last copy is the one read")]


def test_zip_bomb_is_refused() -> None:
    bomb = _zip({"bomb.py": b"a" * 20_000_000})
    corpus = load_zip(bomb)
    assert not corpus.files
    assert "zip bomb" in corpus.skipped[0].reason


def test_zip_total_size_and_file_count_are_bounded() -> None:
    entries = {f"f{i}.py": (f"x{i} = {i}\n" * 10).encode() for i in range(30)}
    corpus = load_zip(_zip(entries), limits=Limits(max_files=10))
    assert len(corpus.files) == 10 and len(corpus.skipped) == 20
    corpus = load_zip(_zip(entries), limits=Limits(max_total_bytes=500))
    assert 0 < len(corpus.files) < 30


def test_a_member_with_a_damaged_deflate_stream_is_skipped_by_name() -> None:
    data = bytearray(_zip({"repo/a.py": b"def a():\n    return 1\n" * 200, "repo/b.py": b"def b():\n    return 2\n" * 200}))
    for i in range(60, 120):  # inside a.py's compressed bytes: zlib itself fails on them
        data[i] ^= 0xFF
    corpus = load_zip(bytes(data), name="mine.zip")
    assert not corpus.files and [s.path for s in corpus.skipped] == ["a.py", "b.py"]
    assert all("corrupt archive member" in s.reason for s in corpus.skipped)
    assert "decompressing" in corpus.skipped[0].reason  # zlib's own error, once uncaught


def test_an_encrypted_member_is_skipped_with_a_plain_reason() -> None:
    data = bytearray(_zip({"repo/a.py": b"x = 1\n", "repo/b.py": b"y = 2\n"}))
    data[data.find(b"PK\x03\x04") + 6] |= 1  # a.py's "encrypted" bit, in its local and central headers
    data[data.find(b"PK\x01\x02") + 8] |= 1
    corpus = load_zip(bytes(data), name="mine.zip")
    assert [f.path for f in corpus.files] == ["b.py"]
    assert [(s.path, s.reason) for s in corpus.skipped] == [
        ("a.py", "repo/a.py: encrypted (password-protected) member, not read")
    ]


def test_a_broken_archive_is_named_as_uploaded() -> None:
    with pytest.raises(InputError, match="^mine.zip: not a valid zip"):
        load_zip(b"PK\x03\x04 definitely not a zip", name="mine.zip")


def test_not_a_zip_is_a_clear_error() -> None:
    with pytest.raises(InputError, match="not a valid zip"):
        load_zip(b"PK\x03\x04 definitely not a zip")


def test_empty_zip_is_a_clear_error() -> None:
    with pytest.raises(InputError, match="no files"):
        load_zip(_zip({}))


def test_a_header_named_h_is_read_as_cpp_when_only_cpp_parses_it() -> None:
    # The C grammar read a C++ header as damage and its namespace as a function.
    cpp = b"namespace ns {\ntemplate <typename T>\nclass Box {\n public:\n  T get() const { return v_; }\n};\n}\n"
    assert load_bytes("box.h", cpp).language == "cpp"
    assert load_bytes("box.h", cpp, language="c").language == "c", "a language given is kept"
    c_header = (b"#ifndef P_H\n#define P_H\n#ifdef __cplusplus\nextern \"C\" {\n#endif\n"
                b"/* a class declaration, in words */\nstruct point { int x; };\nint area(struct point p);\n"
                b"#ifdef __cplusplus\n}\n#endif\n#endif\n")
    assert load_bytes("p.h", c_header).language == "c"



def test_a_coq_proof_named_v_is_text_and_verilog_stays_verilog() -> None:
    # ``.v`` is Verilog's; a Coq proof script, which its grammar reads as errors, became windows
    # flagged ``parse_error`` once Verilog had a spec: it is text, cut at blank lines.
    coq = (b"Require Import Arith.\n\nFixpoint restock (n : nat) : nat :=\n  match n with\n  | 0 => 12\n"
           b"  | S m => m\n  end.\n\nLemma restock_small : restock 0 = 12.\nProof. reflexivity. Qed.\n")
    assert load_bytes("Restock.v", coq).language == "text"
    verilog = b"// A Lemma about counters, in a comment.\nmodule counter(input clk, output reg [3:0] q);\n" \
              b"  always @(posedge clk) q <= q + 1;\nendmodule\n"
    assert load_bytes("counter.v", verilog).language == "verilog"


def test_a_header_named_h_that_writes_cuda_is_read_as_cuda_when_c_does_not_parse_it() -> None:
    # Kernels' headers are often ``.h`` files: ``__host__ __device__`` methods, ``__global__``
    # prototypes, ``<<<...>>>`` launches in inline helpers.
    cuda = (b"#include <vector>\nstruct Span {\n    float* p;\n"
            b"    __host__ __device__ float at(int i) const { return p[i]; }\n};\n"
            b"__global__ void scale(Span s, float f);\n"
            b"inline void run(Span s) { scale<<<1, 32>>>(s, 2.0f); }\n")
    assert load_bytes("span.h", cuda).language == "cuda"
    assert load_bytes("span.h", cuda, language="cpp").language == "cpp", "a language given is kept"
    # A C header that names a CUDA word in a comment parses as C and stays C.
    c_header = b"/* Host side of the __global__ kernels. */\nint launch_scale(float *p, int n);\n"
    assert load_bytes("scale.h", c_header).language == "c"


def test_objective_c_is_told_by_its_content_in_m_files_and_h_headers() -> None:
    objc = (b"#import <Foundation/Foundation.h>\n\n@interface Shelf : NSObject\n- (void)restock:(int)n;\n@end\n\n"
            b"@implementation Shelf\n- (void)restock:(int)n {\n    NSLog(@\"%d\", n);\n}\n@end\n")
    assert load_bytes("Shelf.m", objc).language == "objc"
    assert load_bytes("Shelf.h", objc).language == "objc"
    assert load_bytes("Empty.m", b"@implementation Empty\n@end\n").language == "objc"  # (no MATLAB either)
    matlab = b"function total = restock(levels, points)\n% Units to order per shelf.\ntotal = max(points - levels, 0);\nend\n"
    source = load_bytes("restock.m", matlab)
    assert source.language == "matlab"  # no Objective-C in it: MATLAB's, chunked by its syntax spec
    chunks = chunk_document(prepare(source.path, source.language, source.text), ChunkSettings(), "syntax")
    assert [(c.kind, c.symbol, c.text) for c in chunks] == [("function", "restock", matlab.decode().strip())]
    # A C header that imports (an old GCC extension) but parses as C stays C.
    assert load_bytes("compat.h", b'#import "base.h"\nint add(int a, int b);\n').language == "c"

def test_minified_files_are_skipped_in_a_repository_but_chunked_alone(tmp_path: Path) -> None:
    # A bundle is one line of hundreds of kilobytes: thousands of pieces cut inside it.
    bundle = ("var a=" + ";".join(f"f{i}=function(x){{return x+{i}}}" for i in range(2000)) + ";\n").encode()
    (tmp_path / "app.js").write_text("export function add(a, b) {\n  return a + b;\n}\n")
    (tmp_path / "vendor.js").write_bytes(bundle)
    (tmp_path / "tiny.min.js").write_text("var x=1;\n")
    corpus = load_folder(tmp_path)
    assert [f.path for f in corpus.files] == ["app.js"]
    reasons = {s.path: s.reason for s in corpus.skipped}
    assert reasons["tiny.min.js"] == "minified (by its name); open it alone to chunk it"
    assert reasons["vendor.js"].startswith("minified or generated (lines average")
    zipped = load_zip(_zip({"repo/app.js": b"let a = 1;\n", "repo/vendor.js": bundle}))
    assert [f.path for f in zipped.files] == ["app.js"] and zipped.skipped[0].path == "vendor.js"
    assert load_file(tmp_path / "vendor.js").language == "javascript", "a file chosen alone is read"


def test_a_utf8_source_with_a_stray_byte_is_refused_by_line_not_read_as_windows_1252() -> None:
    # Read as Windows-1252, every accent of the file became mojibake ("cafÃ©") in the view, the
    # chunks and the index; tables already refused such a file, naming the line.
    data = 'PRICES = {"café": 2.5, "crème brûlée": 6}\n\nprint(PRICES)\n'.encode() + b"# \xff\n"
    with pytest.raises(InputError, match=r"m\.py: line 4: bytes that are not valid UTF-8 in a file otherwise"):
        load_bytes("m.py", data)
    # One accented letter in UTF-8 is enough to tell, however many Windows-1252 quotes were
    # pasted in after it (either reading would garble part of the file).
    mixed = 'NAME = "José"\n'.encode() + b"# \x93quoted\x94 and \x93again\x94\n"
    with pytest.raises(InputError, match=r"n\.py: line 2: bytes that are not valid UTF-8"):
        load_bytes("n.py", mixed)
    # A file in a legacy encoding is still read in it, and Central European text in its own.
    assert load_bytes("l.py", 'x = "café"\n'.encode("cp1252")).encoding == "cp1252"
    polish = load_bytes("p.py", '# Wrocław, Łódź, Gdańsk\nmiasta = ["Kraków"]\n'.encode("cp1250"))
    assert polish.encoding == "cp1250" and "Wrocław" in polish.text


@pytest.mark.parametrize(
    "text",
    [
        '# Zażółć gęślą jaźń. Šťastný žluťoučký kůň.\ndef f():\n    return "Łódź, Kraków, Gdańsk"\n',
        '# Wrocław, Łódź, Gdańsk\nmiasta = ["Kraków"]\n',  # (ź alone tells them apart: cp1250 reads Ľ)
        "# Dobrý deň, ako sa máš? Ďakujem, ľudia.\n",
    ],
)
def test_central_european_text_in_latin2_is_read_in_latin2_and_in_cp1250_in_cp1250(text: str) -> None:
    # ISO 8859-2 was read as cp1250, the letters the two read apart garbled: "gę¶l± jaĽń",
    # "©»astný ľlu»oučký", vim's Czech tutor "přílią", "vąechny".
    latin2 = load_bytes("l2.py", text.encode("iso8859_2"))
    assert (latin2.encoding, latin2.text) == ("iso8859_2", text)
    windows = load_bytes("w.py", text.encode("cp1250"))
    assert (windows.encoding, windows.text) == ("cp1250", text)


@pytest.mark.parametrize("text", ["# Copyright © 2024 Łukasz Nowak\n", "# cena ± 5 zł, 20 °C\n", "# © Paweł Kowalski, Kraków\n"])
def test_a_sign_that_latin2_reads_as_a_letter_leaves_cp1250_text_in_cp1250(text: str) -> None:
    # © and ± standing apart read as Š and ą in Latin-2: a licence header became "Copyright Š".
    source = load_bytes("c.py", text.encode("cp1250"))
    assert (source.encoding, source.text) == ("cp1250", text)


def test_the_first_file_opened_is_a_code_file() -> None:
    def files(*pairs: tuple[str, str]) -> list[SourceFile]:
        return [SourceFile(path, language, text="x") for path, language in pairs]

    project = files(("README.md", "markdown"), ("pkg/__init__.py", "python"), ("pkg/core.py", "python"))
    assert first_code_file(project).path == "pkg/core.py"
    assert first_code_file(project[:2]).path == "pkg/__init__.py"  # a package marker, when it is all the code
    assert first_code_file(files(("README.md", "markdown"), ("notes.txt", "text"))).path == "README.md"
    assert first_code_file([]) is None
    corpus = load_folder(Path(__file__).resolve().parents[1] / "sample_repos" / "jvm_billing")
    assert first_code_file(corpus.files).path == "src/main/java/billing/InvoiceService.java"


# --- notebooks ----------------------------------------------------------------------------------


def _notebook(source: str, image_bytes: int = 0) -> bytes:
    """A one-cell Python notebook whose output is an image of ``image_bytes`` base64 bytes."""
    outputs = [{"output_type": "display_data", "data": {"image/png": "A" * image_bytes}}] if image_bytes else []
    cell = {"cell_type": "code", "execution_count": 1, "metadata": {}, "outputs": outputs, "source": source}
    meta = {"kernelspec": {"language": "python", "name": "python3"}}
    return json.dumps({"cells": [cell], "metadata": meta, "nbformat": 4, "nbformat_minor": 5}).encode()


def test_a_notebook_is_read_as_its_cells_however_large_its_outputs(tmp_path: Path) -> None:
    path = tmp_path / "plots.ipynb"
    path.write_bytes(_notebook("import math\nprint(math.pi)\n", image_bytes=3_000_000))
    source = load_file(path)
    assert source.language == "python" and source.text == "# %% cell 1\nimport math\nprint(math.pi)\n"
    assert source.note is not None and "Jupyter notebook" in source.note
    with pytest.raises(InputError, match="plots.ipynb: 3,000,[0-9]{3} bytes is over the limit of 2,000,000 for a notebook"):
        load_file(path, limits=Limits(max_notebook_bytes=2_000_000))
    with pytest.raises(InputError, match="its cells come to 39 bytes, over the limit of 30 for one source file"):
        load_bytes("plots.ipynb", path.read_bytes(), limits=Limits(max_file_bytes=30))


def test_a_binary_or_empty_notebook_is_refused_by_name() -> None:
    with pytest.raises(InputError, match="x.ipynb: binary file"):
        load_bytes("x.ipynb", b"\x89PNG\r\n\x1a\n\x00\x00\x00")
    with pytest.raises(InputError, match="x.ipynb: empty file"):
        load_bytes("x.ipynb", b"")
    with pytest.raises(InputError, match="x.ipynb: not a valid notebook"):
        load_bytes("x.ipynb", b"{not json")


def test_notebooks_in_a_folder_or_a_zip_are_read_with_a_note(tmp_path: Path) -> None:
    (tmp_path / "explore.ipynb").write_bytes(_notebook("x = 1\n"))
    (tmp_path / ".ipynb_checkpoints").mkdir()  # Jupyter's autosaves: hidden, never sources
    (tmp_path / ".ipynb_checkpoints" / "explore-checkpoint.ipynb").write_bytes(_notebook("x = 0\n"))
    (tmp_path / "broken.ipynb").write_text('{"cells": [', encoding="utf-8")
    corpus = load_folder(tmp_path)
    assert [f.path for f in corpus.files] == ["explore.ipynb"]
    assert [(n.path, "read as a python script" in n.text) for n in corpus.notes] == [("explore.ipynb", True)]
    assert [(s.path, "not a valid notebook" in s.reason) for s in corpus.skipped] == [("broken.ipynb", True)]
    zipped = load_zip(_zip({"repo/explore.ipynb": _notebook("x = 1\n"), "repo/a.py": b"y = 2\n"}))
    assert sorted(f.path for f in zipped.files) == ["a.py", "explore.ipynb"]
    assert [n.path for n in zipped.notes] == ["explore.ipynb"]


def test_an_encoding_declared_on_the_first_lines_is_the_one_read() -> None:
    # A latin-1 file said so and was labelled cp1252; cp1250 text declared as such could be
    # taken for another code page by detection.
    source = load_bytes("a.py", '# -*- coding: latin-1 -*-\nx = "café"\n'.encode("latin-1"))
    assert (source.encoding, source.text) == ("iso8859-1", '# -*- coding: latin-1 -*-\nx = "café"\n')
    text = '#!/usr/bin/env python\n# vim: set fileencoding=cp1250 :\nx = "Łódź"\n'
    assert load_bytes("b.py", text.encode("cp1250")).encoding == "cp1250"
    assert load_bytes("c.rb", '# encoding: iso-8859-15\nx = "€"\n'.encode("iso-8859-15")).encoding == "iso8859-15"
    # A declaration past line 2, of no text codec, or that the bytes belie, is not followed.
    assert load_bytes("d.py", 'x = 1\ny = 2\n# coding: cp1250\nz = "é"\n'.encode("cp1252")).encoding == "cp1252"
    assert load_bytes("e.py", '# coding: rot13\nz = "é"\n'.encode("cp1252")).encoding == "cp1252"
    assert load_bytes("f.py", "# coding: ascii\nz = 'é'\n".encode("cp1252")).encoding == "cp1252"


SCRIPTS = {
    "bin/deploy": b"#!/usr/bin/env bash\nset -e\n\ndeploy() {\n  echo deploying\n}\n\ndeploy\n",
    "tools/run": b"#!/usr/bin/env -S python3 -u\ndef main():\n    print('run')\n",
    "scripts/serve": b"#! /usr/local/bin/node\nfunction serve() { return 1; }\n",
    "NOTES": b"Just some words, no interpreter.\n",
    "bin/odd": b"#!/opt/bin/frobnicate --fast\nfrob 1\n",
}


def test_a_script_without_an_extension_is_read_by_its_shebang(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    for rel, data in SCRIPTS.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_bytes(data)
    archive = tmp_path / "repo.zip"
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as zf:
        for rel, data in SCRIPTS.items():
            zf.writestr(f"repo/{rel}", data)
    expected = {"bin/deploy": "bash", "tools/run": "python", "scripts/serve": "javascript"}
    for corpus in (load_folder(root), load_zip(archive.read_bytes())):
        assert {f.path: f.language for f in corpus.files} == expected
        assert {s.path: s.reason for s in corpus.skipped} == {"NOTES": "unknown file type", "bin/odd": "unknown file type"}
    assert load_bytes("deploy", SCRIPTS["bin/deploy"]).language == "bash"
    assert load_bytes("deploy", SCRIPTS["bin/deploy"], language="text").language == "text"  # asked for: kept
    assert load_bytes("deploy.txt", SCRIPTS["bin/deploy"]).language == "text"  # an extension goes first
    with pytest.raises(InputError, match="unknown file type"):
        load_bytes("NOTES", SCRIPTS["NOTES"])
