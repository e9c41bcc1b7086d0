"""Small shared pieces of the table modules: missing-value markers and zero-copy views of Arrow
arrays as NumPy."""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

# pandas.read_csv's default missing markers (pandas._libs.parsers.STR_NA_VALUES), so that counts
# of missing cells agree with pandas, and Excel's error values (a formula's #DIV/0!), which
# pandas.read_excel reads as missing too: one error cell made a column of numbers text.
EXCEL_ERRORS = ("#DIV/0!", "#VALUE!", "#REF!", "#NAME?", "#NUM!", "#NULL!", "#SPILL!", "#CALC!", "#GETTING_DATA")
NA_MARKERS = (
    "", "#N/A", "#N/A N/A", "#NA", "-1.#IND", "-1.#QNAN", "-NaN", "-nan", "1.#IND", "1.#QNAN",
    "<NA>", "N/A", "NA", "NULL", "NaN", "None", "n/a", "nan", "null", *EXCEL_ERRORS,
)  # fmt: skip


def cell_lengths(col: pa.Array) -> np.ndarray:
    """UTF-8 byte length of every cell of a string array, read from its offsets (no copy)."""
    width = np.int64 if pa.types.is_large_string(col.type) else np.int32
    offsets = np.frombuffer(col.buffers()[1], dtype=width)[col.offset : col.offset + len(col) + 1]
    return np.diff(offsets).astype(np.int64)


def int_values(arr: pa.Array) -> np.ndarray:
    """An integer array without nulls as NumPy (``to_numpy`` takes a slow path on some kernels'
    outputs)."""
    if arr.null_count:
        arr = pc.fill_null(arr, 0)
    dtype = np.dtype(arr.type.to_pandas_dtype())
    return np.frombuffer(arr.buffers()[1], dtype=dtype)[arr.offset : arr.offset + len(arr)].astype(np.int64)
