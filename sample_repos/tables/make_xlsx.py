"""Writes budget.xlsx: department budgets for two quarters, one sheet each ("Q1", "Q2").

Run from this folder: ``python make_xlsx.py``. The workbook is committed too, so the samples
need no script run; rerun this after changing the data below.
"""

from __future__ import annotations

import io
import re
import zipfile
from datetime import date, datetime
from pathlib import Path

import openpyxl
from openpyxl.styles import Font

HEADER = ["department", "cost_center", "owner", "budget_eur", "actual_eur", "headcount", "review_date", "comment"]

# (department, cost center, owner, Q1 budget, Q1 actual, Q1 headcount, Q2 budget, Q2 actual, Q2 headcount)
DEPARTMENTS = [
    ("Engineering", "CC-100", "Johan Nyström", 820_000, 846_300, 41, 860_000, 842_150, 43),
    ("Data", "CC-110", "Elena Petrova", 210_000, 198_400, 9, 225_000, 231_900, 10),
    ("Product", "CC-120", "Hanna Svensson", 180_000, 171_250, 7, 185_000, 179_600, 7),
    ("Sales", "CC-200", "Oskar Holm", 460_000, 489_900, 18, 480_000, 471_300, 19),
    ("Marketing", "CC-210", "Isabel Fonseca", 300_000, 262_100, 6, 340_000, 355_750, 6),
    ("Support", "CC-300", "Erik Dahl", 240_000, 236_800, 14, 240_000, 249_500, 15),
    ("Finance", "CC-400", "Carla Rossi", 150_000, 147_300, 5, 150_000, 146_900, 5),
    ("People", "CC-410", "Linnea Sjöberg", 120_000, 131_600, 4, 125_000, 118_200, 4),
    ("Facilities", "CC-500", "Peter Lund", 260_000, 255_450, 3, 230_000, 0, 3),
    ("Legal", "CC-600", "Amira Nasser", 90_000, 104_200, 2, 95_000, 88_700, 2),
]
COMMENTS = {
    ("Q1", "Engineering"): "Cloud costs above plan after the load-test week",
    ("Q1", "Sales"): "Trade fair in Hamburg moved from Q2 to Q1",
    ("Q1", "Marketing"): "Spring campaign delayed",
    ("Q1", "Legal"): "External counsel for the supplier dispute",
    ("Q2", "Data"): "New GPU workstation",
    ("Q2", "Marketing"): "Spring campaign ran in Q2",
    ("Q2", "Facilities"): "Actuals not booked yet",
    ("Q2", "People"): "Recruiting fair cancelled",
}
REVIEWS = {"Q1": date(2024, 4, 12), "Q2": date(2024, 7, 12)}


def build() -> openpyxl.Workbook:
    """The workbook, one sheet per quarter."""
    book = openpyxl.Workbook()
    book.remove(book.active)
    for quarter, offset in (("Q1", 3), ("Q2", 6)):
        sheet = book.create_sheet(quarter)
        sheet.append(HEADER)
        for cell in sheet[1]:
            cell.font = Font(bold=True)
        for row in DEPARTMENTS:
            budget, actual, heads = row[offset : offset + 3]
            review = REVIEWS[quarter]
            comment = COMMENTS.get((quarter, row[0]))
            actual_value = None if actual == 0 else actual  # not booked yet: an empty cell
            sheet.append([row[0], row[1], row[2], budget, actual_value, heads, review, comment])
        for cell in sheet["G"][1:]:
            cell.number_format = "yyyy-mm-dd"
    # Fixed document dates keep the file identical from run to run.
    book.properties.created = datetime(2024, 7, 15, 9, 0, 0)
    book.properties.modified = datetime(2024, 7, 15, 9, 0, 0)
    return book


def save_reproducibly(book: openpyxl.Workbook, path: Path) -> None:
    """Save with fixed dates (zip members, and the "modified" stamp openpyxl sets to now), so
    an unchanged workbook gives identical bytes."""
    buffer = io.BytesIO()
    book.save(buffer)
    with zipfile.ZipFile(buffer) as src, zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            content = src.read(info.filename)
            if info.filename == "docProps/core.xml":
                content = re.sub(rb"(<dcterms:modified[^>]*>)[^<]*", rb"\g<1>2024-07-15T09:00:00Z", content)
            member = zipfile.ZipInfo(info.filename, date_time=(2024, 7, 15, 9, 0, 0))
            member.compress_type = zipfile.ZIP_DEFLATED
            dst.writestr(member, content)


if __name__ == "__main__":
    save_reproducibly(build(), Path(__file__).with_name("budget.xlsx"))
