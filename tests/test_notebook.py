"""Jupyter notebooks read as the script of their cells (core/notebook.py)."""

from __future__ import annotations

import json

import pytest

from core.errors import InputError
from core.languages import is_notebook
from core.notebook import notebook_script


def book(*cells: dict, metadata: dict | None = None, **top: object) -> bytes:
    """A notebook (nbformat 4) of ``cells``, written as Jupyter writes it."""
    meta = {"kernelspec": {"name": "python3", "language": "python", "display_name": "Python 3"}} if metadata is None else metadata
    return json.dumps({"cells": list(cells), "metadata": meta, "nbformat": 4, "nbformat_minor": 5, **top}, indent=1).encode()


def code(source: str | list[str], outputs: list | None = None) -> dict:
    return {"cell_type": "code", "execution_count": 1, "metadata": {}, "outputs": outputs or [], "source": source}


def markdown(source: str | list[str]) -> dict:
    return {"cell_type": "markdown", "metadata": {}, "source": source}


def test_cells_become_a_percent_script_with_prose_as_comments_and_no_outputs() -> None:
    image = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk" * 200
    data = book(
        markdown(["# Title\n", "\n", "Why we *fit* it.\n"]),
        code(["import pandas as pd\n", "df = pd.read_csv('a.csv')"],
             outputs=[{"output_type": "display_data", "data": {"image/png": image, "text/plain": ["<Figure>"]}}]),
        code([]),  # empty: counted, not written
        code("def f(x):\n    return x + 1\n"),
    )
    script = notebook_script("a.ipynb", data)
    assert script.language == "python"
    assert script.text == (
        "# %% cell 1 [markdown]\n"
        "# # Title\n"
        "#\n"
        "# Why we *fit* it.\n"
        "# %% cell 2\n"
        "import pandas as pd\n"
        "df = pd.read_csv('a.csv')\n"
        "\n"
        "# %% cell 4\n"
        "def f(x):\n"
        "    return x + 1\n"
    )
    assert "iVBOR" not in script.text and "<Figure>" not in script.text
    assert "3 cells with content" in script.note and "outputs left out" in script.note


def test_magics_and_shell_escapes_are_commented_out_in_python() -> None:
    data = book(
        code("%matplotlib inline\nimport numpy as np\n  !pip install tqdm\nx = 5 % 3\n"),
        code("%%bash\nls -l\necho done\n"),
        code("\n%%time\ntotal = sum(range(10))\n"),
        code("%%writefile helper.py\ndef helper():\n    pass\n"),
    )
    text = notebook_script("m.ipynb", data).text
    assert "# %matplotlib inline\nimport numpy as np\n#   !pip install tqdm\nx = 5 % 3\n" in text
    assert "# %%bash\n# ls -l\n# echo done\n" in text
    # %%time's cell is Python all the same: only the magic's line is commented out.
    assert "# %%time\ntotal = sum(range(10))\n" in text
    assert "# %%writefile helper.py\n# def helper():\n#     pass\n" in text


def test_ipythons_assigned_output_and_help_are_commented_out_too() -> None:
    # ``files = !ls``, ``res = %timeit -o ...`` and ``df?`` stayed code: the chunks were damaged.
    source = "files = !ls\nres = %timeit -o sum(range(10))\ndf?\nnp.mean??\nx = a != b\ny = 5 % 3\nprint('why?')\n"
    text = notebook_script("m.ipynb", book(code(source))).text
    assert "# files = !ls\n# res = %timeit -o sum(range(10))\n# df?\n# np.mean??\nx = a != b\ny = 5 % 3\nprint('why?')\n" in text


def test_percent_and_bang_lines_inside_statements_stay_code() -> None:
    source = (
        'msg = ("%d items"\n       % count)\n'  # a format's operator on a continued line
        'total = a \\\n    % b\n'
        'doc = """Usage:\n!not a shell escape\n%not a magic\n"""\n'
        "raw = r'\\'' # ( %\n"  # an escaped quote ends no string; a comment's bracket opens nothing
        "%timeit f()\n"
        "!ls\n"
        "x = {'a': '(',\n"
        "     }\n"
        "%load_ext autoreload\n"
    )
    text = notebook_script("m.ipynb", book(code(source))).text
    lines = text.split("\n")
    commented = [line for line in lines if line.startswith("# ") and "%% cell" not in line]
    assert commented == ["# %timeit f()", "# !ls", "# %load_ext autoreload"]
    assert "       % count)" in lines and "    % b" in lines
    assert "!not a shell escape" in lines and "%not a magic" in lines


def test_magics_stay_as_written_in_other_kernels() -> None:
    data = book(code("%%R\nx <- 1\n"), metadata={"kernelspec": {"language": "R", "name": "ir"}})
    script = notebook_script("r.ipynb", data)
    assert script.language == "r"
    assert script.text == "# %% cell 1\n%%R\nx <- 1\n"


@pytest.mark.parametrize(
    ("metadata", "language", "marker"),
    [
        ({}, "python", "# %% cell 1"),  # no kernel named: nbformat's default
        ({"kernelspec": {"language": "C#", "name": ".net-csharp"}}, "csharp", "// %% cell 1"),
        ({"language_info": {"name": "typescript"}}, "typescript", "// %% cell 1"),
        ({"kernelspec": {"language": "julia", "name": "julia-1.10"}}, "julia", "# %% cell 1"),
        ({"kernelspec": {"language": "sas", "name": "sas"}}, "text", "# %% cell 1"),  # not chunked as code here
    ],
)
def test_the_kernel_names_the_scripts_language(metadata: dict, language: str, marker: str) -> None:
    script = notebook_script("k.ipynb", book(markdown("Notes."), code("x = 1"), metadata=metadata))
    assert script.language == language
    prefix = marker.split()[0]
    assert script.text.startswith(f"{prefix} %% cell 1 [markdown]\n{prefix} Notes.\n{prefix} %% cell 2\n")


def test_a_language_given_overrides_the_kernel_and_a_table_is_refused() -> None:
    data = book(code("x = 1"), metadata={"kernelspec": {"language": "sas"}})
    assert notebook_script("o.ipynb", data, language="python").language == "python"
    with pytest.raises(InputError, match="read as code or text, not as csv"):
        notebook_script("o.ipynb", data, language="csv")


def test_nbformat_3_worksheets_inputs_and_headings_are_read() -> None:
    data = json.dumps({
        "metadata": {"name": "old"},
        "nbformat": 3,
        "worksheets": [{"cells": [
            {"cell_type": "heading", "level": 2, "metadata": {}, "source": ["Setup"]},
            {"cell_type": "code", "input": ["import os\n", "print(os.getcwd())"], "language": "python", "outputs": []},
        ]}],
    }).encode()
    assert notebook_script("v3.ipynb", data).text == (
        "# %% cell 1 [markdown]\n# ## Setup\n# %% cell 2\nimport os\nprint(os.getcwd())\n"
    )


def test_windows_line_ends_and_a_byte_order_mark_are_read() -> None:
    data = b"\xef\xbb\xbf" + book(code("a = 1\r\nb = 2\r\n"), markdown("one\rtwo"))
    assert notebook_script("w.ipynb", data).text == "# %% cell 1\na = 1\nb = 2\n\n# %% cell 2 [markdown]\n# one\n# two\n"


def test_a_lone_surrogate_escaped_in_the_json_reads_as_a_question_mark() -> None:
    data = book(code('s = "\\ud800"'))  # json.dumps escapes the code's backslash; make it JSON's own escape
    data = data.replace(b'\\\\ud800', b'\\ud800')
    text = notebook_script("s.ipynb", data).text
    assert 's = "?"' in text
    text.encode("utf-8")  # no surrogate left: the text is valid UTF-8


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b'{"cells": [', "not a valid notebook: line 1: Expecting value"),
        (b'{"cells": [],\n "metadata": {,}}', "not a valid notebook: line 2"),
        (b"[1, 2, 3]", "not a Jupyter notebook"),
        (b'{"metadata": {}}', "not a Jupyter notebook"),
        (book({"cell_type": "code", "source": 42}), "cell 1: its source is not text"),
        (book(markdown("ok"), "oops"), "cell 2 is not a cell"),
        (book({"cell_type": "widget", "source": "x"}), "cell 1: unknown cell type 'widget'"),
        (book(code(""), markdown(["  \n", "\n"])), "empty notebook"),
        (book(), "empty notebook"),
        (b'{"cells": [{"cell_type": "code", "source": "caf\xe9"}]}', "line 1: not valid UTF-8"),
        (b"[" * 100_000 + b"]" * 100_000, "JSON nested too deeply"),
    ],
    ids=["cut-short", "bad-json", "a-list", "no-cells", "source-number", "cell-string", "cell-type", "blank-cells",
         "no-cells-at-all", "latin-1", "deep-nesting"],
)
def test_what_is_no_notebook_gets_a_clear_error(data: bytes, message: str) -> None:
    with pytest.raises(InputError, match=message):
        notebook_script("bad.ipynb", data)


def test_is_notebook_by_name() -> None:
    assert is_notebook("analysis/Explore.IPYNB") and not is_notebook("notes.ipynb.txt")


def test_the_note_reads_as_english_for_one_cell_and_a_one_letter_language() -> None:
    script = notebook_script("r.ipynb", book(code("x <- 1"), metadata={"kernelspec": {"language": "R", "name": "ir"}}))
    assert "read as an R script of its one cell with content, after a '# %% cell N' line" in script.note
    two = notebook_script("p.ipynb", book(code("x = 1"), code("y = 2")))
    assert "read as a python script of its 2 cells with content, each after" in two.note
