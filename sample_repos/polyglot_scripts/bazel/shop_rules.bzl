"""Build macros and a rule for the warehouse tools' Bazel build.

Every C++ target of the pick stations goes through `shop_cc_library` or
`shop_cc_test`, so the warning flags and the warehouse code live in one place.
"""

load("@rules_cc//cc:defs.bzl", "cc_library", "cc_test")

# Flags every shop target compiles with; the legacy ERP bridge opts out of -Werror.
SHOP_COPTS = [
    "-Wall",
    "-Wextra",
    "-Werror",
    "-Wno-unused-parameter",
]

WAREHOUSES = {
    "HAM": "Hamburg",
    "LYS": "Lyon",
    "KIX": "Osaka",
}

def _warehouse_define(code):
    """The preprocessor define that names a warehouse, e.g. SHOP_WAREHOUSE="LYS"."""
    if code not in WAREHOUSES:
        fail("unknown warehouse code %r; expected one of %s" % (code, sorted(WAREHOUSES.keys())))
    return 'SHOP_WAREHOUSE="%s"' % code

def shop_cc_library(name, srcs = [], hdrs = [], deps = [], warehouse = "LYS", strict = True, **kwargs):
    """A cc_library with the shop's warnings and its warehouse's define.

    Args:
      name: the target's name.
      srcs: the .cc files.
      hdrs: the public headers.
      deps: what it links against.
      warehouse: the warehouse code compiled in (HAM, LYS or KIX).
      strict: whether warnings are errors (the ERP bridge turns this off).
      **kwargs: passed on to cc_library.
    """
    copts = SHOP_COPTS if strict else [flag for flag in SHOP_COPTS if flag != "-Werror"]
    cc_library(
        name = name,
        srcs = srcs,
        hdrs = hdrs,
        deps = deps,
        copts = copts,
        defines = [_warehouse_define(warehouse)],
        **kwargs
    )

def shop_cc_test(name, srcs, deps = [], size = "small", **kwargs):
    """A cc_test on GoogleTest, tagged so that CI runs the small ones first."""
    cc_test(
        name = name,
        srcs = srcs,
        deps = deps + ["@googletest//:gtest_main"],
        copts = SHOP_COPTS,
        size = size,
        tags = ["shop", size],
        **kwargs
    )

def _price_table_impl(ctx):
    """Turns the buyers' price export (a CSV) into a C++ header of constant prices.

    The header is regenerated whenever the CSV changes, so a price change is a new
    export, not a code change. Rows with a missing price fail the build, naming the
    SKU, rather than shipping a label that prints 0.00.
    """
    out = ctx.actions.declare_file(ctx.attr.name + ".h")
    args = ctx.actions.args()
    args.add("--csv", ctx.file.csv)
    args.add("--out", out)
    args.add("--currency", ctx.attr.currency)
    if ctx.attr.round_to_nine:
        args.add("--round-to-nine")
    ctx.actions.run(
        inputs = [ctx.file.csv],
        outputs = [out],
        executable = ctx.executable._generator,
        arguments = [args],
        mnemonic = "ShopPriceTable",
        progress_message = "Generating price table %s from %s" % (out.short_path, ctx.file.csv.short_path),
    )
    return [DefaultInfo(files = depset([out]))]

price_table = rule(
    implementation = _price_table_impl,
    doc = "A header of constant prices generated from the buyers' CSV export.",
    attrs = {
        "csv": attr.label(allow_single_file = [".csv"], mandatory = True),
        "currency": attr.string(default = "EUR", values = ["EUR", "JPY"]),
        "round_to_nine": attr.bool(default = True),
        "_generator": attr.label(
            default = "//tools:price_table_gen",
            executable = True,
            cfg = "exec",
        ),
    },
)
