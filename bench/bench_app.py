"""Server-side speed of the Explore page, through real Streamlit (AppTest runs the real script).

    python bench/bench_app.py            # prints a table; JSON in bench/out/app.json

What it measures, in one run:

1. A 2,000-line file pasted into the page: time from a budget change to the rendered view
   (a full script run: chunking both strategies, metrics, chart, HTML view), warm caches for
   the parse tree and tokenizer, several different budgets so chunking really reruns.
2. A 300-file repository uploaded as a zip: the file list with per-file figures on first load
   (cold caches: the upload, then opening the list, whose figures are computed only when it is
   open), a rerun after it (warm), and a budget change with the list open (every file
   re-chunked) and closed.
3. Streamlit's own overhead: the full garbage collection it runs after every rerun
   (``runner.postScriptGC``), timed with pandas, the app and (optionally) torch loaded, and the
   same reruns with the option on and off.

Baseline printed beside it: the same chunking and metrics called directly on the library (no
Streamlit), so the ratio shows what the UI adds.
"""

from __future__ import annotations

import gc
import io
import json
import statistics
import sys
import time
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from streamlit.testing.v1 import AppTest  # noqa: E402
from streamlit.testing.v1.util import patch_config_options  # noqa: E402

SAMPLES = ROOT / "sample_repos"


def two_thousand_lines() -> str:
    """A realistic 2,000-line Python file: the sample modules, renamed per copy."""
    parts = []
    sources = [p.read_text("utf-8") for p in sorted((SAMPLES / "py_inventory/inventory").glob("*.py"))
               if p.name != "broken_import.py"]
    copy = 0
    while sum(part.count("\n") for part in parts) < 2000:
        for text in sources:
            parts.append(text.replace("def ", f"def v{copy}_").replace("class ", f"class V{copy}"))
        copy += 1
    lines = "".join(parts).splitlines()[:2000]
    return "\n".join(lines) + "\n"


def repository_zip(count: int = 300) -> bytes:
    """A zip of ``count`` code files in several languages (content varied per file)."""
    pool = [p for p in SAMPLES.rglob("*") if p.is_file() and p.suffix in {".py", ".ts", ".go", ".rs", ".java", ".rb", ".js"}
            and "broken" not in p.name]
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for index in range(count):
            source = pool[index % len(pool)]
            text = source.read_text("utf-8") + f"\n// variant {index}\n".replace("//", "#" if source.suffix in {".py", ".rb"} else "//")
            archive.writestr(f"repo/dir{index % 12}/{index:03d}_{source.name}", text)
    return buffer.getvalue()


def timed_run(at: AppTest) -> float:
    start = time.perf_counter()
    at.run()
    elapsed = time.perf_counter() - start
    if at.exception:
        raise RuntimeError(at.exception[0].value)
    return elapsed


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def bench_file(text: str, gc_after: bool) -> list[float]:
    with patch_config_options({"runner.postScriptGC": gc_after}):
        at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=300)
        at.run()
        at.radio(key="source").set_value("Paste code")
        at.run()
        at.text_area(key="paste_text").input(text)
        timed_run(at)
        times = []
        for budget in (200, 180, 160, 140, 120, 230, 210, 190, 170, 150, 130, 110):
            at.slider(key="budget_tokens").set_value(budget)
            times.append(timed_run(at))
        return times


def bench_repository(data: bytes) -> dict[str, float]:
    """Upload, open the file list (its per-file figures are computed only when it is open),
    switch files, change the budget with the list open, then with it closed."""
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=600)
    at.run()
    at.radio(key="source").set_value("Upload zip")
    at.run()
    at.file_uploader(key="upload_zip").upload("repo.zip", data, "application/zip")
    loaded = timed_run(at)
    files = at.selectbox(key="file").options
    assert len(files) == 300, len(files)
    at.session_state["files_open"] = True  # what a click on the list does
    opened = timed_run(at)
    assert len(at.dataframe[0].value) == 300
    after = []
    for name in files[1:6]:
        at.selectbox(key="file").set_value(name)
        after.append(timed_run(at))
    at.slider(key="budget_tokens").set_value(200)
    budget_change = timed_run(at)
    at.session_state["files_open"] = False
    timed_run(at)
    at.slider(key="budget_tokens").set_value(180)
    budget_change_closed = timed_run(at)
    return {
        "load_s": loaded,
        "open_list_s": opened,
        "first_load_s": loaded + opened,
        "rerun_after_s": statistics.median(after),
        "budget_change_s": budget_change,
        "budget_change_list_closed_s": budget_change_closed,
    }


def baseline_library(text: str) -> list[float]:
    """The same work without Streamlit: chunk both strategies and measure damage."""
    from core.chunking import chunk_document, prepare
    from core.metrics import boundary_damage
    from core.render import PALETTES, Band, render_view
    from core.settings import ChunkSettings
    from core.syntax import list_definitions

    prep = prepare("big.py", "python", text)
    defs = list_definitions(prep)
    times = []
    for budget in (200, 180, 160, 140, 120, 230):
        start = time.perf_counter()
        settings = ChunkSettings(budget=budget)
        chunks = {s: chunk_document(prep, settings, s) for s in ("fixed", "syntax")}
        reports = {s: boundary_damage(prep, c, budget=budget, model=settings.model, definitions=defs) for s, c in chunks.items()}
        render_view(text, "python", [Band("f", chunks["fixed"], PALETTES["fixed"]), Band("s", chunks["syntax"], PALETTES["syntax"])],
                    cuts=reports["fixed"].cuts, header_band=1)
        times.append(time.perf_counter() - start)
    return times


def gc_cost(with_torch: bool) -> float:
    if with_torch:
        import torch  # noqa: F401 - loaded on purpose: the retrieval pages load it

    runs = []
    for _ in range(5):
        start = time.perf_counter()
        gc.collect()
        runs.append(time.perf_counter() - start)
    return statistics.median(runs)


def main() -> None:
    text = two_thousand_lines()
    results: dict[str, object] = {}
    base = baseline_library(text)
    with_gc = bench_file(text, gc_after=True)
    without_gc = bench_file(text, gc_after=False)
    results["file_2000_lines"] = {
        "library_only_median_ms": statistics.median(base) * 1000,
        "rerun_median_ms": statistics.median(with_gc) * 1000,
        "rerun_p95_ms": pct(with_gc, 0.95) * 1000,
        "rerun_no_gc_median_ms": statistics.median(without_gc) * 1000,
        "rerun_no_gc_p95_ms": pct(without_gc, 0.95) * 1000,
    }
    results["repository_300_files"] = bench_repository(repository_zip())
    results["gc_collect_ms"] = {"app_loaded": gc_cost(False) * 1000, "with_torch": gc_cost(True) * 1000}

    f = results["file_2000_lines"]
    r = results["repository_300_files"]
    g = results["gc_collect_ms"]
    print("Explore page, server-side (AppTest runs the real script)")
    print(f"  2,000-line file, budget change -> rendered view: median {f['rerun_median_ms']:.0f} ms, "
          f"p95 {f['rerun_p95_ms']:.0f} ms (aim < 200 ms); library alone {f['library_only_median_ms']:.0f} ms "
          f"-> UI adds x{f['rerun_median_ms'] / f['library_only_median_ms']:.2f}")
    print(f"  same with runner.postScriptGC=false: median {f['rerun_no_gc_median_ms']:.0f} ms, p95 {f['rerun_no_gc_p95_ms']:.0f} ms")
    print(f"  300-file repository: to the file list with figures {r['first_load_s']:.2f} s (aim < 2 s: upload "
          f"{r['load_s']:.2f} s, opening the list {r['open_list_s']:.2f} s), rerun after "
          f"{r['rerun_after_s'] * 1000:.0f} ms (aim < 300 ms), budget change {r['budget_change_s']:.2f} s with the "
          f"list open, {r['budget_change_list_closed_s']:.2f} s closed")
    print(f"  gc.collect(): {g['app_loaded']:.1f} ms with the app loaded, {g['with_torch']:.1f} ms with torch too")
    out = ROOT / "bench" / "out"
    out.mkdir(parents=True, exist_ok=True)
    (out / "app.json").write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
