"""The syntax chunker on real tree-sitter grammars: per-language names, kinds and the seven rules."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

import core.parsing

from core.chunking import chunk_document, prepare
from core.languages import CODE_LANGUAGES, LANGUAGES, CodeSpec, detect_language, fence_language
from core.settings import ChunkSettings
from core.syntax import list_definitions
from tests.helpers import ANNOTATED_KOTLIN, SAMPLES, assert_budget, assert_lossless, assert_slices_true


def _prep(rel: str):
    path = SAMPLES / rel
    return prepare(rel, detect_language(path.name), path.read_text("utf-8"))


# One case per language: a file and definitions (symbol, kind) its grammar must yield.
LANGUAGE_CASES = {
    "python": ("py_inventory/inventory/resilience.py",
               [("retry", "function"), ("retry.decorator.wrapper", "function"), ("make_throughput_meter.record", "function")]),
    "javascript": ("ts_storefront/src/api.js", [("StorefrontApi.request", "method"), ("createTtlCache.cached", "function")]),
    "typescript": ("ts_storefront/src/cart.ts", [("ShoppingCart.applyCoupon", "method"), ("Product", "interface")]),
    "tsx": ("ts_storefront/src/components/ProductCard.tsx",
            [("ProductCard", "function"), ("ProductCard.handleAddToCart.scheduleReset", "function")]),
    "java": ("jvm_billing/src/main/java/billing/InvoiceService.java",
             [("InvoiceService.LineItem.total", "method"), ("InvoiceService.InvoiceStatus", "enum")]),
    "go": ("systems_kit/go/ratelimit/limiter.go",
           [("TokenBucket.Allow", "method"), ("NewTokenBucket", "function"), ("TokenBucket", "type"), ("Clock", "type")]),
    "rust": ("systems_kit/rust/src/lib.rs",
             [("WeightedLru.insert", "method"), ("tests.lru_evicts_oldest_first", "function"), ("Weigh", "trait")]),
    "c": ("systems_kit/c/ringbuf.c", [("rb_push", "function"), ("rb_read_line", "function")]),
    "cpp": ("systems_kit/cpp/matrix.cpp",
            [("linalg.Matrix.transpose", "method"), ("linalg.Matrix.multiply", "method"), ("linalg", "namespace")]),
    # C++ with ``__global__`` kernels (their own kind), ``__device__`` helpers and ``__host__
    # __device__`` methods, read by CUDA's grammar (its launches ``<<<...>>>`` too).
    "cuda": ("polyglot_scripts/cuda/nightly_reprice.cu",
             [("shop.planRestock", "kernel"), ("shop.repriceSkus", "kernel"), ("shop.smoothDemand", "kernel"),
              ("shop.roundToNine", "function"), ("shop.SkuRecord", "struct"), ("shop.SkuRecord.floorCents", "method"),
              ("shop.SkuRecord.belowReorderPoint", "method"), ("shop.runNightlyReprice", "function"),
              ("shop", "namespace")]),
    "csharp": ("polyglot_scripts/csharp/OrderQueue.cs",
               [("Shop.Orders.OrderQueue.Enqueue", "method"), ("Shop.Orders.OrderQueue.Entry", "class")]),
    "ruby": ("polyglot_scripts/ruby/report.rb", [("Reports.Summary.render", "method"), ("Reports.OrderLog", "class")]),
    # ``namespace App\Cart;`` (no braces) scopes everything after it.
    "php": ("polyglot_scripts/php/Cart.php", [("App.Cart.Cart.addItem", "method"), ("App.Cart.parse_price", "function")]),
    "kotlin": ("jvm_billing/src/main/kotlin/billing/TaxRules.kt",
               [("TaxCalculator.Companion.forGermanEntity", "method"), ("String.isEuCountry", "method")]),
    # ``struct``, ``enum``, ``extension`` and ``actor`` are all the grammar's class_declaration.
    "swift": ("polyglot_scripts/swift/Inventory.swift",
              [("Inventory.apply", "method"), ("Inventory.Bin", "struct"), ("Inventory.Adjustment.sign", "property"),
               ("StockSync", "protocol"), ("SyncQueue", "actor"), ("Inventory", "extension"),
               ("Inventory.pendingChanges", "method"), ("Inventory.subscript", "method"), ("normalizeSKU", "function")]),
    "scala": ("polyglot_scripts/scala/Pricing.scala",
              [("Pricing.linePrice", "method"), ("Pricing", "object"), ("Rule", "trait"), ("Tier", "enum"),
               ("Pricing.linePrice.applyAll", "function"), ("Pricing.roundCents", "method"),
               ("Pricing.Defaults.all", "method"), ("extension (amount: BigDecimal).euros", "method")]),
    "bash": ("polyglot_scripts/bash/deploy.sh",
             [("push_release", "function"), ("parse_args", "function"), ("push_release.previous_release", "function")]),
    "lua": ("polyglot_scripts/lua/config_loader.lua",
            [("Config.load_text", "method"), ("M.load_file", "function"), ("parsers", "table"),
             ("parsers.boolean", "method"), ("trim", "function")]),
    # A service's rpcs are its own children (no body node); a nested enum is its message's.
    # Types, enums and inputs nest three deep in the grammar (``definition`` and the like, opened).
    "graphql": ("ts_storefront/src/schema.graphql",
                [("Product", "type"), ("CurrencyCode", "enum"), ("CartLineInput", "input"), ("Node", "interface"),
                 ("CartDrawer", "operation"), ("CartTotals", "fragment")]),
    # Blocks are named by their labels, as Terraform addresses them, and of their type's kind.
    "hcl": ("ts_storefront/infra/main.tf",
            [("aws_s3_bucket.assets", "resource"), ("environment", "variable"), ("terraform", "terraform"),
             ("aws_cloudfront_distribution.shop.origin", "origin"), ("shop_domain", "output")]),
    # A function is its type signature and its equations, siblings to the grammar; the module
    # header names what follows it; an instance is named as Rust's impls are.
    "haskell": ("polyglot_scripts/haskell/Restock.hs",
                [("Shop.Restock.runRestock", "function"), ("Shop.Restock", "module"), ("Shop.Restock.Item", "data"),
                 ("Shop.Restock.Sku", "newtype"), ("Shop.Restock.Cents", "type"), ("Shop.Restock.Priced", "class"),
                 ("Shop.Restock.Priced.priceOf", "method"), ("Shop.Restock.<Item as Priced>", "instance"),
                 ("Shop.Restock.<Item as Priced>.describe", "method"), ("Shop.Restock.reorderQuantity", "function"),
                 ("Shop.Restock.runRestock.belowMinimum", "function")]),
    # Names sit in no field: found down the signature's call; ``f(x) = ...`` is a function.
    "julia": ("polyglot_scripts/julia/pricing.jl",
              [("Pricing.price_report", "function"), ("Pricing", "module"), ("Pricing.Product", "struct"),
               ("Pricing.Product.Product", "method"), ("Pricing.AbstractPromotion", "abstract"),
               ("Pricing.cents", "macro"), ("Pricing.format_euros", "function"),
               ("Pricing.price_report.unit_price", "function"), ("Pricing.applies", "function")]),
    # A function's body is its signature's next sibling in the grammar: one definition.
    "dart": ("polyglot_scripts/dart/restock_planner.dart",
             [("RestockPlanner.buildPlan", "method"), ("RestockPlanner", "class"),
              ("RestockPlanner.buildPlan.cartons", "function"), ("Shelf.fromJson", "constructor"),
              ("Shelf.urgency", "getter"), ("DecisionLog", "mixin"), ("CentsFormat", "extension"),
              ("CentsFormat.euros", "getter"), ("Urgency", "enum"), ("Urgency.needsCall", "getter"),
              ("SupplierQuote", "type"), ("_RestockScreenState.build", "method"), ("RestockScreen.createState", "method")]),
    # An R function is an anonymous ``function`` named by its assignment; an R6 class is its
    # call's arguments, its ``public`` and ``private`` lists containers of their own.
    "r": ("polyglot_scripts/r/reorder_plan.R",
          [("reorder_report", "function"), ("reorder_report.round_to_pack", "function"), ("StockLedger", "class"),
           ("StockLedger.public.ship", "method"), ("StockLedger.private.append", "method"), ("`%||%`", "function"),
           ('setMethod("describe")', "callback")]),
    # ``package Shop::PriceList;`` scopes the subs after it; ``package X { ... }`` holds its own.
    "perl": ("polyglot_scripts/perl/PriceList.pm",
             [("Shop.PriceList.quote", "function"), ("Shop.PriceList", "package"), ("Shop.PriceList.Tier", "package"),
              ("Shop.PriceList.Tier.new", "function"), ("Shop.PriceList.quote.tier_for", "function")]),
    "proto": ("systems_kit/proto/ratelimit.proto",
              [("RateLimiter", "service"), ("RateLimiter.Acquire", "rpc"), ("AcquireResponse.Refusal", "enum"),
               ("BucketConfig", "message")]),
    # Contracts, libraries and interfaces hold functions, modifiers, events, errors, structs and
    # enums; ``constructor`` and ``receive()`` are named by their keyword.
    "solidity": ("polyglot_scripts/solidity/GiftCardLedger.sol",
                 [("GiftCardLedger.settleOrder", "method"), ("GiftCardLedger", "contract"), ("CentsMath", "library"),
                  ("CentsMath.share", "method"), ("ICardLedger", "interface"), ("ICardLedger.redeem", "method"),
                  ("GiftCardLedger.Card", "struct"), ("GiftCardLedger.Status", "enum"),
                  ("GiftCardLedger.onlyOperator", "modifier"), ("GiftCardLedger.constructor", "constructor"),
                  ("GiftCardLedger.Redeemed", "event"), ("GiftCardLedger.UnknownCard", "error"),
                  ("GiftCardLedger.receive", "receive")]),
    # ``pub fn`` in a ``Decl``; ``const X = struct {...}`` (enum, union, opaque, error set) named
    # by its ``const``, of its container's kind; ``test "name" {...}`` blocks.
    "zig": ("polyglot_scripts/zig/restock.zig",
            [("Bin.Rank.before", "method"), ("Bin", "struct"), ("Bin.Rank", "struct"), ("Bin.parse", "method"),
             ("Urgency", "enum"), ("Urgency.label", "method"), ("Summary", "struct"), ("ParseError", "error"),
             ("planRestock", "function"), ("a bad line is skipped, not fatal", "test"),
             ("planRestock.Context.lessThan", "method")]),
    # Every definition is a call (``CodeSpec.definition_calls``), typed by its callee's word;
    # ``defimpl Proto, for: Type`` is named as Rust's ``impl`` is.
    "elixir": ("polyglot_scripts/elixir/reservations.ex",
               [("Shop.Inventory.Reservations.reserve_cart", "function"), ("Shop.Inventory.Reservations", "module"),
                ("Shop.Inventory.Reservations.Hold", "module"), ("Shop.Inventory.Reservations.Hold.expired?", "function"),
                ("Shop.Inventory.Reservations.format_shortage", "function"), ("Shop.Inventory.PickLabel", "protocol"),
                ("Shop.Inventory.PickLabel.label", "function"),
                ("<Shop.Inventory.Reservations.Hold as PickLabel>", "impl"),
                ("<Shop.Inventory.Reservations.Hold as PickLabel>.label", "function")]),
    # Methods are named by their selector, as the class named in the breadcrumb's (a
    # category's too); ``@interface`` and ``@implementation`` are both the class's.
    "objc": ("polyglot_scripts/objc/ShelfLabels.mm",
             [("ShelfLabelBatch.renderLabel:width:", "method"), ("ShelfLabelBatch", "implementation"),
              ("ShelfLabelBatch", "interface"), ("LabelPrinter", "protocol"), ("NSString", "category"),
              ("NSString.normalizedSKU", "method"), ("PriceLabel.labelWithSku:title:cents:", "method"),
              ("PriceLabel.isDiscounted", "method"), ("FormatCents", "function"), ("LabelSize", "struct"),
              ("LabelStyle", "enum")]),
    # A function defined in an advanced function's ``begin {}`` block is that function's own.
    "powershell": ("polyglot_scripts/powershell/Sync-StockLevels.ps1",
                   [("Sync-StockLevels", "function"), ("StorefrontClient.PostBatch", "method"),
                    ("StorefrontClient", "class"), ("StockLine.StockLine", "method"), ("SyncMode", "enum"),
                    ("Select-Sellable", "filter"), ("Read-StockExport", "function"),
                    ("Sync-StockLevels.Save-DeadLetter", "function")]),
    # ``let``, ``module``, ``class`` and ``type`` items are opened: each binding is a definition
    # (``and`` ones too); a ``let`` with parameters is a function, ``let x = 1`` a statement.
    "ocaml": ("polyglot_scripts/ocaml/stock_ledger.ml",
              [("Make.nightly_report", "function"), ("Make", "module"), ("Money", "module"), ("Money.format", "function"),
               ("Money.format.group", "function"), ("Make.nightly_report.line", "function"), ("Make.c_div", "function"),
               ("STORE", "module_type"), ("STORE.append", "value"), ("STORE.t", "type"), ("movement", "type"),
               ("Unknown_sku", "exception"), ("memory_store", "class"), ("memory_store.count_since", "method"),
               ("Memory", "module"), ("Memory.entries", "function"), ("Ledger", "module")]),
    # An interface's ``module Money : sig ... end`` and ``class c : object ... end``: their
    # ``val``s and ``method``s are declared.
    "ocaml_interface": ("polyglot_scripts/ocaml/stock_ledger.mli",
                        [("Make.nightly_report", "value"), ("Make", "module"), ("Money.format", "value"),
                         ("STORE", "module_type"), ("memory_store", "class"), ("memory_store.clear", "method"),
                         ("movement", "type"), ("Unknown_sku", "exception"), ("now", "external")]),
    # ``module Shop.Warehouse.Allocation`` holds the file; a ``let`` with parameters is a function
    # (``let rec ... and ...`` two), a member is named without its self-identifier; records,
    # unions, enums, classes and their ``interface ... with`` blocks are containers.
    "fsharp": ("polyglot_scripts/fsharp/OrderAllocation.fs",
               [("Shop.Warehouse.Allocation.allocate", "function"), ("Shop.Warehouse.Allocation", "module"),
                ("Shop.Warehouse.Allocation.Stock", "class"), ("Shop.Warehouse.Allocation.Stock.BinsOf", "method"),
                ("Shop.Warehouse.Allocation.Stock.new", "method"), ("Shop.Warehouse.Allocation.Stock.Parse", "method"),
                ("Shop.Warehouse.Allocation.Stock.LowBins", "method"), ("Shop.Warehouse.Allocation.Bin", "record"),
                ("Shop.Warehouse.Allocation.Zone", "union"), ("Shop.Warehouse.Allocation.Urgency", "enum"),
                ("Shop.Warehouse.Allocation.IPriced.PriceCents", "method"),
                ("Shop.Warehouse.Allocation.OrderLine.IPriced", "implementation"),
                ("Shop.Warehouse.Allocation.OrderLine.IPriced.PriceCents", "method"),
                ("Shop.Warehouse.Allocation.UnknownSku", "exception"), ("Shop.Warehouse.Allocation.Pricing", "module"),
                ("Shop.Warehouse.Allocation.Pricing.format.group", "function"),
                ("Shop.Warehouse.Allocation.(|Low|Enough|)", "function"), ("Shop.Warehouse.Allocation.walkUp", "function"),
                ("Shop.Warehouse.Allocation.walkDown", "function"), ("Shop.Warehouse.Allocation.allocate.pick", "function"),
                ("Shop.Warehouse.Allocation.restockPlan.roundUpToPack", "function"),
                ("Shop.Warehouse.Allocation.main", "function")]),
    # ``-module(stock_alerts).`` scopes the forms after it; a function's clauses, one ``fun_decl``
    # each to the grammar, are one definition with its ``-spec``; a fun bound in a body is nested.
    "erlang": ("polyglot_scripts/erlang/stock_alerts.erl",
               [("stock_alerts.digest", "function"), ("stock_alerts", "module"), ("stock_alerts.report", "function"),
                ("stock_alerts.digest.RefillCost", "function"), ("stock_alerts.alerts.Missing", "function"),
                ("stock_alerts.shelf", "record"), ("stock_alerts.alert", "type"), ("stock_alerts.state", "type"),
                ("stock_alerts.deliver", "callback"), ("stock_alerts.CHECK_INTERVAL", "macro")]),
    # No node holds a body: a procedure is its first statement, its code and its ``end``; a
    # ``contains`` section's procedures are its module's, its program's or its procedure's.
    "fortran": ("polyglot_scripts/fortran/stock_forecast.f90",
                [("stock_forecast.plan_reorders", "function"), ("stock_forecast", "module"),
                 ("stock_forecast.sku_t", "type"), ("stock_forecast.demand_model_t", "type"),
                 ("stock_forecast.model_observe", "subroutine"), ("stock_forecast.operator(+)", "interface"),
                 ("stock_forecast.interface", "interface"), ("stock_forecast.interface.adjust_rule", "function"),
                 ("stock_forecast.plan_reorders.round_up_packs", "function"), ("forecast_demo", "program"),
                 ("forecast_demo.notify_buyer", "subroutine")]),
    # C's grammar: an interface block (``uniform FloorPlan { ... } plan;``) is a declaration
    # with a body, a ``block`` named by its block name.
    "glsl": ("polyglot_scripts/glsl/stock_heatmap.frag",
             [("main", "function"), ("Shelf", "struct"), ("FloorPlan", "block"), ("Picking", "block"),
              ("stockLevel", "function"), ("gridLine", "function"), ("main.Hit", "struct")]),
    # Every definition is a list typed by its first symbol (``argument_lists``); ``ns`` scopes
    # what follows; a protocol's signatures and a record's implementations are its methods; a
    # multimethod's implementation is named by its dispatch value too.
    "clojure": ("polyglot_scripts/clojure/restock_planner.clj",
                [("shop.inventory.restock-planner.plan-restock", "function"),
                 ("shop.inventory.restock-planner", "namespace"),
                 ("shop.inventory.restock-planner.Priced", "protocol"),
                 ("shop.inventory.restock-planner.Priced.line-cents", "method"),
                 ("shop.inventory.restock-planner.SupplierPrice", "record"),
                 ("shop.inventory.restock-planner.SupplierPrice.unit-cents", "method"),
                 ("shop.inventory.restock-planner.reorder-qty", "multimethod"),
                 ("shop.inventory.restock-planner.reorder-qty :seasonal", "method"),
                 ("shop.inventory.restock-planner.with-review", "macro"),
                 ("shop.inventory.restock-planner.supplier-of", "function"),
                 ("shop.inventory.restock-planner.default-lead-days", "variable")]),
    # A ``classdef`` is its own body, headed by its first line and its help; the functions of
    # its ``methods`` blocks are its methods (the block's line goes with the first, as a
    # decorator does); a property's ``get.``/``set.`` method is named with its prefix.
    "matlab": ("polyglot_scripts/matlab/StockLedger.m",
               [("StockLedger.pick", "method"), ("StockLedger", "class"), ("StockLedger.StockLedger", "method"),
                ("StockLedger.receive", "method"), ("StockLedger.get.SkuCount", "getter"),
                ("StockLedger.set.Site", "setter"), ("StockLedger.fromCount", "method"), ("StockLedger.record", "method")]),
    # The Lisps beyond Clojure: lists typed by their first symbol (``argument_lists``). Scheme's
    # ``(define (name args) ...)`` names the function in its call list (``name_lists``); an R7RS
    # library's ``(begin ...)`` is opened (``open_calls``), its name its list as written; a
    # ``define`` inside a ``define`` is nested.
    "scheme": ("polyglot_scripts/scheme/cycle_count.sld",
               [("(shop cycle-count).reconcile", "function"), ("(shop cycle-count)", "module"),
                ("(shop cycle-count).count", "record"), ("(shop cycle-count).tolerances", "variable"),
                ("(shop cycle-count).reconcile.latest-per-bin", "function"),
                ("(shop cycle-count).with-upload", "macro"), ("(shop cycle-count).print-report", "function")]),
    # Racket's structs, ``define/contract``, a ``module+ test`` submodule and its definitions.
    "racket": ("polyglot_scripts/racket/order_pricing.rkt",
               [("price-order", "function"), ("price-order.best-saving", "function"), ("line", "struct"),
                ("line-cents", "function"), ("tier-discounts", "variable"), ("with-tier-percent", "macro"),
                ("test", "module"), ("test.cart", "variable")]),
    # Common Lisp: ``in-package`` scopes what follows; the grammar's ``defun`` node is typed by
    # its keyword (``keyword_paths``); a method is named by its qualifiers and specializers; a
    # feature expression (``#+sbcl``) goes with the definition below it.
    "commonlisp": ("polyglot_scripts/commonlisp/pick_waves.lisp",
                   [("shop.picking.build-pick-waves", "function"), ("shop.picking", "package"),
                    ("shop.picking", "namespace"), ("shop.picking.order", "class"),
                    ("shop.picking.pick-line", "struct"), ("shop.picking.overweight-line", "condition"),
                    ("shop.picking.priority", "generic"), ("shop.picking.priority (order)", "method"),
                    ("shop.picking.priority :around (order)", "method"), ("shop.picking.do-zone-lines", "macro"),
                    ("shop.picking.*cart-capacity-grams*", "variable"), ("shop.picking.+rush-priority+", "constant"),
                    ("shop.picking.spool-waves", "function")]),
    # Emacs Lisp: ``defun``/``defmacro`` nodes, ``defvar``/``defconst`` special forms, the rest
    # lists (``defcustom``, ``cl-defstruct``, ``cl-defmethod``, ``define-derived-mode``, ERT).
    "elisp": ("polyglot_scripts/elisp/shop-restock.el",
              [("shop-restock-read-export", "function"), ("shop-restock-with-line", "macro"),
               ("shop-restock", "group"), ("shop-restock-safety-days", "option"),
               ("shop-restock--approved", "variable"), ("shop-restock-columns", "constant"),
               ("shop-restock-line", "struct"), ("shop-restock-describe", "generic"),
               ("shop-restock-describe (shop-restock-line)", "method"), ("shop-restock-mode", "mode"),
               ("shop-restock-quantity-covers-lead-time", "test")]),
    # A rule set is named by its selectors as written; group rules (``@media``, ``@layer``,
    # ``@supports``) by their head, of their at-rule's kind; nested parts joined by `` » ``.
    "css": ("polyglot_scripts/css/checkout.css",
            [(".price-tag \u00bb &.is-discounted \u00bb .price-tag__was", "rule"), (":root", "rule"),
             ("@layer checkout", "layer"), ("@layer checkout \u00bb .cart-line", "rule"),
             ("@media (max-width: 40em)", "media"), ("@media (max-width: 40em) \u00bb .order-total--sticky", "rule"),
             ("@supports not (display: grid)", "supports"), ("stock-drop", "keyframes"), ("@font-face", "font-face"),
             (".order-total, .order-total--sticky", "rule"), ('.stock-badge[data-level="ok"]', "rule"),
             (".price-tag \u00bb .price-tag__currency::after", "rule")]),
    # ``function(name ...)`` and ``macro(name ...)`` are named by their first argument; a
    # function defined in a function's body is nested in it.
    # A program, its divisions and sections; paragraphs in their section, level-01 records.
    "cobol": ("polyglot_scripts/cobol/PICKPAY.cbl",
              [("PICKPAY", "program"), ("PICKPAY.PROCEDURE DIVISION.3000-PAY", "section"),
               ("PICKPAY.PROCEDURE DIVISION.3000-PAY.3000-CALC-WEEK-PAY", "paragraph"),
               ("PICKPAY.DATA DIVISION.WORKING-STORAGE SECTION.WS-PICKER-WEEK", "record")]),
    "cmake": ("polyglot_scripts/cmake/cmake/StockTools.cmake",
              [("stock_embed_price_table._stock_cents", "function"), ("stock_embed_price_table", "function"),
               ("stock_add_tool", "function"), ("stock_strict_warnings", "function"), ("stock_low_mark", "macro")]),
    # Mixins and functions by their names; placeholders and nested rules (``&__title``) too.
    "scss": ("polyglot_scripts/scss/_shelf-labels.scss",
             [("price-block \u00bb &.is-promotion \u00bb .price__was", "rule"), ("price-block", "mixin"),
              ("mm-to-pt", "function"), ("title-size", "function"), ("%label-frame", "rule"),
              (".shelf-label \u00bb &__title", "rule"),
              (".shelf-label \u00bb &--organic \u00bb .shelf-label__title::before", "rule"),
              ("price-block \u00bb @media screen", "media"), ("@media print \u00bb .sheet", "rule"),
              ("preview-flash", "keyframes")]),
    # A module (interface, package) is its own body, headed by its ports to their ``;``; an
    # ``always`` block is named by its ``begin : label``, else by its head; a labelled generate
    # loop holds what it generates; a function's ``function_body_declaration`` is its own body.
    "verilog": ("polyglot_scripts/verilog/conveyor_sorter.sv",
                [("conveyor_sorter.track", "always"), ("conveyor_sorter", "module"), ("sorter_pkg", "package"),
                 ("sorter_pkg.chute_for", "function"), ("sorter_pkg.parcel_t", "type"), ("scan_if", "interface"),
                 ("scan_if.offer", "task"), ("SORTER_CHUTES", "macro"), ("conveyor_sorter.next_state", "always"),
                 ("conveyor_sorter.chute", "generate"),
                 ("conveyor_sorter.chute.always_ff @(posedge clk or negedge rst_n)", "always"),
                 ("conveyor_sorter.always @(posedge clk)", "always"), ("eye_filter", "module"),
                 ("eye_filter.always @(posedge clk)", "always")]),
    # An architecture is named under its entity (``scale_reporter.rtl``); a process by its label;
    # a package body by its package; its declarations and statements are its members.
    "vhdl": ("polyglot_scripts/vhdl/scale_reporter.vhd",
             [("scale_reporter.rtl.send_frame", "process"), ("scale_reporter", "entity"),
              ("scale_reporter.rtl", "architecture"), ("scale_pkg", "package"), ("scale_pkg", "package_body"),
              ("scale_pkg.to_digits", "function"), ("scale_pkg.grams_t", "subtype"), ("scale_pkg.digits_t", "type"),
              ("scale_reporter.rtl.uart_byte_tx", "component"), ("scale_reporter.rtl.net", "function"),
              ("scale_reporter.rtl.debounce", "process"), ("scale_reporter.rtl.bar", "generate")]),
    # Bazel's macros and a rule's implementation: Python's spec, read by Python's grammar.
    "starlark": ("polyglot_scripts/bazel/shop_rules.bzl",
                 [("shop_cc_library", "function"), ("_warehouse_define", "function"), ("shop_cc_test", "function"),
                  ("_price_table_impl", "function")]),
    # Groovy's types, methods, a constructor and named closures, read from each statement's head.
    "groovy": ("polyglot_scripts/groovy/ParcelDispatch.groovy",
               [("Carrier", "enum"), ("Carrier.Carrier", "method"), ("Audited", "trait"), ("Audited.sign", "method"),
                ("DispatchService", "class"), ("DispatchService.onWeighed", "method"),
                ("DispatchService.planWave", "method"), ("LabelPrinter", "interface"), ("replan", "function"),
                ("printBacklog", "function")]),
    # Apex: a class's inner class, enum, properties (``{ get; set; }``), constructor and methods.
    "apex": ("polyglot_scripts/apex/StockReservationService.cls",
             [("StockReservationService.reserveOrders", "method"), ("StockReservationService", "class"),
              ("StockReservationService.Shortfall", "class"), ("StockReservationService.Shortfall.missing", "method"),
              ("StockReservationService.ShortReason", "enum"), ("StockReservationService.shortfalls", "property"),
              ("StockReservationService.StockReservationService", "method")]),
    # A flake's bindings by their attribute paths as written, through ``outputs``' function and
    # its ``let``; a set handed to a builder is a ``derivation``.
    "nix": ("polyglot_scripts/nix/flake.nix",
            [("outputs.packages.stock-api", "derivation"), ("inputs", "attrset"), ("inputs.printer-tools", "attrset"),
             ("outputs", "function"), ("outputs.mkPrinterBox", "function"), ("outputs.thresholds", "attrset"),
             ("outputs.overlays.default", "function"), ("outputs.packages.label-bridge", "derivation"),
             ("outputs.nixosConfigurations.stock-lyon-1", "attrset"), ("outputs.devShells.default", "derivation")]),
    # A package body's subprograms, protected body (its entries), task body and instantiations,
    # under the package's dotted name.
    "ada": ("polyglot_scripts/ada/conveyor-control.adb",
            [("Conveyor.Control.Divert", "procedure"), ("Conveyor.Control", "package"),
             ("Conveyor.Control.Is_Full", "function"), ("Conveyor.Control.Parcel_Queue", "protected"),
             ("Conveyor.Control.Parcel_Queue.Put", "entry"), ("Conveyor.Control.Sorter", "task"),
             ("Conveyor.Control.Smoothing.Push", "procedure"), ("Conveyor.Control.Count_IO", "package")]),
    # A unit holds its interface's types and its implementation's routines (both sections read
    # through); a method implemented as ``procedure TStockLedger.Receive`` is named so, under the
    # unit; routines are of their keyword's kind, nested ones nested.
    "pascal": ("polyglot_scripts/pascal/StockLedger.pas",
               [("StockLedger", "unit"), ("StockLedger.TStockLedger", "class"), ("StockLedger.TBinCode", "record"),
                ("StockLedger.IDeliveryNote", "interface"), ("StockLedger.TMoveReason", "enum"),
                ("StockLedger.TStockLedger.PickWave", "method"), ("StockLedger.TStockLedger.Create", "constructor"),
                ("StockLedger.TStockLedger.Destroy", "destructor"), ("StockLedger.TBinCode.Parse", "method"),
                ("StockLedger.TStockLedger.PickWave.ReorderPointOf", "function"),
                ("StockLedger.TStockLedger.PickWave.Warn", "procedure")]),
}

# The breadcrumb line's comment syntax per language ("//" for the rest).
COMMENT_PREFIXES = {
    "python": "#", "ruby": "#", "bash": "#", "lua": "--", "graphql": "#", "hcl": "#", "haskell": "--", "julia": "#",
    "r": "#", "perl": "#", "elixir": "#", "powershell": "#", "ocaml": "(*", "ocaml_interface": "(*", "erlang": "%", "fortran": "!", "clojure": ";;", "css": "/*", "scss": "/*", "matlab": "%",
    "scheme": ";;", "racket": ";;", "commonlisp": ";;", "elisp": ";;",
    "cmake": "#", "vhdl": "--", "starlark": "#", "nix": "#", "ada": "--", "cobol": "*>",
}  # fmt: skip


def test_every_code_language_has_a_case() -> None:
    assert set(LANGUAGE_CASES) == set(CODE_LANGUAGES)


@pytest.mark.parametrize("language", sorted(LANGUAGE_CASES))
def test_definitions_and_breadcrumbs(language: str) -> None:
    rel, expected = LANGUAGE_CASES[language]
    prep = _prep(rel)
    assert prep.doc.language == language
    found = {(d.symbol, d.kind) for d in list_definitions(prep)}
    for item in expected:
        assert item in found, (item, sorted(found)[:40])
    # The same breadcrumbs reach the chunks, in the language's comment syntax.
    chunks = chunk_document(prep, ChunkSettings(budget=80), "syntax")
    symbols = " ".join(c.symbol for c in chunks)
    leaf = expected[0][0].rpartition(".")[2]
    assert leaf in symbols
    comment = COMMENT_PREFIXES.get(language, "//")
    assert all(c.embed_text.startswith(f"{comment} {rel} :: ") for c in chunks)


def test_whole_definition_with_decorators_and_comments() -> None:
    prep = _prep("py_inventory/inventory/resilience.py")
    chunks = chunk_document(prep, ChunkSettings(merge_siblings=False), "syntax")
    zone = next(c for c in chunks if c.symbol == "zone_for_aisle")
    assert zone.text.startswith("@lru_cache(maxsize=512)")
    assert zone.kind == "function" and zone.parts == 1


def test_large_class_becomes_header_plus_members() -> None:
    prep = _prep("py_inventory/inventory/ledger.py")
    chunks = chunk_document(prep, ChunkSettings(), "syntax")
    header = next(c for c in chunks if c.kind == "class_header" and c.symbol == "InventoryLedger")
    assert header.text.startswith("class InventoryLedger")
    assert '"""' in header.text, "the docstring stays with the class header"
    assert "members of InventoryLedger" in header.header and "reserve" in header.header
    members = [c for c in chunks if c.parent_id == header.id]
    assert len(members) >= 5
    assert all(c.header.startswith("class InventoryLedger") for c in members)
    assert any(c.symbol.startswith("InventoryLedger.") for c in members)


def test_long_function_is_packed_into_parts_with_its_signature() -> None:
    prep = _prep("py_inventory/inventory/reconcile.py")
    chunks = chunk_document(prep, ChunkSettings(), "syntax")
    parts = [c for c in chunks if c.symbol == "reconcile_cycle_count"]
    assert len(parts) >= 3
    assert [c.part for c in parts] == list(range(1, len(parts) + 1))
    assert all(c.parts == len(parts) for c in parts)
    assert parts[0].text.lstrip().startswith("def reconcile_cycle_count(")
    for part in parts[1:]:
        assert part.header.startswith("def reconcile_cycle_count(")
        assert part.parent_id == parts[0].id
        assert part.size <= 254


_LONG_COMMENT = "\n".join(f"{{mark}} note {i}: what the code below does, and why, in some detail" for i in range(30))


@pytest.mark.parametrize(
    ("language", "path", "source", "kind", "signature"),
    [
        ("python", "m.py", _LONG_COMMENT.format(mark="#") + "\ndef process(a, b):\n"
         + "\n".join(f"    x{i} = a + {i} * b" for i in range(40)) + "\n    return x1\n", "function", "def process(a, b):"),
        ("java", "Big.java", _LONG_COMMENT.format(mark="//") + "\npublic class Big {\n    private int a;\n"
         + "".join(f"    public int f{i}() {{ return a + {i}; }}\n" for i in range(30)) + "}\n",
         "class_header", "public class Big"),
    ],
    ids=["python", "java"],
)
def test_a_head_too_big_for_one_chunk_is_numbered_parts(language, path, source, kind, signature) -> None:
    # Comments above a definition that alone exceed the budget: every piece of the head is a part
    # of the definition (numbered, the signature repeated), not a string of "part 1 of 1"s.
    prep = prepare(path, language, source)
    chunks = chunk_document(prep, ChunkSettings(unit="chars", budget=600), "syntax")
    assert_slices_true(prep, chunks)
    assert_lossless(prep, chunks)
    parts = [c for c in chunks if c.kind == kind]
    assert len(parts) >= 4
    assert [c.part for c in parts] == list(range(1, len(parts) + 1))
    assert all(c.parts == len(parts) for c in parts)
    assert parts[0].start_line == 1 and parts[0].parent_id is None
    for part in parts[1:]:
        assert part.parent_id == parts[0].id
        # (The part that holds the signature's own line does not repeat it above: it said it twice.)
        assert part.header == ("" if signature in part.text else signature), (part.header, part.text[:80])
        assert part.size <= 600
    assert sum(signature in part.text for part in parts) == 1


def test_a_definition_that_fits_without_its_comments_stays_whole_after_them() -> None:
    # A small class under a javadoc too long to share its chunk was split into header parts
    # and members: its comments are now its leading parts, each under its signature, and the
    # class is whole in its last part (a javadoc a blank line above it joins it the same way).
    body = "public class Big {\n    private int a;\n    public int f() { return a + 1; }\n}\n"
    source = _LONG_COMMENT.format(mark="//") + "\n" + body
    javadoc = "/**\n" + _LONG_COMMENT.format(mark=" *") + "\n */\n\n" + body
    for text in (source, javadoc):
        chunks = _syntax("Big.java", "java", text, unit="chars", budget=600)
        parts = [c for c in chunks if c.symbol == "Big"]
        assert [c.part for c in parts] == list(range(1, len(parts) + 1)) and len(parts) >= 3
        assert all(c.kind == "class" and c.parts == len(parts) for c in parts)
        assert parts[0].parent_id is None and all(c.parent_id == parts[0].id for c in parts[1:])
        assert all(c.header == "public class Big" for c in parts[:-1])
        last = parts[-1]  # the class whole, after the comments' last piece that fits beside it
        # (Under no header: it holds the signature, which a header said a second time.)
        assert "\npublic class Big {\n" in last.text and last.text.endswith("}") and last.header == ""
        assert len(chunks) == len(parts)
    # Not when the definition alone is too big: then its head takes the comments, as before.
    big = source.replace("    private int a;\n", "".join(f"    private int a{i} = {i};\n" for i in range(40)))
    chunks = _syntax("Big.java", "java", big, unit="chars", budget=600)
    assert any(c.kind == "class_header" for c in chunks)


def test_a_split_method_under_annotations_says_its_signature_once_and_above_its_docs() -> None:
    # A javadoc and annotations filling the first part: that part was under the class's
    # signature, and the next (the signature's line alone) repeated it in its header. A doc
    # comment cut in two, its last piece holding the method whole, said the signature twice too.
    text = ("@Service\npublic class InvoiceService implements AutoCloseable {\n    /**\n"
            "     * Issues an invoice for an order, once.\n     *\n     * @param order the completed order\n"
            "     * @return the invoice, new or already issued\n     */\n    @Transactional\n    @Override\n"
            "    public synchronized Invoice issue(Order order, Rounding rounding) {\n"
            "        Objects.requireNonNull(order, \"order\");\n        Invoice existing = issued.get(order.id());\n"
            "        if (existing != null) {\n            return existing;\n        }\n"
            "        return rounding.apply(existing);\n    }\n}\n")
    parts = [c for c in _syntax("E.java", "java", text, unit="chars", budget=300) if c.symbol == "InvoiceService.issue"]
    signature = "public synchronized Invoice issue(Order order, Rounding rounding)"
    assert parts[0].text.lstrip().startswith("/**") and parts[0].header.endswith(signature)
    for part in parts[1:]:
        assert (signature in part.text) != (signature in part.header), (part.part, part.header)


_SWIFT_ACCESSORS = """struct Cart {
    var items: [Int] = []

    var total: Int {
        get {
            var sum = 0
            for item in items {
                sum += item
            }
            let discount = sum > 100 ? 10 : 0
            let shipping = sum > 50 ? 0 : 5
            return sum - discount + shipping
        }
        set {
            let share = newValue / max(items.count, 1)
            var updated: [Int] = []
            for _ in items {
                updated.append(share)
            }
            items = updated
        }
    }
    var stock = 0 {
        didSet {
            let change = stock - oldValue
            print("stock moved by", change)
            if stock < 5 { print("low stock: reorder soon") }
        }
    }
}
"""


@pytest.mark.parametrize(("symbol", "signature"), [("Cart.total", "var total: Int"), ("Cart.stock", "var stock = 0")])
def test_swift_accessors_over_the_budget_are_parts_under_the_property(symbol, signature) -> None:
    # A computed property's ``{ get {...} set {...} }`` (and ``didSet``) is its body: split, its
    # accessors' statements are numbered parts under the declaration, not a string of "1 of 1"s
    # without it.
    prep = prepare("Cart.swift", "swift", _SWIFT_ACCESSORS)
    chunks = chunk_document(prep, ChunkSettings(unit="chars", budget=200), "syntax")
    assert_slices_true(prep, chunks)
    assert_lossless(prep, chunks)
    parts = [c for c in chunks if c.symbol == symbol]
    assert len(parts) >= 2 and all(c.kind == "property" for c in parts)
    assert [c.part for c in parts] == list(range(1, len(parts) + 1))
    assert all(c.parts == len(parts) for c in parts)
    assert parts[0].text.lstrip().startswith(signature)
    for part in parts[1:]:
        assert part.header == signature and part.parent_id == parts[0].id


@pytest.mark.parametrize("rel", ["py_inventory/inventory/reconcile.py", "jvm_billing/src/main/kotlin/billing/TaxRules.kt",
                                 "polyglot_scripts/csharp/OrderQueue.cs", "polyglot_scripts/php/Cart.php",
                                 "polyglot_scripts/objc/ShelfLabels.mm", "polyglot_scripts/powershell/Sync-StockLevels.ps1"])
@pytest.mark.parametrize("budget", [150, 300, 600])
def test_no_two_neighbouring_parts_would_fit_in_one(rel: str, budget: int) -> None:
    # Each way of cutting a definition (its head, packed statements, a statement split by its
    # children) used to start a part of its own: a signature alone in part 1, a closing brace
    # alone in the last, beside a part with room for it.
    prep = _prep(rel)
    chunks = chunk_document(prep, ChunkSettings(unit="chars", budget=budget), "syntax")
    assert_lossless(prep, chunks)
    ordered = sorted(chunks, key=lambda c: c.start_byte)
    for before, after in zip(ordered, ordered[1:]):
        if (before.symbol, before.parts) != (after.symbol, after.parts) or after.part != before.part + 1:
            continue
        if before.flags or after.flags or before.kind == "class_header":  # a head keeps room for its summary
            continue
        together = len(before.embed_text) + len(prep.doc.slice(before.end_byte, after.end_byte))
        assert together > budget, (before.symbol, before.part, before.start_line, after.end_line)


_KOTLIN_ACCESSORS = """class Screen(context: Context) : ViewGroup(context) {
    var isStatusBarHidden: Boolean? = null
        set(value) {
            if (value != null) {
                WindowTraits.applyDidSetStatusBarAppearance()
            }
            field = value
            fragment?.let { WindowTraits.setHidden(this, it.activity) }
        }

    val headerHeight: Int
        get() {
            val density = resources.displayMetrics.density
            return (56 * density).toInt()
        }

    val title: String get() = "screen"

    fun show() {
        visibility = VISIBLE
    }
}
"""


def test_kotlin_properties_with_accessors_are_definitions_split_under_their_declaration() -> None:
    # The grammar leaves an accessor on the lines below its ``var`` beside the declaration: it
    # was a loose statement of the class, the declaration another, and neither was listed.
    prep = prepare("Screen.kt", "kotlin", _KOTLIN_ACCESSORS)
    found = {d.symbol: (d.kind, d.first, d.last) for d in list_definitions(prep)}
    assert found["Screen.isStatusBarHidden"] == ("property", 2, 9)
    assert found["Screen.headerHeight"] == ("property", 11, 15)
    assert found["Screen.title"] == ("property", 17, 17)
    whole = chunk_document(prep, ChunkSettings(unit="chars", budget=400), "syntax")
    assert [(c.kind, c.start_line, c.end_line) for c in whole if c.symbol == "Screen.isStatusBarHidden"] == [("property", 2, 9)]
    chunks = chunk_document(prep, ChunkSettings(unit="chars", budget=150), "syntax")
    assert_slices_true(prep, chunks)
    assert_lossless(prep, chunks)
    parts = [c for c in chunks if c.symbol == "Screen.isStatusBarHidden"]
    assert len(parts) >= 3 and [c.part for c in parts] == list(range(1, len(parts) + 1))
    for part in parts[1:]:
        assert part.header == "var isStatusBarHidden: Boolean? = null" and part.parent_id == parts[0].id


_SCALA3_DOCS = """object Flags:

  def first(using Context): Boolean =
    ctx.settings.first.value

  /** Is the second flag on?
   *  It depends on the first.
   */
  def second(using Context): Boolean =
    if first then
      ctx.settings.second.value
    else
      false

  // the third one
  def third(using Context): Boolean =
    !second
end Flags
"""


@pytest.mark.parametrize("budget", [60, 150, 300])
def test_a_scala3_doc_comment_goes_with_the_def_below_it_not_the_one_above(budget: int) -> None:
    # The grammar keeps an indented body open up to the next line indented less than it, so the
    # doc comment of the next ``def`` ends the body of the one before: it was chunked with it.
    prep = prepare("Flags.scala", "scala", _SCALA3_DOCS)
    spans = {d.symbol: (d.first, d.last) for d in list_definitions(prep)}
    assert spans["Flags.first"] == (3, 4) and spans["Flags.second"] == (9, 13) and spans["Flags.third"] == (16, 17)
    chunks = chunk_document(prep, ChunkSettings(unit="chars", budget=budget), "syntax")
    assert_slices_true(prep, chunks)
    assert_lossless(prep, chunks)
    assert all(c.end_line <= 4 for c in chunks if c.symbol == "Flags.first")
    doc, comment = [c for c in chunks if c.start_line <= 6 <= c.end_line], [c for c in chunks if c.start_line <= 15 <= c.end_line]
    assert all(c.symbol == "Flags.second" for c in doc) and all(c.symbol == "Flags.third" for c in comment)


def test_a_repeated_signature_of_several_lines_reads_as_written_not_shifted() -> None:
    # The signature's first line starts at the definition (past its indentation): the lines
    # after it lose the same indentation, so they keep their place relative to the first.
    body = "\n".join(f"        total += {i} * rate" for i in range(40))
    source = (
        "class Ledger:\n    def settle(\n        self,\n        rate: float,\n    ) -> float:\n"
        f"        total = 0.0\n{body}\n        return total\n"
    )
    chunks = chunk_document(prepare("l.py", "python", source), ChunkSettings(unit="chars", budget=400), "syntax")
    parts = [c for c in chunks if c.symbol == "Ledger.settle"]
    assert len(parts) >= 3
    assert all(p.header == "def settle(\n    self,\n    rate: float,\n) -> float:" for p in parts[1:])


def test_comments_alone_above_a_definition_go_with_it_not_into_a_chunk_of_their_own() -> None:
    # A section title or a note cut off from the definition below by a blank line made a chunk
    # of comments alone (782 of the stdlib's 23,217): no answer to any question.
    source = (
        "import os\n\n\ndef helper():\n    return os.sep\n\n\n"
        "# ---- positioning ----\n# (what the functions below share)\n\ndef seek(pos):\n    return pos\n"
    )
    chunks = chunk_document(prepare("m.py", "python", source), ChunkSettings(unit="chars", budget=400), "syntax")
    assert [(c.kind, c.symbol, c.start_line, c.end_line) for c in chunks] == [
        ("module", "<module>", 1, 1), ("function", "helper", 4, 5), ("function", "seek", 8, 12)
    ]
    # Not when they do not fit together: the comments then stay a chunk of their own.
    small = chunk_document(prepare("m.py", "python", source), ChunkSettings(unit="chars", budget=60), "syntax")
    assert ("seek", 11) in {(c.symbol, c.start_line) for c in small}


def test_rust_trait_impls_are_named_as_rust_paths_write_them() -> None:
    # ``impl Debug for Error`` and ``impl Display for Error`` were both ``Error``, their methods
    # both ``Error.fmt``; a reference's ``&'a`` stayed in the name. The reference itself stays:
    # the impls for ``Bag``, ``&Bag`` and ``&mut Bag`` are three (they were one name, thrice).
    source = (
        "impl Debug for Error {\n    fn fmt(&self) {}\n}\nimpl fmt::Display for Error {\n    fn fmt(&self) {}\n}\n"
        "impl Error {\n    fn new() {}\n}\nimpl<'de, 'a, E> IntoDeserializer<'de, E> for &'a str {\n    fn into(self) {}\n}\n"
        "impl<T> IntoIterator for Bag<T> {\n    fn into_iter(self) {}\n}\n"
        "impl<'a, T> IntoIterator for &'a Bag<T> {\n    fn into_iter(self) {}\n}\n"
        "impl<'a, T> IntoIterator for &'a mut Bag<T> {\n    fn into_iter(self) {}\n}\n"
        "impl Error for dyn Source {\n    fn new() {}\n}\n"
        "impl<'a> Display for &'a dyn Source {\n    fn fmt(&self) {}\n}\n"
    )
    found = [(d.symbol, d.kind) for d in list_definitions(prepare("lib.rs", "rust", source))]
    assert found == [
        ("<Error as Debug>", "impl"), ("<Error as Debug>.fmt", "method"),
        ("<Error as Display>", "impl"), ("<Error as Display>.fmt", "method"),
        ("Error", "impl"), ("Error.new", "method"),
        ("<&str as IntoDeserializer>", "impl"), ("<&str as IntoDeserializer>.into", "method"),
        ("<Bag as IntoIterator>", "impl"), ("<Bag as IntoIterator>.into_iter", "method"),
        ("<&Bag as IntoIterator>", "impl"), ("<&Bag as IntoIterator>.into_iter", "method"),
        ("<&mut Bag as IntoIterator>", "impl"), ("<&mut Bag as IntoIterator>.into_iter", "method"),
        ("<Source as Error>", "impl"), ("<Source as Error>.new", "method"),
        ("<&Source as Display>", "impl"), ("<&Source as Display>.fmt", "method"),
    ]


def test_a_cpp_name_qualified_across_lines_is_named() -> None:
    # libstdc++ writes ``basic_string<_CharT, _Traits>::`` on one line and ``swap(...)`` on the
    # next: a name holding a line break was refused, and the method was ``<function_definition>``.
    source = (
        "namespace std {\n  template<typename C, typename T>\n    void\n    basic_string<C, T>::\n"
        "    swap(basic_string& s) noexcept\n    {\n      s.clear();\n    }\n}\n"
    )
    found = [(d.symbol, d.kind) for d in list_definitions(prepare("basic_string.tcc", "cpp", source))]
    assert found == [("std", "namespace"), ("std.basic_string.swap", "method")]


def test_a_rust_mod_declaration_is_no_definition() -> None:
    source = "mod backtrace;\nmod chain;\nuse std::fmt;\n\npub mod inner {\n    pub fn f() {}\n}\n"
    found = {(d.symbol, d.kind) for d in list_definitions(prepare("lib.rs", "rust", source))}
    assert found == {("inner", "module"), ("inner.f", "function")}


_LONG_DOC = "public interface Store<K, V> {\n" + "".join(
    f"    /** Line {i} of what remove does with the key, in some detail. */\n" for i in range(12)
) + "    V remove(Object key);\n\n    int size();\n}\n"


def test_a_definition_without_a_body_over_the_budget_is_numbered_parts_under_its_signature() -> None:
    # An interface method under a long doc comment (a type alias, a macro) has no body to pack:
    # its pieces were each "part 1 of 1", linked to the class, none naming the method.
    prep = prepare("Store.java", "java", _LONG_DOC)
    chunks = chunk_document(prep, ChunkSettings(unit="chars", budget=400), "syntax")
    assert_lossless(prep, chunks)
    parts = [c for c in chunks if c.symbol == "Store.remove"]
    assert len(parts) >= 2 and [c.part for c in parts] == list(range(1, len(parts) + 1))
    # The doc's pieces are under the signature they document; the method itself is in the last
    # (under no header: it holds the signature).
    assert all(c.parts == len(parts) for c in parts) and parts[-1].header == ""
    assert all(c.header == "V remove(Object key);" for c in parts[:-1])
    assert parts[-1].text.endswith("    V remove(Object key);")
    assert all(c.parent_id == parts[0].id for c in parts[1:])


def test_a_long_signature_gives_way_to_its_naming_line_rather_than_cut_body_lines() -> None:
    # A six-line signature repeated in full left no room for the body's ordinary lines: they
    # were cut mid-word ("invalida" / "ted"). Its line naming the function stands for it.
    params = "".join(f"        argument_number_{i}: int = 0,\n" for i in range(5))
    comment = "# a plainly ordinary line of code, if long, and a little longer still"
    body = "".join(f"        value = value + argument_number_{i % 5} * {i} + offset  {comment}\n" for i in range(12))
    source = f"class Cache:\n    def get_or_create(\n        self,\n{params}    ) -> int:\n        value = 0\n{body}        return value\n"
    chunks = chunk_document(prepare("c.py", "python", source), ChunkSettings(unit="chars", budget=300), "syntax")
    parts = [c for c in chunks if c.symbol == "Cache.get_or_create"]
    assert len(parts) >= 3 and not any("split_line" in c.flags for c in parts)
    assert all(c.header == "def get_or_create(" for c in parts[1:])


def test_a_signature_too_long_to_leave_the_parts_room_gives_way_to_its_naming_line_too() -> None:
    # click's ``open_stream`` at 200 chars: the whole signature left the parts less than a fifth
    # of the budget, so it was folded to one line and cut mid-parameter ("..., atomic:"), which
    # left ordinary lines no room: 22 parts, 9 of them pieces of a line cut in two.
    params = "".join(f"    {name}: str | None = None,\n" for name in ("filename", "mode", "encoding", "errors", "atomic"))
    body = "".join(f"    flags_{i} = os.O_RDWR | os.O_CREAT | os.O_EXCL | {i}\n" for i in range(12))
    source = f"def open_stream(\n{params}) -> tuple[t.IO[t.Any], bool]:\n{body}    return flags_0\n"
    chunks = chunk_document(prepare("c.py", "python", source), ChunkSettings(unit="chars", budget=200), "syntax")
    assert not any("split_line" in c.flags for c in chunks)
    assert all(c.header == "def open_stream(" for c in chunks if c.part > 1) and len(chunks) <= 8


_GUARDED_PY = """import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Iterator

try:
    from functools import cache
except ImportError:  # Python < 3.9
    def cache(func):
        return func


if sys.version_info >= (3, 12):
    def batched(iterable, n):
        return iter(iterable)
else:
    from itertools import batched


class Path:
    def __init__(self, raw):
        self.raw = raw

    if sys.version_info >= (3, 13):

        def full_match(self, pattern):
            return self.raw == pattern
"""


def test_python_definitions_under_if_and_try_are_definitions_their_guard_above_them() -> None:
    # A fallback under ``except ImportError:``, a version-gated function or method: they were
    # plain statements of a module chunk, unnamed, sometimes cut across two chunks.
    prep = prepare("compat.py", "python", _GUARDED_PY)
    found = {d.symbol: (d.kind, d.first, d.last) for d in list_definitions(prep)}
    assert found["cache"] == ("function", 9, 11)  # with its ``except ImportError:``
    assert found["batched"] == ("function", 14, 16)
    assert found["Path.full_match"] == ("method", 25, 28)
    chunks = chunk_document(prep, ChunkSettings(unit="chars", budget=4000), "syntax")
    assert_lossless(prep, chunks)
    small = chunk_document(prep, ChunkSettings(unit="chars", budget=120), "syntax")
    assert_slices_true(prep, small)
    assert_lossless(prep, small)
    by_symbol = {c.symbol: c for c in reversed(small)}  # each symbol's first chunk
    assert by_symbol["cache"].text.startswith("except ImportError:")
    assert by_symbol["Path.full_match"].text.lstrip().startswith("if sys.version_info >= (3, 13):")
    # ``try:`` heads the block below it, never the end of the chunk above it.
    assert not any(c.text.rstrip().endswith("try:") for c in small)


def test_python_definitions_in_a_guarded_block_before_a_nested_if_are_definitions() -> None:
    # multiprocessing/context.py: a nested ``if`` after the classes of a guarded block made
    # every statement before it a "head" of the block: six classes were plain module lines.
    source = ("import sys\n\nif sys.platform != 'win32':\n\n    class ForkProcess:\n        method = 'fork'\n\n"
              "    class SpawnProcess:\n        method = 'spawn'\n\n    if sys.platform == 'darwin':\n"
              "        default = 'spawn'\n    else:\n        default = 'fork'\n")
    prep = prepare("context.py", "python", source)
    found = {d.symbol: (d.kind, d.first, d.last) for d in list_definitions(prep)}
    assert found["ForkProcess"] == ("class", 3, 6)  # under its ``if`` head
    assert found["SpawnProcess"] == ("class", 8, 9)
    chunks = _syntax("context.py", "python", source, unit="chars", budget=4000)
    assert [c.symbol for c in chunks if c.kind == "class"] == ["ForkProcess", "SpawnProcess"]


def test_nested_definitions_in_a_split_function_keep_full_breadcrumbs() -> None:
    prep = _prep("py_inventory/inventory/resilience.py")
    chunks = chunk_document(prep, ChunkSettings(budget=60, merge_siblings=False), "syntax")
    assert any(c.symbol == "retry.decorator.wrapper" for c in chunks) or any(
        c.symbol == "retry.decorator" for c in chunks
    )


def test_merge_siblings_packs_small_definitions() -> None:
    prep = _prep("py_inventory/inventory/models.py")
    merged = chunk_document(prep, ChunkSettings(merge_siblings=True), "syntax")
    alone = chunk_document(prep, ChunkSettings(merge_siblings=False), "syntax")
    assert len(merged) < len(alone)
    assert any("{" in c.symbol for c in merged), "a merged chunk names its members"


def test_non_ascii_offsets_are_bytes_and_text_is_exact() -> None:
    prep = _prep("py_inventory/inventory/i18n_labels.py")
    assert not prep.doc.is_ascii
    chunks = chunk_document(prep, ChunkSettings(budget=60, merge_siblings=False), "syntax")
    assert_slices_true(prep, chunks)
    assert_lossless(prep, chunks)
    symbols = {c.symbol for c in chunks}
    assert "größe_berechnen" in symbols and "在庫ラベル" in symbols


_CLOSED_EARLY = """class Fragment(private val screen: Screen) {
    fun setTranslucent(translucent: Boolean) {
        if (!screen.usesFormSheet()) {
            val params = screen.layoutParams
            (params as LayoutParams).behavior =
                if (translucent) null else Behavior()
        } else {
            log("skipping")
        }
    }

    fun first(): Int {
        return 1
    }
}
"""


def test_what_a_block_closed_early_left_outside_it_is_marked_damaged() -> None:
    # Valid Kotlin the grammar misreads: it supplies a "}" (MISSING) inside the function, so
    # the class's later methods are read outside the class, and the class's own "}" turns up
    # unmatched (ERROR). Those methods' breadcrumbs are wrong: their chunks must say damaged,
    # not only the two lines in error.
    prep = prepare("Frag.kt", "kotlin", _CLOSED_EARLY)
    chunks = chunk_document(prep, ChunkSettings(unit="chars", budget=4000), "syntax")
    assert_slices_true(prep, chunks)
    assert_lossless(prep, chunks)
    first = [c for c in chunks if c.start_line <= 12 <= c.end_line]
    assert first and all("damaged" in c.flags for c in first)
    assert not any(c.fallback for c in chunks)  # a few tokens in error: chunked, not windowed


# Valid C++ in libstdc++'s style (a macro line above a templated constructor) that the grammar
# misreads: the constructor's head is an ERROR, and it and the operator after it are read as
# one function named ``operator=``.
_MISREAD_MEMBER = """namespace kit {
  /// A row of values of different types, stored in order.
  template<typename... Ts>
    class record : public record_base<0, Ts...>
    {
      typedef record_base<0, Ts...> base_type;

      template<typename Alloc, typename... Us,
               bool Ok = accepts<Us...>()>
        KIT_CONSTEXPR
        record(alloc_tag tag, const Alloc& alloc, Us&&... values)
        : base_type(tag, alloc, kit::forward<Us>(values)...)
        { }

      KIT_CONSTEXPR
      record&
      operator=(record&& other)
      {
        this->assign(kit::move(other));
        return *this;
      }

      KIT_CONSTEXPR
      void
      swap(record& other)
      { base_type::swap(other); }
    };
}
"""


@pytest.mark.parametrize("budget", [200, 400])
def test_a_definition_named_past_an_error_in_its_head_is_damaged_throughout(budget: int) -> None:
    # Only the chunks over the ERROR's own lines said so; the misread definition's other parts
    # (its template line, the operator's body) looked sound under a wrong name.
    chunks = _syntax("record.hpp", "cpp", _MISREAD_MEMBER, unit="chars", budget=budget)
    misread = [c for c in chunks if c.symbol == "kit.record.operator="]
    assert misread and any(c.start_line <= 8 for c in misread) and any(c.end_line >= 21 for c in misread)
    assert all("damaged" in c.flags for c in misread)
    # The sound members and the class's head are not.
    assert all("damaged" not in c.flags for c in chunks if c.symbol in ("kit.record", "kit.record.swap"))


def test_an_error_after_a_definitions_name_does_not_damage_it_throughout() -> None:
    # libstdc++'s ``namespace std _GLIBCXX_VISIBILITY(default)``: the macro is an ERROR, the
    # name before it is sound, and so are the namespace's members.
    source = "namespace kit KIT_VISIBILITY(default)\n{\n" + "".join(
        f"  int area_{i}(int w, int h)\n  {{\n    return w * h + {i};\n  }}\n\n" for i in range(6)
    ) + "}\n"
    chunks = _syntax("kit.hpp", "cpp", source, unit="chars", budget=120)
    assert [c.symbol for c in chunks if c.kind == "function"] == [f"kit.area_{i}" for i in range(6)]
    assert not any("damaged" in c.flags for c in chunks if c.kind == "function")


def test_broken_code_is_chunked_around_damage() -> None:
    prep = _prep("py_inventory/inventory/broken_import.py")
    chunks = chunk_document(prep, ChunkSettings(budget=80), "syntax")
    assert_lossless(prep, chunks)
    assert any("damaged" in c.flags for c in chunks)
    assert any(c.fallback is None and "damaged" not in c.flags for c in chunks), "intact code stays syntax-chunked"


@pytest.mark.parametrize(("language", "rel", "old", "new", "line", "lost"), [
    ("python", "py_inventory/inventory/resilience.py", "\n\nlog = ", "\n\nDEFAULTS = [1, 2,\nlog = ", 15, None),
    # The broken line is the function's signature: that function is lost, no other.
    ("javascript", "ts_storefront/src/api.js", "export function createTtlCache(", "export function createTtlCache(((", 46,
     "createTtlCache"),
])
def test_one_unclosed_bracket_does_not_cost_the_file_its_structure(language, rel, old, new, line, lost) -> None:
    # The bracket turns the rest of the file into one parse error; read as a comment, its line
    # lets the rest parse, and only the chunks around it are flagged.
    text = (SAMPLES / rel).read_text("utf-8")
    assert old in text
    broken = prepare(rel, language, text.replace(old, new, 1))
    assert broken.parsed.muted == (line,)
    chunks = chunk_document(broken, ChunkSettings(), "syntax")
    assert_lossless(broken, chunks)
    assert_slices_true(broken, chunks)
    assert all(c.fallback is None for c in chunks)
    damaged = [c for c in chunks if "damaged" in c.flags]
    assert any(c.start_line <= line <= c.end_line for c in damaged)
    assert all(broken.damage.overlaps(c.start_line, c.end_line) for c in damaged)
    assert sum(c.end_line - c.start_line + 1 for c in damaged) < broken.doc.line_count / 4
    intact = {d.symbol for d in list_definitions(_prep(rel)) if not lost or not d.symbol.startswith(lost)}
    assert intact <= {d.symbol for d in list_definitions(broken)}


def test_the_repair_mends_the_typo_not_the_class_around_it() -> None:
    # Muting ``public class Shop {`` also quiets the parser, at the price of the class.
    methods = "".join(
        f"    public String m{i}(List<String> rows) {{\n        StringBuilder out = new StringBuilder();\n"
        f"        if (rows.isEmpty()) {{\n            out.append(\"(none {i})\\n\");\n        }}\n"
        f"        return out.toString();\n    }}\n\n" for i in range(8))
    source = ("package x;\n\npublic class Shop {\n" + methods + "}\n").replace("m5(List<String>", "m5(List<St'ring>")
    broken = prepare("Shop.java", "java", source)
    assert broken.parsed.muted == (44,)
    assert {f"Shop.m{i}" for i in range(8)} <= {d.symbol for d in list_definitions(broken)}


RUST_BLOCKS = "".join(f"fn m{i}(x: i32) -> i32 {{\n    let y = x + {i};\n    y\n}}\n\n" for i in range(20))
KOTLIN_CALL = ("val rates = listOf(\n    1,\n    2,\n)]\n\nfun looksValid(id: String): Boolean {\n    val n = id.trim()\n"
               "    return n.isNotEmpty()\n}\n\nclass Calc private constructor(\n    private val seller: String,\n) {\n"
               "    fun total(): Int = 1\n    fun other(): Int = 2\n}\n")


@pytest.mark.parametrize(("path", "language", "source", "typo_line", "kept"), [
    # The 19th of 20 blocks: every block's own braces are suspects too, but usual ones.
    ("lib.rs", "rust", RUST_BLOCKS.replace("let y = x + 18;", "let y = { x + 18;"), 92, {"m17", "m18", "m19"}),
    # A stray ']' beside a ')' that closes a call: only the ']' is blanked.
    ("T.kt", "kotlin", KOTLIN_CALL, 4, {"looksValid", "Calc", "Calc.total", "Calc.other"}),
    # Of two quotes, the first is the stray one.
    ("f.py", "python", 'def "fetch(url, mode="r"):\n    return open(url, mode)\n\n\ndef other():\n    return 2\n', 1,
     {"fetch", "other"}),
])
def test_the_repair_mends_one_character_of_the_typos_line(path, language, source, typo_line, kept) -> None:
    broken = prepare(path, language, source)
    assert broken.parsed.muted == (typo_line,)
    assert kept <= {d.symbol for d in list_definitions(broken)}
    _syntax(path, language, source, unit="lines", budget=8)  # lossless and exact


# One quote left open: the string it opens reads the code below as text up to the next quote, and
# the damage the parser reports is a byte at the end, or nothing at all (Elixir).
STRAY_QUOTES = [
    ("deploy.sh", "bash", 'setup() {\n  echo "start"\n}\n\necho "oops\n\ndeploy() {\n  local env="$1"\n'
     '  echo "deploying to $env"\n}\n\nmain() {\n  setup\n  deploy "$@"\n}\n\nmain "$@"\n', 5, {"setup", "deploy", "main"}),
    ("lib.rs", "rust", 'fn setup() -> i32 {\n    1\n}\n\nconst X: &str = "oops;\n\nfn deploy(env: &str) -> String {\n'
     '    format!("deploying to {}", env)\n}\n\nfn main() {\n    setup();\n    deploy("x");\n}\n', 5, {"setup", "deploy", "main"}),
    ("run.R", "r", 'setup <- function() {\n  print("start")\n}\n\nx <- "oops\n\ndeploy <- function(env) {\n'
     '  print(paste("deploying to", env))\n}\n\nmain <- function() {\n  setup()\n  deploy("x")\n}\n', 5,
     {"setup", "deploy", "main"}),
    ("run.php", "php", '<?php\nfunction setup() {\n  echo "start";\n}\n\n$x = "oops;\n\nfunction deploy($env) {\n'
     '  echo "deploying to $env";\n}\n\nfunction main() {\n  setup();\n  deploy("x");\n}\n', 6, {"setup", "deploy", "main"}),
    ("m.ex", "elixir", 'defmodule M do\n  def setup do\n    IO.puts("start")\n  end\n\n  @x "oops\n\n  def deploy(env) do\n'
     '    IO.puts("deploying to #{env}")\n  end\n\n  def main do\n    setup()\n    deploy("x")\n  end\nend\n', 6,
     {"M.setup", "M.deploy", "M.main"}),
]


@pytest.mark.parametrize(("path", "language", "source", "typo_line", "kept"), STRAY_QUOTES)
def test_a_quote_left_open_does_not_swallow_the_definitions_below_it(path, language, source, typo_line, kept) -> None:
    broken = prepare(path, language, source)
    assert broken.parsed.muted == (typo_line,)
    assert kept <= {d.symbol for d in list_definitions(broken)}
    chunks = _syntax(path, language, source, unit="chars", budget=100)  # lossless and exact
    assert [c.start_line for c in chunks if "damaged" in c.flags] == [typo_line]


@pytest.mark.parametrize(("path", "language", "source"), [
    # A string over several lines that was meant so, and a real error elsewhere: its quotes stay.
    ("notes.sh", "bash", 'say() {\n  echo "one\n  two"\n}\n\nif true; then\n  echo "x"\n\nlast() {\n  echo 1\n}\n'),
    ("notes.rs", "rust", 'const HELP: &str = "usage:\n  run it";\n\nfn a() -> i32 {\n    let x = (1 + ;\n    x\n}\n'),
])
def test_a_string_meant_over_several_lines_is_not_mended(path, language, source) -> None:
    prep = prepare(path, language, source)
    assert prep.parsed.muted == ()
    _syntax(path, language, source, unit="chars", budget=100)


def test_an_error_no_node_marks_still_flags_its_lines() -> None:
    # Elixir's grammar marks a string left open as in error, with no ERROR or MISSING node in
    # it: two slips (no stray quote alone mends the file) left every chunk unflagged.
    source = STRAY_QUOTES[-1][2].replace('deploy("x")', 'deploy("x"')
    chunks = _syntax("m.ex", "elixir", source, unit="chars", budget=100)
    damaged = [c for c in chunks if "damaged" in c.flags]
    assert damaged and any(c.start_line <= 6 <= c.end_line for c in damaged)


def test_a_damaged_file_is_parsed_in_little_memory_and_leaves_none_held() -> None:
    # While recovering from an error the parser reads at almost every token; each read used to
    # hand it a 64 KB copy, which py-tree-sitter never frees: 2 GB for this 126 KB Perl module,
    # held for the life of the process (a workshop server's memory, gone in two uploads).
    # Measured in a process of its own: its peak, and what it holds after three parses.
    import subprocess

    script = (
        "import resource\n"
        "from core.chunking import chunk_document, prepare\n"
        "from core.settings import ChunkSettings\n"
        "def held(): return int(open('/proc/self/statm').read().split()[1]) * 4096 // 2**20\n"
        "body = ''.join(f'sub f{i} {{\\n    my ($x, $y) = @_;\\n    return $x + $y * {i};\\n}}\\n\\n' for i in range(2000))\n"
        "source = 'sub broken {\\n    my $x = {;\\n' + body\n"
        "before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
        "chunks = chunk_document(prepare('Broken.pm', 'perl', source), ChunkSettings(unit='chars', budget=800), 'syntax')\n"
        "peak = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) // 1024\n"
        "first = held()\n"
        "for _ in range(2): chunk_document(prepare('Broken.pm', 'perl', source), ChunkSettings(unit='chars', budget=800), 'syntax')\n"
        "print(len(chunks), peak, held() - first)\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=SAMPLES.parent, check=True)
    count, peak_mb, kept_mb = map(int, done.stdout.split())
    assert count > 2000  # every sub a chunk
    assert peak_mb < 300, f"parsing grew the process by {peak_mb} MB"
    assert kept_mb < 100, f"two more parses left {kept_mb} MB held"


def test_a_docstrings_triple_quotes_are_no_typo() -> None:
    # Blanking a '"""' line turned 200 lines of code into one string (which counts as no damage).
    lines = (SAMPLES / "py_inventory/inventory/reconcile.py").read_text("utf-8").split("\n")
    lines[174] = lines[174].replace("+=", "(+=")
    source = "\n".join(lines)
    broken = prepare("reconcile.py", "python", source)
    assert broken.parsed.muted == (175,)
    assert "main" in {d.symbol for d in list_definitions(broken)}
    chunks = _syntax("reconcile.py", "python", source)
    assert all("damaged" in c.flags for c in chunks if c.start_line <= 175 <= c.end_line)


@pytest.mark.parametrize("source", [
    # A line that is only the stray character cannot be blanked (it would be in no chunk).
    "function a(x) {\n  return x + 1;\n}\n(\nfunction b(x) {\n  return x + 2;\n}\n\nfunction c(x) {\n  return 3;\n}\n",
])
def test_a_mended_line_is_never_left_out_of_the_chunks(source: str) -> None:
    chunks = _syntax("a.js", "javascript", source)
    assert any("damaged" in c.flags and c.start_line <= 4 <= c.end_line for c in chunks)


def test_lines_between_a_parse_errors_children_stay_in_the_chunks() -> None:
    lines = (SAMPLES / "py_inventory/inventory/reconcile.py").read_text("utf-8").split("\n")
    lines[240] = lines[240].replace("len(report", 'len(repo"rt')  # a stray quote in an f-string
    _syntax("reconcile.py", "python", "\n".join(lines))  # lossless: line 245 was in no chunk


def test_a_parse_that_does_not_end_is_given_up(monkeypatch) -> None:
    # tree-sitter's TypeScript grammar never returns on this line of punctuation.
    monkeypatch.setattr(core.parsing, "PARSE_SECONDS", 0.5)
    source = '[${$*""\'"\'})*}<`a'
    prep = prepare("x.ts", "typescript", source)
    chunks = chunk_document(prep, ChunkSettings(), "syntax")
    assert [(c.fallback, c.text) for c in chunks] == [("parse_timeout", source)]
    assert list_definitions(prep) == []


def test_a_header_whose_root_is_an_error_is_chunked_through_it() -> None:
    # ``extern "C" {`` blocks the grammar cannot pair (a glibc RPC header's pattern) make the
    # whole file one ERROR node, though the struct and the function under it are whole: they
    # are chunked, only the stray lines are flagged, and the file does not fall back.
    def block(body: str) -> str:
        return f'#ifdef __cplusplus\nextern "C" {{\n#endif\n{body}#ifdef __cplusplus\n}}\n#endif\n\n'

    source = "#ifndef SVC_H\n#define SVC_H\n\n" + "".join([
        block("extern int svc_register(int prog, int vers);\n"),
        block("extern void svc_unregister(int prog);\n"),
        block("extern int svcraw_create(void);\nstruct svc_req_info {\n    int prog;\n    int vers;\n};\n\n"
              "static int svc_is_local(struct svc_req_info *r)\n{\n    return r->prog == 0;\n}\n\n"),
        block("extern int svcudp_create(int);\nextern int svcudp_enablecache(int, long);\n"),
        block("extern int svctcp_create(int, int, int);\n"),
    ]) + "#endif\n"
    prep = prepare("svc.h", "c", source)
    assert prep.tree is not None and prep.tree.root_node.is_error
    chunks = _syntax("svc.h", "c", source)
    assert not any(c.fallback for c in chunks)
    found = {c.symbol: c for c in chunks}
    assert found["svc_req_info"].kind == "struct" and found["svc_req_info"].text.startswith("struct svc_req_info {")
    assert found["svc_is_local"].kind == "function" and found["svc_is_local"].text.endswith("return r->prog == 0;\n}")
    assert "damaged" not in found["svc_is_local"].flags
    # Its prototypes are definitions (``CodeSpec.prototypes``), whole and unflagged; the stray
    # ``}`` lines between the blocks are the flagged ones.
    assert found["svc_register"].kind == "function" and found["svc_register"].text.startswith("extern int svc_register(")
    assert "damaged" not in found["svc_register"].flags
    assert any("damaged" in c.flags and c.text.startswith("#ifdef __cplusplus\n}") for c in chunks)
    # Other grammars' root ERROR (but Rust's) is garbage: see test_garbage_falls_back_to_fixed_and_says_so.


# The guard closed before the ``extern "C"`` block: the grammar's recovery makes an ERROR of all
# that follows the licence comment, as it does of jpeglib.h's and libxml2's much longer texts.
_ERROR_BELOW_A_LICENCE = (
    "/* imglib.h: the image library's interface. */\n#ifndef IMGLIB_H\n#define IMGLIB_H\n"
    "#ifdef __cplusplus\nextern \"C\" {\n#endif\n#define IMG_SIZE 8\n"
    "typedef struct {\n  int quantval[64];\n} QUANT_TBL;\n"
    "/* Read the file's header. */\nint img_read_header(int require_image);\n"
    "#endif\n#ifdef __cplusplus\n}\n#endif\n"
)


def test_an_error_below_a_licence_comment_is_read_through_as_an_error_root_is() -> None:
    # With a licence comment first, the ERROR of a header's unpaired ``extern "C" {`` is the
    # root's child, not the root: it was one damaged range from the guard to the end, and
    # jpeglib.h and libxml2's tree.h, parser.h and xpath.h fell back to fixed windows whole.
    # (The parser's own repairs mend this short text, so the grammar's tree is read here.)
    from tree_sitter_language_pack import get_parser

    from core.parsing import find_damage, top_level_nodes

    tree = get_parser("c").parse(_ERROR_BELOW_A_LICENCE.encode())
    root = tree.root_node
    assert [c.type for c in root.children] == ["comment", "ERROR"]
    assert find_damage(tree).ratio > 0.8  # (as the plain measure reads it)
    opened = find_damage(tree, open_root=True)
    assert opened.ratio < 0.2
    assert {line for first, last in opened.ranges for line in range(first, last + 1)} == {2, 4, 5, 15}
    nodes = top_level_nodes(root, True)
    assert [(n.type, n.start_point.row + 1) for n in nodes if n.type in ("type_definition", "declaration")] == [
        ("type_definition", 8), ("declaration", 12)
    ]
    assert top_level_nodes(root, False) == list(root.children)  # (a language that does not open them)


@pytest.mark.parametrize("header", ["jpeglib.h", "libxml2/libxml/tree.h", "libxml2/libxml/xpath.h"])
def test_real_headers_with_an_error_below_their_licence_are_chunked_by_syntax(header: str) -> None:
    path = Path("/usr/include") / header
    if not path.exists():
        pytest.skip(f"{path} is not installed (Debian's libjpeg-dev, libxml2-dev)")
    text = path.read_text("utf-8", errors="replace")
    chunks = _syntax(header, "c", text)
    assert not any(c.fallback for c in chunks)
    functions = [c for c in chunks if c.kind == "function"]
    damaged = sum("damaged" in c.flags for c in chunks)
    assert len(functions) >= 20 and damaged <= len(chunks) // 10, (len(functions), damaged, len(chunks), header)


def test_a_header_wrapped_in_begin_decls_macros_is_chunked_with_their_lines_kept() -> None:
    # glibc's ``__BEGIN_DECLS`` (``extern "C" {`` in C++, nothing in C) is an identifier to the
    # grammar: the header fell back to windows. The parser reads it as a comment; its line
    # stays in a chunk, with its own text.
    source = ("#ifndef X_H\n#define X_H\n__BEGIN_DECLS\n\ntypedef struct\n{\n  int flags;\n} attr_t;\n\n"
              "extern int other (int a);\n\nstatic int helper(int a)\n{\n  return a * 2;\n}\n\n__END_DECLS\n#endif\n")
    chunks = _syntax("spawn.h", "c", source)
    assert not any(c.fallback for c in chunks)
    found = {c.symbol: c for c in chunks}
    assert found["attr_t"].kind == "struct" and found["helper"].kind == "function"
    assert any(c.text.startswith("#ifndef X_H") and "__BEGIN_DECLS" in c.text for c in chunks)
    assert chunks[-1].text == "__END_DECLS\n#endif"


def test_begin_decls_macros_are_read_as_comments_only_where_they_stand_alone() -> None:
    # A header that defines the macro (its own #ifndef / #define lines) or names it in a
    # comment must read as it did: rewriting those made a sound header fall back to windows.
    defines = "#ifndef G_BEGIN_DECLS\n#define G_BEGIN_DECLS\n#endif\n\nint f(void)\n{\n    return 0;\n}\n"
    prep = prepare("gmacros.h", "c", defines)
    assert prep.damage is not None and prep.damage.ratio == 0
    assert [c.symbol for c in _syntax("gmacros.h", "c", defines) if c.kind == "function"] == ["f"]
    named = "#include <sys/cdefs.h> /* for __BEGIN_DECLS */\n\n__BEGIN_DECLS\n\nint g(int a);\n\n__END_DECLS\n"
    prep = prepare("vfs.h", "c", named)
    assert prep.damage is not None and not prep.damage.ranges
    commented = "G_BEGIN_DECLS /* for C++ */\n\nint g(int a);\n\nG_END_DECLS\n"  # a comment after it
    prep = prepare("g.h", "c", commented)
    assert prep.damage is not None and not prep.damage.ranges
    with pytest.raises(ValueError, match="4 characters or more"):
        core.parsing._macro_pattern(("DO",))  # ``/*  */`` would not fit in its place


def test_garbage_falls_back_to_fixed_and_says_so() -> None:
    text = "".join(f"def f{i}(:\n  ))) ((( [[[ \n" for i in range(40))
    prep = prepare("junk.py", "python", text)
    chunks = chunk_document(prep, ChunkSettings(budget=50), "syntax")
    assert chunks and all(c.fallback == "parse_error" for c in chunks)
    assert_lossless(prep, chunks)
    # The same windows as the fixed run's, but not the same chunks: ids differ (with
    # --strategy both, one output held each id twice).
    fixed = chunk_document(prep, ChunkSettings(budget=50), "fixed")
    assert [(c.start_byte, c.end_byte) for c in fixed] == [(c.start_byte, c.end_byte) for c in chunks]
    assert not {c.id for c in fixed} & {c.id for c in chunks}


@pytest.mark.parametrize("language,opener,closer", [
    ("python", "if x:\n", "pass\n"),
    ("javascript", "{\n", "}\n"),
    ("javascript", "{a: ", "}"),  # an object literal: objects of methods are definitions
    ("c", "{\n", "}\n"),
])
def test_deep_nesting_does_not_recurse_out(language: str, opener: str, closer: str) -> None:
    depth = 500
    if language == "python":
        body = "".join("    " * i + opener for i in range(depth)) + "    " * depth + closer
        text = "def deep(x):\n" + "".join("    " + line + "\n" for line in body.splitlines())
    elif language == "javascript" and opener.startswith("{a"):
        text = "const deep = " + opener * depth * 4 + "{ f() { return 1; } }" + closer * depth * 4 + ";\n"
    elif language == "javascript":
        text = "function deep() {\n" + opener * depth + "x = 1;\n" + closer * depth + "}\n"
    else:
        text = "int deep(void) {\n" + opener * depth + "x = 1;\n" + closer * depth + "}\n"
    limit = sys.getrecursionlimit()
    prep = prepare(f"deep.{ {'python': 'py', 'javascript': 'js', 'c': 'c'}[language] }", language, text)
    chunks = chunk_document(prep, ChunkSettings(budget=100), "syntax")
    assert chunks
    assert_lossless(prep, chunks)
    assert sys.getrecursionlimit() == limit


def test_unknown_language_falls_back_to_text_blocks() -> None:
    prep = prepare("notes.weird", "unknownlang", "alpha beta\n\ngamma delta\n")
    chunks = chunk_document(prep, ChunkSettings(), "syntax")
    assert chunks and all(c.fallback == "unknown_language" and c.strategy == "text" for c in chunks)


def test_empty_document_gives_no_chunks() -> None:
    prep = prepare("empty.py", "python", "\n\n   \n")
    assert chunk_document(prep, ChunkSettings(), "syntax") == []
    assert chunk_document(prep, ChunkSettings(), "fixed") == []


def test_one_huge_line_is_cut_and_flagged() -> None:
    text = "x = [" + ", ".join(str(i) for i in range(3000)) + "]\n"
    prep = prepare("big.py", "python", text)
    for strategy in ("syntax", "fixed"):
        chunks = chunk_document(prep, ChunkSettings(budget=100), strategy)
        assert len(chunks) > 10
        assert all("split_line" in c.flags for c in chunks)
        assert "".join(c.text for c in chunks) == text.rstrip("\n")
        assert all(c.size <= 100 for c in chunks)


@pytest.mark.parametrize("unit, budget", [("nws", 100), ("chars", 120), ("lines", 6)])
def test_a_signature_longer_than_the_budget_allows_does_not_shatter_its_parts(unit: str, budget: int) -> None:
    # reconcile_cycle_count has a 12-line signature: repeated whole above every part, with the
    # breadcrumb, it left the parts a character or two (6,572 chunks at nws 100).
    path = "py_inventory/inventory/reconcile.py"
    prep = prepare(path, "python", (SAMPLES / path).read_text("utf-8"))
    chunks = chunk_document(prep, ChunkSettings(unit=unit, budget=budget), "syntax")
    assert_slices_true(prep, chunks)
    assert_lossless(prep, chunks)
    assert_budget(chunks, budget)
    lines = prep.doc.line_count
    # At such budgets a line with its breadcrumb takes about two chunks: hundreds, not thousands.
    assert len(chunks) < 2 * lines, (len(chunks), lines)
    assert sum(1 for c in chunks if len(c.text.strip()) <= 1) <= len(chunks) // 20
    parts = [c for c in chunks if c.symbol == "reconcile_cycle_count" and c.part > 1]
    # The signature is still repeated: as much of its first line as leaves the part room.
    assert parts and all(c.header and "def reconcile_cycle_count(".startswith(c.header) or
                         c.header.startswith("def reconcile_cycle_count(") for c in parts)


def _under_or_holding(chunk, signature: str) -> bool:
    """A later part repeats ``signature`` above its text, or holds the signature's own line
    (below comments that filled the parts before it), which it does not say twice."""
    return chunk.header == signature or (not chunk.header and signature in chunk.text)


def _syntax(path: str, language: str, source: str, **settings) -> list:
    prep = prepare(path, language, source)
    chunks = chunk_document(prep, ChunkSettings(**settings), "syntax")
    assert_slices_true(prep, chunks)
    assert_lossless(prep, chunks)
    return chunks


_SCRIPT_LOOP = """import os

for entry in sorted(os.scandir("downloads"), key=lambda e: e.name):
    key = entry.name
    if key.endswith("/"):
        continue
    target = os.path.join("archive", key)
    os.makedirs(os.path.dirname(target), exist_ok=True)
    if os.path.exists(target):
        print("skipping", key)
    elif entry.stat().st_size > 10_000_000:
        print("too large", key)
    else:
        os.replace(entry.path, target)
        print("moved", key)
print("done")
"""


@pytest.mark.parametrize(
    ("path", "language", "source", "head"),
    [
        ("move.py", "python", _SCRIPT_LOOP, 'for entry in sorted(os.scandir("downloads"), key=lambda e: e.name):'),
        ("main.py", "python", "import sys\n\n" + _SCRIPT_LOOP.replace("import os\n\n", 'if __name__ == "__main__":\n').replace("\n", "\n    ").rstrip() + "\n",
         'if __name__ == "__main__":'),
        ("args.sh", "bash", "#!/bin/sh\nwhile [ $# -gt 0 ]; do\n" + "".join(f"  if [ \"$1\" = -{c} ]; then\n    OPT_{c}=1\n    echo 'option {c} set for this run'\n  fi\n" for c in "abcdefgh") + "  shift\ndone\necho done\n",
         "while [ $# -gt 0 ]; do"),
    ],
    ids=["python-for", "python-main", "shell-while"],
)
def test_a_top_level_statement_split_repeats_its_head_above_its_later_parts(path: str, language: str, source: str, head: str) -> None:
    # A script's loop split at the top level left its later parts a loop body alone: what it
    # looped over was in the first part only (a search found "os.replace(entry.path, target)"
    # with no word of the entries).
    chunks = _syntax(path, language, source, unit="chars", budget=300)
    parts = [c for c in chunks if c.parts > 1]
    assert len(parts) >= 2 and parts[0].part == 1 and parts[0].header == "" and head in parts[0].text
    assert all(c.header == head and c.parent_id == parts[0].id for c in parts[1:])
    assert [c.part for c in parts] == list(range(1, len(parts) + 1)) and all(c.parts == len(parts) for c in parts)


def test_a_statement_head_is_repeated_whole_and_only_where_it_helps() -> None:
    body = "".join(f"    print('processing {i} of the items in the run now')\n" for i in range(14))
    # A head of two lines is repeated whole (its second line was lost).
    for path, language, source, head in (
        ("a.py", "python", "for (name,\n     size) in sizes.items():\n" + body, "for (name,\n     size) in sizes.items():"),
        ("c.js", "javascript", "for (const [key, value] of\n     Object.entries(obj)) {\n" + body.replace("print", "console.log") + "}\n",
         "for (const [key, value] of\n     Object.entries(obj))"),
    ):
        parts = [c for c in _syntax(path, language, source, unit="chars", budget=300) if c.parts > 1]
        assert parts and all(c.header == head for c in parts[1:]), [c.header for c in parts]
    # None where it would mislead or cost more than a quarter of the budget: an if's else lines
    # under the if's head, a bare "try:", a loop over a long list above every line of its body.
    long_loop = "for f in " + " ".join(f"data/file_{i:03d}.csv" for i in range(12)) + "; do\n" + "".join(
        f'  echo "processing $f in step {i} of the run"\n' for i in range(10)) + "done\n"
    for path, language, source in (("d.py", "python", "if x:\n" + body + "else:\n" + body),
                                   ("e.py", "python", "try:\n" + body + "except Exception:\n    pass\n"),
                                   ("r.sh", "bash", long_loop)):
        chunks = _syntax(path, language, source, unit="chars", budget=300)
        assert not any(c.header for c in chunks), [(c.parts, c.header) for c in chunks]
    assert len(chunks) <= 4  # (the long loop's: 11 with its head above each line)


def test_a_comment_above_the_first_member_stays_with_it_not_in_the_signature() -> None:
    # Python's grammar hangs it on the class, before the body: it is the member's comment.
    source = (
        "class Service:\n    # Handles the retry policy for outbound calls to the billing API.\n"
        "    def retry(self, attempts, delay):\n"
        + "".join(f"        step_{i} = attempts * delay + {i}\n" for i in range(12))
        + "\n    def call(self):\n        return self.client.post('/billing', timeout=10)\n"
    )
    chunks = _syntax("service.py", "python", source, unit="chars", budget=250)
    members = [c for c in chunks if c.symbol.startswith("Service.")]
    assert members and all(c.header in ("class Service:", "def retry(self, attempts, delay):") for c in members)
    retry = next(c for c in members if c.symbol == "Service.retry" and c.part == 1)
    assert retry.text.lstrip().startswith("# Handles the retry policy")
    assert [d.signature_last for d in list_definitions(prepare("service.py", "python", source)) if d.symbol == "Service"] == [1]


def test_the_repeated_signature_of_an_arrow_function_names_it() -> None:
    source = "export const fetchCart = async (userId) => {\n" + "".join(
        f"  const part{i} = await load(userId, {i});\n" for i in range(12)
    ) + "  return part1;\n};\n"
    parts = [c for c in _syntax("cart.js", "javascript", source, unit="chars", budget=200) if c.symbol == "fetchCart"]
    assert len(parts) > 1
    assert all(c.header == "export const fetchCart = async (userId) =>" for c in parts[1:])


@pytest.mark.parametrize(("path", "language", "source", "budget"), [
    ("Stock.scala", "scala", "def remove(sku: String, qty: Int): Int = {\n  items.get(sku) match {\n"
     "    case Some(it) if it.qty >= qty =>\n      items(sku) = it.copy(qty = it.qty - qty)\n      qty\n"
     "    case None => 0\n  }\n}\n", 180),
    ("stock.php", "php", "<?php\nfunction remove($items, $sku, $qty) {\n    if (isset($items[$sku])) {\n"
     "        $items[$sku] = $items[$sku] - $qty;\n        log_change($sku, $qty, 'removed from the shelf');\n"
     "        notify($sku);\n    }\n}\n", 140),
])
def test_a_split_definitions_last_part_is_not_its_closing_lines_alone(path, language, source, budget) -> None:
    # Scala's `  }` then `}` of a match and its method were the method's last part: a part
    # that answers nothing, when the statement before them fitted beside them.
    chunks = _syntax(path, language, source, unit="chars", budget=budget)
    parts = [c for c in chunks if c.parts > 1]
    assert len(parts) > 1
    assert any(ch.isalnum() for ch in parts[-1].text), parts[-1].text
    assert all(len(c.text) for c in parts)


def test_statements_before_a_split_function_are_not_part_of_it() -> None:
    source = "import os\nimport sys\n\nCONFIG_DIR = os.path.expanduser('~/.config')\n\n" "def load(name):\n" + "".join(
        f"    value_{i} = os.path.join(CONFIG_DIR, name, '{i}')\n" for i in range(6)
    )
    chunks = _syntax("cfg.py", "python", source, unit="chars", budget=200)
    load = [c for c in chunks if c.symbol == "load"]
    assert load[0].start_line == 6, "the function's first part starts at its def"
    assert any(c.symbol == "<module>" and "CONFIG_DIR" in c.text for c in chunks)


@pytest.mark.parametrize(("path", "language", "source", "at"), [
    ("greet.py", "python", 'x = 1\nGREETING = "hello there, a rather long constant string that will not fit, no way, not at all"\n\n'
     "def f():\n    pass\n", "GREETING"),
    ("greet.rs", "rust", 'const GREETING: &str = "hello there, a rather long constant string that will not fit at all";\n\n'
     "fn f() {}\n", "const GREETING"),
    ("queries.js", "javascript", 'const SQL = "select id, name, price, stock from products where stock > 0 order by name";\n\n'
     "function f() {}\n", "const SQL"),
])
def test_the_pieces_of_one_long_statement_are_numbered_parts_of_it(path, language, source, at) -> None:
    from core.groups import whole_definition

    chunks = _syntax(path, language, source, unit="chars", budget=50)
    pieces = [c for c in chunks if "split_line" in c.flags and c.kind in ("module", "statements")]
    assert len(pieces) > 1 and pieces[0].text.lstrip().startswith(at)
    assert [(c.part, c.parts) for c in pieces] == [(i, len(pieces)) for i in range(1, len(pieces) + 1)]
    assert all(c.parent_id == pieces[0].id for c in pieces[1:])
    # A search that finds one piece returns the statement (core.groups).
    assert whole_definition(pieces[-1], chunks) == tuple(pieces)
    assert all(c.parts == 1 for c in chunks if c.symbol == "f"), "other chunks are left as they were"
    # In a class, a piece keeps the class's signature as its header and the class's header
    # chunk as its parent, as any statement of the class does.
    source = ('class Shop {\n    static final String SQL = "select id, name, price, stock from products where stock > 0 '
              'order by name";\n\n    void f() {}\n}\n')
    chunks = _syntax("Shop.java", "java", source, unit="chars", budget=50)
    head = next(c for c in chunks if c.kind == "class_header")
    pieces = [c for c in chunks if "split_line" in c.flags and c.kind == "statements"]
    assert len(pieces) > 1 and all(c.parent_id == head.id and c.parts == 1 for c in pieces)


def test_a_function_is_not_named_by_its_parameter_nor_a_body_assignment_a_definition() -> None:
    source = (
        "local required = {\"required\", function(self, value)\n  return value ~= nil\nend}\n\n"
        "local function install()\n  getmetatable(\"\").__mod = function(fmt, args)\n    return fmt:format(args)\n  end\nend\n"
    )
    symbols = {d.symbol for d in list_definitions(prepare("rules.lua", "lua", source))}
    assert symbols == {"required", "required.<function>", "install"}


_CUDA_FORMS = (
    "#pragma once\n#include <cooperative_groups.h>\nnamespace cg = cooperative_groups;\n\n"
    "/// Declared here, defined in restock.cu.\n__global__ void restockKernel(const int* onHand, int* orders, int n);\n"
    "extern \"C\" __global__ void cAbiKernel(float* p) { p[0] = 0; }\n"
    "__device__ float lerpPrice(float a, float b, float t);\n\n"
    "struct __align__(16) PricePair { float net; float gross; };\n\n"
    "template <typename T>\nstruct DeviceSpan {\n    T* data;\n    int size;\n"
    "    __host__ __device__ T& operator[](int i) const { return data[i]; }\n    __device__ T sum() const;\n};\n\n"
    "namespace {\n__global__ void __launch_bounds__(128, 4) warpTotals(const float* in, float* out) {\n"
    "    auto block = cg::this_thread_block();\n    float v = in[block.thread_rank()];\n    #pragma unroll\n"
    "    for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffff, v, offset);\n"
    "    if (block.thread_rank() == 0) out[blockIdx.x] = v;\n}\n}  // namespace\n\n"
    "template <>\n__global__ void sumKernel<float>(const float* in, float* out);\n\n"
    "__global__ void __cluster_dims__(2, 1, 1) clusterKernel(float* input, float* output) {\n"
    "    extern __shared__ __align__(16) unsigned char smem[];\n    output[threadIdx.x] = __ldg(&input[threadIdx.x]);\n}\n\n"
    "class Pricer {\npublic:\n    __host__ __device__ Pricer(float r) : rate(r) {}\n    __device__ float apply(float p) const;\n"
    "private:\n    float rate;\n};\n__device__ float Pricer::apply(float p) const { return p * rate; }\n\n"
    "inline void launchAll(float* d, int n, cudaStream_t stream) {\n"
    "    auto twice = [] __device__ (float x) { return 2.0f * x; };\n"
    "    thrust::transform(thrust::device, d, d + n, d, [=] __host__ __device__ (float x) { return x * n; });\n"
    "    warpTotals<<<dim3((n + 127) / 128), dim3(128), 0, stream>>>(d, d);\n}\n"
)


@pytest.mark.parametrize(
    ("language", "path", "source", "expected"),
    [
        ("java", "Planet.java",
         "enum Planet {\n  A(1.0), B(2.0);\n  private final double m;\n  Planet(double m) { this.m = m; }\n"
         "  double gravity() { return m * 9.8; }\n}\n",
         [("Planet.Planet", "method"), ("Planet.gravity", "method")]),
        ("csharp", "Money.cs",
         "namespace Shop.Orders;\n\npublic struct Money {\n  public Money(decimal a) { A = a; }\n  ~Money() { }\n"
         "  public static Money operator +(Money a, Money b) => new Money(a.A + b.A);\n"
         "  public static implicit operator decimal(Money m) => m.A;\n}\n",
         [("Shop.Orders.Money", "struct"), ("Shop.Orders.Money.Money", "method"), ("Shop.Orders.Money.~Money", "method"),
          ("Shop.Orders.Money.operator +", "method"), ("Shop.Orders.Money.operator decimal", "method")]),
        ("kotlin", "Polygon.kt",
         "class Polygon(val points: List<Int>) {\n  constructor(n: Int) : this(List(n) { it })\n  fun size() = points.size\n"
         "  companion object {\n    fun empty() = Polygon(listOf())\n  }\n}\n",
         [("Polygon.constructor", "method"), ("Polygon.size", "method"), ("Polygon.Companion", "object"),
          ("Polygon.Companion.empty", "method")]),
        ("kotlin", "Ext.kt",  # an extension on a type parameter is no member of a type named T
         "inline fun <T : View> T.withIf(cond: Boolean): T { return this }\nfun String.shout() = uppercase()\n",
         [("withIf", "method"), ("String.shout", "method")]),
        ("kotlin", "Shapes.kt",
         "interface Shape {\n  fun area(): Double\n}\nenum class Color { RED, GREEN }\nfun interface Pick { fun pick(): Int }\n",
         [("Shape", "interface"), ("Shape.area", "method"), ("Color", "enum"), ("Pick", "interface")]),
        ("rust", "m.rs", "macro_rules! square {\n    ($x:expr) => { $x * $x };\n}\n", [("square", "macro")]),
        ("php", "c.php", "<?php\nnamespace App\\Http;\n\nenum Suit { case Hearts; }\n",
         [("App.Http", "namespace"), ("App.Http.Suit", "enum")]),
        ("php", "g.php", "<?php\nnamespace {\n    function f() { return 1; }\n}\n",
         [("<global>", "namespace"), ("<global>.f", "function")]),
        ("go", "cache.go",
         "package x\n\n// Store keeps values.\ntype Store struct {\n\tmu sync.Mutex\n}\n\ntype (\n\t// Getter gets.\n"
         "\tGetter interface {\n\t\tGet(key string) int\n\t}\n\tAlias = int\n)\n",
         [("Store", "type"), ("Getter", "type"), ("Alias", "type")]),
        # An extension is named by the type it extends; a subscript's ``name`` field is its
        # return type, not its name.
        ("swift", "Money.swift",
         "struct Money {\n  var cents: Int\n  subscript(i: Int) -> Int { cents }\n}\n"
         "extension Money: Comparable {\n  static func < (a: Money, b: Money) -> Bool { a.cents < b.cents }\n"
         "  var euros: Double { Double(cents) / 100 }\n}\n"
         "protocol Priced {\n  func price() -> Money\n}\nenum Coin { case euro }\n"
         "actor Till {\n  init() {}\n  deinit {}\n  var open = false {\n    didSet { print(open) }\n  }\n}\n"
         "let twice = { (x: Int) in x * 2 }\n",
         [("Money", "struct"), ("Money.subscript", "method"), ("Money", "extension"), ("Money.<", "method"),
          ("Money.euros", "property"), ("Priced", "protocol"), ("Priced.price", "method"), ("Coin", "enum"),
          ("Till", "actor"), ("Till.init", "method"), ("Till.deinit", "method"), ("Till.open", "property"),
          ("twice", "function")]),
        ("scala", "Shapes.scala",
         "object Registry {\n  def lookup(k: String): Int = 0\n}\ntrait Shape {\n  def area: Double\n}\n"
         "case class Circle(r: Double) extends Shape {\n  def area = 3.14 * r * r\n}\nenum Suit { case Hearts, Spades }\n"
         "val twice = (x: Int) => x * 2\nextension (s: String) {\n  def shout: String = s.toUpperCase\n}\n"
         "given Ordering[Suit] with\n  def compare(a: Suit, b: Suit): Int = a.ordinal - b.ordinal\n\n"
         "given listShow[A](using s: Show[A]): Show[List[A]] with\n  def show(as: List[A]): String = as.mkString\n",
         [("Registry", "object"), ("Registry.lookup", "method"), ("Shape", "trait"), ("Shape.area", "method"),
          ("Circle", "class"), ("Circle.area", "method"), ("Suit", "enum"), ("twice", "function"),
          ("extension (s: String)", "extension"), ("extension (s: String).shout", "method"),
          ("Ordering[Suit]", "given"), ("Ordering[Suit].compare", "method"), ("listShow", "given"),
          ("listShow.show", "method")]),
        ("scala", "Sku.scala",  # a one-line extension: its method shares the line with its head
         "object Sku:\n  extension (sku: String) def value: String = sku\n",
         [("Sku", "object"), ("Sku.extension (sku: String)", "extension"), ("Sku.extension (sku: String).value", "method")]),
        ("lua", "m.lua",
         "local M = {}\nfunction M:reset() self.n = 0 end\nfunction M.util.clamp(x) return x end\n"
         "local function helper() end\nM.on_load = function() end\n"
         "local handlers = {\n  on_get = function(req) return 200 end,\n}\nreturn M\n",
         [("M.reset", "method"), ("M.util.clamp", "function"), ("helper", "function"), ("M.on_load", "function"),
          ("handlers", "table"), ("handlers.on_get", "method")]),
        ("bash", "ops.sh",
         "function backup {\n  tar czf /tmp/b.tgz /srv\n}\nrestore() (\n  cd /srv && tar xzf /tmp/b.tgz\n)\n"
         "function verify() {\n  test -d /srv\n}\n",
         [("backup", "function"), ("restore", "function"), ("verify", "function")]),
        ("csharp", "Bag.cs",
         "namespace Demo\n{\n    public class Bag\n    {\n        public int this[string key]\n        {\n"
         "            get { return 1; }\n        }\n\n        public event EventHandler Changed\n        {\n"
         "            add { }\n            remove { }\n        }\n#if DEBUG\n        public void Dump() { }\n#endif\n"
         "        public record Entry(string Key);\n        public record struct Point(int X, int Y);\n"
         # (An indexer of a named type was named by it: ``Bag.Item``, ``Bag.List``.)
         "        public Item this[int slot] => null;\n        public System.Collections.Generic.List<T> this[long k] => null;\n"
         "    }\n}\n",
         [("Demo.Bag.this[]", "indexer"), ("Demo.Bag.Changed", "event"), ("Demo.Bag.Dump", "method"),
          ("Demo.Bag.Entry", "record"), ("Demo.Bag.Point", "struct"), ("Demo.Bag.this[]", "indexer"),
          ("Demo.Bag.this[]", "indexer")]),
        ("scala", "package.scala",  # a package object and a package with braces hold definitions
         "package cats\n\npackage object data {\n  def wrap[A](a: A): List[A] = List(a)\n"
         "  implicit class RichInt(val i: Int) {\n    def squared: Int = i * i\n  }\n}\n"
         "package outer {\n  class X {\n    def f: Int = 1\n  }\n}\n",
         [("data", "package"), ("data.wrap", "function"), ("data.RichInt", "class"), ("data.RichInt.squared", "method"),
          ("outer", "package"), ("outer.X", "class"), ("outer.X.f", "method")]),
        ("ruby", "base.rb",  # class methods both ways are self.x; a mixin module's defs are methods
         "module Helpers\n  def status(value = nil)\n    value\n  end\nend\n\nclass Base\n  def self.settings\n"
         "    self\n  end\n\n  def settings\n    self.class.settings\n  end\n\n  class << self\n"
         "    def set(option)\n      option\n    end\n  end\nend\n",
         [("Helpers.status", "method"), ("Base.self.settings", "method"), ("Base.settings", "method"),
          ("Base.self.set", "method")]),
        ("lua", "rules.lua",  # a positional entry is no parameter's namesake; a body's assignment is a statement
         "local required = {\"required\", function(self, value)\n  return value ~= nil\nend}\n\n"
         "local function install()\n  getmetatable(\"\").__mod = function(fmt, args)\n    return fmt:format(args)\n"
         "  end\nend\n\nM.on_load = function() end\n",
         [("required", "table"), ("required.<function>", "method"), ("install", "function"), ("M.on_load", "function")]),
        ("c", "api.h",  # a header's content inside ``extern "C" {`` under ``#ifdef __cplusplus``
         "#ifdef __cplusplus\nextern \"C\" {\n#endif\n\nstruct point {\n    int x;\n};\n\n"
         "int add(int a, int b)\n{\n    return a + b;\n}\n\n#ifdef __cplusplus\n}\n#endif\n",
         [("point", "struct"), ("add", "function")]),
        ("cpp", "conv.cpp",  # conversion operators are named without their parameters and qualifiers
         "extern \"C\" {\nint sub(int a, int b) { return a - b; }\n}\n"
         "class Handle {\npublic:\n    explicit operator bool() const noexcept { return p; }\n"
         "    operator const char*() const { return name; }\n    bool operator()(int x) const { return x > 0; }\n};\n"
         "template <typename T>\nBox<T>::operator T*() const\n{\n    return ptr;\n}\n"
         "io::Reader::operator bool() const {\n    return true;\n}\n",  # (was ``io.Reader.operator bool() const``)
         [("sub", "function"), ("Handle.operator bool", "method"), ("Handle.operator const char*", "method"),
          ("Handle.operator()", "method"), ("Box.operator T*", "method"), ("io.Reader.operator bool", "method")]),
        ("cpp", "vec.hpp",  # a friend defined in its class is found there, and is no member of it
         "class Vec {\npublic:\n    double dot(const Vec& o) const { return x * o.x; }\n"
         "    friend Vec operator+(const Vec& a, const Vec& b) { return Vec(a.x + b.x); }\n"
         "    friend class Matrix;\n    double x;\n};\n",
         [("Vec.dot", "method"), ("Vec.operator+", "function")]),
        ("java", "Operation.java",  # methods in an enum constant's body; records and annotations
         "enum Operation {\n    PLUS {\n        int apply(int a, int b) { return a + b; }\n    },\n    NONE;\n"
         "    record Pair(int a, int b) {}\n    @interface Tag {}\n}\n",
         [("Operation.PLUS", "constant"), ("Operation.PLUS.apply", "method"), ("Operation.Pair", "record"),
          ("Operation.Tag", "annotation")]),
        ("javascript", "router.js",  # a function on a prototype is every instance's method
         "function Router() {}\nRouter.prototype.route = function (path) {\n  return path;\n};\n"
         "exports.slugify = function (s) { return s; };\n",
         [("Router", "function"), ("Router.prototype.route", "method"), ("exports.slugify", "function")]),
        ("typescript", "types.ts",
         "export type QueryKey = ReadonlyArray<unknown>;\n\nexport type QueryFunction<T> = (\n  key: QueryKey,\n) => T;\n",
         [("QueryKey", "type"), ("QueryFunction", "type")]),
        # Functions defined under a guard (Laravel's helpers, a shell fallback) are definitions.
        ("php", "helpers.php",
         "<?php\n\nif (! function_exists('app')) {\n    /** The container. */\n    function app($id = null)\n    {\n"
         "        return $id;\n    }\n}\n\nif (! function_exists('value')) {\n    function value($v) { return $v; }\n}\n",
         [("app", "function"), ("value", "function")]),
        ("bash", "guard.sh",
         "if ! type log >/dev/null 2>&1; then\n  log() {\n    echo \"$*\" >&2\n  }\nfi\nmain() {\n  log start\n}\n",
         [("log", "function"), ("main", "function")]),
        # An operator's signature names the infix equation under it; equations join; type
        # families, pattern synonyms, foreign imports and GADTs are definitions.
        ("haskell", "Ops.hs",
         "module Ops where\n\ninfixl 6 <+>\n(<+>) :: Money -> Money -> Money\na <+> b = a + b\n\n"
         "fact :: Int -> Int\nfact 0 = 1\nfact n = n * fact (n - 1)\n\ntype family Elem c\n"
         "pattern Single x = [x]\n\nforeign import ccall \"sin\" c_sin :: Double -> Double\n\n"
         "data Expr where\n  Lit :: Int -> Expr\n  Add :: Expr -> Expr -> Expr\n\n"
         "class Monoid' a where\n  (<>.) :: a -> a -> a\n",
         [("Ops.<+>", "function"), ("Ops.fact", "function"), ("Ops.Elem", "type_family"), ("Ops.Single", "pattern"),
          ("Ops.c_sin", "foreign"), ("Ops.Expr", "data"), ("Ops.Monoid'", "class"), ("Ops.Monoid'.(<>.)", "method")]),
        # Methods of other modules' functions, ``where`` clauses and return types in a head,
        # macros around a definition; an assignment to a variable is no definition.
        ("julia", "shop.jl",
         "Base.show(io::IO, c::Cart) = print(io, c.id)\ntotal(xs::Vector{T}) where {T<:Real} = sum(xs)\n"
         "count_items(c)::Int = length(c.items)\nrate = 0.2\n\n@inline function fast(x)\n    x\nend\n\n"
         "mutable struct Cart{T} <: AbstractCart\n    items::Vector{T}\nend\n\nprimitive type Sku 64 end\n\n"
         "function Base.:+(a::Cart, b::Cart)::Cart\n    Cart(vcat(a.items, b.items))\nend\n"
         "-(a::Money, b::Money) = Money(a.cents - b.cents)\n",
         [("Base.show", "method"), ("total", "function"), ("count_items", "function"), ("fast", "function"),
          ("Cart", "struct"), ("Sku", "primitive"), ("Base.:+", "method"), ("-", "function")]),
        # Constructors named after the ``.``, operators after ``operator``; getters and setters at
        # a file's top level too; an extension type, an unnamed extension, a generator.
        ("dart", "cart.dart",
         "String get version => '2.1';\nset level(int v) {\n  print(v);\n}\n\n"
         "Stream<int> ticks() async* {\n  yield 1;\n}\n\ntypedef Json = Map<String, dynamic>;\n\n"
         "class Cart {\n  Cart.empty() : lines = [] {\n    print('empty');\n  }\n  factory Cart() => Cart.empty();\n"
         "  final List<int> lines;\n  static Cart parse(String s) {\n    return Cart();\n  }\n"
         "  bool operator ==(Object other) => identical(this, other);\n  set total(int cents) {}\n}\n\n"
         "extension type Sku(String code) {\n  bool get valid => code.isNotEmpty;\n}\n\n"
         "extension on String {\n  String shout() => toUpperCase();\n}\n",
         [("version", "getter"), ("level", "setter"), ("ticks", "function"), ("Json", "type"),
          ("Cart.empty", "constructor"), ("Cart.Cart", "constructor"), ("Cart.parse", "method"),
          ("Cart.operator ==", "method"), ("Cart.total", "setter"), ("Sku", "extension_type"), ("Sku.valid", "getter"),
          ("extension.shout", "method")]),
        # File-level definitions (Solidity 0.8's free functions, structs, enums, events, errors,
        # value types), an abstract contract, ``fallback()`` and bodiless interface functions.
        ("solidity", "Till.sol",
         "// SPDX-License-Identifier: MIT\npragma solidity ^0.8.20;\n\n"
         "function toCents(uint256 euros) pure returns (uint256) {\n    return euros * 100;\n}\n\n"
         "struct Line { bytes32 sku; uint32 qty; }\nenum Channel { Till, Web }\n"
         "event Opened(address indexed till);\nerror Closed();\ntype Cents is uint256;\n\n"
         "abstract contract Till {\n    constructor() {}\n    function total() public view virtual returns (uint256);\n"
         "    fallback() external payable {}\n}\n\ninterface IPrinter {\n    function print(string calldata text) external;\n}\n",
         [("toCents", "function"), ("Line", "struct"), ("Channel", "enum"), ("Opened", "event"), ("Closed", "error"),
          ("Cents", "type"), ("Till", "contract"), ("Till.constructor", "constructor"), ("Till.total", "method"),
          ("Till.fallback", "fallback"), ("IPrinter", "interface"), ("IPrinter.print", "method")]),
        # Before Solidity 0.6 the fallback was an unnamed ``function()``.
        ("solidity", "Old.sol",
         "pragma solidity ^0.4.24;\ncontract Old {\n    function() external payable {}\n    function Old() public {}\n}\n",
         [("Old", "contract"), ("Old.fallback", "fallback"), ("Old.Old", "method")]),
        # Unions, opaques, packed and extern structs, ``export`` and ``extern`` functions, tests
        # named by an identifier or by nothing.
        ("zig", "kinds.zig",
         "const Flags = packed struct(u8) {\n    a: bool,\n    pub fn none() Flags {\n        return @bitCast(@as(u8, 0));\n    }\n};\n"
         "pub const Header = extern struct {\n    len: u32,\n};\n"
         "const Shape = union(enum) {\n    circle: f32,\n    fn area(self: Shape) f32 {\n        return self.circle;\n    }\n};\n"
         "const Handle = opaque {};\nextern fn puts(s: [*:0]const u8) c_int;\n"
         "export fn add(a: i32, b: i32) i32 {\n    return a + b;\n}\ntest add {}\ntest {}\n"
         # A generic type: a function returning a struct, whose methods are its own.
         "fn Box(comptime T: type) type {\n    return struct {\n        value: T,\n"
         "        pub fn get(self: @This()) T {\n            return self.value;\n        }\n    };\n}\n",
         [("Flags", "struct"), ("Flags.none", "method"), ("Header", "struct"), ("Shape", "union"), ("Shape.area", "method"),
          ("Handle", "opaque"), ("puts", "function"), ("add", "function"), ("add", "test"), ("test", "test"),
          ("Box", "function"), ("Box.struct", "struct"), ("Box.struct.get", "method")]),
        # A second ``namespace X;`` is not inside the first (it was ``Shop.Cart.Shop.Tax``).
        ("php", "two.php",
         "<?php\nnamespace Shop\\Cart;\nfunction total() { return 1; }\n\nnamespace Shop\\Tax;\n"
         "function rate() { return 2; }\n",
         [("Shop.Cart.total", "function"), ("Shop.Tax", "namespace"), ("Shop.Tax.rate", "function")]),
        # ``=`` and ``<<-`` assign too; a Reference class's methods; a list of functions.
        ("r", "forms.R",
         "tax = function(x) x * 2\ncache <<- function() NULL\n"
         "Account <- setRefClass(\"Account\", fields = list(balance = \"numeric\"),\n"
         "  methods = list(deposit = function(x) {\n    balance <<- balance + x\n  }))\n"
         "handlers <- list(\n  on_get = function(req) 200,\n  on_post = function(req) 201\n)\n",
         [("tax", "function"), ("cache", "function"), ("Account", "class"), ("Account.methods", "class"),
          ("Account.methods.deposit", "method"), ("handlers", "class"), ("handlers.on_post", "method")]),
        # A package's name is whole (not in the package before it); Perl 5.38's classes and
        # methods; an anonymous sub given a name at file level; a signature.
        ("perl", "forms.pl",
         "package Shop::Cart;\nsub add { 1 }\npackage Shop::Price {\n    sub total { 0 }\n}\nsub after_block { 2 }\n"
         "package main;\nsub run { 3 }\nmy $on_error = sub { warn @_ };\nlocal *alias = sub { 4 };\n"
         "use v5.38;\nclass Shop::Item {\n    field $sku :param;\n    method price { 1 }\n}\n"
         "sub with_sig ($x, $y = 2) { $x }\n",
         [("Shop.Cart.add", "function"), ("Shop.Price", "package"), ("Shop.Price.total", "function"),
          ("Shop.Cart.after_block", "function"), ("main", "package"), ("main.run", "function"),
          ("main.$on_error", "function"), ("main.*alias", "function"), ("Shop.Item", "class"),
          ("Shop.Item.price", "method"), ("main.with_sig", "function")]),
        ("elixir", "cart_test.exs",  # ExUnit's tests are named by their labels, as other languages' tests are
         "defmodule Shop.CartTest do\n  use ExUnit.Case\n\n  setup do\n    %{cart: []}\n  end\n\n"
         "  describe \"add/2\" do\n    test \"adds an item\", %{cart: cart} do\n      assert [1 | cart] == [1]\n"
         "    end\n  end\nend\n",
         [("Shop.CartTest", "module"), ("Shop.CartTest.setup", "callback"), ('Shop.CartTest.describe("add/2")', "callback"),
          ('Shop.CartTest.describe("add/2").test("adds an item")', "callback")]),
        ("elixir", "money.ex",  # guards, macros, delegates, one-liners; a struct's own impl has no ``for:``
         "defmodule Money do\n  defstruct cents: 0\n  defguard is_cents(x) when is_integer(x) and x >= 0\n"
         "  defmacro euros(n), do: quote(do: unquote(n) * 100)\n  defdelegate fetch(m, key), to: Map\n"
         "  defp zero, do: 0\n  def add(a, b) when is_cents(b), do: a + b\n\n  defimpl Inspect do\n"
         "    def inspect(m, _opts), do: \"€#{m.cents / 100}\"\n  end\n\n  defmodule __MODULE__.Rounding do\n"
         "    def half_up(cents), do: cents\n  end\nend\n",
         [("Money.is_cents", "guard"), ("Money.euros", "macro"), ("Money.fetch", "function"), ("Money.zero", "function"),
          ("Money.add", "function"), ("Money.Inspect", "impl"), ("Money.Inspect.inspect", "function"),
          ("Money.__MODULE__.Rounding.half_up", "function")]),
        # A class extension (``()``) is an anonymous category; a C ``typedef struct`` and a C
        # function beside the classes; ``NS_ASSUME_NONNULL_BEGIN`` alone on its line is no type.
        ("objc", "Cart.mm",
         "NS_ASSUME_NONNULL_BEGIN\n\n@class Cart;\n\n@interface Cart ()\n@property (nonatomic) NSInteger count;\n@end\n\n"
         "typedef struct {\n    double net;\n    double vat;\n} Totals;\n\n@implementation Cart\n@synthesize count = _count;\n\n"
         "- (Totals)totalsWithRate:(double)rate rounding:(BOOL)round {\n    Totals t = {0, 0};\n    return t;\n}\n\n"
         "#pragma mark - Private\n\n+ (void)load {\n}\n@end\n\nvoid CartLog(Cart *cart) {\n    NSLog(@\"%@\", cart);\n}\n\n"
         "NS_ASSUME_NONNULL_END\n",
         [("Cart", "category"), ("Totals", "struct"), ("Cart", "implementation"),
          ("Cart.totalsWithRate:rounding:", "method"), ("Cart.load", "method"), ("CartLog", "function")]),
        # ``workflow`` and scope-qualified functions; a derived class's static and overriding methods.
        ("powershell", "forms.ps1",
         "function global:Get-Thing { 1 }\nworkflow Invoke-Nightly { Get-Thing }\n"
         "class Base { [string] ToString() { return \"b\" } }\nclass Derived : Base, IComparable {\n"
         "    static [int]$Count = 0\n    [int] CompareTo([object]$other) { return 0 }\n"
         "    static [Derived] Parse([string]$s) { return [Derived]::new() }\n}\nenum Perm { Read = 1; Write = 2 }\n",
         [("global:Get-Thing", "function"), ("Invoke-Nightly", "workflow"), ("Base.ToString", "method"),
          ("Derived", "class"), ("Derived.CompareTo", "method"), ("Derived.Parse", "method"), ("Perm", "enum")]),
        # ``let rec ... and ...`` bindings are two functions; a ``let`` without parameters is one
        # when it is a ``fun`` or a ``function``, else a statement (``rate``, ``()``); a
        # ``functor``'s structure holds its items; ``type ... and ...``; class types.
        ("ocaml", "forms.ml",
         "let rec even n = n = 0 || odd (n - 1)\nand odd n = n <> 0 && even (n - 1)\n\nlet rate = 20\n"
         "let () = print_int rate\nlet double = fun x -> x * 2\nlet label = function `A -> \"a\" | `B -> \"b\"\n"
         "let ( +% ) a b = a + b * rate / 100\n\ntype cents = int\nand sku = string\n\n"
         "module Flip = functor (P : sig val x : int end) -> struct\n  let y = P.x\n  let get () = y\nend\n"
         "module IntMap = Map.Make (Int)\n\nclass type priced = object\n  method price : int\nend\n\n"
         "class virtual shelf = object\n  method virtual capacity : int\n  method private fill n = n\nend\n",
         [("even", "function"), ("odd", "function"), ("double", "function"), ("label", "function"),
          ("( +% )", "function"), ("cents", "type"), ("sku", "type"), ("Flip", "module"), ("Flip.get", "function"),
          ("IntMap", "module"), ("priced", "class_type"), ("priced.price", "method"), ("shelf", "class"),
          ("shelf.capacity", "method"), ("shelf.fill", "method")]),
        # A namespace; ``type ... and ...``; an explicit interface and a struct; an abbreviation, a
        # delegate, an exception; a type extension; a class's constructor, abstract, default,
        # override, private and static members (an operator), an auto-property and ``static let``
        # (statements); ``let rec ... and ...`` bound to ``function``s in a body; a partial
        # active pattern, an operator, a backticked test; definitions under ``#if``, at the
        # file's level and at column 0 in a module (an ``#else`` there failed the whole file).
        ("fsharp", "Forms.fs",
         "namespace Shop.Stock\n\ntype Item = { Sku: string }\nand Box = { Items: Item list }\n\n"
         "type IStore =\n    interface\n        abstract Load: string -> int\n    end\n\n"
         "[<Struct>]\ntype Cell = struct\n    val Row: int\nend\n\n"
         "type Pair = int * int\ntype Handler = delegate of int -> unit\nexception Shortage of string\n\n"
         "type System.String with\n    member s.AsSku = s.ToUpperInvariant()\n\n"
         "type Shelf(code: string) =\n    inherit Base()\n    static let mutable count = 0\n    new() = Shelf(\"A1\")\n"
         "    member val Note = \"\" with get, set\n    abstract Describe: unit -> string\n"
         "    default this.Describe() = code\n    override _.ToString() = code\n"
         "    member private this.Hidden x = x + 1\n    static member (+) (a: Shelf, b: Shelf) = a\n\n"
         "module Rules =\n    let (|Even|_|) n = if n % 2 = 0 then Some n else None\n"
         "#if DEBUG\n    let trace msg = printfn msg\n"
         "#else\n    let trace _ = ()\n#endif\n    let inline ( +% ) a b = a + b\n"
         "    let ``rounds up to whole packs`` () = 12\n    let split xs =\n"
         "        let rec evens = function\n            | [] -> []\n            | x :: rest -> x :: odds rest\n"
         "        and odds = function\n            | [] -> []\n            | _ :: rest -> evens rest\n"
         "        evens xs\n\n#if DEBUG\nmodule Trace =\n    let log msg = printfn \"%s\" msg\n#endif\n",
         [("Shop.Stock", "namespace"), ("Shop.Stock.Item", "record"), ("Shop.Stock.Box", "record"),
          ("Shop.Stock.IStore", "interface"), ("Shop.Stock.IStore.Load", "method"), ("Shop.Stock.Cell", "struct"),
          ("Shop.Stock.Pair", "type"), ("Shop.Stock.Handler", "delegate"), ("Shop.Stock.Shortage", "exception"),
          ("Shop.Stock.System.String", "extension"), ("Shop.Stock.System.String.AsSku", "method"),
          ("Shop.Stock.Shelf", "class"), ("Shop.Stock.Shelf.new", "method"), ("Shop.Stock.Shelf.Describe", "method"),
          ("Shop.Stock.Shelf.ToString", "method"), ("Shop.Stock.Shelf.Hidden", "method"),
          ("Shop.Stock.Shelf.(+)", "method"), ("Shop.Stock.Rules", "module"), ("Shop.Stock.Rules.(|Even|_|)", "function"),
          ("Shop.Stock.Rules.trace", "function"), ("Shop.Stock.Rules.( +% )", "function"),
          ("Shop.Stock.Rules.``rounds up to whole packs``", "function"),
          ("Shop.Stock.Rules.split", "function"), ("Shop.Stock.Rules.split.evens", "function"),
          ("Shop.Stock.Rules.split.odds", "function"), ("Shop.Stock.Trace", "module"), ("Shop.Stock.Trace.log", "function")]),
        # A header's records, macros and opaque types; a spec of two clauses over its function.
        ("erlang", "shop.hrl",
         "%% Shared records of the shop's services.\n-record(line, {sku, qty = 1}).\n-define(VAT, 20).\n"
         "-opaque token() :: binary().\n-spec price(integer()) -> integer();\n           (float()) -> float().\n"
         "price(N) -> N * 2.\n",
         [("line", "record"), ("VAT", "macro"), ("token", "type"), ("price", "function")]),
        # A named fun bound to a variable is a nested function; a fun passed to a call is not.
        ("erlang", "loops.erl",
         "-module(loops).\n-export([drain/1]).\n\ndrain(Queue) ->\n"
         "    Loop = fun Loop([]) -> ok; Loop([_ | T]) -> Loop(T) end,\n"
         "    lists:foreach(fun(X) -> io:format(\"~p\", [X]) end, Queue),\n    Loop(Queue).\n",
         [("loops", "module"), ("loops.drain", "function"), ("loops.drain.Loop", "function")]),
        # A named generic interface, interface blocks of external and separate module procedures,
        # an extended type; a submodule's ``module procedure``; an external ``recursive function``.
        ("fortran", "shelves.f90",
         "module shelves\n  implicit none\n  type :: shelf_t\n    integer :: slots = 0\n  end type\n"
         "  type, extends(shelf_t) :: cold_shelf_t\n    real :: celsius = 4.0\n  end type cold_shelf_t\n"
         "  interface restock\n    module procedure restock_one\n  end interface restock\n"
         "  interface\n    subroutine legacy_count(n) bind(c, name=\"legacy_count\")\n      integer :: n\n    end subroutine\n"
         "  end interface\ncontains\n  subroutine restock_one(s)\n    type(shelf_t) :: s\n  end subroutine\n"
         "end module shelves\n\nsubmodule (shelves) shelves_io\ncontains\n  module procedure legacy_wrap\n"
         "    call legacy_count(3)\n  end procedure\nend submodule shelves_io\n\n"
         "recursive function bins(n) result(total)\n  integer, intent(in) :: n\n  integer :: total\n  total = n\n"
         "end function bins\n",
         [("shelves", "module"), ("shelves.shelf_t", "type"), ("shelves.cold_shelf_t", "type"),
          ("shelves.restock", "interface"), ("shelves.interface.legacy_count", "subroutine"),
          ("shelves.restock_one", "subroutine"), ("shelves_io", "submodule"), ("shelves_io.legacy_wrap", "procedure"),
          ("bins", "function")]),
        # Interface blocks in and out of a stage, an array of blocks, a struct declared with a
        # variable, a subroutine's implementation and a function under ``#ifdef``.
        ("glsl", "bins.geom",
         "#version 450\nin VertexData {\n    vec3 normal;\n} gs_in[];\n\nout FragData {\n    vec2 uv;\n} gs_out;\n\n"
         "struct Pair { float a; float b; } pair;\n\nsubroutine vec4 colorFn(vec2 uv);\n"
         "subroutine(colorFn) vec4 red(vec2 uv) {\n    return vec4(1.0, 0.0, 0.0, 1.0);\n}\n\n"
         "#ifdef WIREFRAME\nvoid edge(int i) {\n    EmitVertex();\n}\n#endif\n",
         [("VertexData", "block"), ("FragData", "block"), ("Pair", "struct"), ("red", "function"),
          ("edge", "function")]),
        # Multi-arity functions, types, interfaces, protocol extensions, metadata on the list, a
        # vector dispatch value; a second ``ns`` is not in the first; spec's ``s/def`` is no ``def``.
        ("clojure", "forms.clj",
         "(ns shop.a)\n(defn total\n  ([xs] (total xs 0))\n  ([xs start] (reduce + start xs)))\n"
         "(deftype Counter [^:volatile-mutable n]\n  clojure.lang.IDeref\n  (deref [_] n))\n"
         "(definterface Stocked (onHand []))\n(extend-type Long Priced (cost [n] n))\n"
         "(extend-protocol Priced\n  String\n  (cost [s] (count s))\n  nil\n  (cost [_] 0))\n"
         "^:deprecated (defn old-total [xs] (total xs))\n(s/def ::sku string?)\n"
         "(defmethod price [:book :eu] [item] 2)\n(defmacro unless [test & body] `(when-not ~test ~@body))\n"
         "(ns shop.b)\n(def ^:dynamic *rate* 0.2)\n(defn- helper [x] x)\n(def rate-of (fn [x] (* x *rate*)))\n"
         "(defmethod render \"html\" [page] page)\n(deftest rate-is-positive\n  (is (pos? *rate*)))\n",
         [("shop.a", "namespace"), ("shop.a.total", "function"), ("shop.a.Counter", "type"),
          ("shop.a.Counter.deref", "method"), ("shop.a.Stocked", "interface"), ("shop.a.Stocked.onHand", "method"),
          ("shop.a.Long", "extension"), ("shop.a.Long.Priced.cost", "method"), ("shop.a.Priced", "extension"),
          ("shop.a.Priced.String.cost", "method"), ("shop.a.Priced.nil.cost", "method"),
          ("shop.a.old-total", "function"),
          ("shop.a.price [:book :eu]", "method"), ("shop.a.unless", "macro"), ("shop.b", "namespace"),
          ("shop.b.*rate*", "variable"), ("shop.b.helper", "function"), ("shop.b.rate-of", "function"),
          ('shop.b.render "html"', "method"), ("shop.b.rate-is-positive", "test")]),
        # ``.cljc``: the definitions in a reader conditional's branches are the file's own.
        ("clojure", "clock.cljc",
         "(ns shop.clock)\n\n#?(:clj\n   (defn now [] (System/currentTimeMillis))\n   :cljs\n"
         "   (defn now [] (.now js/Date)))\n\n(defn later [ms]\n  (+ (now) ms))\n",
         [("shop.clock.now", "function"), ("shop.clock.later", "function")]),
        # A curried define, a define of a lambda, Guile's ``define*``/``define-public`` and its
        # ``define-module`` scoping what follows (a second one not in the first), a top-level
        # ``begin`` opened, an R6RS ``library``, a function nested in a function.
        ("scheme", "forms.scm",
         "(define-module (shop stock) #:use-module (srfi srfi-1))\n(define ((adder n) x) (+ n x))\n"
         "(define total (lambda (xs) (apply + xs)))\n(define* (restock bin #:optional (qty 1)) qty)\n"
         "(define-public (pick bin) bin)\n(begin\n  (define a 1)\n  (define (b) 2))\n"
         "(define (outer x)\n  (define y 2)\n  (define (inner z) (* y z))\n  (inner x))\n"
         "(define-module (shop price))\n(define rate 0.2)\n"
         "(library (shop ledger)\n  (export post)\n  (import (rnrs))\n  (define (post e) e))\n",
         [("(shop stock)", "module"), ("(shop stock).adder", "function"), ("(shop stock).total", "function"),
          ("(shop stock).restock", "function"), ("(shop stock).pick", "function"), ("(shop stock).a", "variable"),
          ("(shop stock).b", "function"), ("(shop stock).outer.inner", "function"), ("(shop price)", "module"),
          ("(shop price).rate", "variable"), ("(shop price).(shop ledger).post", "function")]),
        # A submodule with its language, ``module*``, a ``define-syntax`` with a call list, ``λ``,
        # a bracketed form, ``define-struct``, ``begin-for-syntax``, a contracted variable.
        ("racket", "forms.rkt",
         "#lang racket\n(module shop racket/base\n  (provide f)\n  (define (f) 1))\n(module* main #f\n  (f))\n"
         "(define-syntax (swap! stx) (syntax-case stx () [(_ a b) #'(set! a b)]))\n(define inc (\u03bb (x) (+ x 1)))\n"
         "[define (bracketed x) x]\n(define-struct bin (sku qty))\n(begin-for-syntax\n  (define (helper stx) stx))\n"
         "(define/contract rate real? 0.2)\n(define-simple-macro (twice e) (begin e e))\n",
         [("shop", "module"), ("shop.f", "function"), ("main", "module"), ("swap!", "macro"), ("inc", "function"),
          ("bracketed", "function"), ("bin", "struct"), ("helper", "function"), ("rate", "variable"),
          ("twice", "macro")]),
        # An ``eql`` specializer and ``&optional``, a ``(setf ...)`` function, a package-qualified
        # name, ``#-(or ...)``, ``eval-when`` and ``progn`` opened, a string package, ASDF's
        # system, a second ``in-package`` not in the first.
        ("commonlisp", "forms.lisp",
         "(in-package \"SHOP\")\n(defmethod price ((item (eql :gift-card)) &optional (qty 1)) qty)\n"
         "(defmethod (setf bin-qty) (value (bin bin)) value)\n(defun cl-user::helper () 1)\n"
         "#-(or sbcl ccl)\n(defun portable-now () (get-universal-time))\n"
         "(eval-when (:compile-toplevel :load-toplevel :execute)\n  (defmacro with-lock ((lock) &body body) `(progn ,lock ,@body)))\n"
         "(progn\n  (defvar *a* 1)\n  (defun b () 2))\n(deftype sku () 'string)\n"
         "(in-package :shop.test)\n(defsystem \"shop\" :depends-on (\"alexandria\"))\n",
         [("SHOP", "namespace"), ("SHOP.price ((eql :gift-card))", "method"), ("SHOP.(setf bin-qty) (t bin)", "method"),
          ("SHOP.cl-user.helper", "function"), ("SHOP.portable-now", "function"), ("SHOP.with-lock", "macro"),
          ("SHOP.*a*", "variable"), ("SHOP.b", "function"), ("SHOP.sku", "type"), ("shop.test", "namespace"),
          ("shop.test.shop", "system")]),
        # ``defsubst``, ``defface``, ``defvar-local``, ``cl-defmethod`` with a qualifier and two
        # specializers, ``with-eval-after-load`` and ``progn`` opened, EIEIO's ``defclass``,
        # ``defalias`` named by its quoted symbol.
        ("elisp", "forms.el",
         "(defsubst shop-cents (euros) (* 100 euros))\n(defface shop-low-stock '((t :foreground \"red\")) \"Low.\")\n"
         "(defvar-local shop--bin nil)\n(cl-defmethod shop-price :around ((item (eql gift)) &optional qty) qty)\n"
         "(cl-defmethod shop-price ((item shop-line) (n integer)) n)\n"
         "(with-eval-after-load 'org\n  (defun shop-org-link (sku) sku))\n(progn\n  (defconst shop-a 1)\n  (defun shop-b () 2))\n"
         "(defclass shop-bin ()\n  ((sku :initarg :sku))\n  \"A bin.\")\n(defalias 'shop-old #'shop-b)\n",
         [("shop-cents", "function"), ("shop-low-stock", "face"), ("shop--bin", "variable"),
          ("shop-price :around ((eql gift))", "method"), ("shop-price (shop-line integer)", "method"),
          ("shop-org-link", "function"), ("shop-a", "constant"), ("shop-b", "function"), ("shop-bin", "class"),
          ("shop-old", "alias")]),
        # A selector list over lines is one name on one line, a long one cut; ``@layer a, b;``
        # defines nothing; the generic at-rule's kind is its keyword.
        ("css", "at-rules.css",
         "/* Buttons share one rule. */\n.btn,\n.btn-primary,\n.btn-secondary:not(:disabled) {\n  cursor: pointer;\n}\n"
         "@layer reset, base;\n@container (min-width: 400px) {\n  .card { display: flex; }\n}\n"
         "@media print {\n  @page { margin: 1cm; }\n}\n@supports selector(:has(a)) {\n  .menu:has(a:focus) { outline: 1px solid; }\n}\n"
         "@property --angle {\n  syntax: \"<angle>\";\n  inherits: false;\n}\n@starting-style {\n  .toast { opacity: 0; }\n}\n"
         "html, body, div, span, applet, object, iframe, h1, h2, h3, h4, h5, h6, p, blockquote, pre, a, abbr, acronym {\n"
         "  margin: 0;\n}\n",
         [(".btn, .btn-primary, .btn-secondary:not(:disabled)", "rule"), ("@container (min-width: 400px)", "container"),
          ("@container (min-width: 400px) \u00bb .card", "rule"), ("@media print \u00bb @page", "page"),
          ("@supports selector(:has(a)) \u00bb .menu:has(a:focus)", "rule"), ("@property --angle", "property"),
          ("@starting-style \u00bb .toast", "rule"),
          ("html, body, div, span, applet, object, iframe, h1, h2, h3, h4, h5, h6, p, blockquote, pre, a, abbr,\u2026", "rule")]),
        # Control directives at a file's level are opened: the rules they generate are its own.
        ("scss", "directives.scss",
         "@if $theme == dark {\n  .page { background: #000; }\n} @else {\n  .page-light { background: #fff; }\n}\n"
         "@for $i from 1 through 3 {\n  .mt-#{$i} { margin-top: $i * 4px; }\n}\n"
         ".menu {\n  %menu-item { padding: 0; }\n  & > li { display: inline; }\n  &:hover, &:focus-within { color: red; }\n}\n"
         "/// Hover styles, given as the mixin's content.\n@mixin on-hover {\n  &:hover { @content; }\n}\n",
         [(".page", "rule"), (".page-light", "rule"), (".mt-#{$i}", "rule"), (".menu \u00bb %menu-item", "rule"),
          (".menu \u00bb & > li", "rule"), (".menu \u00bb &:hover, &:focus-within", "rule"), ("on-hover", "mixin"),
          ("on-hover \u00bb &:hover", "rule")]),
        # A header's kernel prototypes and specializations are kernels, a ``__device__`` one a
        # function; ``extern "C"`` kernels, launch bounds, ``__align__(16)`` structs, Hopper's
        # ``__cluster_dims__``, a member defined outside its class, an extended lambda.
        ("cuda", "kernels.cuh", _CUDA_FORMS,
         [("restockKernel", "kernel"), ("lerpPrice", "function"), ("cAbiKernel", "kernel"), ("PricePair", "struct"),
          ("DeviceSpan", "struct"), ("DeviceSpan.operator[]", "method"), ("<anonymous>", "namespace"),
          ("<anonymous>.warpTotals", "kernel"), ("sumKernel", "kernel"), ("clusterKernel", "kernel"),
          ("Pricer", "class"), ("Pricer.Pricer", "method"), ("Pricer.apply", "method"), ("launchAll", "function")]),
        # Commands in capitals (CMake reads any case), a quoted name, a function a macro
        # defines, a bracket comment above a function; targets of every kind and dependencies.
        ("cmake", "legacy.cmake",
         "#[[ Old-style helpers, in capitals. ]]\nFUNCTION(Shop_Legacy_Add name)\n  ADD_LIBRARY(${name} STATIC ${ARGN})\n"
         "ENDFUNCTION()\nfunction(\"quoted_helper\" x)\nendfunction()\nmacro(shop_define_helpers)\n"
         "  function(shop_generated_helper)\n  endfunction()\nendmacro(shop_define_helpers)\n"
         "ADD_EXECUTABLE(legacy_tool main.c)\nadd_custom_target(docs ALL COMMAND doxygen)\n"
         "ExternalProject_Add(zlib_ext URL https://zlib.net/zlib.tar.gz)\n"
         "fetchcontent_declare(fmt GIT_REPOSITORY https://github.com/fmtlib/fmt.git)\n",
         [("Shop_Legacy_Add", "function"), ("quoted_helper", "function"), ("shop_define_helpers", "macro"),
          ("shop_define_helpers.shop_generated_helper", "function"), ("legacy_tool", "executable"), ("docs", "target"),
          ("zlib_ext", "dependency"), ("fmt", "dependency")]),
        # Functions without ``end`` (a script's local function after its statements), a nested
        # function, a function with neither parameters nor outputs.
        ("matlab", "reprice.m",
         "% Reprices the aisle's labels.\nlabels = load_labels(\"A7\");\nlabels = reprice(labels);\n\n"
         "function labels = reprice(labels)\n% Rounds every price to 5 cents.\nfor k = 1:numel(labels)\n"
         "    labels(k).Price = round_price(labels(k).Price);\nend\n\n% Rounds one price.\n"
         "function p = round_price(p)\np = round(p * 20) / 20;\n\nfunction print_all\ndisp(\"all\")\n",
         [("reprice", "function"), ("round_price", "function"), ("print_all", "function")]),
        ("matlab", "restock_wave.m",
         "function restock_wave(bins)\n    function n = short(bin)\n        n = bin.Target - bin.Level;\n    end\n"
         "    arrayfun(@short, bins);\nend\n",
         [("restock_wave", "function"), ("restock_wave.short", "function")]),
        # An abstract class's methods declared without a body (and one defined in its own file,
        # declared in a ``methods (Static)`` block), a dependent property's accessors, a class of
        # enumeration members with a method.
        ("matlab", "PriceRule.m",
         "classdef (Abstract) PriceRule < handle\n    % A rule that changes a shelf price.\n"
         "    properties (Dependent)\n        Label\n    end\n    methods (Abstract)\n        % The price after the rule.\n"
         "        p = apply(rule, price)\n    end\n    methods\n        function v = get.Label(rule)\n"
         "            v = class(rule);\n        end\n        function set.Label(rule, v)\n            rule.Note = v;\n"
         "        end\n    end\n    methods (Static, Access = protected)\n        r = fromRow(row)\n    end\nend\n",
         [("PriceRule", "class"), ("PriceRule.apply", "method"), ("PriceRule.get.Label", "getter"),
          ("PriceRule.set.Label", "setter"), ("PriceRule.fromRow", "method")]),
        ("matlab", "Priority.m",
         "classdef Priority < uint8\n    enumeration\n        Low (1)\n        Urgent (3)\n    end\n    events\n"
         "        Escalated\n    end\n    methods\n        function tf = isRush(p)\n            tf = p >= Priority.Urgent;\n"
         "        end\n    end\nend\n",
         [("Priority", "class"), ("Priority.isRush", "method")]),
        # SystemVerilog classes in a package: ``extern`` and ``pure virtual`` prototypes, a
        # constructor named ``new``, ``static`` functions and ``virtual`` tasks (their qualifiers
        # start their signatures), constraints, a forward ``typedef class``, an interface class.
        ("verilog", "tote_pkg.sv",
         "package tote_pkg;\n  typedef class Tote;\n\n  // A tote on the test conveyor.\n"
         "  virtual class Tote #(type T = int) extends Box;\n    rand int weight;\n"
         "    constraint light { weight < 20; }\n    extern function void pack();\n"
         "    pure virtual function int cost();\n"
         "    static function Tote make();\n      return null;\n    endfunction\n"
         "    function new(int w);\n      weight = w;\n    endfunction\n"
         "    virtual task automatic ship(input int n);\n      repeat (n) @(posedge clk);\n    endtask : ship\n"
         "  endclass : Tote\n\n  interface class Priced;\n    pure virtual function int price();\n  endclass\n"
         "endpackage\n",
         [("tote_pkg", "package"), ("tote_pkg.Tote", "type"), ("tote_pkg.Tote", "class"),
          ("tote_pkg.Tote.light", "constraint"), ("tote_pkg.Tote.pack", "method"), ("tote_pkg.Tote.cost", "method"),
          ("tote_pkg.Tote.make", "method"), ("tote_pkg.Tote.new", "constructor"), ("tote_pkg.Tote.ship", "task"),
          ("tote_pkg.Priced", "interface"), ("tote_pkg.Priced.price", "method")]),
        # Verilog-2001 ports declared in the body; generate loops with and without a label (in a
        # ``generate`` region or not); ``fork``/``join``; an unlabelled ``initial``, a labelled
        # ``always``; a program block; a macro with arguments.
        ("verilog", "lanes.v",
         "module lanes (clk, q);\n  parameter N = 4;\n  input clk;\n  output [N-1:0] q;\n"
         "  for (genvar i = 0; i < N; i++) begin\n    assign q[i] = clk;\n  end\n"
         "  generate\n    for (genvar j = 0; j < N; j++) begin : g_j\n      always @(posedge clk) q[j] <= ~q[j];\n"
         "    end\n  endgenerate\n  initial begin\n    fork\n      #5 $display(\"a\");\n    join\n  end\n"
         "  always begin : heartbeat\n    #10;\n  end\n  task automatic pulse(output p);\n    p = 1;\n  endtask\n"
         "endmodule\n\nprogram automatic stock_test;\n  initial begin : run\n    $display(\"go\");\n  end\n"
         "endprogram\n`define CHUTE_OF(z) ((z) / 6)\n",
         [("lanes", "module"), ("lanes.for (genvar i = 0; i < N; i++)", "generate"), ("lanes.g_j", "generate"),
          ("lanes.g_j.always @(posedge clk) q[j] <= ~q[j];", "always"), ("lanes.initial", "initial"),
          ("lanes.heartbeat", "always"), ("lanes.pulse", "task"), ("stock_test", "program"),
          ("stock_test.run", "initial"), ("CHUTE_OF", "macro")]),
        # VHDL: protected types (their subprograms are their members), an operator function,
        # generate statements and a block, a procedure declared in a process, a configuration,
        # keywords in capitals.
        ("vhdl", "tb.vhd",
         "ARCHITECTURE sim OF tb IS\n  TYPE counter_t IS PROTECTED\n    PROCEDURE inc;\n  END PROTECTED counter_t;\n"
         "  TYPE counter_t IS PROTECTED BODY\n    VARIABLE n : natural := 0;\n    PROCEDURE inc IS\n    BEGIN\n"
         "      n := n + 1;\n    END PROCEDURE;\n  END PROTECTED BODY counter_t;\n"
         "  function \"+\" (a, b : byte_t) return byte_t is\n  begin\n    return a;\n  end function \"+\";\n"
         "BEGIN\n  gen_lanes : for i in 0 to 3 generate\n    lane_p : process\n      procedure tick is\n      begin\n"
         "        null;\n      end procedure;\n    begin\n      wait until rising_edge(clk);\n    end process lane_p;\n"
         "  end generate gen_lanes;\n  gen_if : if WIDTH > 4 generate\n    x <= y;\n  end generate;\n"
         "  blk : block\n  begin\n    z <= w;\n  end block blk;\n  process (clk, rst) is\n  begin\n    null;\n"
         "  end process;\nEND sim;\n\nconfiguration cfg of tb is\n  for sim\n  end for;\nend configuration;\n",
         [("tb.sim", "architecture"), ("tb.sim.counter_t", "type"), ("tb.sim.counter_t.inc", "procedure"),
          ("tb.sim.+", "function"), ("tb.sim.gen_lanes", "generate"), ("tb.sim.gen_lanes.lane_p", "process"),
          ("tb.sim.gen_lanes.lane_p.tick", "procedure"), ("tb.sim.gen_if", "generate"), ("tb.sim.blk", "block"),
          ("tb.sim.process (clk, rst)", "process"), ("cfg", "configuration")]),
        # A package set: ``with pkgs; rec { ... }`` opened; sets handed to ``callPackage``,
        # ``import``, ``mkDerivation (finalAttrs: ...)`` and ``mkOption`` typed by their callee;
        # quoted attributes; nested sets and functions; a top-level ``let``'s bindings.
        ("nix", "default.nix",
         "{ pkgs ? import <nixpkgs> { } }:\n\nwith pkgs;\n\nlet\n  mkBin = aisle: n: \"${aisle}-${toString n}\";\n"
         "in\nrec {\n  restock-cli = python3Packages.buildPythonApplication {\n    pname = \"restock-cli\";\n  };\n"
         "  labels = callPackage ./labels.nix { inherit restock-cli; };\n"
         "  helpers = import ./helpers.nix { inherit lib; };\n"
         "  scale = stdenv.mkDerivation (finalAttrs: {\n    pname = \"scale\";\n  });\n"
         "  \"pick-station\" = {\n    options.port = lib.mkOption { type = lib.types.port; };\n"
         "    count = x: y: x + y;\n  };\n  version = \"1.0\";\n  empty = { };\n  inherit (lib) mkIf;\n}\n",
         [("mkBin", "function"), ("restock-cli", "derivation"), ("labels", "derivation"), ("helpers", "import"),
          ("scale", "derivation"), ("pick-station", "attrset"), ("pick-station.options.port", "option"),
          ("pick-station.count", "function")]),
        # Delphi's generic classes, nested types, class helpers, packed records and old
        # ``object`` types, a forward declaration; keywords in any case; a library's exports and
        # main block.
        ("pascal", "Warehouse.Bins.pas",
         "unit Warehouse.Bins;\n\ninterface\n\ntype\n  TBin<T: class> = class(TInterfacedObject, IComparable)\n"
         "  public type\n    TSlot = record\n      Row: Integer;\n    end;\n  strict protected\n"
         "    class var FCount: Integer;\n  public\n    function Find(const Key: string): T; inline;\n  end;\n\n"
         "  TBinHelper = class helper for TBin\n    function Describe: string;\n  end;\n\n"
         "  TPoint = packed record\n    X, Y: Integer;\n"
         "    class operator Equal(const A, B: TPoint): Boolean;\n  end;\n\n"
         "  TShelf = object\n    Width: Integer;\n    procedure Grow;\n  end;\n\n"
         "procedure Helper(A: Integer);\n\nimplementation\n\nfunction TBin<T>.Find(const Key: string): T;\nbegin\n"
         "  Result := nil;\nend;\n\nclass operator TPoint.Equal(const A, B: TPoint): Boolean;\nbegin\n"
         "  Result := (A.X = B.X) and (A.Y = B.Y);\nend;\n\nProcedure TShelf.Grow;\nBegin\n  Inc(Width);\nEnd;\n\n"
         "PROCEDURE Helper(A: Integer);\nBEGIN\nEND;\n\nFunction Twice(N: Integer): Integer;\n"
         "  Procedure Check;\n  Begin\n  End;\nBegin\n  Result := 2 * N;\nEnd;\n\nend.\n",
         [("Warehouse.Bins", "unit"), ("Warehouse.Bins.TBin", "class"), ("Warehouse.Bins.TBin.TSlot", "record"),
          ("Warehouse.Bins.TBinHelper", "helper"), ("Warehouse.Bins.TPoint", "record"),
          ("Warehouse.Bins.TShelf", "object"), ("Warehouse.Bins.TBin.Find", "method"),
          ("Warehouse.Bins.TPoint.Equal", "method"), ("Warehouse.Bins.TShelf.Grow", "method"),
          ("Warehouse.Bins.Helper", "procedure"), ("Warehouse.Bins.Twice", "function"),
          ("Warehouse.Bins.Twice.Check", "procedure")]),
        ("pascal", "StockHooks.lpr",
         "library StockHooks;\n\nuses\n  SysUtils;\n\nfunction Level(Sku: PChar): Integer; stdcall;\nbegin\n"
         "  Result := 0;\nend;\n\nexports\n  Level;\n\nbegin\nend.\n",
         [("StockHooks", "library"), ("StockHooks.Level", "function"), ("StockHooks.<main>", "main")]),
    ],
    ids=["java-enum-body", "csharp-operators-file-namespace", "kotlin-constructor", "kotlin-type-parameter-receiver", "kotlin-interface-enum", "rust-macro", "php-file-namespace", "php-global-namespace",
         "go-type-specs", "swift-kinds", "scala-kinds", "scala-one-line-extension", "lua-function-forms", "bash-function-forms",
         "csharp-indexer-event-preproc-records", "scala-packages", "ruby-class-methods", "lua-positional-and-nested", "c-extern-c", "cpp-extern-c-conversion-operators", "cpp-friend-function",
         "java-enum-constant-bodies-records", "javascript-prototype-methods", "typescript-type-aliases", "php-guarded-functions", "bash-guarded-function",
         "haskell-operators-equations-families", "julia-methods-heads-macros",
         "dart-constructors-operators-accessors",
         "solidity-file-level-abstract-fallback", "solidity-unnamed-fallback", "zig-container-kinds-extern-tests",
         "php-second-file-namespace", "r-assignment-forms-reference-classes-lists", "perl-packages-classes-anonymous-subs",
         "elixir-exunit", "elixir-macros-guards-delegates",
         "objc-extension-c-struct-macro-lines", "powershell-workflow-scopes-derived-class",
         "ocaml-and-bindings-values-functors-class-types", "fsharp-namespace-types-members-bindings",
         "erlang-header-forms", "erlang-bound-funs",
         "fortran-interfaces-submodule-external", "glsl-interface-blocks-subroutines",
         "clojure-arities-types-extensions-metadata", "clojure-reader-conditionals",
         "scheme-curried-guile-modules-begin-library", "racket-submodules-structs-macros",
         "commonlisp-specializers-features-eval-when-systems", "elisp-forms-specializers-opened-calls",
         "css-selector-lists-at-rules", "scss-directives-placeholders-nesting",
         "cuda-prototypes-specializations-bounds-lambdas",
         "cmake-capitals-quoted-names-macro-nesting-target-kinds",
         "matlab-functions-without-end-script", "matlab-nested-function", "matlab-abstract-accessors-static",
         "matlab-enumeration-events",
         "verilog-classes-prototypes-constraints", "verilog-2001-ports-generate-loops-program",
         "vhdl-protected-types-generate-block-configuration",
         "nix-package-set-callees-quoted-attributes",
         "pascal-delphi-types-helpers-keyword-case", "pascal-library-exports-main-block"],
)
def test_names_and_kinds_of_less_common_definitions(language, path, source, expected) -> None:
    found = {(d.symbol, d.kind) for d in list_definitions(prepare(path, language, source))}
    for item in expected:
        assert item in found, (item, sorted(found))
    symbols = {c.symbol for c in _syntax(path, language, source, unit="chars", budget=4000)}
    nested = {s for s, _ in found if LANGUAGES[language].path_separator in s}  # (split at a small budget only)
    assert {symbol for symbol, _ in expected} <= symbols | nested


def test_a_csharp_indexer_is_this_whatever_type_it_returns() -> None:
    # ``public Item this[int slot]`` was ``Shelf.Item`` (its type), ``List<T> this[long k]``
    # ``Shelf.List``: names of nested types, which an eval query of ``Shelf.this[]`` missed.
    source = ("public class Shelf\n{\n    public Item this[int slot] { get { return null; } }\n"
              "    public System.Collections.Generic.List<T> this[long k] => null;\n    public T this[string s] => default;\n"
              "    public string this[short n] => \"\";\n}\n")
    found = [(d.symbol, d.kind) for d in list_definitions(prepare("Shelf.cs", "csharp", source))]
    assert found == [("Shelf", "class")] + [("Shelf.this[]", "indexer")] * 4


def test_an_indented_scala_body_ends_on_its_last_line_not_on_the_next_members_indentation() -> None:
    # Scala 3's indented block runs on to the indentation of the line after it: read as is,
    # ``add`` took ``size``'s line and the two fused into plain statements.
    source = ("class Cart:\n  def add(i: Int): Unit =\n    println(i)\n    println(\"added\")\n  def size: Int = 0\n\n"
              "  def clear(): Unit =\n    println(\"cleared\")\n")
    found = {d.symbol: (d.first, d.last) for d in list_definitions(prepare("Cart.scala", "scala", source))}
    assert found["Cart.add"] == (2, 4) and found["Cart.size"] == (5, 5) and found["Cart.clear"] == (7, 8)
    chunks = _syntax("Cart.scala", "scala", source, unit="chars", budget=120)
    add = next(c for c in chunks if c.symbol == "Cart.add")
    assert (add.kind, add.start_line, add.end_line) == ("method", 2, 4)
    assert any(c.symbol == "Cart.size" and c.kind == "method" for c in chunks)


def test_a_scala_extension_repeats_its_own_head_above_its_methods() -> None:
    # It is its own body (its ``def``s are its children): its head is its text before them.
    source = "extension (amount: BigDecimal) {\n" + "".join(
        f"  def rate{i}: BigDecimal = amount * {i} / 100 + amount.scale * {i}\n" for i in range(6)
    ) + "}\n"
    chunks = _syntax("Money.scala", "scala", source, unit="chars", budget=200)
    members = [c for c in chunks if c.symbol.startswith("extension (amount: BigDecimal).rate")]
    assert len(members) >= 2
    assert all(c.kind == "method" and c.header == "extension (amount: BigDecimal) {" for c in members)


JS_ASSIGNED = """const helpers = {
  parseDate(text) {
    return new Date(text);
  },
  formatDate: function (date) {
    return date.toISOString();
  },
};

const LIMITS = { retries: 3, timeoutMs: 500 };

module.exports.slugify = function (title) {
  return title.toLowerCase();
};

exports.clamp = (value, low, high) => Math.min(Math.max(value, low), high);

function makeCache() {
  const cache = new Map();
  cache.clearAll = () => cache.clear();
  const api = { get(key) { return cache.get(key); } };
  return api;
}
"""


def test_functions_assigned_to_names_and_objects_of_methods_are_definitions() -> None:
    found = {(d.symbol, d.kind) for d in list_definitions(prepare("util.js", "javascript", JS_ASSIGNED))}
    assert {("helpers", "object"), ("helpers.parseDate", "method"), ("helpers.formatDate", "method"),
            ("module.exports.slugify", "function"), ("exports.clamp", "function"), ("makeCache", "function")} <= found
    assert not any(symbol.startswith("LIMITS") for symbol, _ in found), "an object of data is plain code"
    # In a function's body an assigned function or object of methods is one of its statements.
    chunks = _syntax("util.js", "javascript", JS_ASSIGNED, unit="chars", budget=90)
    assert {c.symbol for c in chunks if c.start_line >= 18} == {"makeCache"}
    python = "import math\n\nsquare = lambda x: x * x\n\ndef area(r):\n    twice = lambda v: 2 * v\n    return twice(math.pi * square(r))\n"
    assert [(d.symbol, d.kind) for d in list_definitions(prepare("geo.py", "python", python))] == [
        ("square", "function"), ("area", "function")]


@pytest.mark.parametrize(("path", "language", "source", "expected"), [
    ("f.py", "python", "identity = lambda x: x\nclass A:\n    key = lambda self: self\n",
     [("identity", "identity = lambda x:"), ("A.key", "key = lambda self:")]),
    ("f.js", "javascript", "exports.id = item => item.id;\nconst f = x => x;\nexports.x = function named() {};\n"
     "exports.gen = function* () {\n  yield 1;\n};\nconst api = {\n  'my-key': function () {},\n  m0(a, b) {\n    return a;\n  },\n};\n",
     [("exports.id", "exports.id = item =>"), ("f", "const f = x =>"), ("exports.x", "exports.x = function named()"),
      ("exports.gen", "exports.gen = function* ()"), ("api", "const api ="), ("api.my-key", "'my-key': function ()")]),
    ("f.ts", "typescript", "export const api = {\n  get(id: string) { return id; },\n} as const;\n"
     "export const cfg = { run() { return 1; } } satisfies Runner;\nexports.a = exports.b = exports.c = exports.d = () => 1;\n",
     [("api", "export const api ="), ("api.get", "get(id: string)"), ("cfg", "export const cfg ="), ("cfg.run", "run()"),
      ("exports.d", "exports.a = exports.b = exports.c = exports.d = () =>")]),
    ("f.tsx", "tsx", "class Form {\n  private readonly handle = (e: Event): void => {\n    this.set(e);\n  };\n  count = 0;\n}\n",
     [("Form.handle", "private readonly handle = (e: Event): void =>")]),
    ("f.js", "javascript", "class Form {\n  handleChange = (e) => {\n    this.set(e);\n  };\n}\n",
     [("Form.handleChange", "handleChange = (e) =>")]),
])
def test_a_function_held_by_a_name_is_named_by_it_not_by_what_it_holds(path, language, source, expected) -> None:
    # ``lambda x: x`` holds an ``x``; the name is what it is assigned to, and the signature shows it.
    found = {d.symbol: d.signature for d in list_definitions(prepare(path, language, source))}
    for symbol, signature in expected:
        assert found.get(symbol) == signature, (symbol, found)


REACT = """import React, { memo, forwardRef } from "react";

export const Button = memo(function Button({ label, onClick }: Props) {
  const [busy, setBusy] = React.useState(false);
  const handle = React.useCallback(() => {
    setBusy(true);
    onClick();
  }, [onClick]);
  return <button disabled={busy} onClick={handle}>{label}</button>;
});

export const Input = forwardRef<HTMLInputElement, InputProps>((props, ref) => {
  return <input ref={ref} value={props.value} />;
});

const List = React.memo(({ items }: { items: string[] }) => <ul>{items.map((i) => <li key={i}>{i}</li>)}</ul>);

export default () => {
  return <List items={["a"]} />;
};
"""


def test_a_function_wrapped_in_a_call_and_named_is_a_definition() -> None:
    # React's memo/forwardRef: ``const Button = memo(function Button() {...})`` defines Button.
    found = {d.symbol: (d.kind, d.signature) for d in list_definitions(prepare("ui.tsx", "tsx", REACT))}
    assert found["Button"] == ("function", "export const Button = memo(function Button({ label, onClick }: Props)")
    assert found["Input"][0] == "function" and found["Input"][1].startswith("export const Input = forwardRef<")
    assert found["List"][0] == "function"
    # An anonymous default export is named as JavaScript names it; a function passed to a call in
    # a function's body (``useCallback``) stays a statement of that body.
    assert found["default"][0] == "function"
    assert "Button.handle" not in found
    chunks = _syntax("ui.tsx", "tsx", REACT, unit="chars", budget=160)
    button = [c for c in chunks if c.symbol == "Button"]
    assert len(button) > 1 and all(c.header.startswith("export const Button = memo(function Button(") for c in button[1:])
    assert button[-1].text.rstrip().endswith("});"), "the call's closing tokens end the last part"


_VUE_COMPONENT = """export default defineComponent({
  name: "Counter",
  props: { start: Number },
  setup(props) {
    const count = ref(props.start);
    return { count };
  },
  methods: {
    increment() {
      this.count += 1;
    },
  },
});
"""


@pytest.mark.parametrize(("path", "language"), [("Counter.js", "javascript"), ("Counter.ts", "typescript")])
def test_a_default_export_passed_to_a_call_is_named_default_not_after_the_callee(path: str, language: str) -> None:
    # Vue 3's ``export default defineComponent({...})`` was ``defineComponent``, its methods
    # ``defineComponent.setup``: the library's function, not the component.
    names = [d.symbol for d in list_definitions(prepare(path, language, _VUE_COMPONENT))]
    assert names == ["default", "default.setup", "default.methods", "default.methods.increment"], names
    chunks = _syntax(path, language, _VUE_COMPONENT, unit="chars", budget=120)
    assert not any("defineComponent" in c.symbol for c in chunks)
    assert "default.setup" in {c.symbol for c in chunks}


_HELPERS = "".join(f"\n  function helper{i}(value) {{\n    var out = String(value) + '{i}';\n    return out.trim();\n  }}\n" for i in range(4))


@pytest.mark.parametrize(("path", "language", "source"), [
    ("lib.js", "javascript", "(function (root) {\n  'use strict';\n" + _HELPERS + "  root.lib = { helper0 };\n})(this);\n"),
    ("bang.js", "javascript", "!function () {\n" + _HELPERS + "}();\nconst after = 1;\n"),
    ("umd.js", "javascript", "(function (root, factory) {\n  root.lib = factory();\n}(this, function () {\n" + _HELPERS
     + "  return { helper0: helper0 };\n}));\n"),
    # Rollup's UMD: the factory in parentheses (jsdiff's dist/diff.js was 62 <module> chunks).
    ("diff.js", "javascript", "(function (global, factory) {\n  factory(global.Diff = {});\n})(this, (function (exports) {"
     + " 'use strict';\n" + _HELPERS + "  exports.helper0 = helper0;\n}));\n"),
    ("main.ts", "typescript", "(async () => {\n" + _HELPERS + "  await main();\n})();\n"),
], ids=["parenthesized", "bang", "umd-factory", "rollup-umd", "async-arrow"])
def test_a_function_called_where_it_is_written_opens_at_top_level(path, language, source) -> None:
    # Older JavaScript held a whole library in one such function: its definitions are the file's.
    names = [d.symbol for d in list_definitions(prepare(path, language, source))]
    assert names == [f"helper{i}" for i in range(4)], names
    chunks = _syntax(path, language, source, unit="chars", budget=120, merge_siblings=False)
    assert [c.symbol for c in chunks if c.kind == "function"] == [f"helper{i}" for i in range(4)]
    # An arrow whose body is an expression has no statements to open: the line stays code.
    assert not list_definitions(prepare(path, language, "(() => main())();\nconst x = 1;\n"))
    # In a function's body it stays a statement of that function.
    nested = "function outer() {\n" + source + "}\n"
    assert [d.symbol for d in list_definitions(prepare(path, language, nested))][0] == "outer"
    assert "helper0" not in {d.symbol for d in list_definitions(prepare(path, language, nested))}


@pytest.mark.parametrize("source", [
    'def f():\n    """' + "word " * 80 + "\n\n    " + "more " * 80 + '\n    """\n',  # a blank line between cut lines
    '""" ' + "Codec generated from " * 12 + "\n\n" + '"""#"\n',  # at the end of the piece cut by lines
    "def f():\n    raise ImportError('x',\n" + " " * 110 + "'" + "please install " * 12 + "')\n",  # indentation alone
])
def test_no_chunk_is_blank_or_indentation_alone(source: str) -> None:
    for settings in ({"unit": "chars", "budget": 120}, {"unit": "chars", "budget": 120, "merge_siblings": True}):
        chunks = _syntax("m.py", "python", source, **settings)
        assert all(c.text.strip() for c in chunks), [(c.start_line, c.text) for c in chunks if not c.text.strip()]


@pytest.mark.parametrize(("path", "language", "source", "budget", "listed"), [
    ("queue.hpp", "cpp", "class OrderQueue {\n public:\n  OrderQueue(int capacity);\n  ~OrderQueue();\n"
     + "".join(f"  bool push{i}(const Order& order, int priority);\n" for i in range(6))
     + "  int size() const { return count_; }\n private:\n  int count_ = 0;\n  void (*on_full)(int);\n};\n",
     220, ["push5", "size"]),
    ("store.go", "go", "package store\n\n// Store keeps values.\ntype Store interface {\n"
     + "".join(f"\tGet{i}(key string) (int, error)\n" for i in range(8)) + "\tio.Closer\n}\n", 120, ["Get0", "more"]),
], ids=["cpp-declared-methods", "go-interface"])
def test_a_split_class_lists_the_methods_it_only_declares(path, language, source, budget, listed) -> None:
    # A C++ header's class declares its methods; a Go interface is nothing but declarations.
    chunks = _syntax(path, language, source, unit="chars", budget=budget)
    head = next(c for c in chunks if c.kind == "class_header")
    summary = head.embed_text.split("\n")[1]
    assert "members of" in summary and all(name in summary for name in listed), head.embed_text
    assert "on_full" not in summary and "count_" not in summary, "fields are no methods"


def test_members_of_a_split_object_of_methods_repeat_its_signature() -> None:
    source = "const api = {\n" + "".join(f"  m{i}(a, b) {{\n    return a + b * {i};\n  }},\n" for i in range(8)) + "};\n"
    chunks = _syntax("api.js", "javascript", source, unit="chars", budget=120)
    assert chunks[0].kind == "class_header" and chunks[0].symbol == "api"
    assert all(c.header == "const api =" for c in chunks if c.symbol.startswith("api.m"))


@pytest.mark.parametrize("source", [
    "export default {\n  gen() {\n    return y;\n  }, data: {\n    a: 1\n  }\n};\n",
    "exports.f = function () {\n" + "".join(f"  x += {i};\n" for i in range(20)) + "}; exports.y =\n    5;\n",
    "function f() {\n" + "".join(f"  x = {i};\n" for i in range(30)) + "} let y =\n 5;\n",
])
def test_code_fused_onto_a_split_definitions_last_line_keeps_its_later_lines(source: str) -> None:
    chunks = _syntax("fused.js", "javascript", source, unit="chars", budget=60)  # _syntax checks coverage
    assert chunks


def test_an_interface_lists_its_method_signatures() -> None:
    source = ("export interface CartStore {\n  /** Load a cart by its id. */\n  load(id: string): Promise<Cart>;\n"
              "  /** Save a cart. */\n  save(cart: Cart): Promise<void>;\n  readonly name: string;\n}\n")
    chunks = _syntax("store.ts", "typescript", source, unit="chars", budget=110)
    assert chunks[0].kind == "class_header" and "members of CartStore: load, save" in chunks[0].header
    load = next(c for c in chunks if c.symbol == "CartStore.load")
    assert (load.kind, load.text) == ("method", "  /** Load a cart by its id. */\n  load(id: string): Promise<Cart>;")


def test_go_type_comments_and_keyword_stay_with_the_type() -> None:
    source = "package x\n\n// Store keeps values.\ntype Store struct {\n\tmu sync.Mutex\n}\n"
    store = next(c for c in _syntax("s.go", "go", source, unit="chars", budget=4000) if c.symbol == "Store")
    assert store.text.startswith("// Store keeps values.\ntype Store struct")


def test_a_csharp_property_too_big_is_split_into_parts_under_its_signature() -> None:
    source = "public class User {\n    public string Name {\n        get { return name; }\n        set {\n" + "".join(
        f"            if (value.Length > {i}) {{ Log(\"too long {i}\"); }}\n" for i in range(6)
    ) + "            name = value;\n        }\n    }\n}\n"
    parts = [c for c in _syntax("User.cs", "csharp", source, unit="chars", budget=200) if c.symbol == "User.Name"]
    assert len(parts) > 1 and [c.part for c in parts] == list(range(1, len(parts) + 1))
    assert all(c.header == "public string Name" for c in parts[1:])


@pytest.mark.parametrize("language", ["c", "cpp"])
def test_a_variable_of_struct_type_is_no_struct_definition(language: str) -> None:
    source = (
        "static struct option long_opts[] = {\n    {\"help\", 0, 0, 'h'},\n};\n\n"
        "struct point { int x; int y; };\n\nstruct node;\n\n"
        "int serve(const char *host) {\n    struct sockaddr_in addr;\n    struct addrinfo hints = {0}, *res = NULL;\n"
        "    return getaddrinfo(host, \"80\", &hints, &res);\n}\n"
    )
    prep = prepare(f"net.{language}", language, source)
    assert [(d.symbol, d.kind) for d in list_definitions(prep)] == [("point", "struct"), ("serve", "function")]
    chunks = _syntax(f"net.{language}", language, source, unit="tokens", budget=48)
    assert not any(c.kind == "struct" and c.symbol != "point" for c in chunks)
    assert {c.symbol for c in chunks if c.start_line >= 9} == {"serve"}  # the body's variables stay in it


def test_operator_names_keep_their_angle_brackets_while_type_arguments_go() -> None:
    ruby = "class Invoice\n  include Comparable\n  def <=>(other)\n    total <=> other.total\n  end\nend\n"
    cpp = ("template <typename T> struct Box {\n  T value;\n  auto operator<=>(const Box&) const = default;\n"
           "  bool operator<(const Box& o) const { return value < o.value; }\n};\n")
    assert [d.symbol for d in list_definitions(prepare("a.rb", "ruby", ruby))] == ["Invoice", "Invoice.<=>"]
    assert [d.symbol for d in list_definitions(prepare("a.cpp", "cpp", cpp))] == [
        "Box", "Box.operator<=>", "Box.operator<"]


def test_a_members_decorator_stays_with_it_when_its_class_is_split() -> None:
    source = (
        '@Controller("users")\nexport class UsersController {\n  constructor(private readonly users: Users) {}\n\n'
        '  // Look up one user by id.\n  @Get(":id")\n  async findOne(@Param("id") id: string): Promise<User> {\n'
        "    const user = await this.users.find(id);\n    if (!user) {\n      throw new NotFoundException(id);\n    }\n"
        "    return user;\n  }\n\n  @Get()\n  list(): Promise<User[]> {\n    return this.users.all();\n  }\n}\n"
    )
    chunks = _syntax("users.controller.ts", "typescript", source, unit="tokens", budget=64)
    first_line = {c.symbol: c.start_line for c in reversed(chunks)}  # each symbol's first chunk
    assert first_line["UsersController.findOne"] == 5 and first_line["UsersController.list"] == 15
    assert not any(c.kind == "statements" for c in chunks)  # no decorator left on its own
    spans = {d.symbol: (d.first, d.last) for d in list_definitions(prepare("u.ts", "typescript", source))}
    assert spans["UsersController.findOne"] == (6, 13) and spans["UsersController.list"] == (15, 18)


def test_a_big_block_statement_is_split_at_its_statements_when_its_head_shares_their_first_line() -> None:
    # ``describe("Cart", () => {`` opens a block on its own line: each ``it(...)`` inside fits and
    # must stay whole (the block used to be cut by lines, the boundaries falling inside tests).
    tests = "".join(
        f'  it("adds item {i} and updates the total", () => {{\n    const cart = new Cart();\n'
        f'    cart.add({{ sku: "SKU-{i}", price: {i}.5, qty: {i} }});\n'
        f'    expect(cart.total()).toBeCloseTo({i} * {i}.5);\n  }});\n\n'
        for i in range(1, 7))
    source = 'import { Cart } from "./cart";\n\ndescribe("Cart", () => {\n' + tests + "});\n"
    chunks = _syntax("cart.test.js", "javascript", source, unit="tokens", budget=128)
    starts = [n for n, line in enumerate(source.split("\n"), 1) if line.startswith("  it(")]
    for start in starts:  # each test (5 lines) inside one chunk
        assert any(c.start_line <= start and start + 4 <= c.end_line for c in chunks), (start, chunks)


def test_a_traits_required_method_is_a_member_with_its_doc_comment() -> None:
    source = (
        "/// Shapes that can be drawn.\npub trait Shape {\n    /// Area in square units.\n    fn area(&self) -> f64;\n"
        "    fn perimeter(&self) -> f64;\n    fn name(&self) -> String {\n        String::from(\"shape\")\n    }\n"
        "    fn describe(&self) -> String {\n"
        "        format!(\"{} with area {:.2} and perimeter {:.2}\", self.name(), self.area(), self.perimeter())\n"
        "    }\n}\n"
    )
    chunks = _syntax("shape.rs", "rust", source, unit="tokens", budget=40)
    header = next(c for c in chunks if c.kind == "class_header")
    assert "area, perimeter, name, describe" in header.embed_text  # required methods listed too
    area = next(c for c in chunks if c.symbol == "Shape.area")
    assert (area.kind, area.start_line, area.end_line) == ("method", 3, 4)  # with its /// comment


def test_a_line_break_in_a_file_name_stays_inside_the_breadcrumb_comment() -> None:
    # The breadcrumb is one comment line: a name's newline would leave half of it uncommented.
    for path, crumb in [("new\nline.py", "# new\\nline.py :: area\n"), ("a\u2028b.py", "# a\\u2028b.py :: area\n")]:
        (chunk,) = _syntax(path, "python", "def area(r):\n    return 3.14 * r * r\n", unit="chars", budget=400)
        assert chunk.embed_text.startswith(crumb) and chunk.path == path


def test_a_closer_missing_above_the_end_is_mended_where_it_went_or_flagged_to_the_end() -> None:
    # The "if" lacks its "end": the function's "end" closes the if, and the parser closes the
    # function at the end of the file with M.b read into it (M.a.M.b), the MISSING "end" past
    # the last line, where no chunk is. The if's "end" is indented less than its "if": the parse
    # mends that line, and M.b is whole and top-level again.
    lua = "local M = {}\n\nfunction M.a(x)\n  if x then\n    return 1\nend\n\nfunction M.b()\n  return 2\nend\n\nreturn M\n"
    prep = prepare("m.lua", "lua", lua)
    assert prep.parsed is not None and prep.parsed.muted == (4,)
    chunks = chunk_document(prep, ChunkSettings(unit="chars", budget=400), "syntax")
    assert [c.symbol for c in chunks if c.kind == "function"] == ["M.a", "M.b"]
    assert [c.symbol for c in chunks if "damaged" in c.flags] == ["M.a"]
    assert_lossless(prep, chunks)
    # f's "}" is left out, and no line says where it went: no mend; g and h are read into f,
    # and every chunk from f's first line to the end is flagged.
    source = 'f() {\n  case "$1" in\n    a) echo a ;;\n  esac\n\ng() {\n  echo b\n}\n\nh() {\n  echo c\n}\n'
    prep = prepare("deploy.sh", "bash", source)
    assert prep.parsed is not None and not prep.parsed.muted
    assert prep.damage is not None and prep.damage.ranges == ((1, prep.doc.line_count),)
    assert prep.damage.error_bytes == 1  # the text is sound: no fallback to fixed windows
    chunks = chunk_document(prep, ChunkSettings(unit="chars", budget=60), "syntax")
    assert list(dict.fromkeys(c.symbol for c in chunks)) == ["f", "f.g", "f.h"]
    assert all("damaged" in c.flags for c in chunks) and not chunks[0].fallback


def test_a_ruby_file_missing_one_end_is_mended_not_turned_into_windows() -> None:
    # Ruby's grammar supplies no "end" at the end of the file: the whole file was one ERROR
    # and fell back to fixed windows, every definition lost (helper's too, though whole).
    source = ("class Stock\n  def initialize(n)\n    @n = n\n  end\n\n  def low?\n    @n < 5\n  end\n\n"
              "  def take(k)\n    @n -= k\n\nend\n\ndef helper(x)\n  x * 2\nend\n")
    prep = prepare("m.rb", "ruby", source)
    assert prep.parsed is not None and prep.parsed.muted == (10,)  # where take's "end" went missing
    chunks = chunk_document(prep, ChunkSettings(unit="chars", budget=800), "syntax")
    assert not any(c.fallback for c in chunks)
    assert [(c.kind, c.symbol, "damaged" in c.flags) for c in chunks] == [("class", "Stock", True), ("function", "helper", False)]
    assert_lossless(prep, chunks)


def test_an_elixir_module_splits_into_its_head_and_functions_and_a_long_def_repeats_its_head() -> None:
    # ``do`` opens the module's body on its head's line: it is the head's, not the first def's
    # (read as a keyword leading the next definition, it took that def into the head).
    source = "defmodule Shop.Pricing do\n" + "".join(
        f'  @doc "Price rule {i}."\n  def rule_{i}(price) do\n    price * {i}\n  end\n\n' for i in range(6)
    ) + "end\n"
    chunks = _syntax("pricing.ex", "elixir", source, unit="chars", budget=200)
    header = chunks[0]
    assert (header.kind, header.symbol, header.text) == ("class_header", "Shop.Pricing", "defmodule Shop.Pricing do")
    assert "rule_0, rule_1" in header.header
    rules = [c for c in chunks if c.kind == "function"]
    assert [c.symbol for c in rules] == [f"Shop.Pricing.rule_{i}" for i in range(6)]
    assert all(c.parent_id == header.id and c.header == "defmodule Shop.Pricing" for c in rules)
    assert all(c.text.lstrip().startswith(f'@doc "Price rule {i}."') for i, c in enumerate(rules))
    first = next(d for d in list_definitions(prepare("pricing.ex", "elixir", source)) if d.symbol == "Shop.Pricing.rule_0")
    assert (first.first, first.last) == (2, 5)
    # A long def: its parts repeat its head, guard included; its @doc leads the first.
    body = "".join(f"    total = total + line_{i} * rate\n" for i in range(30))
    source = (
        'defmodule Shop.Totals do\n  @doc "Sums the lines."\n  def sum(lines, rate) when rate > 0 do\n'
        f"    total = 0\n{body}    total\n  end\nend\n"
    )
    chunks = _syntax("totals.ex", "elixir", source, unit="chars", budget=300)
    parts = [c for c in chunks if c.symbol == "Shop.Totals.sum"]
    assert len(parts) >= 3 and [c.part for c in parts] == list(range(1, len(parts) + 1))
    assert parts[0].kind == "function" and parts[0].text.lstrip().startswith('@doc "Sums the lines."')
    assert all(p.header == "def sum(lines, rate) when rate > 0" and p.parent_id == parts[0].id for p in parts[1:])
    # An ExUnit test without a body is pending, no definition; a call named ``test`` is a call.
    source = 'defmodule T do\n  test "pending"\n  def f(x), do: test(x)\nend\n'
    assert [d.symbol for d in list_definitions(prepare("t.exs", "elixir", source))] == ["T", "T.f"]


def test_a_broken_elixir_file_is_chunked_around_the_damage_or_falls_back() -> None:
    rel = "polyglot_scripts/elixir/reservations.ex"
    text = (SAMPLES / rel).read_text("utf-8")
    old = "&Hold.expired?(&1, now))\n"
    assert old in text
    broken = prepare(rel, "elixir", text.replace(old, "&Hold.expired?(&1, now)\n", 1))  # a ``)`` left out
    chunks = chunk_document(broken, ChunkSettings(unit="chars", budget=400), "syntax")
    assert_lossless(broken, chunks)
    assert all(c.fallback is None for c in chunks)
    damaged = {c.symbol for c in chunks if "damaged" in c.flags}
    assert damaged == {"Shop.Inventory.Reservations.release_expired"}, damaged
    assert {d.symbol for d in list_definitions(_prep(rel))} == {d.symbol for d in list_definitions(broken)}
    # Where errors are most of the file, it is cut in plain windows.
    garbage = "defmodule Shop do\n" + "".join(f"  def ) rule_{i} ] ( do end end ,,\n" for i in range(12))
    prep = prepare("bad.ex", "elixir", garbage)
    chunks = chunk_document(prep, ChunkSettings(unit="chars", budget=200), "syntax")
    assert chunks and all(c.fallback == "parse_error" for c in chunks)
    assert_lossless(prep, chunks)


def test_a_clojure_record_splits_into_its_head_and_methods_and_a_long_defn_repeats_its_head() -> None:
    methods = "".join(f"  (rule-{i} [this price]\n    ;; Rule {i}.\n    (* price {i}))\n" for i in range(6))
    source = f"(ns shop.pricing)\n\n(defrecord Rules [rate]\n  Pricing\n{methods[:-1]})\n"
    chunks = _syntax("pricing.clj", "clojure", source, unit="chars", budget=200)
    header = next(c for c in chunks if c.kind == "class_header")
    assert (header.symbol, header.text) == ("shop.pricing.Rules", "(defrecord Rules [rate]\n  Pricing")
    rules = [c for c in chunks if c.kind == "method"]
    assert [c.symbol for c in rules] == [f"shop.pricing.Rules.rule-{i}" for i in range(6)]
    assert all(c.parent_id == header.id and c.header == "(defrecord Rules [rate]" for c in rules)
    assert all(c.text.lstrip().startswith(f"(rule-{i} [this price]") for i, c in enumerate(rules))
    # A long defn: its parts repeat its head, name and parameters, not its docstring, which
    # leads the first part; a multi-arity one's head is its name.
    body = "".join(f"    (println \"line {i}\" (* {i} rate))\n" for i in range(30))
    source = (
        '(ns shop.totals)\n\n(defn sum-lines\n  "Sums the lines.\n\n  Rounded half up."\n  [lines rate]\n'
        f"  (let [total 0]\n{body}    total))\n"
    )
    chunks = _syntax("totals.clj", "clojure", source, unit="chars", budget=300)
    parts = [c for c in chunks if c.symbol == "shop.totals.sum-lines"]
    assert len(parts) >= 3 and [c.part for c in parts] == list(range(1, len(parts) + 1))
    assert parts[0].kind == "function" and parts[0].text.startswith('(defn sum-lines\n  "Sums the lines.')
    assert all(p.header == "(defn sum-lines\n  [lines rate]" and p.parent_id == parts[0].id for p in parts[1:])
    arities = "".join(f"  ([x{i}] (println x{i} \"{'·' * 60}\"))\n" for i in range(6))
    chunks = _syntax("a.clj", "clojure", f"(defn many\n  \"Arities.\"\n{arities[:-1]})\n", unit="chars", budget=200)
    assert len(chunks) > 2 and all(c.header == "(defn many" for c in chunks[1:])
    # A rich ``comment`` block is code, no comment: its ``def`` is the REPL's, no definition.
    prep = prepare("c.clj", "clojure", "(defn f [x] x)\n\n(comment\n  (def sample 1)\n  (f sample))\n")
    assert [d.symbol for d in list_definitions(prep)] == ["f"]
    # A qualified callee is another library's: spec's ``s/def`` defines no var.
    prep = prepare("s.clj", "clojure", "(s/def ::sku string?)\n(defn f [x] x)\n")
    assert [d.symbol for d in list_definitions(prep)] == ["f"]


def test_a_broken_clojure_file_is_chunked_around_the_damage_or_falls_back() -> None:
    rel = "polyglot_scripts/clojure/restock_planner.clj"
    text = (SAMPLES / rel).read_text("utf-8")
    old = "(max 0 (- par on-hand)))\n"
    assert old in text
    broken = prepare(rel, "clojure", text.replace(old, "(max 0 (- par on-hand))))\n", 1))  # one ``)`` too many
    chunks = chunk_document(broken, ChunkSettings(unit="chars", budget=400), "syntax")
    assert_lossless(broken, chunks)
    assert all(c.fallback is None for c in chunks)
    damaged = {c.symbol for c in chunks if "damaged" in c.flags}
    assert damaged == {"shop.inventory.restock-planner.reorder-qty :default"}, damaged
    assert {d.symbol for d in list_definitions(_prep(rel))} == {d.symbol for d in list_definitions(broken)}
    # A ``)`` left out leaves every form after it open to the end: the file is cut in windows.
    prep = prepare(rel, "clojure", text.replace(old, "(max 0 (- par on-hand))\n", 1))
    chunks = chunk_document(prep, ChunkSettings(unit="chars", budget=400), "syntax")
    assert chunks and all(c.fallback == "parse_error" for c in chunks)
    assert_lossless(prep, chunks)


# ---- Scheme, Racket, Common Lisp and Emacs Lisp ----------------------------------------------


def _lisp_container(language: str) -> tuple[str, str, str, list[str]]:
    """A container of six members in ``language``: its source, its symbol, its head, and the
    symbols of the members that are definitions."""
    if language in ("scheme", "racket"):
        pad = "    " if language == "scheme" else "  "
        members = "\n".join(
            f"{pad};; Step {i}.\n{pad}(define (step-{i} bin)\n{pad}  (* (bin-units bin) {i}))" for i in range(6)
        )
        if language == "scheme":
            source = f"(define-library (shop steps)\n  (export step-0)\n  (import (scheme base))\n  (begin\n{members}))\n"
            return source, "(shop steps)", "(define-library (shop steps)", [f"(shop steps).step-{i}" for i in range(6)]
        source = f"#lang racket/base\n(module+ steps\n{members})\n"
        return source, "steps", "(module+ steps", [f"steps.step-{i}" for i in range(6)]
    # A class's slots are its members, none a definition.
    slots = "\n".join(f"   (slot-{i} :initarg :slot-{i} :initform {i}\n           :documentation \"Slot {i}.\")" for i in range(6))
    if language == "commonlisp":
        return f"(defclass bin (item)\n  ({slots[3:]})\n  (:documentation \"A bin.\"))\n", "bin", "(defclass bin (item)", []
    return f"(defclass shop-bin (shop-item)\n  ({slots[3:]})\n  \"A bin.\")\n", "shop-bin", "(defclass shop-bin (shop-item)", []


_LISP_LONG = {
    "scheme": ("(define (sum-lines lines rate)", '  "Sums the lines."\n  (define total 0)\n', "(display", "  total)\n"),
    "racket": ("(define (sum-lines lines rate)", '  "Sums the lines."\n  (define total 0)\n', "(displayln", "  total)\n"),
    "commonlisp": ("(defun sum-lines (lines rate)", '  "Sums the lines."\n  (declare (ignorable lines))\n', "(print", "  rate)\n"),
    "elisp": ("(defun sum-lines (lines rate)", '  "Sums the lines."\n  (interactive)\n', "(message", "  rate)\n"),
}


@pytest.mark.parametrize("language", ["scheme", "racket", "commonlisp", "elisp"])
def test_a_lisp_container_splits_into_its_head_and_members_and_a_long_function_repeats_its_head(language) -> None:
    path = f"split{LANGUAGES[language].extensions[0]}"
    source, container, head, definitions = _lisp_container(language)
    chunks = _syntax(path, language, source, unit="chars", budget=200)
    header = next(c for c in chunks if c.kind == "class_header")
    assert header.symbol == container and header.text.startswith(head), (header.symbol, header.text)
    members = [c for c in chunks if c.parent_id == header.id]
    assert len(members) >= 4 and all(c.header == head for c in members), [(c.symbol, c.header) for c in members]
    # (A member's comment stays with it; the library's ``(begin`` line goes with its first.)
    assert [c.symbol for c in members if c.symbol in definitions] == definitions
    assert all(c.kind == "function" and f";; Step {i}." in c.text for i, c in enumerate(c for c in members if c.symbol in definitions))
    # A long function: its parts repeat its name and parameters; its docstring leads its first part.
    signature, lead, call, end = _LISP_LONG[language]
    body = "".join(f"  {call} \"line {i}\" (* {i} rate))\n" for i in range(30))
    chunks = _syntax(path, language, f"{signature}\n{lead}{body}{end[:-2]})\n", unit="chars", budget=300)
    parts = [c for c in chunks if c.symbol == "sum-lines"]
    assert len(parts) >= 3 and [c.part for c in parts] == list(range(1, len(parts) + 1))
    assert parts[0].kind == "function" and parts[0].text.startswith(f'{signature}\n  "Sums the lines."')
    assert all(p.header == signature and p.parent_id == parts[0].id for p in parts[1:]), [p.header for p in parts]


def test_lisp_lists_that_define_nothing_are_code() -> None:
    # A local variable is a statement of its function, a local function a nested definition;
    # a datum comment, a quoted list, a lambda, ``define-values`` and a definition inside a
    # ``let`` are code.
    source = (
        "(define (outer x)\n  (define y 2)\n  (define (inner z) (* y z))\n  (inner x))\n#;(define hidden 1)\n"
        "'(define quoted 1)\n(define-values (lo hi) (values 1 2))\n(let ((n 0))\n  (define (next!) n))\n"
    )
    for language, path in (("scheme", "a.scm"), ("racket", "a.rkt")):
        found = [(d.symbol, d.kind) for d in list_definitions(prepare(path, language, source))]
        assert found == [("outer", "function"), ("outer.inner", "function")], (language, found)
    prep = prepare("a.lisp", "commonlisp", "(mapcar (lambda (x) x) xs)\n(lambda (y) y)\n(let ((n 0))\n  (defun next-id () (incf n)))\n"
                   "(defun f () (flet ((g () 1)) (g)))\n")
    assert [d.symbol for d in list_definitions(prep)] == ["f"]
    prep = prepare("a.el", "elisp", "(lambda (x) x)\n(let ((n 0))\n  (defun shop-next () n))\n(setq shop-x 1)\n(defun shop-f () 1)\n")
    assert [d.symbol for d in list_definitions(prep)] == ["shop-f"]
    # Each grammar's files by their extensions (not ``.cl``: OpenCL's too), and a Markdown
    # fence's code by the names other tools give it.
    extensions = (".scm", ".ss", ".sld", ".sls", ".rkt", ".lisp", ".lsp", ".asd", ".el")
    assert [detect_language(f"a{ext}") for ext in extensions] == [
        "scheme", "scheme", "scheme", "scheme", "racket", "commonlisp", "commonlisp", "commonlisp", "elisp"
    ]
    assert detect_language("kernel.cl") != "commonlisp"
    fences = ("scheme", "racket", "lisp", "common-lisp", "elisp", "emacs-lisp")
    assert [fence_language(f) for f in fences] == ["scheme", "racket", "commonlisp", "commonlisp", "elisp", "elisp"]


@pytest.mark.parametrize(("rel", "old", "new", "hurt", "sound"), [
    # (An unreadable ``#<...>`` object, as a REPL prints one, pasted into a library's function.)
    ("polyglot_scripts/scheme/cycle_count.sld", "(define (off? count)", "(define (off? #<count>)",
     "(shop cycle-count).reconcile.off?", "(shop cycle-count).adjustment-lines"),
    # One ``)`` too many: Racket's and Common Lisp's grammars read the rest of the file as an
    # error; the stray bracket is blanked for the parse, its line flagged.
    ("polyglot_scripts/racket/order_pricing.rkt", "(floor (+ amount 1/2)))", "(floor (+ amount 1/2))))",
     "round-cents", "price-order"),
    ("polyglot_scripts/commonlisp/pick_waves.lisp", "(* (line-qty line) (line-grams line)))",
     "(* (line-qty line) (line-grams line))))", "shop.picking.line-weight", "shop.picking.build-pick-waves"),
    ("polyglot_scripts/elisp/shop-restock.el", "(shop-restock-line-on-hand line)))))",
     "(shop-restock-line-on-hand line))))))", "shop-restock-quantity", "shop-restock-read-export"),
], ids=["scheme", "racket", "commonlisp", "elisp"])
def test_a_broken_lisp_file_is_chunked_around_the_damage_or_falls_back(rel, old, new, hurt, sound) -> None:
    text = (SAMPLES / rel).read_text("utf-8")
    assert text.count(old) == 1
    line = text[: text.index(old)].count("\n") + 1
    language = detect_language(rel)
    broken = prepare(rel, language, text.replace(old, new, 1))
    chunks = chunk_document(broken, ChunkSettings(unit="chars", budget=400), "syntax")
    assert_lossless(broken, chunks)
    assert_slices_true(broken, chunks)
    assert all(c.fallback is None for c in chunks)
    damaged = [c for c in chunks if "damaged" in c.flags]
    assert damaged and {c.symbol for c in damaged} == {hurt}, {c.symbol for c in damaged}
    assert any(c.start_line <= line <= c.end_line for c in damaged)
    assert any(c.symbol == sound and not c.flags for c in chunks)
    assert {d.symbol for d in list_definitions(_prep(rel))} == {d.symbol for d in list_definitions(broken)}
    # Where errors are most of the file, it is cut into fixed windows instead.
    garbage = "\n".join(") ( #< ]] [ } { )) ( . ,@ #( ]" for _ in range(60)) + "\n"
    prep = prepare(rel, language, garbage)
    chunks = chunk_document(prep, ChunkSettings(unit="chars", budget=400), "syntax")
    assert chunks and all(c.fallback == "parse_error" for c in chunks)
    assert_lossless(prep, chunks)


# ---- callbacks registered under a label (``CodeSpec.registrations``) -------------------------

_ROUTES_JS = """const express = require('express');
const app = express();

// Create a user from the posted form.
app.post('/users', async (req, res) => {
  const { name, email } = req.body;
  if (!name || !email) {
    return res.status(400).json({ error: 'name and email are required' });
  }
  const user = await db.users.insert({ name, email });
  res.status(201).json(user);
});

describe('users', () => {
  beforeEach(() => { db.reset(); });

  it('creates a user', async () => {
    const res = await request(app).post('/users').send({ name: 'a', email: 'b' });
    expect(res.status).toBe(201);
  });

  function helper(x) {
    return x * 2;
  }

  it('waits long', async () => {
    await later();
  },
  10000);
});

const off = bus.on('tick', () => {
  count += 1;
});
items.forEach((item) => {
  total += item.price;
});
function wire(emitter) {
  emitter.on('data', (chunk) => {
    buffer.push(chunk);
  });
}
"""


@pytest.mark.parametrize(("path", "language"), [("server.js", "javascript"), ("server.ts", "typescript")])
def test_a_callback_registered_under_a_label_is_a_definition(path: str, language: str) -> None:
    # Routes and tests are a JavaScript file's definitions: each is a unit of its own, named by
    # what registers it and its label, and the definitions inside a ``describe`` are its own.
    prep = prepare(path, language, _ROUTES_JS)
    found = {d.symbol: d for d in list_definitions(prep)}
    assert found["app.post('/users')"].kind == "callback"
    assert found["app.post('/users')"].first == 5
    assert found["describe('users').it('creates a user')"].is_function
    assert found["describe('users').helper"].kind == "function"
    assert "describe('users').it('waits long')" in found
    # No label (``beforeEach``, ``forEach``), a name given to what it returns (``off``), or a
    # function's own statement (``emitter.on`` in ``wire``): no registration.
    assert not any("beforeEach" in s or "forEach" in s or "bus.on" in s or "emitter.on" in s for s in found), found
    assert "off" in found  # named by its ``const``, as before
    chunks = _syntax(path, language, _ROUTES_JS, unit="chars", budget=300)
    by_symbol = {c.symbol: c for c in chunks}
    assert by_symbol["app.post('/users')"].kind == "callback"
    # Its comment above goes with it, as for any definition.
    assert min(c.start_line for c in chunks if c.symbol == "app.post('/users')") == 4
    assert by_symbol["app.post('/users')"].embed_text.startswith("// server.")
    # ``describe`` is over the budget: its tests are chunks of their own, under its head.
    its = [c for c in chunks if c.symbol.startswith("describe('users').it(")]
    assert {c.symbol for c in its} == {"describe('users').it('creates a user')", "describe('users').it('waits long')"}
    assert all(c.kind == "callback" and c.header == "describe('users', () =>" for c in its)
    # A handler over the budget is cut between statements, its head repeated (a function's rule).
    handler = [c for c in chunks if c.symbol == "app.post('/users')"]
    assert len(handler) == 2 and handler[1].header == "app.post('/users', async (req, res) =>"
    # The line after the callback's ``}`` (its timeout) is in a chunk: nothing is lost.
    assert_lossless(prep, chunks)
    assert_slices_true(prep, chunks)


_RSPEC = """require "spec_helper"

RSpec.describe Cart do
  let(:cart) { Cart.new }

  describe "#add" do
    it "adds an item" do
      cart.add(Item.new("apple", 3))
      expect(cart.items.size).to eq(1)
    end

    it "sums the total" do
      cart.add(Item.new("apple", 3))
      cart.add(Item.new("pear", 2))
      expect(cart.total).to eq(5)
    end
  end

  def helper(x)
    x * 2
  end
end

namespace :db do
  desc "Seed the database"
  task seed: :environment do
    Seed.run!
  end
end

get '/users/:id' do
  user = User.find(params[:id])
  json user
end

def report(rows)
  File.open("out.txt", "w") do |f|
    rows.each { |r| f.puts(r) }
  end
end
"""


def test_ruby_blocks_under_a_label_are_definitions() -> None:
    # RSpec, Rake and Sinatra files are blocks handed to calls: without this they were one
    # ``<module>`` after another, and a ``def`` inside a ``describe`` was not found at all.
    prep = prepare("cart_spec.rb", "ruby", _RSPEC)
    found = {d.symbol: d.kind for d in list_definitions(prep)}
    assert found["RSpec.describe(Cart)"] == "callback"
    # A ``{ ... }`` block is a one-liner, a statement of its suite: no chunk of one line each.
    assert "RSpec.describe(Cart).let(:cart)" not in found
    assert found['RSpec.describe(Cart).describe("#add").it("sums the total")'] == "callback"
    assert found["RSpec.describe(Cart).helper"] == "function"
    assert found["namespace(:db).task(seed: :environment)"] == "callback"
    assert found["get('/users/:id')"] == "callback"
    # Rake's own file and Bundler's are Ruby by name.
    assert {detect_language(n) for n in ("Rakefile", "app/Gemfile", "Vagrantfile", "shop.gemspec", "config.ru")} == {"ruby"}
    # In a method's body a block is one of its statements, whatever its argument.
    assert found["report"] == "function" and not any(s.startswith("report.") for s in found), found
    for budget in (120, 200, 2000):
        chunks = _syntax("cart_spec.rb", "ruby", _RSPEC, unit="chars", budget=budget)
        assert_lossless(prep, chunks)
        assert_slices_true(prep, chunks)
    chunks = _syntax("cart_spec.rb", "ruby", _RSPEC, unit="chars", budget=200)
    it = next(c for c in chunks if c.symbol.endswith('it("adds an item")'))
    assert it.kind == "callback" and it.text.lstrip().startswith('it "adds an item" do') and it.text.rstrip().endswith("end")


def test_php_routes_and_pest_tests_are_definitions() -> None:
    source = (
        "<?php\n\nuse Illuminate\\Support\\Facades\\Route;\n\n"
        "Route::get('/users/{id}', function (string $id) {\n    return User::findOrFail($id);\n})->name('users.show');\n\n"
        "it('adds two numbers', function () {\n    expect(add(1, 2))->toBe(3);\n});\n\n"
        "Route::middleware('auth')->group(function () {\n    Route::get('/me', fn () => auth()->user());\n"
        "    Route::post('/logout', function () {\n        auth()->logout();\n    });\n});\n"
    )
    found = {d.symbol: (d.kind, d.first, d.last) for d in list_definitions(prepare("routes.php", "php", source))}
    assert found == {
        # A call chained after it (``->name(...)``) is its own; a group needs no label.
        "Route::get('/users/{id}')": ("callback", 5, 7),
        "it('adds two numbers')": ("callback", 9, 11),
        "Route::middleware('auth')->group": ("callback", 13, 18),
        "Route::middleware('auth')->group.Route::post('/logout')": ("callback", 15, 17),
    }, found


def test_csharp_top_level_statements_hold_minimal_api_routes_and_local_functions() -> None:
    source = (
        "var app = WebApplication.CreateBuilder(args).Build();\n\n"
        'app.MapGet("/orders/{id}", async (int id, OrderDb db) =>\n{\n'
        "    var order = await db.Orders.FindAsync(id);\n    return order is null ? Results.NotFound() : Results.Ok(order);\n});\n\n"
        "static decimal Vat(decimal net) => Math.Round(net * 0.19m, 2);\n\napp.Run();\n"
    )
    found = [(d.symbol, d.kind, d.first, d.last) for d in list_definitions(prepare("Program.cs", "csharp", source))]
    assert found == [('app.MapGet("/orders/{id}")', "callback", 3, 7), ("Vat", "function", 9, 9)], found


def test_a_registered_callback_is_named_and_headed_in_brief() -> None:
    # A chain, a table, type arguments and a middleware before the handler would otherwise
    # be written out whole in the name and in every part's header.
    source = (
        "$(document)\n  .on('click.menu', '.menu a', function (e) {\n    e.preventDefault();\n  })\n"
        "  .on('keydown.menu', function (e) {\n    if (e.key === 'Escape') close();\n  });\n\n"
        "test.each([\n  [1, 1, 2],\n  [1, 2, 3],\n])('add(%i, %i) -> %i', (a, b, expected) => {\n"
        "  expect(add(a, b)).toBe(expected);\n});\n\n"
        "server.get<{ Querystring: { q: string } }>('/search', async (req) => {\n  return find(req.query.q);\n});\n\n"
        "app.get('/admin', function requireAdmin(req, res, next) {\n  if (!req.user) return res.sendStatus(401);\n"
        "  next();\n}, function (req, res) {\n"
        + "".join(f"  const total{i} = await orders.sum('{i}');\n" for i in range(12))
        + "  res.json({ ok: true });\n});\n"
    )
    found = [d.symbol for d in list_definitions(prepare("ui.ts", "typescript", source))]
    assert found == [
        "$(document).on(\u2026).on('keydown.menu')", "test.each(\u2026)('add(%i, %i) -> %i')", "server.get('/search')", "app.get('/admin')",
    ], found  # fmt: skip
    parts = [c for c in _syntax("ui.ts", "typescript", source, unit="chars", budget=300) if c.symbol == "app.get('/admin')"]
    assert len(parts) > 1
    assert {c.header for c in parts[1:]} == {"app.get('/admin', \u2026, function (req, res)"}


def test_in_a_test_body_only_test_calls_register() -> None:
    # tape's ``t.test`` in a ``test`` is a test of its own; a stream's handler is one of the
    # test's statements, as it is in a plain function.
    source = (
        "test('parse', function (t) {\n  stream.on('data', function (chunk) {\n    seen.push(chunk);\n  });\n"
        "  t.test('parses a simple string', function (st) {\n    st.deepEqual(qs.parse('0=foo'), { 0: 'foo' });\n"
        "    st.end();\n  });\n  t.end();\n});\n"
    )
    found = [d.symbol for d in list_definitions(prepare("parse.js", "javascript", source))]
    assert found == ["test('parse')", "test('parse').t.test('parses a simple string')"], found


def test_a_suite_over_the_budget_lists_its_tests_in_its_head() -> None:
    tests = "".join(
        f"  it('handles case {i}', () => {{\n    const value = compute({i});\n    expect(value).toBe({i * 2});\n  }});\n\n"
        for i in range(4)
    )
    source = "describe('compute', () => {\n  const compute = (x) => x * 2;\n\n" + tests + "});\n"
    chunks = _syntax("compute.test.js", "javascript", source, unit="chars", budget=260)
    head = chunks[0]
    assert (head.kind, head.symbol, head.start_line) == ("callback", "describe('compute')", 1)
    assert head.header.startswith("// members of describe('compute'):")
    assert "it('handles case 3', () =>" in head.header
    its = [c for c in chunks if c.symbol.startswith("describe('compute').it(")]
    assert len(its) == 4 and all(c.parent_id == head.id for c in its)


_GO_SUBTESTS = """package cart

import "testing"

func TestCart(t *testing.T) {
	c := New()
	t.Run("adds an item", func(t *testing.T) {
		c.Add("apple", 2)
		if got := c.Count("apple"); got != 2 {
			t.Fatalf("count = %d, want 2", got)
		}
	})
	t.Run(`removes an item`, func(t *testing.T) {
		t.Run("and its count", func(t *testing.T) {
			c.Remove("apple")
			if got := c.Count("apple"); got != 0 {
				t.Fatalf("count = %d, want 0", got)
			}
		})
	})
	t.Run("named helper", checkHelper)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := c.Count(tc.item); got != tc.want {
				t.Fatalf("count = %d, want %d", got, tc.want)
			}
		})
	}
}

func BenchmarkAdd(b *testing.B) {
	b.Run("one item", func(b *testing.B) {
		c := New()
		for i := 0; i < b.N; i++ {
			c.Add("apple", 1)
		}
	})
}
"""


def test_a_bodiless_definition_cut_by_lines_joins_parts_that_fit_together() -> None:
    # An abstract method under a long javadoc has no body to pack: it is cut by its children,
    # then lines, and its last signature line was a part alone beside room for it.
    doc = "".join(f"     * Line {i} of a long javadoc comment that explains the parameters.\n" for i in range(14))
    source = (
        "abstract class FeedbackCipher {\n\n    /**\n" + doc + "     */\n"
        "    abstract int encrypt(byte[] plain, int plainOffset, int plainLen,\n"
        "                         byte[] cipher, int cipherOffset);\n}\n"
    )
    chunks = _syntax("FeedbackCipher.java", "java", source, unit="chars", budget=800)
    parts = [c for c in chunks if c.symbol == "FeedbackCipher.encrypt"]
    assert [(c.part, c.parts) for c in parts] == [(1, 2), (2, 2)], [(c.start_line, c.end_line) for c in parts]
    assert parts[-1].end_line == 21 and parts[-1].parent_id == parts[0].id


def test_a_comment_right_above_a_statement_too_big_for_a_chunk_leads_its_first_piece() -> None:
    # ``// Type flags for Header.Typeflag.`` above a long ``const (`` block was a chunk of its
    # own (73 such one-line chunks at 800 chars in Go's standard library): it is about the block.
    flags = "".join(f"\t// Type {i} is one more kind of entry in the archive.\n\tType{i} = '{i}'\n" for i in range(8))
    source = "package tar\n\nfunc f() {}\n\n// Type flags for Header.Typeflag.\nconst (\n" + flags + ")\n"
    chunks = _syntax("common.go", "go", source, unit="chars", budget=200)
    assert not any(c.text.strip() == "// Type flags for Header.Typeflag." for c in chunks)
    first = next(c for c in chunks if "const (" in c.text)
    assert first.start_line == 5 and first.text.startswith("// Type flags for Header.Typeflag.\nconst (")
    # Cut off by a blank line, it is not known to be about the block: as before.
    apart = source.replace("Typeflag.\nconst (", "Typeflag.\n\nconst (")
    assert any(c.text.strip() == "// Type flags for Header.Typeflag." for c in _syntax("common.go", "go", apart, unit="chars", budget=200))


def test_a_rust_extern_block_is_a_container_of_its_foreign_functions() -> None:
    # ``extern "C" { fn ...; }``: its declarations were loose module code (1,538 of them in
    # Rust's library). The block is whole when it fits, else a header listing them.
    decls = "".join(
        f"    /// Binding {i} of the allocator.\n    fn alloc_{i}(size: usize, align: usize) -> *mut u8;\n" for i in range(6)
    )
    source = 'extern "C" {\n' + decls + "}\n\nconst LIMIT: usize = 4;\n"
    whole = _syntax("ffi.rs", "rust", source, unit="chars", budget=4000)
    assert [(c.kind, c.symbol, c.start_line, c.end_line) for c in whole][0] == ("extern", "extern", 1, 14)
    found = {d.symbol: d.kind for d in list_definitions(prepare("ffi.rs", "rust", source))}
    assert found["extern.alloc_5"] == "function"
    split = _syntax("ffi.rs", "rust", source, unit="chars", budget=250)
    head = split[0]
    assert (head.kind, head.symbol) == ("class_header", "extern") and "alloc_0" in head.header
    # Its one-line declarations are packed together, not a chunk of ~200 characters each.
    packs = [c for c in split[1:] if c.symbol != "<module>"]
    assert len(packs) >= 2 and all(c.symbol.startswith("extern.{alloc_") and c.parent_id == head.id for c in packs)
    assert sum(c.text.count("fn alloc_") for c in packs) == 6


def test_a_line_continuation_alone_is_held_by_the_chunk_above() -> None:
    # The body of a multi-line C macro read as code: the parser reads the last ``\\`` line as
    # whitespace, so no node held it (found on a libstdc++ header). It was counted as blank,
    # and so was in no chunk; it is the text of the file, and goes with the chunk above.
    source = (
        "    {                                              \\\n"
        "      typedef typename Box::item_type Item;       \\\n"
        "      typedef Pair<Left, Right, Item> Closure;     \\\n"
        "      return Wrap<Closure, Item>(Closure(a(), b)); \\\n"
        "    }                                              \\\n"
        "                                                   \\\n"
    )
    chunks = _syntax("ops.h", "c", source, unit="chars", budget=800)  # lossless
    assert [(c.start_line, c.end_line) for c in chunks] == [(1, 6)]
    assert not prepare("ops.h", "c", source).doc.is_blank(6)


_MACRO_LINES_CPP = """namespace geo {
MYLIB_BEGIN_NAMESPACE_VERSION

  /*
     NOTE
     The scale is applied first.
   */
  template<typename T>
    MYLIB_CONSTEXPR
    inline T scale(T value, T factor)
    { return value * factor; }

class Widget : public QObject {
    Q_OBJECT
public:
    explicit Widget(int size);
    int size() const { return size_; }
private:
    int size_;
};

MYLIB_END_NAMESPACE_VERSION
}

BOOL
init_window(int width, int height)
{
    return width > 0 && height > 0;
}
"""


def test_an_upper_case_macro_alone_on_its_line_is_read_past() -> None:
    # ``MYLIB_BEGIN_NAMESPACE_VERSION``, ``MYLIB_CONSTEXPR`` above a template and ``Q_OBJECT``
    # were read as types: the namespace became ``<anonymous>`` ending at the template, and
    # ``scale`` was lost (libstdc++'s own headers: 13 of 500 fell back to fixed windows, 1,951
    # chunks were named after a macro). Such a line is read as a comment; one above a
    # declarator (``BOOL`` over ``init_window(``) is the return type and stays. A ``NOTE`` in a
    # block comment is no macro, and reading it as a line comment cannot close that comment.
    prep = prepare("geo.hpp", "cpp", _MACRO_LINES_CPP)
    found = [(d.symbol, d.kind, d.first, d.last) for d in list_definitions(prep)]
    assert found == [
        ("geo", "namespace", 1, 23),
        ("geo.scale", "function", 8, 11),
        ("geo.Widget", "class", 13, 20),
        ("geo.Widget.size", "method", 17, 17),
        ("init_window", "function", 25, 29),
    ]
    chunks = _syntax("geo.hpp", "cpp", _MACRO_LINES_CPP, unit="chars", budget=200)
    assert not any("damaged" in c.flags for c in chunks)
    assert any(c.symbol == "geo.scale" and "NOTE" in c.text for c in chunks)


def test_a_doc_comment_belongs_to_the_definition_below_across_blank_lines() -> None:
    # The JDK writes a blank line between a class's javadoc and the class: the javadoc was a
    # ``<module>`` chunk (or several) whenever the two did not fit in one. A doc comment is
    # its definition's across blank lines; a plain comment still has to touch it.
    doc = "".join(f" * Line {i}: what this ledger keeps, described at length for its reader.\n" for i in range(8))
    methods = "".join(f"    public void post{i}() {{ entries.add({i}); }}\n" for i in range(10))
    body = "public class Ledger {\n" + methods + "}\n"
    source = "package books;\n\n/**\n" + doc + " */\n\n" + body
    chunks = _syntax("Ledger.java", "java", source, unit="chars", budget=800)
    head = next(c for c in chunks if c.symbol == "Ledger")
    assert (head.kind, head.start_line, head.part) == ("class", 3, 1) and head.text.startswith("/**\n * Line 0")
    assert head.header == "public class Ledger"  # the signature it documents
    assert not any(c.kind == "module" and "Line 0" in c.text for c in chunks)
    whole = [c for c in chunks if c.symbol == "Ledger"][-1]  # the class itself, whole
    assert whole.text.endswith("public class Ledger {\n" + methods + "}")
    plain = source.replace("/**\n", "/*\n", 1)
    chunks = _syntax("Ledger.java", "java", plain, unit="chars", budget=800)
    assert any(c.kind == "module" and "Line 0" in c.text for c in chunks)
    # Nor one whose tags say it is about the file or a group, nor a banner of stars.
    for tagged in (source.replace(" * Line 0", " * @file Line 0", 1), source.replace(" * Line 0", " * @name Line 0", 1),
                   source.replace("/**\n", "/*****\n", 1)):
        chunks = _syntax("Ledger.java", "java", tagged, unit="chars", budget=800)
        assert any(c.kind == "module" and "Line 0" in c.text for c in chunks)
    # C's and C++'s Doxygen comments stand apart from what follows them as often as not
    # (groups, banners): there a doc comment has to touch its definition.
    c_source = "/**\n" + doc + " */\n\nint post(struct ledger *l, int amount)\n{\n" + "".join(
        f"    l->total += amount * {i};\n" for i in range(12)) + "    return l->total;\n}\n"
    chunks = _syntax("ledger.c", "c", c_source, unit="chars", budget=800)
    assert any(c.kind == "module" and "Line 0" in c.text for c in chunks)


def test_a_java_field_of_an_anonymous_class_is_a_definition_of_its_methods() -> None:
    # ``Runnable tick = new Runnable() { public void run() {...} };`` was a field's statements:
    # its methods were found nowhere (147 such chunks in 32 JDK files). It is named by its field,
    # its methods its own; ``new ArrayList<>()`` and an anonymous class in a method stay code.
    source = (
        "public class Scheduler {\n"
        "    private final Runnable tick = new Runnable() {\n"
        "        @Override\n        public void run() {\n            fire(System.nanoTime());\n        }\n    };\n"
        "    private final List<Job> jobs = new ArrayList<>();\n"
        "    public void start() {\n        Runnable later = new Runnable() { public void run() { stop(); } };\n    }\n"
        "}\n"
    )
    found = [(d.symbol, d.kind, d.first, d.last) for d in list_definitions(prepare("Scheduler.java", "java", source))]
    assert found == [
        ("Scheduler", "class", 1, 12),
        ("Scheduler.tick", "class", 2, 7),
        ("Scheduler.tick.run", "method", 3, 6),
        ("Scheduler.start", "method", 9, 11),
    ]
    chunks = _syntax("Scheduler.java", "java", source, unit="chars", budget=120)
    assert any(c.symbol == "Scheduler.tick.run" and "fire(System.nanoTime())" in c.text for c in chunks)


def test_an_upper_case_line_inside_code_is_no_macro() -> None:
    # A parameter's type alone on its line (``CARD32 /* newState */`` before ``);``) and an
    # operand after ``a |`` are code: read as comments, they damaged a sound prototype.
    from core.parsing import _macro_lines_commented

    source = (
        "extern void set_leds(\n\tDeviceIntPtr\t/* keybd */,\n\tCARD32\t\t/* newState */\n);\n"
        "static int flags(int a)\n{\n    int x = a |\n        FLAG_ONE |\n        FLAG_TWO_X\n        ;\n    return x;\n}\n"
    )
    assert _macro_lines_commented(source.encode()) == source.encode()
    chunks = _syntax("xkb.h", "c", source, unit="chars", budget=100)
    assert not any("damaged" in c.flags for c in chunks)
    # Above a doc comment's ``*/`` (not an open line of code) the macro is still read past.
    doc = "/**\n * Swaps.\n */\nMYLIB_CONSTEXPR\nvoid swap(int& a, int& b);\n"
    assert b"//" in _macro_lines_commented(doc.encode())


def test_macro_lines_that_cost_the_parse_its_footing_are_read_as_written() -> None:
    # Read as a comment, the macro line above this (unclosed) class left most of it in error,
    # and the repair then re-parsed the file line by line (35 parses of libstdc++'s
    # stl_queue.h, whose class lost its breadcrumb): the file as written parses, and is kept.
    from core.document import Document
    from core.parsing import parse

    source = "MYLIB_BEGIN_NAMESPACE\n  /**\n  */\n    class queue\n    {\n      pop()\n      {\n\tc.pop_front();\n      }\n"
    parsed = parse(Document.from_text("queue.h", "cpp", source))
    assert parsed is not None and parsed.tree is not None and parsed.muted == ()


def test_go_subtests_are_the_units_of_a_test_function() -> None:
    # Go keeps all code in functions, so ``t.Run("name", func(t *testing.T) {...})`` was cut
    # wherever the budget ran out, through the subtests. A subtest (and a sub-benchmark) is
    # now a definition of its test function, which is split as a suite: its head lists them.
    prep = prepare("cart_test.go", "go", _GO_SUBTESTS)
    found = {d.symbol: d for d in list_definitions(prep)}
    assert found['TestCart.t.Run("adds an item")'].kind == "callback"
    assert found['TestCart.t.Run("adds an item")'].first == 7
    assert "TestCart.t.Run(`removes an item`).t.Run(\"and its count\")" in found
    assert 'BenchmarkAdd.b.Run("one item")' in found
    # No body of its own (``checkHelper``), or no label (a table's ``tc.name``): a statement.
    assert not any("checkHelper" in s or "tc.name" in s for s in found), found
    chunks = _syntax("cart_test.go", "go", _GO_SUBTESTS, unit="chars", budget=300)
    head = next(c for c in chunks if c.symbol == "TestCart")
    assert (head.kind, head.start_line) == ("function", 5)
    assert head.header.startswith("// members of TestCart:")
    assert 't.Run("adds an item", func(t *testing.T)' in head.header
    adds = next(c for c in chunks if c.symbol == 'TestCart.t.Run("adds an item")')
    assert (adds.start_line, adds.end_line, adds.parent_id) == (7, 12, head.id)
    assert adds.text.endswith("})")
    # The table-driven loop is the test function's own code, whole.
    loop = next(c for c in chunks if "for _, tc := range cases" in c.text)
    assert loop.symbol == "TestCart" and "t.Fatalf(\"count = %d, want %d\"" in loop.text


def test_a_split_go_function_fills_its_first_part() -> None:
    # A Go body is one ``statement_list``: the first part of a split function held its comments
    # and signature alone whenever the statements' first group did not fit beside them. Its
    # statements are read one by one now, as every other language's are.
    doc = "// Run loads every step of the pipeline in order and checks each one.\n// It stops at the first step that fails.\n"
    body = "".join(f"\tstep{i} := load({i})\n\tcheck(step{i})\n" for i in range(12))
    source = "package p\n\n" + doc + "func Run() error {\n" + body + "\treturn nil\n}\n"
    parts = [c for c in _syntax("run.go", "go", source, unit="chars", budget=200) if c.symbol == "Run"]
    assert len(parts) >= 2 and parts[0].start_line == 3
    assert "step0 := load(0)" in parts[0].text and all(p.header == "func Run() error" for p in parts[1:])
    # A type declared in a body is that function's own code (a test's table of cases), not a
    # definition that leaves the signature alone in the first part.
    local = source.replace("func Run() error {\n", "func Run() error {\n\ttype step struct{ n int }\n")
    chunks = _syntax("run.go", "go", local, unit="chars", budget=200)
    assert not any(c.symbol.endswith("step") for c in chunks), [c.symbol for c in chunks]
    first = next(c for c in chunks if c.symbol == "Run")
    assert "type step struct" in first.text and "step0 := load(0)" in first.text


def test_a_long_breadcrumb_loses_the_start_of_its_symbol_not_the_chunk_its_room() -> None:
    # Nested suites make long breadcrumbs; at a small budget they took nearly all of it.
    source = "".join(f"{'  ' * d}describe('level {d} of the nesting', () => {{\n" for d in range(6))
    source += "      it('does the thing it says', () => {\n        expect(thing()).toBe(true);\n        expect(other()).toBe(false);\n      });\n"
    source += "".join(f"{'  ' * d}}});\n" for d in reversed(range(6)))
    chunks = _syntax("deep.test.js", "javascript", source, unit="chars", budget=240)
    leaf = next(c for c in chunks if c.symbol.endswith(".it('does the thing it says')"))
    crumb = leaf.embed_text.splitlines()[0]
    assert crumb.startswith("// deep.test.js :: \u2026") and crumb.endswith("it('does the thing it says')")
    assert len(crumb) + 1 <= 240 / 3
    assert not any("split_line" in c.flags for c in chunks)


def test_a_closing_brace_is_no_part_of_its_own() -> None:
    # The head of a split test took every statement that fit, leaving ``})`` alone as its last
    # part; the statement before it now goes with it.
    body = "".join(f"  const value{i} = await load('{i}');\n" for i in range(8))
    source = "test('loads everything', async () => {\n" + body + "  expect(value7).toBe(7);\n});\n"
    budget = len("\n".join(source.splitlines()[:10]))  # the head and every statement, not the ``})``
    parts = _syntax("load.test.js", "javascript", source, unit="chars", budget=budget, breadcrumb=False)
    assert len(parts) == 2 and parts[-1].text.strip() != "})", [p.text for p in parts]
    assert parts[-1].text.lstrip().startswith("expect(value7)")


def test_groups_and_chained_modifiers_of_registered_callbacks() -> None:
    # Mocha's ``.timeout()`` after a ``describe`` hid it and its tests; Rails' routes file is
    # one block with no label, its resources inside.
    mocha = (
        "describe('slow things', function () {\n  it('waits', function (done) {\n    setTimeout(done, 4000);\n  });\n"
        "}).timeout(5000);\n"
    )
    found = [d.symbol for d in list_definitions(prepare("slow.test.js", "javascript", mocha))]
    assert found == ["describe('slow things')", "describe('slow things').it('waits')"], found
    routes = (
        "Rails.application.routes.draw do\n  root 'home#index'\n\n  resources :orders do\n"
        "    member do\n      post :cancel\n    end\n  end\nend\n"
    )
    found = [d.symbol for d in list_definitions(prepare("config/routes.rb", "ruby", routes))]
    assert found == ["Rails.application.routes.draw", "Rails.application.routes.draw.resources(:orders)"], found
    # Only at a file's top level: in a method, such a block is one of its statements.
    nested = "def setup\n  RSpec.configure do |config|\n    config.order = :random\n  end\nend\n"
    assert [d.symbol for d in list_definitions(prepare("s.rb", "ruby", nested))] == ["setup"]


def test_closer_rebalancing_keeps_names_kinds_and_signatures() -> None:
    # Merged siblings: the closing brace after the last method must not turn that method into
    # a mixed ``statements`` group (longer breadcrumb, over the budget); Go's body is one
    # statement list, which must not leave a signature alone for the sake of a brace.
    basket = "class BasketStore1 {\n  constructor() { this.items = []; this.count = 0; this.total = 0; }\n  a(){}\n  clear() { this.items.length = 0; this.count = 0; }\n}\n"
    for budget in range(100, 140):
        chunks = _syntax("b.js", "javascript", basket, unit="chars", budget=budget, merge_siblings=True)
        assert not any("oversized" in c.flags for c in chunks), budget
        assert all(c.kind != "statements" or "clear" not in c.symbol for c in chunks), (budget, [c.symbol for c in chunks])
    go = (
        "package gw\n\nfunc Routes(s *Stats) *http.ServeMux {\n\tmux := http.NewServeMux()\n"
        '\tmux.HandleFunc("/healthz", Health(s))\n\tmux.HandleFunc("/metrics", Metrics(s))\n'
        '\tmux.HandleFunc("/version", func(w http.ResponseWriter, r *http.Request) {\n\t\tfmt.Fprintln(w, "gateway 1.9.3")\n\t})\n'
        "\treturn mux\n}\n"
    )
    for budget in range(240, 360, 4):
        parts = [c for c in _syntax("r.go", "go", go, unit="chars", budget=budget) if c.symbol == "Routes"]
        assert not (len(parts) > 1 and parts[0].end_line == 3), (budget, [(c.start_line, c.end_line) for c in parts])


def test_shortened_breadcrumbs_keep_the_head_and_cut_between_parts() -> None:
    from core.builder import shorten_symbol

    def within(limit: int):
        return lambda shown: len(shown) <= limit

    trail = "Chunk Explorer guide > Installing > Installing the command line tools"
    assert shorten_symbol(trail, within(60)) == "Chunk Explorer guide > \u2026 > Installing the command line tools"
    prose = "Don't panic: a guide > Installing > Installing the command line tools"
    assert shorten_symbol(prose, within(62)) == "Don't panic: a guide > \u2026 > Installing the command line tools"
    merged = "xml.dom.TestMinidom.{testSetAttrValue, testGetAttr, __setitem__, testRemoveAttr}"
    assert shorten_symbol(merged, within(52)) == "xml.dom.TestMinidom.{\u2026, __setitem__, testRemoveAttr}"
    # A label's own dots are no place to cut; an accent stays with its letter.
    nested = "describe('ShoppingCart').describe('addItem').it('caps 1.5 units at the stock')"
    assert shorten_symbol(nested, within(62)) == "describe('ShoppingCart').\u2026.it('caps 1.5 units at the stock')"
    assert not shorten_symbol("x" * 40 + "e\u0301" * 30, within(40))[1:2] == "\u0301"
    # A symbol just over the kept length is not made longer by its ellipsis.
    source = "class ShoppingCartService:\n    def apply_discount(self, code):\n        return code\n"
    path = "services/checkout/very/deep/monorepo/packages/payments-and-checkout/src/shop/cart_service.py"
    for chunk in _syntax(path, "python", source, unit="tokens", budget=64):
        assert "\u2026" not in chunk.embed_text.splitlines()[0]


def test_a_no_break_space_alone_is_a_blank_line() -> None:
    source = "# Notes\n\nNew Features\n------------\n- Shim lifecycle command, long enough to be split. (#1610)\n\u00a0\nBug Fixes\n---------\n- Fixed rsync test\n"
    for budget in (30, 50, 80):
        chunk_document(prepare("CHANGES.md", "markdown", source), ChunkSettings(unit="chars", budget=budget), "syntax")
        _syntax("CHANGES.md", "markdown", source, unit="chars", budget=budget)  # no chunk of whitespace alone


def test_ruby_groups_need_a_constant_and_the_top_level() -> None:
    source = (
        "class Report\n  self.class_eval do\n    def extra\n      1\n    end\n  end\n\n"
        "  [:a, :b].each do |name|\n    define_method(name) { name }\n  end\nend\n\n5.times do |i|\n  puts i\nend\n"
    )
    found = [d.symbol for d in list_definitions(prepare("report.rb", "ruby", source))]
    assert found == ["Report"], found


_KOTLIN_SPECS = """package shop

class CartSpec : DescribeSpec({
    describe("a cart") {
        it("starts empty") {
            val cart = Cart()
            cart.items.size shouldBe 0
        }
        it("adds an item") {
            val cart = Cart()
            cart.add(Item("apple", 3))
            cart.items.size shouldBe 1
        }
    }
})

class CartTest : FunSpec() {
    init {
        test("removes an item") {
            val cart = Cart()
            cart.remove("apple")
            cart.items.size shouldBe 0
        }
    }
}

fun Application.configureRouting() {
    routing {
        route("/orders") {
            get {
                call.respond(listOf("a", "b"))
            }
            post("/{id}") {
                call.respondText("created")
            }
        }
    }
}

fun tally(values: Map<String, Int>): Int {
    val cache = mutableMapOf<String, Int>()
    cache.getOrPut("total") { values.values.sum() }
    values.keys.forEach { it.let { key -> println(key) } }
    return cache.getValue("total")
}
"""

_GRADLE = """plugins {
    kotlin("jvm") version "1.9.0"
}

tasks.register<Copy>("copyDocs") {
    from("docs")
    into(layout.buildDirectory.dir("docs"))
}
"""

_SWIFT_SPECS = """import Quick

class CartSpec: QuickSpec {
    override class func spec() {
        describe("a cart") {
            it("adds an item") {
                let cart = Cart()
                cart.add(Item(name: "apple"))
                expect(cart.count).to(equal(1))
            }
        }
    }
}

func routes(_ app: Application) throws {
    app.get("hello") { req async -> String in
        "Hello, world!"
    }
}
"""


def test_kotlin_and_swift_tests_and_routes_are_callbacks() -> None:
    # A trailing lambda under a label is Kotest's test, a Ktor route, a Gradle task: it was cut
    # wherever the budget ran out, as plain code of the class or function holding it. Kotlin's
    # and Swift's calls have no ``arguments`` field; their ``call_suffix`` holds both.
    found = {d.symbol: d for d in list_definitions(prepare("CartSpec.kt", "kotlin", _KOTLIN_SPECS))}
    assert found['CartSpec.describe("a cart").it("adds an item")'].kind == "callback"
    assert found['CartSpec.describe("a cart").it("adds an item")'].first == 9
    assert 'CartTest.init.test("removes an item")' in found
    # A route group needs no label (``routing { }``, ``get { }``): a suite call's lambda alone.
    assert 'Application.configureRouting.routing.route("/orders").post("/{id}")' in found
    assert 'Application.configureRouting.routing.route("/orders").get' in found
    # ``it`` is a lambda's parameter and ``getOrPut("total") { }`` a map's call: statements.
    assert not any(s.startswith("tally.") for s in found), found
    gradle = {d.symbol: d.kind for d in list_definitions(prepare("build.gradle.kts", "kotlin", _GRADLE))}
    assert gradle == {'tasks.register("copyDocs")': "callback"}
    swift = {d.symbol: d for d in list_definitions(prepare("CartSpec.swift", "swift", _SWIFT_SPECS))}
    assert swift['CartSpec.spec.describe("a cart").it("adds an item")'].first == 6
    assert swift['routes.app.get("hello")'].kind == "callback"
    chunks = _syntax("CartSpec.kt", "kotlin", _KOTLIN_SPECS, unit="chars", budget=260)
    head = next(c for c in chunks if c.symbol == "CartSpec")
    assert head.text == "class CartSpec : DescribeSpec({"
    assert 'describe("a cart") {' in head.header
    adds = next(c for c in chunks if c.symbol == 'CartSpec.describe("a cart").it("adds an item")')
    assert adds.text.startswith('        it("adds an item") {') and adds.end_line == 15  # its closers too
    assert adds.parent_id == next(c.id for c in chunks if c.symbol == 'CartSpec.describe("a cart")')
    assert_slices_true(prepare("CartSpec.kt", "kotlin", _KOTLIN_SPECS), chunks)


@pytest.mark.parametrize("language", ["c", "cpp"])
def test_a_line_continuations_lone_backslash_is_in_a_chunk(language: str) -> None:
    # A lone "\" line counted as blank, so where a split macro's parts met on one, no chunk
    # held it: the chunks did not give the file back (libstdc++'s <codecvt>, valarray_after.h).
    body = "".join(f"    step_{i}(x); \\\n\\\n" for i in range(12))
    text = f"#define EXPAND(x) \\\n{body}    done(x)\n\nint after(void) {{\n    return 0;\n}}\n"
    prep = prepare(f"m.{'c' if language == 'c' else 'cpp'}", language, text)
    for budget in (60, 90, 140):
        chunks = chunk_document(prep, ChunkSettings(unit="chars", budget=budget), "syntax")
        covered = bytearray(len(prep.doc.data))
        for chunk in chunks:
            covered[chunk.start_byte : chunk.end_byte] = b"\x01" * (chunk.end_byte - chunk.start_byte)
        lost = [i for i, byte in enumerate(prep.doc.data) if not covered[i] and byte not in b" \t\r\n"]
        assert not lost, (budget, [prep.doc.data[i : i + 1] for i in lost[:5]])
        assert_lossless(prep, chunks)


def test_an_export_macro_in_a_class_head_is_no_class_name() -> None:
    # ``class U_COMMON_API Name : Base {`` (ICU, V8, torch, Qt): none of 277 such classes in
    # the ICU and V8 headers came out as a class; the grammar took the macro for the name, the
    # class became a function named after its base, its methods free functions.
    source = (
        "namespace demo {\n\n"
        "class MY_API Backend : public torch::CustomClassHolder {\n public:\n"
        "  explicit Backend(int rank);\n\n  int getRank() const {\n    return rank_;\n  }\n\n"
        "  virtual void shutdown() {\n    rank_ = -1;\n  }\n\n private:\n  int rank_;\n};\n\n"
        "struct DLL_EXPORT(demo) Options final {\n  int retries = 3;\n};\n\n"
        "template <typename T>\nclass V8_EXPORT Local<T*> {\n  T* get() const { return value_; }\n  T* value_;\n};\n\n"
        "struct RGB final {\n  int r, g, b;\n};\n\n"  # an upper-case name: no macro here
        "}  // namespace demo\n"
    )
    chunks = _syntax("export.hpp", "cpp", source, unit="chars", budget=200)
    kinds = {c.symbol: c.kind for c in reversed(chunks)}  # (a symbol's first chunk)
    assert kinds["demo.Backend"] == "class_header"
    assert kinds["demo.Backend.getRank"] == kinds["demo.Backend.shutdown"] == "method"
    assert kinds["demo.Options"] == "struct" and kinds["demo.RGB"] == "struct" and kinds["demo.Local"] == "class"
    assert not any("CustomClassHolder" in c.symbol or "damaged" in c.flags for c in chunks)
    # The chunks keep the macro in their text: only the parser read it as spaces.
    assert "class MY_API Backend" in next(c for c in chunks if c.symbol == "demo.Backend.getRank").header


def test_a_macro_call_alone_on_its_line_is_read_as_a_comment_unless_a_body_follows() -> None:
    # OpenSSL's ``DECLARE_ASN1_FUNCTIONS(X)`` lines (no ``;``) made the parser read all that
    # followed as one function named after the macro (x509v3.h: 320 lines in 15 parts), and
    # libstdc++'s ``_GLIBCXX11_DEPRECATED_SUGGEST("...")`` cut a template's head from its function.
    c_source = (
        "#include <openssl/asn1.h>\n\n"
        "DECLARE_ASN1_FUNCTIONS(OTHERNAME)\nDECLARE_ASN1_FUNCTIONS(EDIPARTYNAME)\n"
        "int OTHERNAME_cmp(OTHERNAME *a, OTHERNAME *b);\n\n"
        "typedef struct ASIdentifiers_st {\n    int *asnum, *rdi;\n} ASIdentifiers;\n\n"
        "static int add_one(int x)\n{\n    return x + 1;\n}\n\n"
        "PHP_FUNCTION(strlen)\n{\n    RETURN_LONG(0);\n}\n"  # a function a macro names, over its body
    )
    chunks = _syntax("asn1.h", "c", c_source, unit="chars", budget=1500)
    kinds = {c.symbol: c.kind for c in chunks}
    assert kinds["add_one"] == "function" and kinds["strlen"] == "function"
    assert "DECLARE_ASN1_FUNCTIONS" not in kinds and not any("damaged" in c.flags for c in chunks)
    cpp_source = (
        "namespace std {\n"
        "  // Mem_fun adaptor helper functions.\n"
        "  template<typename _Ret, typename _Tp>\n"
        "    _GLIBCXX11_DEPRECATED_SUGGEST(\"std::mem_fn\")\n"
        "    inline mem_fun_t<_Ret, _Tp>\n"
        "    mem_fun(_Ret (_Tp::*__f)())\n"
        "    { return mem_fun_t<_Ret, _Tp>(__f); }\n"
        "  int other = 1;\n"
        "}\n"
    )
    chunks = _syntax("functional.h", "cpp", cpp_source, unit="chars", budget=280)
    assert [(c.kind, c.symbol, c.start_line, c.end_line) for c in chunks if c.symbol == "std.mem_fun"] == [
        ("function", "std.mem_fun", 2, 7)
    ]


def test_kotlin_doc_comments_and_file_level_annotations_go_with_their_definition() -> None:
    # The grammar hangs the comments after the imports (or the package line) on them: the doc
    # comment of a file's main class was in the <module> chunk of the imports (37 of 180 files
    # of the audit). A file-level ``@Suppress("X")`` reads as an expression beside its ``fun``,
    # and went with its doc comment into a chunk of their own.
    source = (
        "package demo\n\nimport java.lang.ref.WeakReference\n\n"
        "/**\n * Holds the app context weakly.\n */\nclass Holder(ctx: Any) {\n"
        "  private val ref = WeakReference(ctx)\n}\n\n"
        "/**\n * Ends a trace section.\n */\n@Suppress(\"NOTHING_TO_INLINE\")\nfun endTraceBlock() {\n"
        "  Trace.endSection()\n}\n"
    )
    chunks = _syntax("Holder.kt", "kotlin", source, unit="chars", budget=150)
    spans = [(c.kind, c.symbol, c.start_line, c.end_line) for c in chunks]
    assert spans == [
        ("module", "<module>", 1, 3), ("class", "Holder", 5, 10), ("function", "endTraceBlock", 12, 18),
    ], spans  # fmt: skip
    without_imports = "package demo\n\n/**\n * Holds it.\n */\nclass Holder(ctx: Any) {\n  fun get(): Any? = ctx\n}\n"
    chunks = _syntax("Holder.kt", "kotlin", without_imports, unit="chars", budget=100)
    assert [(c.kind, c.start_line, c.end_line) for c in chunks] == [("module", 1, 1), ("class", 3, 8)]


def test_a_split_methods_long_doc_comment_is_under_the_methods_signature_not_the_classs() -> None:
    # When a method's javadoc and its body were both over the budget, the javadoc's part had
    # the class's signature above it (ConcurrentHashMap.computeIfAbsent, Integer.parseInt):
    # nothing in it said which method it documents.
    doc = "".join(f"     * Line {i} of a long explanation of what this method computes and why.\n" for i in range(20))
    body = "".join(f"        int v{i} = key.hashCode() * {i} + mapping.hashCode();\n" for i in range(60))
    source = (
        "public class Cache<K, V> {\n    private int size;\n\n"
        f"    /**\n{doc}     */\n    public V computeIfAbsent(K key, Function<K, V> mapping) {{\n{body}"
        "        return null;\n    }\n}\n"
    )
    chunks = _syntax("Cache.java", "java", source, unit="chars", budget=1500)
    parts = [c for c in chunks if c.symbol == "Cache.computeIfAbsent"]
    assert len(parts) > 2 and "/**" in parts[0].text and "computeIfAbsent(" not in parts[0].text
    assert all(
        c.header.startswith("public V computeIfAbsent(K key") or (not c.header and "public V computeIfAbsent(K key" in c.text)
        for c in parts
    ), [c.header for c in parts]  # (the part of the signature's own line does not repeat it above)


def test_a_bodiless_definitions_repeated_head_runs_down_to_its_name() -> None:
    # A native method's modifiers and annotations on lines of their own: its head was the first
    # line alone (``public final native``), above every part and in its class's member list.
    doc = "".join(f"     * Line {i} of a long explanation of what this access does and why.\n" for i in range(24))
    source = (
        "public abstract class VarHandle {\n"
        f"    /**\n{doc}     */\n    public final native\n    @IntrinsicCandidate\n"
        "    Object getAcquire(Object... args);\n\n    int x;\n}\n"
    )
    chunks = _syntax("VarHandle.java", "java", source, unit="chars", budget=1500)
    parts = [c for c in chunks if c.symbol == "VarHandle.getAcquire"]
    assert len(parts) == 2 and parts[0].header.endswith("Object getAcquire(Object... args);")
    assert parts[1].header == "" and parts[1].text.endswith("Object getAcquire(Object... args);")  # (holds it)


@pytest.mark.parametrize("language", ["c", "cpp"])
def test_a_typedefd_struct_is_named_by_its_typedef(language: str) -> None:
    # ``typedef struct otherName_st {...} OTHERNAME;`` was ``otherName_st``: code and users
    # write OTHERNAME (OpenSSL's and X11's headers).
    source = (
        "typedef struct otherName_st {\n    int type_id;\n} OTHERNAME;\n\n"
        "struct plain {\n    int a;\n};\n\n"
        "typedef struct {\n    int x;\n} Anon;\n\n"
        "typedef enum color { RED, GREEN } color_t;\n"
    )
    found = {d.symbol: (d.kind, d.signature) for d in list_definitions(prepare(f"t.{language}", language, source))}
    assert found == {
        "OTHERNAME": ("struct", "typedef struct otherName_st"), "plain": ("struct", "struct plain"),
        "Anon": ("struct", "typedef struct"), "color_t": ("enum", "typedef enum color"),
    }  # fmt: skip


def test_rust_items_under_a_root_error_are_read_through_it() -> None:
    # core's macros/mod.rs (assert_eq!, write!, ...): the unstable ``pub macro`` syntax made
    # the root an ERROR over whole items, and the file fell back to windows.
    source = (
        "#[macro_export]\npub macro debug_assert_matches($($arg:tt)*) {\n    if $crate::cfg!(debug_assertions) {\n"
        "        $crate::assert_matches::assert_matches!($($arg)*);\n    }\n}\n\n"
        "/// Returns whether the given expression matches any of the given patterns.\n#[macro_export]\n"
        "macro_rules! matches {\n    ($expression:expr, $(|)? $( $pattern:pat_param )|+ $( if $guard: expr )? $(,)?) => {\n"
        "        match $expression {\n            $( $pattern )|+ $( if $guard )? => true,\n            _ => false\n"
        "        }\n    };\n}\n"
    )
    # (Five such pairs: more than the parser's repairs of a line or three can mend.)
    source = "\n".join(source.replace("matches", f"matches_{i}") for i in range(5))
    from tree_sitter_language_pack import get_parser

    assert get_parser("rust").parse(source.encode()).root_node.is_error
    chunks = _syntax("mod.rs", "rust", source, unit="chars", budget=1500)
    assert not any(c.fallback for c in chunks)
    assert {c.symbol for c in chunks if c.kind == "macro" and c.text.startswith("/// Returns")} == {
        f"matches_{i}" for i in range(5)
    }


@pytest.mark.parametrize(("path", "language", "source"), [
    ("attr.rs", "rust", "//! Panic support.\n\n" + "".join(
        f'#[stable(feature = "panic_hooks", since = "1.10.0")]\npub use crate::panicking::{{hook_{i}, take_hook_{i}}};\n\n'
        for i in range(8)) + "pub fn f() {}\n"),
    ("limits.py", "python", '"""Limits."""\n\n' + "".join(
        f"# The limit of the {i}th kind of request, in bytes.\nLIMIT_{i} = {i} * 1024 * 1024\n\n" for i in range(8))
     + "def f():\n    return 1\n"),
], ids=["rust-attributes", "python-comments"])
def test_a_comment_or_attribute_right_above_a_statement_is_never_cut_from_it(path, language, source) -> None:
    # Packing statements into <module> chunks ended 32 chunks of the Rust sample with an
    # attribute whose item opened the next (std's panic.rs: ``#[stable(...)]`` | ``pub use``).
    chunks = _syntax(path, language, source, unit="chars", budget=300 if language == "rust" else 240)
    assert len([c for c in chunks if c.kind == "module"]) > 2
    for chunk in chunks:
        last = chunk.text.rstrip().rsplit("\n", 1)[-1].lstrip()
        assert not last.startswith(("#[", "# ")), chunk.text


def test_a_long_class_docstring_is_the_class_headers_parts() -> None:
    # click's Context: a 97-line docstring was four ``statements`` chunks, each part 1/1 (a
    # query could not put them back together), and the class_header held only ``class Context:``.
    lines = "".join(f"    line {i} of the class docstring explaining the context object.\n" for i in range(12))
    source = (
        f'class Context:\n    """The context object.\n\n{lines}    """\n\n'
        "    def close(self):\n        return None\n\n    def open(self):\n        return 1\n"
    )
    chunks = _syntax("ctx.py", "python", source, unit="chars", budget=400)
    heads = [c for c in chunks if c.kind == "class_header"]
    assert len(heads) > 1 and [c.part for c in heads] == list(range(1, len(heads) + 1))
    assert heads[0].text.startswith('class Context:\n    """The context object.') and heads[-1].text.endswith('"""')
    assert all(c.header == "class Context:" for c in heads[1:]) and "def close(self):" in heads[0].header
    assert not any(c.kind == "statements" for c in chunks)


def test_a_banner_above_a_class_whose_head_is_cut_leads_its_first_part() -> None:
    # argparse's ``# Action classes`` banner joined the head of ``class Action`` while the head
    # fit; once its long docstring made the head parts, the banner was a chunk of its own.
    lines = "".join(f"    line {i} of the docstring of the base class of every action.\n" for i in range(12))
    source = (
        "def helper():\n    return 1\n\n\n# ==============\n# Action classes\n# ==============\n\n"
        f'class Action:\n    """Information about an action.\n\n{lines}    """\n\n'
        "    def __call__(self, parser):\n        raise NotImplementedError\n"
    )
    chunks = _syntax("argparse.py", "python", source, unit="chars", budget=400)
    first = next(c for c in chunks if c.kind == "class_header")
    assert first.start_line == 5 and first.part == 1 and first.parts > 1
    assert not any(c.text.startswith("# =") and c.kind == "module" for c in chunks)


_FIELDS_BELOW_A_LONG_DOC = {
    "python": (
        "cfg.py",
        'class Config(Base):\n    """A configuration object with a fairly long docstring that explains\n'
        '    what the fields mean and how they are used by the rest of the code.\n    """\n\n'
        '    name: str = "default"\n    size: int = 10\n    ratio: float = 0.5\n\n'
        "    def load(self, path):\n        with open(path) as f:\n            return f.read()\n\n"
        '    def save(self, path, data):\n        with open(path, "w") as f:\n            f.write(data)\n',
    ),
    "typescript": (
        "cfg.ts",
        "/**\n * A configuration object with a long doc comment that explains\n"
        " * what the fields mean and how the code uses them.\n */\n"
        "export class Config extends Base {\n"
        '  name: string = "default";\n  size = 10;\n  ratio = 0.5;\n\n'
        "  load(path: string): string {\n    return readFileSync(path, 'utf8');\n  }\n\n"
        "  save(path: string, data: string): void {\n    writeFileSync(path, data);\n  }\n}\n",
    ),
}


@pytest.mark.parametrize("language", sorted(_FIELDS_BELOW_A_LONG_DOC))
def test_a_class_heads_last_part_takes_the_fields_that_fit(language: str) -> None:
    # A class head too long for one chunk (signature, a long doc) was cut into parts, and its
    # fields then stood in a ``statements`` chunk of their own though they fit the last part;
    # a head that fits whole takes them.
    path, source = _FIELDS_BELOW_A_LONG_DOC[language]
    chunks = _syntax(path, language, source, unit="chars", budget=200)
    heads = [c for c in chunks if c.kind == "class_header"]
    assert len(heads) == 2, [(c.kind, c.text) for c in chunks]
    assert "ratio" in heads[-1].text and "name" in heads[-1].text
    assert not any(c.kind == "statements" for c in chunks), [(c.kind, c.text) for c in chunks]
    assert_budget(chunks, 200)


@pytest.mark.parametrize(("width", "count", "budget"), [(40, 8, 300), (40, 12, 400), (47, 10, 700)])
def test_a_docstrings_closing_quotes_are_not_a_part_alone(width: int, count: int, budget: int) -> None:
    # Cut line by line, a class docstring's last part could be its closing quotes alone (the
    # stdlib's uuid.py and lib2to3): a closer alone answers nothing; it takes the line above.
    lines = "".join(f"    line {i} " + "x" * width + "\n" for i in range(count))
    source = f'class Context:\n    """The context object.\n\n{lines}    """\n\n    def close(self):\n        return None\n'
    chunks = _syntax("ctx.py", "python", source, unit="chars", budget=budget)
    assert not any(c.text.strip() == '"""' for c in chunks)
    assert_budget(chunks, budget)


_API_HEADER = (
    "#ifndef DB_H\n#define DB_H\n\n#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n"
    "extern int errno_like;\n"
    "typedef void (*db_callback)(void *);\n"
    "void (*db_hook)(int);\n\n"
    "/*\n** Open a database connection to the file named FILENAME.\n*/\n"
    "DB_API int db_open(\n  const char *filename,   /* Database filename (UTF-8) */\n  db **ppDb\n);\n\n"
    "/* Close a database connection. */\n"
    "DB_API int db_close(db *);\n"
    "DB_API int db_close_v2(db *);\n\n"
    "#ifdef DB_ENABLE_TRACE\n/* Return the trace callback's name. */\nDB_API const char *db_trace_name(db *);\n#endif\n\n"
    "static inline int db_ok(int rc) { return rc == 0; }\n\n"
    "#ifdef __cplusplus\n}\n#endif\n#endif\n"
)


def test_a_headers_prototypes_are_definitions_with_their_doc_comments() -> None:
    # ``CodeSpec.prototypes``: at file level, in ``extern "C" {}`` and in ``#ifdef`` blocks a
    # prototype is a function of its own, its comment above it; variables (a function
    # pointer's too) and typedefs stay statements.
    chunks = _syntax("db.h", "c", _API_HEADER)
    found = {c.symbol: c for c in chunks}
    for name in ("db_open", "db_close, db_close_v2", "db_trace_name", "db_ok"):
        assert found[name].kind == "function", name
    assert found["db_open"].text.startswith("/*\n** Open a database connection")
    assert found["db_open"].text.endswith("db **ppDb\n);")
    # Two prototypes under one comment are one chunk: the comment is about both.
    assert found["db_close, db_close_v2"].text == (
        "/* Close a database connection. */\nDB_API int db_close(db *);\nDB_API int db_close_v2(db *);"
    )
    assert found["db_trace_name"].text.startswith("/* Return the trace callback's name. */\n")
    assert found["db_trace_name"].embed_text.startswith("// db.h :: db_trace_name\n")
    names = {d.symbol: d for d in list_definitions(prepare("db.h", "c", _API_HEADER))}
    assert {"errno_like", "db_callback", "db_hook"}.isdisjoint(names), sorted(names)
    assert names["db_open"].is_function and names["db_open"].kind == "function"
    # The optional merge packs small prototypes as it packs small definitions.
    merged = _syntax("db.h", "c", _API_HEADER, merge_siblings=True)
    assert merged[0].symbol == "<module>, db_open, db_close, db_close_v2, db_trace_name, db_ok"


@pytest.mark.parametrize(("source", "prototypes"), [
    ("int *make(void);\nint (isalpha)(int);\nint (*signal(int sig, void (*func)(int)))(int);\n"
     "extern int __attribute__((nonnull)) put(int *x) __attribute__((pure));\n",
     ["make", "isalpha", "signal", "put"]),
    ("void (*on_full)(int);\nint table[3];\nint x = f(1);\nextern int errno;\nstruct node;\ntypedef int F(int);\n", []),
], ids=["prototypes", "variables"])
def test_only_a_declarator_holding_the_name_as_a_function_makes_a_prototype(source: str, prototypes: list[str]) -> None:
    assert [d.symbol for d in list_definitions(prepare("p.h", "c", source))] == prototypes


def test_cpp_prototypes_in_a_namespace_are_functions_and_class_members_stay_declarations() -> None:
    source = (
        "namespace geo {\n/// The distance between two points.\ndouble distance(const Point& a, const Point& b);\n"
        "template <class T> T clamp(T v, T lo, T hi);\n"
        "class Shape {\n public:\n  Shape();\n  virtual ~Shape();\n  double area() const;\n};\n}\n"
    )
    names = {d.symbol: d.kind for d in list_definitions(prepare("geo.hpp", "cpp", source))}
    assert names == {"geo": "namespace", "geo.distance": "function", "geo.clamp": "function", "geo.Shape": "class"}
    chunks = _syntax("geo.hpp", "cpp", source, unit="chars", budget=120)
    found = {c.symbol: c for c in chunks}
    assert found["geo.distance"].text.startswith("/// The distance between two points.\ndouble distance(")
    assert found["geo.distance"].kind == "function"
    # The class's own declarations are its members, listed in its header, not functions.
    assert not any(c.kind == "function" and "Shape" in c.symbol for c in chunks)


def test_export_macros_and_k_and_r_argument_macros_do_not_hide_a_prototype() -> None:
    # ICU's ``U_CAPI void U_EXPORT2`` over the name and zlib's ``ZEXTERN int ZEXPORT ... OF((...))``:
    # the grammar reads the macro and a built-in type as a statement of its own (the ``;`` it
    # supplied ends it), which leads the prototype on its line; ``OF((...))`` is its list.
    source = (
        "/**\n * Reset any saved state from a previous match.\n */\nU_CAPI void U_EXPORT2\n"
        "uregex_reset(URegularExpression *regexp,\n             int32_t index);\n\n"
        "ZEXTERN int ZEXPORT deflate OF((z_streamp strm, int flush));\n"
        "ZEXTERN const char * ZEXPORT zlibVersion OF((void));\n"
    )
    chunks = _syntax("mix.h", "c", source)
    found = {c.symbol: c for c in chunks}
    assert found["uregex_reset"].kind == "function"
    assert found["uregex_reset"].text.startswith("/**\n * Reset any saved state") and found["uregex_reset"].start_line == 1
    assert found["deflate"].text == "ZEXTERN int ZEXPORT deflate OF((z_streamp strm, int flush));"
    assert found["zlibVersion"].kind == "function"
    # The macro is read so only by the parser: chunks keep the file's text (``_syntax`` checks it).
    assert "OF((" in found["deflate"].embed_text


_GLIBC_STYLE = (
    "/* Remove file FILENAME.  */\nextern int remove (const char *__filename) __THROW;\n\n"
    "/* Rename file OLD to NEW.  */\nextern int rename (const char *__old, const char *__new) __THROW;\n\n"
    "/* Copy N bytes of SRC to DEST.  */\nextern void *memcpy (void *__restrict __dest, const void *__restrict __src,\n"
    "\t\t     size_t __n) __THROW __nonnull ((1, 2));\n\n"
    "/* Search N bytes of S for C.  */\nextern void *memchr (const void *__s, int __c, size_t __n)\n"
    "      __THROW __asm (\"memchr\") __attribute_pure__ __nonnull ((1));\n\n"
    "extern char *g_strdup (const char *str) G_GNUC_MALLOC;\n\n"
    "PyAPI_FUNC(int) PyOS_snprintf(char *str, size_t size, const char  *format, ...)\n"
    "                        Py_GCC_ATTRIBUTE((format(printf, 3, 4)));\n\n"
    "int last_error (void)\n{\n  return (int) EOF;\n}\n"
)


def test_attribute_macros_after_a_prototypes_parameters_do_not_make_it_an_error() -> None:
    # glibc's every prototype ends ``) __THROW;``, ``__nonnull ((1))``, ``__wur``: the grammar read
    # each as an ERROR (stdio.h fell back to fixed windows, string.h's were statements, damaged).
    chunks = _syntax("string.h", "c", _GLIBC_STYLE, unit="chars", budget=800)
    found = {c.symbol: c for c in chunks}
    for name in ("remove", "rename", "memcpy", "memchr", "g_strdup", "PyOS_snprintf"):
        assert found[name].kind == "function" and "damaged" not in found[name].flags, (name, sorted(found))
    assert found["memcpy"].text.endswith("__THROW __nonnull ((1, 2));")  # read as spaces by the parser alone
    assert found["remove"].text.startswith("/* Remove file FILENAME.  */")
    # A cast's ``)`` is no parameter list: ``(int) EOF`` stays code.
    assert "damaged" not in found["last_error"].flags
    assert not prepare("c.c", "c", "int f(void)\n{\n  return (int) EOF;\n}\n").damage.ranges


_EXPORT_MACRO_HEADS = (
    "/* Open a database. */\nSQLITE_API int sqlite3_open(const char *filename, sqlite3 **ppDb);\n"
    "SQLITE_API SQLITE_EXTERN const char sqlite3_version[];\n"
    "SQLITE_API sqlite3_int64 sqlite3_memory_used(void);\n\n"
    "ZEXTERN const char * ZEXPORT zlibVersion OF((void));\n\n"
    "XMLPUBFUN xmlChar * XMLCALL\n\t\txmlStrdup\t\t(const xmlChar *cur);\n\n"
    "CURL_EXTERN CURL *curl_easy_init(void);\n\n"
    "Py_DEPRECATED(3.3) PyAPI_FUNC(Py_ssize_t) PyUnicode_GetSize(PyObject *unicode);\n\n"
    "OSSL_DEPRECATEDIN_3_0 __owur int SSL_SRP_CTX_init(SSL *s);\n"
    "__owur X509 *SSL_get_peer(const SSL *s);\n"
)


def test_export_macros_before_a_declarations_type_do_not_make_it_an_error() -> None:
    # The grammar took ``SQLITE_API`` for the type and ``int`` for an error: almost every SQLite
    # prototype was flagged damaged, though named right. The macros are read as spaces.
    chunks = _syntax("api.h", "c", _EXPORT_MACRO_HEADS, unit="chars", budget=200)
    found = {c.symbol: c for c in chunks}
    # OpenSSL's ``__owur`` (warn if unused) is a macro where the type is known otherwise: 293
    # of ssl.h's 562 chunks were damaged.
    names = (
        "sqlite3_open", "sqlite3_memory_used", "zlibVersion", "xmlStrdup", "curl_easy_init", "PyUnicode_GetSize",
        "SSL_SRP_CTX_init", "SSL_get_peer",
    )  # fmt: skip
    for name in names:
        assert found[name].kind == "function" and "damaged" not in found[name].flags, (name, sorted(found))
    assert not prepare("api.h", "c", _EXPORT_MACRO_HEADS).damage.ranges
    assert found["sqlite3_open"].text.startswith("/* Open a database. */\nSQLITE_API int sqlite3_open(")


@pytest.mark.parametrize(
    "source",
    [
        "FILE *f;\n",
        "BOOL ok;\n",
        "HANDLE h = 0;\n",
        "DWORD API f(void);\n",  # either word may be the type: left as it is
        "LRESULT MY_CALL WndProc(HWND hwnd, UINT msg);\n",
        "struct hdr {\n    CARD32 mask B32;\n};\n",  # a macro after the name
        "__m128i _mm_load(void const *p);\n",  # a type of the implementation's
        "__u32 FOO_API f(void);\n",  # either may be the type
        "class A {\n    friend const __Base* __make(const A&);\n};\n",  # (``friend`` is no type)
        "extern void lzma_end(lzma_stream *strm) lzma_nothrow;\n",
        "struct win {\n    PyObject_HEAD\n    WINDOW *win;\n};\n",  # a field macro on its own line
    ],
)
def test_a_type_in_capitals_is_not_read_as_an_export_macro(source: str) -> None:
    never_types = LANGUAGES["c"].never_types  # (``WINAPI`` is one, ``API`` is not)
    assert core.parsing._head_macros_blanked(source.encode(), never_types) == source.encode()


_WINDOWS_HEADS = (
    "/* Worker thread. */\nDWORD WINAPI ThreadProc(LPVOID lpParam)\n{\n    return 0;\n}\n\n"
    "LRESULT CALLBACK WndProc(HWND hwnd, UINT msg, WPARAM wParam, LPARAM lParam)\n{\n"
    "    return DefWindowProc(hwnd, msg, wParam, lParam);\n}\n\n"
    "static BOOL APIENTRY DllMain(HMODULE h, DWORD reason, LPVOID reserved)\n{\n    return TRUE;\n}\n\n"
    "WINBASEAPI BOOL WINAPI CloseHandle(HANDLE hObject);\n\n"
    "typedef DWORD (WINAPI *PTHREAD_START_ROUTINE)(LPVOID lpThreadParameter);\n\n"
    "struct hooks {\n    LRESULT (CALLBACK *proc)(int code, WPARAM w, LPARAM l);\n    int count;\n};\n"
)


def test_windows_calling_conventions_do_not_make_a_definition_an_error() -> None:
    # ``DWORD WINAPI ThreadProc(...) {``: two words in capitals before the name, and the grammar
    # took ``WINAPI`` for the name: every thread procedure and window procedure was ``damaged``.
    # ``WINAPI`` is never a type (``CodeSpec.never_types``), so ``DWORD`` is.
    found = {c.symbol: c for c in _syntax("win.c", "c", _WINDOWS_HEADS, unit="chars", budget=400)}
    for name in ("ThreadProc", "WndProc", "DllMain", "CloseHandle", "hooks"):
        assert "damaged" not in found[name].flags, (name, sorted(found))
    assert found["ThreadProc"].kind == "function"
    assert found["ThreadProc"].text.startswith("/* Worker thread. */\nDWORD WINAPI ThreadProc(LPVOID lpParam)\n{")
    assert not prepare("win.c", "c", _WINDOWS_HEADS).damage.ranges
    # In C++ a COM method's ``STDMETHODCALLTYPE`` was read into its name as well.
    source = (
        "HRESULT STDMETHODCALLTYPE CFoo::QueryInterface(REFIID riid, void **ppv)\n{\n    return E_NOINTERFACE;\n}\n\n"
        "ULONG STDMETHODCALLTYPE CFoo::AddRef()\n{\n    return ++m_ref;\n}\n"
    )
    chunks = _syntax("foo.cpp", "cpp", source, unit="chars", budget=400)
    assert [(c.symbol, c.flags) for c in chunks] == [("CFoo.QueryInterface", ()), ("CFoo.AddRef", ())]
    # MFC's ``afx_msg`` (it stands for nothing), also on the line after an access label.
    source = (
        "class CMainFrame : public CFrameWnd\n{\npublic:\n    virtual BOOL PreCreateWindow(CREATESTRUCT& cs);\n\n"
        "protected:\n    afx_msg int OnCreate(LPCREATESTRUCT lpCreateStruct);\n    afx_msg void OnPaint();\n"
        "    DECLARE_MESSAGE_MAP()\n};\n"
    )
    assert not prepare("MainFrm.h", "cpp", source).damage.ranges
    assert [c.flags for c in _syntax("MainFrm.h", "cpp", source, unit="chars", budget=400)] == [()]


def test_an_extern_c_declaration_of_one_function_is_that_functions_chunk() -> None:
    # ``extern "C" int f(void);`` and ``extern "C" int h(void) {...}``: the linkage was opened as
    # ``extern "C" {...}`` is, and its ``extern`` and ``"C"`` left on the function's first line
    # made it a statement (cut at a small budget like any statement, its lines apart).
    source = (
        'extern "C" int f(void);\nextern "C" uint32_t g(int x);\n\n'
        'extern "C" int h(void)\n{\n    int total = 0;\n    total += 1;\n    return total;\n}\n\n'
        'extern "C" {\nint a(void);\n}\n'
    )
    chunks = _syntax("api.cpp", "cpp", source, unit="chars", budget=200)
    assert [(c.kind, c.symbol, c.start_line, c.end_line) for c in chunks] == [
        ("function", "f", 1, 1), ("function", "g", 2, 2), ("function", "h", 4, 9),
        ("module", "<module>", 11, 11), ("function", "a", 12, 13),
    ]  # fmt: skip
    assert chunks[2].text.startswith('extern "C" int h(void)\n{')
    # Too long for the budget, it is split as a function is, its signature repeated.
    parts = [c for c in _syntax("api.cpp", "cpp", source, unit="chars", budget=60) if c.symbol == "h"]
    assert len(parts) == 3 and all(c.kind == "function" for c in parts)
    assert parts[1].header == "int h(void)"


def test_qt_access_labels_do_not_make_the_members_below_an_error() -> None:
    # ``public slots:`` and ``signals:`` are Qt's (``slots`` stands for nothing, ``signals`` for
    # ``public``): the grammar knows neither, and every member below them was ``damaged``.
    source = (
        "class Counter : public QObject\n{\n    Q_OBJECT\n\npublic:\n    explicit Counter(QObject *parent = nullptr);\n"
        "    Q_INVOKABLE void reset();\n\npublic slots:\n    void setValue(int value);\n\nsignals:\n"
        "    void valueChanged(int newValue);\n\nprivate Q_SLOTS:\n    void tick();\n\nprivate:\n    int m_value = 0;\n};\n"
    )
    assert not prepare("counter.h", "cpp", source).damage.ranges
    chunks = _syntax("counter.h", "cpp", source, unit="chars", budget=120)
    assert len(chunks) > 2 and not any(c.flags for c in chunks), [(c.symbol, c.flags) for c in chunks]
    assert "".join(c.text for c in chunks).count("signals:") == 1  # the chunks keep the text as written
    # Only in a label: a variable, a member or a scope named so stays what it is.
    kept = b"int slots = 4;\nQ_SIGNALS::emit();\nstruct s { int signals; };\n"
    assert core.parsing._labels_rewritten(kept, LANGUAGES["cpp"].label_words) == kept


def test_microsofts_source_annotations_do_not_make_a_definition_an_error() -> None:
    # Visual Studio's desktop template opens with ``wWinMain(_In_ HINSTANCE hInstance, ...)``:
    # SAL's annotations read as types, and every annotated function was ``damaged``.
    source = (
        "int APIENTRY wWinMain(_In_ HINSTANCE hInstance,\n                     _In_opt_ HINSTANCE hPrevInstance,\n"
        "                     _In_ LPWSTR lpCmdLine,\n                     _In_ int nCmdShow)\n{\n    return 0;\n}\n\n"
        "_Success_(return != FALSE)\nBOOL ReadData(_In_reads_bytes_(sizeof(HEADER) + cb) const BYTE *pb, _In_ DWORD cb,\n"
        "              _Out_opt_ DWORD *pcbRead)\n{\n    return TRUE;\n}\n\n"
        "struct buffer {\n    _Field_size_(count) int *items;\n    size_t count;\n};\n"
    )
    for language, path in (("c", "app.c"), ("cpp", "app.cpp")):
        found = {c.symbol: c for c in _syntax(path, language, source, unit="chars", budget=400)}
        assert sorted(found) == ["ReadData", "buffer", "wWinMain"], (language, sorted(found))
        assert all(not c.flags for c in found.values()), [(c.symbol, c.flags) for c in found.values()]
        assert found["ReadData"].text.startswith("_Success_(return != FALSE)\nBOOL ReadData(_In_reads_bytes_(")
    # Linux's annotations for sparse: ``char __user *buf`` made every kernel function that takes a
    # user pointer ``damaged``.
    source = (
        "static ssize_t demo_read(struct file *file, char __user *buf, size_t len, loff_t *off)\n{\n"
        "\treturn copy_to_user(buf, \"hi\", 2) ? -EFAULT : 2;\n}\n\n"
        "static void __iomem *demo_map(void)\n{\n\treturn (void __force __iomem *)base;\n}\n"
    )
    chunks = _syntax("demo.c", "c", source, unit="chars", budget=400)
    assert [(c.symbol, c.flags) for c in chunks] == [("demo_read", ()), ("demo_map", ())]
    # Only whole names of those shapes: a longer name, all capitals (Tcl's ``_ANSI_ARGS_``), no
    # trailing underscore, no known word.
    kept = b"int f(foo_In_ a, _In_x b, _ANSI_ARGS_ c, _Bool d, _Event_h_ e, __users f, a__user g);"
    assert core.parsing._annotations_blanked(kept, LANGUAGES["c"].annotations) == kept


def test_a_prototypes_doc_comment_below_it_goes_with_it_zlib_style() -> None:
    # ``CodeSpec.docs_below``: zlib documents each function under its prototype, a blank line
    # after the comment. A comment that touches the next prototype is that one's (above it), and
    # a prototype with a comment above keeps only that one.
    source = (
        "ZEXTERN int ZEXPORT deflateEnd OF((z_streamp strm));\n"
        "/*\n     All dynamically allocated data structures for this stream are freed.\n*/\n\n"
        "/* Release the context object CTX. */\n"
        "void gcry_ctx_release (gcry_ctx_t ctx);\n"
        "/* Not about the one above: it touches the one below. */\n"
        "void gcry_free (void *a);\n\n"
        "int plain(void);\n\n/* A section's note, after a blank line. */\n\nint next(void);\n"
    )
    found = {c.symbol: c for c in _syntax("z.h", "c", source)}
    assert found["deflateEnd"].text.endswith("stream are freed.\n*/") and found["deflateEnd"].start_line == 1
    assert found["gcry_ctx_release"].text == "/* Release the context object CTX. */\nvoid gcry_ctx_release (gcry_ctx_t ctx);"
    assert found["gcry_free"].text.startswith("/* Not about the one above")
    assert found["plain"].text == "int plain(void);"
    # The long doc of a prototype split in parts is under its signature, export macros included.
    long_doc = "ZEXTERN int ZEXPORT inflate OF((z_streamp strm, int flush));\n/*\n" + "  inflate does a lot.\n" * 60 + "*/\n\n"
    parts = [c for c in _syntax("z.h", "c", long_doc) if c.symbol == "inflate"]
    assert len(parts) > 1 and all(c.kind == "function" for c in parts)
    assert parts[-1].header == "ZEXTERN int ZEXPORT inflate OF((z_streamp strm, int flush));"


@pytest.mark.parametrize(("unit", "budget"), [("chars", 400), ("chars", 1500), ("tokens", 254), ("lines", 20)])
def test_a_prototype_over_lines_is_never_cut_from_its_long_doc_below(unit: str, budget: int) -> None:
    # zlib's own header: ``ZEXTERN int`` and the rest are two declarations to the grammar, and the
    # doc below was lumped into the last parameter's piece: the prototype's last line went with
    # the doc (``uInt  dictLength);`` in one part, its name in another), the doc then started
    # a part of its own.
    doc = "".join(f"   Initializes the compression dictionary, line {i} of its long documentation.\n" for i in range(70))
    source = (
        "ZEXTERN int ZEXPORT deflateSetDictionary(z_streamp strm,\n"
        "                                         const Bytef *dictionary,\n"
        "                                         uInt  dictLength);\n"
        f"/*\n{doc}*/\n\n"
        "ZEXTERN int ZEXPORT deflateEnd(z_streamp strm);\n"
    )
    chunks = _syntax("zlib.h", "c", source, unit=unit, budget=budget)  # (lossless, slices true)
    parts = [c for c in chunks if c.symbol == "deflateSetDictionary"]
    assert len(parts) > 1 and parts[0].start_line == 1
    # The first part holds the whole prototype and goes on with its doc, as far as the budget lets.
    assert parts[0].end_line > 4, [(c.start_line, c.end_line) for c in parts]
    assert parts[1].start_line == parts[0].end_line + 1
    assert parts[-1].end_line == 75  # the doc's closing line


def test_a_signature_of_many_lines_is_repeated_whole_on_one_line() -> None:
    # Cut at six lines, a split ``receive``'s parts lost ``unit_cost`` and ``-> int:``, though
    # the part below read ``if unit_cost is not None:`` (a browser audit's finding).
    params = "".join(f"        number_{i}: int = {i},\n" for i in range(7))
    body = "".join(f"        total = total + number_{i % 7} * {i}\n" for i in range(40))
    source = f"class Stock:\n    def receive(\n        self,\n{params}    ) -> int:\n        total = 0\n{body}        return total\n"
    parts = [c for c in _syntax("s.py", "python", source, unit="tokens", budget=254) if c.symbol == "Stock.receive"]
    assert len(parts) > 1
    folded = "def receive(self, " + ", ".join(f"number_{i}: int = {i}" for i in range(7)) + ",) -> int:"
    assert all(c.header == folded for c in parts[1:])
    # Too long to fold (or a line comment inside, which would run over the rest): its first
    # lines, and "…" to say it goes on.
    many = "".join(f"        a_rather_long_parameter_name_{i}: int = {i},\n" for i in range(12))
    source = f"class Stock:\n    def receive(\n        self,\n{many}    ) -> int:\n        total = 0\n{body}        return total\n"
    parts = [c for c in _syntax("s.py", "python", source, unit="tokens", budget=400) if c.symbol == "Stock.receive"]
    assert parts[1].header.splitlines()[0] == "def receive(" and parts[1].header.endswith("\n…")
    commented = source.replace("        self,\n", "        self,  # the stock\n")
    parts = [c for c in _syntax("s.py", "python", commented, unit="tokens", budget=400) if c.symbol == "Stock.receive"]
    assert parts[1].header.endswith("\n…")


def _ledger(divider: str, body_lines: int = 3) -> str:
    """A class whose members are set apart by ``divider`` lines, with a blank line below them."""
    body = "".join(f"        total_{i} = self.count * {i} + self.offset\n" for i in range(body_lines))
    return (
        "class Ledger:\n    def __init__(self):\n"
        + "".join(f"        self.field_{i} = {i}\n" for i in range(6))
        + "        self.count = 0\n\n"
        + divider
        + "\n    def receive(self, quantity):\n"
        + body
        + "        return quantity\n"
    )


def _room_for_receive_alone(spare: int = 12) -> int:
    """A budget in chars that ``Ledger.receive`` fits with ``spare`` to spare, and its class does not."""
    chunks = _syntax("ledger.py", "python", _ledger(""), unit="chars", budget=300)
    (receive,) = [c for c in chunks if c.symbol == "Ledger.receive"]
    assert receive.size < 300 - spare
    return receive.size + spare


@pytest.mark.parametrize(
    ("divider", "expected"),
    [
        ("    # " + "-" * 60 + "\n    # catalogue\n    # " + "-" * 60 + "\n", True),
        ("    # ---- outbound / internal moves ----\n", True),
        ("    ################\n    ### Decoding Table\n", True),
        # A note with something to say is no divider: it stays searchable.
        ("    # Receiving must hold the lock: the journal and the stock change together.\n", False),
        # Han characters carry a word each (no spaces between words in that script).
        ("    # 入库时必须持有锁以保证日志和库存一起改变\n", False),
    ],
)
def test_comments_alone_that_only_title_a_section_are_flagged_divider(divider: str, expected: bool) -> None:
    # The method does not fit with the comments above it: they are a chunk of their own.
    source = _ledger(divider)
    chunks = _syntax("ledger.py", "python", source, unit="chars", budget=_room_for_receive_alone())
    alone = [c for c in chunks if c.text.strip().startswith("#")]
    assert len(alone) == 1, [(c.symbol, c.text) for c in chunks]
    assert ("divider" in alone[0].flags) is expected
    assert all("divider" not in c.flags for c in chunks if c is not alone[0])


def test_a_divider_that_fits_with_the_definition_below_joins_it_unflagged() -> None:
    source = _ledger("    # receiving\n")
    chunks = _syntax("ledger.py", "python", source, unit="chars", budget=_room_for_receive_alone(spare=40))
    receive = next(c for c in chunks if c.symbol == "Ledger.receive")
    assert receive.text.lstrip().startswith("# receiving\n")
    assert not any("divider" in c.flags for c in chunks)


def test_a_damaged_line_of_code_is_no_divider() -> None:
    # The repair read ``x = (`` as a comment: a chunk of "comments alone" of two words, flagged
    # divider, which the index leaves out.
    chunks = _syntax("syn.py", "python", "def broken(:\n  x = (\n", unit="chars", budget=800)
    (line,) = [c for c in chunks if c.text == "  x = ("]
    assert "damaged" in line.flags and "divider" not in line.flags


def test_a_license_header_is_no_divider() -> None:
    source = "# Copyright 2024 The Authors. Licensed under the Apache License.\n\nimport os\n\n\ndef f():\n    return os.sep\n"
    chunks = _syntax("lic.py", "python", source, unit="chars", budget=60)
    assert not any("divider" in c.flags for c in chunks)


_GROUPED_HEADER = (
    "/*\n** Error Codes And Messages\n**\n** The errcode interface returns the numeric result code of the\n"
    "** last call on connection D; errmsg returns English text that describes it.\n*/\n"
    "int db_errcode(db *d);\nint db_extended_errcode(db *d);\nconst char *db_errmsg(db *d);\n"
    "const char *db_errstr(int rc);\n\n"
    "/* Count the changes made by the last statement. */\nint db_changes(db *d);\n\n"
    "int db_total_changes(db *d);\nint db_busy_timeout(db *d, int ms);\n"
    "/* Its own comment: its own chunk. */\nint db_interrupt(db *d);\n"
)


def test_prototypes_written_under_one_comment_are_packed_with_it() -> None:
    # SQLite's style: one comment over a run of prototypes, one per line. The comment went with
    # the first; the others were one-line chunks that said nothing of what they do.
    chunks = _syntax("db.h", "c", _GROUPED_HEADER, unit="chars", budget=800)
    found = {c.symbol: c for c in chunks}
    group = found["db_errcode, db_extended_errcode, db_errmsg, db_errstr"]
    assert group.kind == "function" and group.text.startswith("/*\n** Error Codes And Messages")
    assert group.text.endswith("const char *db_errstr(int rc);")
    assert found["db_changes"].text.startswith("/* Count the changes")
    # Undocumented prototypes after a blank line, and one with a comment of its own, stay apart.
    for name in ("db_total_changes", "db_busy_timeout", "db_interrupt"):
        assert name in found, sorted(found)
    assert found["db_interrupt"].text.startswith("/* Its own comment")
    # Under a budget too small for the whole run, it is packed into as few chunks as fit, in order.
    small = _syntax("db.h", "c", _GROUPED_HEADER, unit="chars", budget=260)
    parts = [c for c in small if c.start_line <= 10 and c.end_line >= 7]
    assert len(parts) >= 2 and "db_errcode" in parts[0].symbol
    assert [n for c in parts for n in c.symbol.split(", ")] == [
        "db_errcode", "db_extended_errcode", "db_errmsg", "db_errstr"
    ]


@pytest.mark.parametrize(
    ("budget", "held"),
    [
        (200, ["db_errcode", "db_extended_errcode"]),  # the comment's last piece has room for two
        (145, ["db_errcode", "db_extended_errcode", "db_errmsg"]),  # for none: a last part of three
    ],
)
def test_a_comment_too_long_for_its_group_leads_as_many_prototypes_as_fit(budget: int, held: list[str]) -> None:
    # SQLite's comments are mostly too long to share a chunk with their whole run of prototypes:
    # the comment's parts led the first prototype alone, the rest packed apart without it.
    chunks = _syntax("db.h", "c", _GROUPED_HEADER, unit="chars", budget=budget)
    parts = sorted((c for c in chunks if c.start_line <= 7 and c.parts > 1), key=lambda c: c.part)
    assert parts and parts[0].text.startswith("/*\n** Error Codes And Messages")
    # Every part of the comment is named after the prototypes it is about, so they stay one group.
    assert {c.symbol for c in parts} == {", ".join(held)}
    assert [c.part for c in parts] == list(range(1, len(parts) + 1))
    assert all(c.parent_id == parts[0].id for c in parts[1:])
    last = parts[-1].text
    assert all(f"{name}(" in last for name in held)
    # The rest of the run is packed after them, as before.
    rest = [c for c in chunks if 7 < c.start_line <= 10]
    assert [n for c in rest for n in c.symbol.split(", ")] == [
        n for n in ("db_errcode", "db_extended_errcode", "db_errmsg", "db_errstr") if n not in held
    ]
    assert all(c.size <= budget for c in chunks)


_SCALA3_END_MARKERS = """object Pricing:
  def linePrice(qty: Int, unit: BigDecimal): BigDecimal =
    val gross = unit * qty
    val rebate = if qty > 10 then gross * 0.05 else BigDecimal(0)
    gross - rebate
  end linePrice

  def roundCents(x: BigDecimal): BigDecimal =
    x.setScale(2, BigDecimal.RoundingMode.HALF_UP)
  end roundCents
end Pricing

class Cart(items: List[Int]):
  def total: Int = items.sum
end Cart
"""


@pytest.mark.parametrize("budget", [100, 150, 180, 260, 400])
def test_scala3_end_markers_close_their_definitions(budget: int) -> None:
    # ``end name`` was a chunk of its own, or the start of the next statement's.
    chunks = _syntax("Pricing.scala", "scala", _SCALA3_END_MARKERS, unit="chars", budget=budget)
    by_line = {line: c for c in chunks for line in range(c.start_line, c.end_line + 1)}
    if budget >= 180:  # each method fits with its marker: the marker is in its chunk
        for line, symbol in ((6, "Pricing.linePrice"), (10, "Pricing.roundCents")):
            assert by_line[line].symbol in (symbol, "Pricing"), (line, by_line[line].symbol)
        assert not [c for c in chunks if c.text.strip().startswith("end ")]
    else:  # a method split for its size ends with its marker, in its last part
        assert by_line[6].symbol == "Pricing.linePrice" and by_line[6].part == by_line[6].parts
    assert by_line[15].symbol == "Cart"
    # A method that fits only without its marker stays whole; the marker goes on after it.
    whole = [c for c in chunks if c.symbol == "Pricing.roundCents"]
    if budget == 150:
        assert len(whole) == 1 and whole[0].end_line == 9


@pytest.mark.parametrize("marker", ["# %%", "# In[ ]:"])
@pytest.mark.parametrize("budget", [200, 300, 400])
def test_a_script_of_cells_is_cut_where_a_cell_starts_with_its_prose_above_it(budget: int, marker: str) -> None:
    # VS Code's and jupytext's ``# %%`` cells (a notebook's script, core/notebook.py) and
    # nbconvert's ``# In[ ]:``: loose statements are packed whole cells at a time, and a prose
    # cell goes with the code below it.
    cells = []
    for i in range(8):
        body = "\n".join(f"v{i}_{k} = compute({i}, {k})" for k in range(2 + i % 3))
        prose = f"# %% [markdown]\n# Step {i}: what it does.\n" if i % 2 else ""
        cells.append(f"{prose}{marker}\n{body}\n")
    text = "\n".join(cells)
    prep = prepare("cells.py", "python", text)
    chunks = chunk_document(prep, ChunkSettings(unit="chars", budget=budget), "syntax")
    assert len(chunks) > 1
    assert_lossless(prep, chunks)
    for chunk in chunks:
        first = chunk.text.split("\n")[0]
        assert first in (marker, "# %% [markdown]"), (budget, chunk.start_line, first)
        assert not chunk.text.rstrip().endswith("# %% [markdown]")


@pytest.mark.parametrize("budget", [300, 600])
def test_a_prose_cell_first_in_a_run_keeps_its_cell_line(budget: int) -> None:
    # Its ``# %% [markdown]`` line was cut from its own prose and left alone as a chunk, which
    # read as a section divider and was left out of the index (the bundled notebook's title too).
    code = "".join(f'df{i} = pd.read_csv("warehouse_export_{i}.csv").dropna().reset_index(drop=True)\n' for i in range(9))
    text = ("# %% [markdown]\n# ## Load the exports\n# Each warehouse writes one CSV a night; we drop the empty rows.\n"
            f"# %%\nimport pandas as pd\n{code}")
    prep = prepare("cells.py", "python", text)
    chunks = chunk_document(prep, ChunkSettings(unit="chars", budget=budget), "syntax")
    assert_lossless(prep, chunks)
    assert chunks[0].text.startswith("# %% [markdown]\n# ## Load the exports\n# Each warehouse")
    assert not [c for c in chunks if "divider" in c.flags]
    assert all(c.text.split("\n")[0] in ("# %% [markdown]", "# %%", "import pandas as pd") or c.start_line > 5 for c in chunks)


def test_haskell_signature_and_equations_are_one_definition_split_under_the_type_signature() -> None:
    source = ("module Shop.Report where\n\n-- | How a price prints.\nformat :: Int -> String\nformat 0 = \"free\"\n"
              "format n = show n ++ \" €\"\n\n-- | The nightly report.\nreport :: [Int] -> IO ()\nreport prices = do\n"
              + "".join(f"  putStrLn (\"line {i}: \" ++ format (prices !! {i}))\n" for i in range(30))
              + "  putStrLn (total prices)\n  where\n    total ps = format (sum ps)\n")
    found = {d.symbol: (d.kind, d.first, d.last) for d in list_definitions(prepare("Report.hs", "haskell", source))}
    assert found["Shop.Report"][0] == "module"
    assert found["Shop.Report.format"] == ("function", 4, 6)  # the signature and both equations
    assert "Shop.Report.format.format" not in found  # a later equation is no definition of its own
    assert found["Shop.Report.report.total"][0] == "function"  # its ``where`` clause's helper
    chunks = _syntax("Report.hs", "haskell", source, unit="chars", budget=300)
    fmt = [c for c in chunks if c.symbol == "Shop.Report.format"]
    assert len(fmt) == 1 and fmt[0].text.startswith("-- | How a price prints.\nformat :: Int -> String")
    assert fmt[0].text.rstrip().endswith('format n = show n ++ " €"')
    parts = [c for c in chunks if c.symbol == "Shop.Report.report"]
    assert len(parts) >= 3 and [c.part for c in parts] == list(range(1, len(parts) + 1))
    assert parts[0].text.startswith("-- | The nightly report.\nreport :: [Int] -> IO ()\nreport prices = do")
    for part in parts[1:]:
        assert part.header == "report :: [Int] -> IO ()\nreport prices" and part.parent_id == parts[0].id
    # The ``where`` clause's helper is a nested definition of the split function.
    helper = next(c for c in chunks if c.symbol == "Shop.Report.report.total")
    assert helper.kind == "function" and "total ps = format (sum ps)" in helper.text
    # Many equations: their parts repeat the type signature alone (not the first one's head).
    many = "code :: Int -> String\n" + "".join(f'code {i} = "c{i}"\n' for i in range(30))
    parts = _syntax("Codes.hs", "haskell", many, unit="chars", budget=200)
    assert len(parts) >= 3 and all(c.symbol == "code" for c in parts)
    assert all(c.header == "code :: Int -> String" for c in parts[1:])


def test_a_haddock_comment_after_a_definition_documents_it_not_the_next() -> None:
    # ``-- ^`` documents what stands above it: it went with cube (budget 300) or was a
    # divider of its own (60), left out of the index.
    source = "square :: Int -> Int\nsquare x = x * x\n-- ^ Squares an integer.\n\ncube :: Int -> Int\ncube x = x * x * x\n"
    for budget in (300, 60):
        chunks = _syntax("Powers.hs", "haskell", source, unit="chars", budget=budget)
        square = [c for c in chunks if c.symbol == "square"]
        assert any("Squares an" in c.text for c in square), budget
        assert all(c.start_line >= 5 for c in chunks if c.symbol == "cube"), budget
        assert not any("divider" in c.flags for c in chunks), budget
    above = "-- | Squares.\nsquare :: Int -> Int\nsquare x = x * x\n\n-- | Cubes.\ncube :: Int -> Int\ncube x = x * x * x\n"
    chunks = _syntax("Powers.hs", "haskell", above, unit="chars", budget=300)
    assert [(c.symbol, c.start_line) for c in chunks] == [("square", 1), ("cube", 5)], "-- | stays with what is below"


def test_haskell_class_and_instance_split_into_header_and_methods() -> None:
    methods = "".join(f"  -- | Rule {i}.\n  rule{i} :: a -> Int\n  rule{i} _ = {i}\n\n" for i in range(12))
    source = f"class Pricing a where\n{methods}instance Pricing Item where\n" + "".join(
        f"  rule{i} item = itemQty item * {i}\n" for i in range(12)
    )
    chunks = _syntax("Rules.hs", "haskell", source, unit="chars", budget=200)
    header = next(c for c in chunks if c.kind == "class_header" and c.symbol == "Pricing")
    assert header.text.startswith("class Pricing a where") and "rule3" in header.header
    members = [c for c in chunks if c.parent_id == header.id]
    assert len(members) >= 6 and all(c.kind == "method" and c.symbol.startswith("Pricing.rule") for c in members)
    rule3 = next(c for c in members if c.symbol == "Pricing.rule3")
    assert rule3.text == "  -- | Rule 3.\n  rule3 :: a -> Int\n  rule3 _ = 3"
    instance = next(c for c in chunks if c.kind == "class_header" and c.symbol == "<Item as Pricing>")
    assert any(c.parent_id == instance.id and c.symbol == "<Item as Pricing>.rule7" for c in chunks)
    # Where the summary lists signatures, a method is listed by its type, not its equation's head.
    prep = _prep("polyglot_scripts/haskell/Restock.hs")
    chunks = chunk_document(prep, ChunkSettings(budget=300, unit="chars"), "syntax")
    priced = next(c for c in chunks if c.kind == "class_header" and c.symbol == "Shop.Restock.Priced")
    assert "--   priceOf :: Int -> a -> Cents" in priced.header


def test_julia_module_and_struct_split_into_members_and_long_function_into_parts() -> None:
    functions = "".join(f'"Price rule {i}."\nrule{i}(p::Product) = p.list_price * {i}\n\n' for i in range(10))
    body = "".join(f"    total += rule{i % 10}(product) * {i}\n" for i in range(40))
    source = (f'"""\nShop pricing.\n"""\nmodule Pricing\n\nstruct Product\n    sku::String\n    list_price::Int\nend\n\n'
              f"{functions}\"Sum of every rule.\"\nfunction total_price(product::Product)::Int\n    total = 0\n{body}"
              "    return total\nend\n\nend # module\n")
    found = {(d.symbol, d.kind) for d in list_definitions(prepare("pricing.jl", "julia", source))}
    assert {("Pricing", "module"), ("Pricing.Product", "struct"), ("Pricing.rule4", "function")} <= found
    chunks = _syntax("pricing.jl", "julia", source, unit="chars", budget=300)
    header = next(c for c in chunks if c.kind == "class_header" and c.symbol == "Pricing")
    assert header.text.startswith('"""\nShop pricing.\n"""\nmodule Pricing') and "rule4" in header.header
    rule4 = next(c for c in chunks if c.symbol == "Pricing.rule4")
    assert rule4.parent_id == header.id and rule4.kind == "function"
    assert rule4.text == '"Price rule 4."\nrule4(p::Product) = p.list_price * 4'  # with its docstring
    parts = [c for c in chunks if c.symbol == "Pricing.total_price"]
    assert len(parts) >= 3 and [c.part for c in parts] == list(range(1, len(parts) + 1))
    assert parts[0].text.startswith('"Sum of every rule."\nfunction total_price(product::Product)::Int')
    assert all(p.header == "function total_price(product::Product)::Int" for p in parts[1:])


@pytest.mark.parametrize(("language", "path", "source", "intact"), [
    ("haskell", "Broken.hs",
     "module Shop where\n\n-- | Fine.\nfine :: Int -> Int\nfine x = x + 1\n\nbroken :: Int -> Int\nbroken x = (x +\n\n"
     "-- | Fine too.\nalso :: Int\nalso = 2\n", "Shop.fine"),
    ("julia", "broken.jl",
     '"Fine."\nfunction fine(x)\n    x + 1\nend\n\nfunction broken(x)\n    y = (x +\nend\n\n'
     '"Fine too."\nalso(x) = 2x\n', "fine"),
], ids=["haskell", "julia"])
def test_a_broken_haskell_or_julia_file_is_chunked_around_its_damage(language, path, source, intact) -> None:
    # (Julia's unclosed bracket is read as a comment line, so the rest parses: see core.parsing.)
    assert prepare(path, language, source).damage.ratio > 0
    chunks = _syntax(path, language, source, unit="chars", budget=200)
    broken = [c for c in chunks if "damaged" in c.flags]
    assert broken and all(c.fallback is None for c in chunks)
    assert any(c.symbol.endswith("broken") for c in broken)
    assert any(c.symbol == intact and c.kind == "function" and "damaged" not in c.flags for c in chunks)
_DART = "polyglot_scripts/dart/restock_planner.dart"


def test_dart_members_are_their_signature_and_sibling_body_with_doc_and_annotation() -> None:
    # The grammar gives ``@override``, ``///``, the signature and ``{ ... }`` as four siblings.
    chunks = chunk_document(_prep(_DART), ChunkSettings(budget=300, unit="chars"), "syntax")
    build = next(c for c in chunks if c.symbol == "_RestockScreenState.build")
    assert build.kind == "method" and build.parts == 1
    assert build.text.lstrip().startswith("@override\n  Widget build(BuildContext context) {")
    assert build.text.rstrip().endswith("}")
    nested = next(c for c in chunks if c.symbol == "RestockPlanner.buildPlan.cartons")
    assert nested.text.lstrip().startswith("// A supplier delivers") and nested.text.rstrip().endswith("}")
    # A comment on the signature's line, before a body on the next, stands between the siblings.
    source = "class Tax {\n  int vat(int cents) // in cents\n  {\n    return cents ~/ 5;\n  }\n}\n"
    found = {d.symbol: (d.kind, d.first, d.last) for d in list_definitions(prepare("tax.dart", "dart", source))}
    assert found["Tax.vat"] == ("method", 2, 5)


def test_dart_large_class_splits_into_header_and_members_and_long_method_into_parts() -> None:
    chunks = chunk_document(_prep(_DART), ChunkSettings(budget=300, unit="chars"), "syntax")
    header = next(c for c in chunks if c.kind == "class_header" and c.symbol == "RestockPlanner")
    assert "class RestockPlanner with DecisionLog {" in header.text
    assert "members of RestockPlanner" in header.header and "buildPlan" in header.header
    members = [c for c in chunks if c.parent_id == header.id]
    assert {"RestockPlanner.toRefill", "RestockPlanner.reserveFor", "RestockPlanner.buildPlan"} <= {c.symbol for c in members}
    parts = [c for c in chunks if c.symbol == "RestockPlanner.buildPlan"]
    assert len(parts) >= 5 and [c.part for c in parts] == list(range(1, len(parts) + 1))
    signature = "List<String> buildPlan({DateTime? now, bool dryRun = false})"
    assert all(_under_or_holding(c, signature) for c in parts[1:])
    assert all(c.parent_id == parts[0].id for c in parts[1:])
    # Split statement by statement: no part starts inside a statement of the body's own level.
    assert any(c.text.lstrip().startswith("for (final shelf in toRefill) {") for c in parts)
    # A member's head keeps what stands before its signature (``static``) in the repeated header.
    source = "class Prices {\n  static int total(List<int> cents) {\n" + "".join(
        f"    final step{i} = cents.length * {i} + cents.fold(0, (a, b) => a + b);\n" for i in range(8)
    ) + "    return 0;\n  }\n}\n"
    parts = [c for c in _syntax("prices.dart", "dart", source, unit="chars", budget=200) if c.symbol == "Prices.total"]
    assert len(parts) >= 3 and all(c.header == "static int total(List<int> cents)" for c in parts[1:])


def test_dart_a_syntax_error_is_marked_damaged_in_its_member_only() -> None:
    text = (SAMPLES / _DART).read_text("utf-8")
    old = "    final quotes = <SupplierQuote>[];"
    assert old in text
    broken = prepare(_DART, "dart", text.replace(old, "    final quotes = <SupplierQuote>[;", 1))
    chunks = chunk_document(broken, ChunkSettings(budget=400, unit="chars"), "syntax")
    assert_lossless(broken, chunks)
    assert all(c.fallback is None for c in chunks)
    damaged = [c for c in chunks if "damaged" in c.flags]
    assert damaged and all(c.symbol == "RestockPlanner.sendOrders" for c in damaged)
    assert {d.symbol for d in list_definitions(_prep(_DART))} == {d.symbol for d in list_definitions(broken)}
# ---- Solidity and Zig ---------------------------------------------------------------------------


@pytest.mark.parametrize(("rel", "container", "head", "members", "function", "signature"), [
    ("polyglot_scripts/solidity/GiftCardLedger.sol", "GiftCardLedger", "contract GiftCardLedger is ICardLedger",
     ["GiftCardLedger.onlyOperator", "GiftCardLedger.issue", "GiftCardLedger.settleOrder", "GiftCardLedger.receive"],
     "GiftCardLedger.settleOrder", "function settleOrder("),
    # A ``ContainerDecl`` is its own body: its head is the ``const`` that names it, to its ``{``.
    ("polyglot_scripts/zig/restock.zig", "Bin", "pub const Bin = struct {",
     ["Bin.Rank", "Bin.parse", "Bin.urgency", "Bin.packsToOrder"], "planRestock", "pub fn planRestock("),
    # A kernel's parts repeat its head with ``__global__`` (C++'s reading blanked the word).
    ("polyglot_scripts/cuda/nightly_reprice.cu", "shop.SkuRecord", "struct SkuRecord",
     ["shop.SkuRecord.floorCents", "shop.SkuRecord.belowReorderPoint"], "shop.planRestock",
     "__global__ void planRestock("),
], ids=["solidity", "zig", "cuda"])
def test_solidity_and_zig_split_into_a_head_with_members_and_functions_into_parts(
    rel, container, head, members, function, signature
) -> None:
    prep = _prep(rel)
    chunks = chunk_document(prep, ChunkSettings(unit="chars", budget=400), "syntax")
    assert_lossless(prep, chunks)
    assert_slices_true(prep, chunks)
    header = next(c for c in chunks if c.kind == "class_header" and c.symbol == container)
    heads = [c for c in chunks if c.kind == "class_header" and c.symbol == container]
    assert head in "\n".join(c.text for c in heads)
    assert f"members of {container}" in header.header
    inside = {c.symbol for c in chunks if c.parent_id in {h.id for h in heads}}
    assert set(members) <= inside, sorted(inside)
    # Under the container's head (a member that fits only without it goes without).
    whole = [c for c in chunks if c.symbol in members and c.parts == 1 and c.kind != "class_header"]
    assert whole and all(c.header.startswith(head) or not c.header for c in whole)
    assert any(c.header.startswith(head) for c in whole)
    parts = [c for c in chunks if c.symbol == function]
    assert len(parts) >= 4 and [c.part for c in parts] == list(range(1, len(parts) + 1))
    # (A doc comment too long to share a part with the signature is the parts before it.)
    opening = next(i for i, c in enumerate(parts) if signature in c.text)
    assert all(c.header.startswith(signature) for c in parts[opening + 1 :])
    assert all(c.parent_id == parts[0].id for c in parts[1:])
    assert not any(c.flags or c.fallback for c in chunks)


@pytest.mark.parametrize(("rel", "old", "new", "hurt", "sound"), [
    ("polyglot_scripts/solidity/GiftCardLedger.sol", "        card.status = Status.Frozen;",
     "        card.status = = Status.Frozen %% (;", "GiftCardLedger.freeze", "GiftCardLedger.settleOrder"),
    ("polyglot_scripts/zig/restock.zig", "        if (self.on_hand == 0) return .empty;",
     "        if (self.on_hand == 0) return .empty; %% ) )", "Bin.urgency", "planRestock"),
    ("polyglot_scripts/css/checkout.css", "  border-radius: 999px;", "  border-radius: 999px %% ];",
     ".stock-badge", ".order-total, .order-total--sticky"),
    ("polyglot_scripts/scss/_shelf-labels.scss", "  height: $height;", "  height: $height %% ];",
     "barcode-area", "%label-frame"),
    ("polyglot_scripts/cuda/nightly_reprice.cu", "    return whole + 9.0f;", "    return whole + + 9.0f %% (;",
     "shop.roundToNine", "shop.repriceSkus"),
    # An ``endif(`` left open in a loop: the function it is in is damaged, the others are sound.
    ("polyglot_scripts/cmake/cmake/StockTools.cmake", "      continue()\n    endif()\n    string(REPLACE",
     "      continue()\n    endif(\n    string(REPLACE", "stock_embed_price_table", "stock_add_tool"),
    # A ``)`` too many in a top-level ``if`` block: that block's chunk, not the targets around it.
    ("polyglot_scripts/cmake/CMakeLists.txt", "  target_sources(pickstation PRIVATE src/station/zpl_label.cpp)\n",
     "  target_sources(pickstation PRIVATE src/station/zpl_label.cpp))\n", "<module>", "stockcore"),
    ("polyglot_scripts/verilog/conveyor_sorter.sv", "        ticks <= ticks + 12'd1;",
     "        ticks <= ticks + 12'd1 %% ) );", "conveyor_sorter.track", "conveyor_sorter.next_state"),
    ("polyglot_scripts/vhdl/scale_reporter.vhd", "        sum   := sum + adc_grams;",
     "        sum   := sum + adc_grams %% ) );", "scale_reporter.rtl.average", "scale_reporter.rtl.send_frame"),
    # A doubled ``=`` in a Bazel target: that target, not the loose statements or the targets around it.
    ("polyglot_scripts/bazel/BUILD.bazel", '    csv = "data/prices.csv",', '    csv = = "data/prices.csv",',
     "prices", "stockcore"),
    # A binding's ``;`` left out in a derivation: that derivation, not the flake's other outputs.
    ("polyglot_scripts/nix/flake.nix", '          version = "0.9.3";', '          version = "0.9.3"',
     "outputs.packages.label-bridge", "outputs.packages.stock-api"),
    # An operand missing in an option's set: that option, not the module's services.
    ("polyglot_scripts/nix/modules/stock-api.nix", "      default = 30;", "      default = 30 +;",
     "options.services.stock-api.holdMinutes", "config.services.nginx"),
    # Apex: a call left open in the long method (its parts after the error), not the methods around it.
    ("polyglot_scripts/apex/StockReservationService.cls", "                Integer take = Math.min(free, wanted - held);",
     "                Integer take = Math.min(free, wanted - held %% (;", "StockReservationService.reserveOrders",
     "StockReservationService.releaseExpired"),
    ("polyglot_scripts/apex/StockReservationServiceTest.cls", "        System.assertEquals(35, held);",
     "        System.assertEquals(35, held;", "StockReservationServiceTest.spreadsALineOverBinsAndReportsTheShortfall",
     "StockReservationServiceTest.skipsBlockedBins"),
    # An operand missing in a procedure of an Ada package body: that procedure, not the others.
    ("polyglot_scripts/ada/conveyor-control.adb", "         Spill.Parcels := Spill.Parcels + 1;",
     "         Spill.Parcels := Spill.Parcels + ;", "Conveyor.Control.Divert", "Conveyor.Control.Report"),
    # A call's ``)`` left out in the task body: the task, not the protected body above it.
    ("polyglot_scripts/ada/conveyor-control.adb", "            Divert (Current);\n", "            Divert (Current;\n",
     "Conveyor.Control.Sorter", "Conveyor.Control.Parcel_Queue.Take"),
], ids=["solidity", "zig", "css", "scss", "cuda", "cmake-function", "cmake-top-level", "verilog", "vhdl",
        "starlark", "nix-flake", "nix-module", "apex-class", "apex-test-class", "ada-procedure", "ada-task"])
def test_a_syntax_error_in_a_sample_damages_its_definition_only(rel, old, new, hurt, sound) -> None:
    text = (SAMPLES / rel).read_text("utf-8")
    assert old in text
    line = text[: text.index(old)].count("\n") + 1
    broken = prepare(rel, detect_language(rel), text.replace(old, new, 1))
    chunks = chunk_document(broken, ChunkSettings(unit="chars", budget=600), "syntax")
    assert_lossless(broken, chunks)
    assert all(c.fallback is None for c in chunks)
    damaged = [c for c in chunks if "damaged" in c.flags]
    assert damaged and all(c.symbol == hurt for c in damaged)
    assert any(c.start_line <= line <= c.end_line for c in damaged)
    assert any(c.symbol == sound and not c.flags for c in chunks)
    # Where errors are most of the file, it is cut into fixed windows instead.
    garbage = "\n".join(") ( %% } { ;; => ]" for _ in range(60)) + "\n"
    chunks = chunk_document(prepare(rel, detect_language(rel), garbage), ChunkSettings(unit="chars", budget=400), "syntax")
    assert chunks and all(c.fallback == "parse_error" for c in chunks)
# ---- CUDA ---------------------------------------------------------------------------------------


def test_cuda_kernels_keep_their_qualifiers_and_launches_are_read_without_damage() -> None:
    # The C++ grammar read every ``__global__`` head, ``__launch_bounds__`` and ``<<<...>>>``
    # launch as errors; CUDA's reads them, and its words are no head macros to blank.
    rel = "polyglot_scripts/cuda/nightly_reprice.cu"
    prep = _prep(rel)
    assert prep.doc.language == "cuda" and not prep.damage.ranges
    assert not prepare("kernels.cuh", "cuda", _CUDA_FORMS).damage.ranges
    chunks = chunk_document(prep, ChunkSettings(unit="chars", budget=300), "syntax")
    assert_lossless(prep, chunks)
    assert not any(c.flags or c.fallback for c in chunks)
    launches = [c for c in chunks if "<<<" in c.text]
    assert len(launches) == 3 and all(c.symbol == "shop.runNightlyReprice" for c in launches)
    heads = {c.header.partition("\n")[0] for c in chunks if c.kind == "kernel" and c.part > 1}
    assert "__global__ void __launch_bounds__(Window) smoothDemand(const float* sold, float* forecast, float alpha," in heads
    assert any(h.startswith("__global__ void repriceSkus(") for h in heads)
    # (C++ knows no such words: there a reserved name before a known type is still a macro.)
    head = b"__global__ void k(float* p);\n"
    assert core.parsing._head_macros_blanked(head, frozenset(), LANGUAGES["cuda"].head_keywords) == head
    assert core.parsing._head_macros_blanked(head) == b"           void k(float* p);\n"


def test_r_anonymous_functions_are_definitions_only_where_a_name_is_given() -> None:
    # ``function(x)``'s ``name`` field is its keyword: a function passed to ``lapply`` or
    # standing alone names nothing, and a call of such is no class; a helper assigned in a
    # function's body is a nested definition, and ``setMethod("area", ...)`` a callback.
    source = (
        "res <- lapply(1:3, function(i) {\n  i * 2\n})\nsapply(xs, function(x) x)\n\\(x) x + 1\n"
        "outer <- function(x) {\n  inner <- function(y) y + 1\n  vapply(x, function(z) z, numeric(1))\n}\n"
        "setMethod(\"area\", \"Square\", function(shape) {\n  shape@side^2\n})\n"
    )
    found = {(d.symbol, d.kind) for d in list_definitions(prepare("anon.R", "r", source))}
    assert found == {("outer", "function"), ("outer.inner", "function"), ('setMethod("area")', "callback")}


_R6_CLASS = (
    "#' A cart of order lines.\nCart <- R6Class(\"Cart\",\n  public = list(\n    lines = NULL,\n\n"
    + "".join(
        f"    #' Step {i}.\n    step_{i} = function(sku, qty = {i}) {{\n      self$lines[[sku]] <- qty + {i}\n"
        f"      invisible(self)\n    }},\n\n"
        for i in range(6)
    )
    + "    total = function() sum(unlist(self$lines))\n  )\n)\n"
)
_R_LONG = "plan <- function(stock, demand, window = 28) {\n" + "".join(
    f"  level_{i} <- stock[[{i}]] - demand[[{i}]] * window / {i + 1}\n" for i in range(40)
) + "  level_1\n}\n"


def test_r_a_big_r6_class_is_split_into_headers_and_methods_and_a_long_function_into_parts() -> None:
    chunks = _syntax("cart.R", "r", _R6_CLASS + "\n" + _R_LONG, unit="chars", budget=300)
    header = next(c for c in chunks if c.kind == "class_header" and c.symbol == "Cart")
    assert header.text.startswith("#' A cart of order lines.") and "public = list" in header.header
    public = next(c for c in chunks if c.kind == "class_header" and c.symbol == "Cart.public")
    assert public.parent_id == header.id and "step_3" in public.header
    methods = [c for c in chunks if c.symbol.startswith("Cart.public.step_")]
    assert len(methods) == 6 and all(c.kind == "method" and c.parent_id == public.id for c in methods)
    assert all(c.text.lstrip().startswith("#' Step") for c in methods), "roxygen lines stay with their method"
    parts = [c for c in chunks if c.symbol == "plan"]
    assert len(parts) >= 4 and [c.part for c in parts] == list(range(1, len(parts) + 1))
    assert parts[0].text.startswith("plan <- function(stock, demand, window = 28) {")
    assert all(c.header == "plan <- function(stock, demand, window = 28)" for c in parts[1:])
    assert all(c.parent_id == parts[0].id for c in parts[1:])


_PERL_PACKAGE = (
    "package Shop::Stock {\n    use strict;\n\n"
    + "".join(
        f"=head2 move_{i}\n\nMoves stock, step {i}.\n\n=cut\n\n    sub move_{i} {{\n        my ($self, $sku, $qty) = @_;\n"
        f"        $self->{{levels}}{{$sku}} += $qty * {i};\n        return $self;\n    }}\n\n"
        for i in range(6)
    )
    + "}\n\n"
)
_PERL_LONG = "sub rebalance {\n    my ($self, %opt) = @_;\n" + "".join(
    f"    my $level_{i} = $self->{{levels}}{{'SKU-{i}'}} - $opt{{reserve}} * {i};\n" for i in range(40)
) + "    return $level_1;\n}\n"


def test_perl_a_big_package_is_split_into_header_and_subs_and_a_long_sub_into_parts() -> None:
    chunks = _syntax("Stock.pm", "perl", _PERL_PACKAGE + _PERL_LONG, unit="chars", budget=300)
    header = next(c for c in chunks if c.kind == "class_header" and c.symbol == "Shop.Stock")
    assert header.text.startswith("package Shop::Stock {") and "sub move_4" in header.header
    subs = [c for c in chunks if c.symbol.startswith("Shop.Stock.move_")]
    assert len(subs) == 6 and all(c.kind == "function" and c.parent_id == header.id for c in subs)
    # Each sub's POD, a blank line above it, is its documentation.
    assert all(c.text.startswith("=head2 move_") for c in subs)
    parts = [c for c in chunks if c.symbol == "rebalance"]
    assert len(parts) >= 4 and [c.part for c in parts] == list(range(1, len(parts) + 1))
    assert parts[0].text.startswith("sub rebalance {")
    assert all(c.header == "sub rebalance" and c.parent_id == parts[0].id for c in parts[1:])


@pytest.mark.parametrize(
    ("rel", "old", "new"),
    [
        ("polyglot_scripts/r/reorder_plan.R", "max(demand$day) - window_days, ]", "max(demand$day) - window_days, ]]]"),
        ("polyglot_scripts/perl/PriceList.pm", "floor($unit * $factor + 0.5);", "floor($unit * $factor + 0.5;"),
    ],
    ids=["r", "perl"],
)
def test_r_and_perl_broken_files_are_chunked_around_the_damage(rel: str, old: str, new: str) -> None:
    text = (SAMPLES / rel).read_text("utf-8")
    assert old in text
    broken = prepare(rel, detect_language(rel), text.replace(old, new, 1))
    chunks = chunk_document(broken, ChunkSettings(unit="chars", budget=400), "syntax")
    assert_lossless(broken, chunks)
    damaged = [c for c in chunks if "damaged" in c.flags]
    assert damaged and all(c.fallback is None for c in chunks)
    assert sum(c.end_line - c.start_line + 1 for c in damaged) < broken.doc.line_count / 10
    assert {d.symbol for d in list_definitions(_prep(rel))} <= {d.symbol for d in list_definitions(broken)}


def test_r_and_perl_garbage_falls_back() -> None:
    for path, language in (("junk.R", "r"), ("junk.pl", "perl")):
        source = "\n".join(")) ]] }} <- -> ((( {{ ;; sub ] ) function ( ( [" for _ in range(30)) + "\n"
        chunks = _syntax(path, language, source, unit="chars", budget=200)
        assert chunks and any(c.fallback is not None or "damaged" in c.flags for c in chunks), language


def test_objc_split_implementation_lists_its_methods_and_a_long_method_repeats_its_selector() -> None:
    methods = "".join(
        f"/// Adds {i}.\n- (NSInteger)add{i}:(NSInteger)value times:(NSInteger)n {{\n    return value * n + {i};\n}}\n\n"
        for i in range(6)
    )
    long_method = "- (void)reconcileShelf:(NSString *)shelf {\n" + "".join(
        f"    [self.counts setObject:@({i}) forKey:[shelf stringByAppendingString:@\"-{i}\"]];\n" for i in range(20)
    ) + "}\n"
    source = f"@implementation Shelf\n\n{methods}{long_method}\n@end\n"
    chunks = _syntax("Shelf.mm", "objc", source, unit="chars", budget=400)
    header = chunks[0]
    assert (header.kind, header.symbol) == ("class_header", "Shelf")
    assert header.text.startswith("@implementation Shelf")
    assert "members of Shelf" in header.header and "add0:times:" in header.header
    members = [c for c in chunks if c.parent_id == header.id]
    assert [c.symbol for c in members if c.symbol.startswith("Shelf.add")] == [f"Shelf.add{i}:times:" for i in range(6)]
    assert all(c.header == "@implementation Shelf" for c in members if c.symbol.startswith("Shelf.add"))
    assert members[0].text.startswith("/// Adds 0.\n- (NSInteger)add0:(NSInteger)value")
    parts = [c for c in chunks if c.symbol == "Shelf.reconcileShelf:"]
    assert len(parts) >= 3 and [c.part for c in parts] == list(range(1, len(parts) + 1))
    assert parts[0].parent_id == header.id and parts[0].text.startswith("- (void)reconcileShelf:")
    for part in parts[1:]:
        assert part.header == "- (void)reconcileShelf:(NSString *)shelf" and part.parent_id == parts[0].id
    assert_budget(chunks, 400)


def test_powershell_split_class_lists_its_members_and_a_long_function_repeats_its_param_block() -> None:
    methods = "".join(
        f"    # Restocks bin {i}.\n    [void] Restock{i}([string]$sku, [int]$n) {{\n"
        f"        $this.Stock[$sku] += $n * {i}\n    }}\n\n"
        for i in range(6)
    )
    source = (
        "class Warehouse : Site {\n    [hashtable]$Stock = @{}\n\n" + methods + "}\n\n"
        "function Invoke-Recount {\n    <#\n    .SYNOPSIS\n        Recounts one aisle, shelf by shelf.\n    #>\n"
        "    [CmdletBinding()]\n    param([string]$Aisle, [int]$Shelves = 4)\n"
        "    process {\n"
        + "".join(f"        Write-Output \"aisle $Aisle shelf {i}: $(Get-Count -Shelf {i})\"\n" for i in range(16))
        + "    }\n}\n"
    )
    chunks = _syntax("warehouse.ps1", "powershell", source, unit="chars", budget=300)
    header = chunks[0]
    assert (header.kind, header.symbol) == ("class_header", "Warehouse")
    assert "members of Warehouse" in header.header and "Restock0" in header.header
    members = [c for c in chunks if c.parent_id == header.id]
    assert [c.symbol for c in members] == [f"Warehouse.Restock{i}" for i in range(6)]
    assert all(c.header == "class Warehouse : Site {" and c.kind == "method" for c in members)
    assert members[0].text.startswith("    # Restocks bin 0.\n    [void] Restock0(")
    parts = [c for c in chunks if c.symbol == "Invoke-Recount"]
    assert len(parts) >= 3 and [c.part for c in parts] == list(range(1, len(parts) + 1))
    # The param block is the signature, repeated above every later part; the help comment
    # above it is not (``CodeSpec.uncommented_heads``).
    assert ".SYNOPSIS" in parts[0].text
    signature = "function Invoke-Recount {\n    [CmdletBinding()]\n    param([string]$Aisle, [int]$Shelves = 4)"
    assert all(part.header == signature and part.parent_id == parts[0].id for part in parts[1:])
    assert_budget(chunks, 300)


@pytest.mark.parametrize(("path", "language", "source", "broken", "intact"), [
    ("Till.mm", "objc",
     "@implementation Till\n\n- (void)open {\n    self.isOpen = YES;\n}\n\n- (double)total {\n    double sum = 0;\n"
     "    for (Line *line in self.lines {\n        sum += line.price;\n    }\n    return sum;\n}\n\n"
     "- (void)close {\n    self.isOpen = NO;\n}\n\n@end\n\nint TillCount(void) {\n    return 3;\n}\n",
     "Till.total", ["Till.open", "Till.close", "TillCount"]),
    ("till.ps1", "powershell",
     "function Open-Till {\n    param([string]$Name)\n    \"open $Name\"\n}\n\nfunction Get-Total($lines) {\n"
     "    $sum = 0\n    foreach ($line in $lines {\n        $sum += $line.Price\n    }\n    return $sum\n}\n\n"
     "function Close-Till {\n    \"closed\"\n}\n",
     "Get-Total", ["Open-Till", "Close-Till"]),
    ("till.f90", "fortran",
     "module till\n  implicit none\ncontains\n  subroutine open_till(name)\n    character(len=*), intent(in) :: name\n"
     "    print *, 'open ', name\n  end subroutine open_till\n\n  function total(prices) result(sum_cents)\n"
     "    integer, intent(in) :: prices(:)\n    integer :: sum_cents, i\n    sum_cents = 0\n    do i = 1, size(prices\n"
     "      sum_cents = sum_cents + prices(i)\n    end do\n  end function total\n\n  subroutine close_till()\n"
     "    print *, 'closed'\n  end subroutine close_till\nend module till\n",
     "till.total", ["till.open_till", "till.close_till"]),
    ("till.frag", "glsl",
     "uniform sampler2D labels;\n\nvec4 openTill(vec2 uv) {\n    return texture(labels, uv);\n}\n\n"
     "float total(float prices[4]) {\n    float sum = 0.0;\n    for (int i = 0; i < 4; ++i)) {\n        sum += prices[i];\n"
     "    }\n    return sum;\n}\n\nvoid closeTill() {\n    discard;\n}\n",
     "total", ["openTill", "closeTill"]),
], ids=["objc", "powershell", "fortran", "glsl"])
def test_broken_code_is_chunked_around_the_damage_in_its_definition(path, language, source, broken, intact) -> None:
    chunks = _syntax(path, language, source, unit="chars", budget=150)
    assert all(c.fallback is None for c in chunks)
    assert any("damaged" in c.flags for c in chunks if c.symbol == broken)
    for symbol in intact:
        found = [c for c in chunks if c.symbol == symbol]
        assert found and not any("damaged" in c.flags for c in found), symbol
    garbage = _syntax(path, language, "garbage ] ) } @end end ((( {{ ]] :: \n" * 30, unit="chars", budget=200)
    assert all(c.fallback == "parse_error" for c in garbage)


def test_a_powershell_signature_keeps_a_line_a_comment_shares_with_code() -> None:
    # ``CodeSpec.uncommented_heads`` leaves out comments on lines of their own only.
    source = "function Get-X { # returns x\n    <#\n    .SYNOPSIS\n    X.\n    #>\n    param([int]$a)\n" + "".join(
        f"    Write-Output \"line {i} of the body of Get-X\"\n" for i in range(30)
    ) + "}\n"
    parts = [c for c in _syntax("x.ps1", "powershell", source, unit="chars", budget=300) if c.symbol == "Get-X"]
    assert len(parts) > 2
    assert all(part.header == "function Get-X { # returns x\n    param([int]$a)" for part in parts[1:])


def test_objc_ns_enum_typedefs_are_enums_read_whole_and_undamaged() -> None:
    # ``CodeSpec.enum_macros``: the grammar read every ``NS_ENUM`` as an ERROR.
    source = (
        "/// How a label shows a price drop.\ntypedef NS_ENUM(NSInteger, LabelStyle) {\n    LabelStyleRegular,\n"
        "    LabelStylePromotion,\n};\n\ntypedef NS_OPTIONS(NSUInteger, LabelFlags) {\n    LabelFlagBold = 1 << 0,\n};\n\n"
        "NS_ERROR_ENUM(ShopErrorDomain, ShopError) {\n    ShopErrorOffline = 1,\n};\n\n"
        "static NSInteger Count(void) {\n    return 2;\n}\n"
    )
    found = {(d.symbol, d.kind) for d in list_definitions(prepare("Label.mm", "objc", source))}
    assert {("LabelStyle", "enum"), ("LabelFlags", "enum"), ("ShopError", "enum"), ("Count", "function")} <= found
    chunks = _syntax("Label.mm", "objc", source, unit="chars", budget=4000)
    assert not any("damaged" in c.flags for c in chunks)
    style = next(c for c in chunks if c.symbol == "LabelStyle")
    assert style.text.startswith("/// How a label shows a price drop.\ntypedef NS_ENUM(NSInteger, LabelStyle) {")


# ---- OCaml and Erlang ----------------------------------------------------------------------


def test_an_ocaml_module_splits_into_its_head_and_functions_and_a_long_let_repeats_its_head() -> None:
    # ``struct`` opens the module's body on its head's line: it is the head's, not the first
    # function's (read as a keyword leading the next definition, it took that one into the head).
    functions = "".join(f"  (** Price rule {i}. *)\n  let rule_{i} price =\n    price * {i}\n\n" for i in range(6))
    source = f"(** Pricing rules. *)\nmodule Pricing = struct\n{functions}  let rate = 20\nend\n"
    chunks = _syntax("pricing.ml", "ocaml", source, unit="chars", budget=200)
    header = chunks[0]
    assert (header.kind, header.symbol) == ("class_header", "Pricing")
    assert header.text.startswith("(** Pricing rules. *)\nmodule Pricing = struct")
    assert "rule_0, rule_1" in header.header and "rate" not in header.header
    rules = [c for c in chunks if c.kind == "function"]
    assert [c.symbol for c in rules] == [f"Pricing.rule_{i}" for i in range(6)]
    assert all(c.parent_id == header.id and c.header == "module Pricing =" for c in rules)
    assert all(c.text.lstrip().startswith(f"(** Price rule {i}. *)\n  let rule_{i} price =") for i, c in enumerate(rules))
    # A long function: a ``let ... in`` chain and a sequence, packed statement by statement
    # under its head; a local ``let rec ... in`` is a nested function, closed by its ``in``.
    body = "".join(f"  let total = total + line_{i} * rate in\n" for i in range(20))
    steps = "".join(f"  Printf.printf \"%d\\n\" (total + {i});\n" for i in range(10))
    source = (
        "(** Sums the lines. *)\nlet sum lines rate =\n  let rec count acc = function\n    | [] -> acc\n"
        f"    | _ :: rest -> count (acc + 1) rest\n  in\n  let total = 0 in\n{body}{steps}  total + count 0 lines\n"
    )
    chunks = _syntax("totals.ml", "ocaml", source, unit="chars", budget=300)
    parts = [c for c in chunks if c.symbol == "sum"]
    assert len(parts) >= 3 and [c.part for c in parts] == list(range(1, len(parts) + 1))
    assert parts[0].kind == "function" and parts[0].text.startswith("(** Sums the lines. *)\nlet sum lines rate =")
    assert all(p.header == "let sum lines rate =" and p.parent_id == parts[0].id for p in parts[1:])
    count = next(c for c in chunks if c.symbol == "sum.count")
    assert count.kind == "function" and count.text.strip().startswith("let rec count acc = function")
    assert count.text.rstrip().endswith("in")
    # ``let x = ... in`` in a body is no definition; the sequence's steps are cut between them.
    assert not any(c.symbol == "sum.total" for c in chunks)
    assert all(c.text.rstrip().endswith((";", "in", "lines")) for c in parts[1:])


def test_an_erlang_functions_clauses_are_one_definition_split_under_its_spec() -> None:
    lines = "".join(f"    Line{i} = Price * {i},\n" for i in range(30))
    source = (
        "-module(totals).\n-export([sum/2]).\n\n%% @doc Sums the lines.\n-spec sum([integer()], integer()) -> integer().\n"
        f"sum([], _Rate) ->\n    0;\nsum([Price | _], Rate) when Rate > 0 ->\n{lines}    Line29 * Rate.\n"
    )
    found = {d.symbol: (d.kind, d.first, d.last) for d in list_definitions(prepare("totals.erl", "erlang", source))}
    assert found["totals"][0] == "module"
    assert found["totals.sum"] == ("function", 5, 39)  # its spec and both clauses
    chunks = _syntax("totals.erl", "erlang", source, unit="chars", budget=300)
    parts = [c for c in chunks if c.symbol == "totals.sum"]
    assert len(parts) >= 3 and [c.part for c in parts] == list(range(1, len(parts) + 1))
    assert parts[0].text.startswith("%% @doc Sums the lines.\n-spec sum([integer()], integer()) -> integer().\nsum([], _Rate)")
    assert all(p.header == "-spec sum([integer()], integer()) -> integer()." for p in parts[1:])
    assert all(p.parent_id == parts[0].id for p in parts[1:])
    # Short, it is one chunk with its comment and spec.
    small = _syntax("totals.erl", "erlang", source, unit="chars", budget=4000)
    whole = next(c for c in small if c.symbol == "totals.sum")
    assert whole.parts == 1 and whole.text.startswith("%% @doc Sums the lines.") and whole.text.endswith("Line29 * Rate.")


@pytest.mark.parametrize(("language", "rel", "old", "new", "damaged_symbol", "intact"), [
    ("ocaml", "polyglot_scripts/ocaml/stock_ledger.ml", "let available = on_hand store sku in",
     "let available = (on_hand store sku in", "Make", "Money.format"),
    ("erlang", "polyglot_scripts/erlang/stock_alerts.erl", "{reply, alerts(maps:values(Shelves)), State};",
     "{reply, alerts(maps:values(Shelves), State};", "stock_alerts.handle_call", "stock_alerts.digest"),
], ids=["ocaml", "erlang"])
def test_a_broken_ocaml_or_erlang_file_is_chunked_around_the_damage_or_falls_back(
    language, rel, old, new, damaged_symbol, intact
) -> None:
    text = (SAMPLES / rel).read_text("utf-8")
    assert old in text
    broken = prepare(rel, language, text.replace(old, new, 1))  # a ``)`` left out
    assert broken.damage.ratio > 0
    chunks = chunk_document(broken, ChunkSettings(unit="chars", budget=400), "syntax")
    assert_lossless(broken, chunks)
    assert all(c.fallback is None for c in chunks)
    damaged = {c.symbol for c in chunks if "damaged" in c.flags}
    assert any(s == damaged_symbol or s.startswith(damaged_symbol + ".") for s in damaged), damaged
    assert any(c.symbol == intact and "damaged" not in c.flags for c in chunks)
    # Where errors are most of the file, it is cut in plain windows.
    garbage = {
        "ocaml": "".join(f"let ) rule_{i} ] = ( in end struct ;; }} ->\n" for i in range(12)),
        "erlang": "-module(shop).\n" + "".join(f"rule_{i}) -> ] ( end. ;; -> ,,\n" for i in range(12)),
    }[language]
    prep = prepare("bad", language, garbage)
    chunks = chunk_document(prep, ChunkSettings(unit="chars", budget=200), "syntax")
    assert chunks and all(c.fallback == "parse_error" for c in chunks)
    assert_lossless(prep, chunks)


# ---- F# ------------------------------------------------------------------------------------------

_FSHARP = "polyglot_scripts/fsharp/OrderAllocation.fs"


def test_an_fsharp_class_splits_into_its_head_and_members_and_a_long_let_repeats_its_head() -> None:
    # No node holds a class's members: they are its own children after its ``=``. The grammar
    # hangs each member's doc comment on the member above it: it leads its own member's chunk.
    members = "".join(
        f"    /// Moves stock, step {i}.\n    member this.Move{i}(sku: string, qty: int) =\n"
        f"        this.Shift(sku, qty * {i})\n\n"
        for i in range(6)
    )
    # A long member is cut statement by statement under its own head (its body follows its
    # ``=`` in the member's ``method_or_prop_defn``: no field holds it), a local function in it.
    rebalance = "        let clamp v = max v 0\n" + "".join(
        f"        levels.[{i}] <- clamp (levels.[{i}] - reserve * {i})\n" for i in range(12)
    )
    # ``interface IStockView with`` holds its implementation: ``with`` ends its head (a keyword
    # leading the next definition, it took the first member into the head).
    view = "".join(
        f"        /// Units of a SKU in zone {z}.\n        member this.Units{z}(sku: string) = stock.OnHand(sku, {z})\n"
        for z in "ABCD"
    )
    source = (
        "module Shop.Moves\n\n/// Stock moves, one method a step.\ntype Mover(stock: Stock) =\n"
        f"    let mutable moved = 0\n\n{members}    member val Note = \"\" with get, set\n\n"
        f"    member this.Rebalance(levels: int[], reserve: int) =\n{rebalance}        moved <- moved + 1\n\n"
        f"    interface IStockView with\n{view}"
    )
    chunks = _syntax("Moves.fs", "fsharp", source, unit="chars", budget=250)
    header = next(c for c in chunks if c.kind == "class_header" and c.symbol == "Shop.Moves.Mover")
    assert header.text.startswith("/// Stock moves, one method a step.\ntype Mover(stock: Stock) =")
    # Members are listed by name, without ``this.``; a ``let`` value and an auto-property are not.
    assert "Move0, Move1" in header.header and "Note" not in header.header and "moved" not in header.header
    moves = [c for c in chunks if c.kind == "method" and c.symbol.rpartition(".")[2].startswith("Move")]
    assert [c.symbol for c in moves] == [f"Shop.Moves.Mover.Move{i}" for i in range(6)]
    assert all(c.parent_id == header.id and c.header == "type Mover(stock: Stock) =" for c in moves)
    assert all(c.text.startswith(f"    /// Moves stock, step {i}.\n    member this.Move{i}(") for i, c in enumerate(moves))
    assert not any(f"step {i + 1}" in c.text for i, c in enumerate(moves))
    parts = [c for c in chunks if c.symbol == "Shop.Moves.Mover.Rebalance"]
    assert len(parts) >= 3 and [c.part for c in parts] == list(range(1, len(parts) + 1))
    assert parts[0].text.startswith("    member this.Rebalance(levels: int[], reserve: int) =")
    assert all(c.header == "member this.Rebalance(levels: int[], reserve: int) =" for c in parts[1:])
    assert all(c.parent_id == parts[0].id and c.kind == "method" for c in parts[1:])
    assert parts[-1].text.rstrip().endswith("moved <- moved + 1")
    clamp = next(c for c in chunks if c.symbol == "Shop.Moves.Mover.Rebalance.clamp")
    assert clamp.kind == "function" and clamp.text.strip() == "let clamp v = max v 0"
    view = next(c for c in chunks if c.symbol == "Shop.Moves.Mover.IStockView")
    assert view.kind == "class_header" and view.text.strip() == "interface IStockView with"
    units = [c for c in chunks if c.symbol.startswith("Shop.Moves.Mover.IStockView.")]
    assert [c.symbol.rpartition(".")[2] for c in units] == ["UnitsA", "UnitsB", "UnitsC", "UnitsD"]
    assert all(c.parent_id == view.id and c.header == "interface IStockView with" for c in units)
    assert units[0].text.startswith("        /// Units of a SKU in zone A.\n        member this.UnitsA(")
    # A long function: its ``let`` chain and its sequence packed statement by statement under
    # its head; a local ``let rec`` is a nested function, ``let total = ...`` a statement.
    body = "".join(f"    let total = total + line{i} * rate\n" for i in range(20))
    steps = "".join(f"    printfn \"%d\" (total + {i})\n" for i in range(10))
    source = (
        "/// Sums the lines.\nlet sum lines rate =\n    let rec count acc = function\n        | [] -> acc\n"
        f"        | _ :: rest -> count (acc + 1) rest\n    let total = 0\n{body}{steps}    total + count 0 lines\n"
    )
    chunks = _syntax("Totals.fs", "fsharp", source, unit="chars", budget=300)
    parts = [c for c in chunks if c.symbol == "sum"]
    assert len(parts) >= 3 and [c.part for c in parts] == list(range(1, len(parts) + 1))
    assert parts[0].kind == "function" and parts[0].text.startswith("/// Sums the lines.\nlet sum lines rate =")
    assert all(p.header == "let sum lines rate =" and p.parent_id == parts[0].id for p in parts[1:])
    count = next(c for c in chunks if c.symbol == "sum.count")
    assert count.kind == "function" and count.text.strip().startswith("let rec count acc = function")
    assert not any(c.symbol == "sum.total" for c in chunks)
    assert all(c.text.rstrip().endswith((")", "rate", "lines")) for c in parts[1:])


def test_fsharp_let_rec_and_bindings_are_definitions_each_and_split_under_their_own_head() -> None:
    # One ``function_or_value_defn`` to the grammar, two functions: each with its keyword, its
    # doc comment, its own chunk; a long one is cut under ``and odd n =``, not ``let rec even``.
    cases = "".join(f"    elif n = {i} then {'true' if i % 2 else 'false'}\n" for i in range(2, 30))
    source = (
        "module Parity\n\n/// Whether n is even.\nlet rec even n =\n    n = 0 || odd (n - 1)\n\n"
        f"/// Whether n is odd.\nand odd n =\n    if n = 1 then true\n{cases}    else even (n - 1)\n\n"
        "let x = 1\nlet half n = n / 2\n"
    )
    found = {d.symbol: (d.kind, d.first, d.last) for d in list_definitions(prepare("Parity.fs", "fsharp", source))}
    assert found["Parity.even"] == ("function", 4, 5) and found["Parity.odd"][:2] == ("function", 8)
    assert "Parity.x" not in found and found["Parity.half"][0] == "function"
    chunks = _syntax("Parity.fs", "fsharp", source, unit="chars", budget=300)
    even = next(c for c in chunks if c.symbol == "Parity.even")
    assert even.parts == 1 and even.text.startswith("/// Whether n is even.\nlet rec even n =")
    assert "odd n =" not in even.text
    parts = [c for c in chunks if c.symbol == "Parity.odd"]
    assert len(parts) >= 3 and parts[0].text.startswith("/// Whether n is odd.\nand odd n =")
    assert all(p.header == "and odd n =" and p.parent_id == parts[0].id for p in parts[1:])
    assert parts[-1].text.rstrip().endswith("else even (n - 1)")


def test_fsharp_comments_the_grammar_hangs_on_the_definition_above_go_with_the_one_below() -> None:
    # The grammar makes a doc comment the last child of the definition before it (of its
    # last binding, member or case, a few levels down): at any level, the comment is read as
    # the next definition's; one written deeper than the definition it ends stays its own.
    source = (
        "module Shop.Stock\n\n/// A SKU.\ntype Sku = string\n\n/// Where a bin stands.\ntype Zone =\n"
        "    | Ambient\n    | Chilled\n\n/// Units on hand.\nlet onHand bins = List.sum bins\n\n"
        "/// Small helpers.\nmodule Helpers =\n    let twice x = x * 2\n\n    /// Three times x.\n    let thrice x =\n"
        "        x * 3\n        // (still thrice's)\n\n/// A bin.\ntype Bin(code: string) =\n    member _.Code = code\n\n"
        "    /// Its label.\n    member _.Label = \"bin \" + code\n\n/// The last one.\nlet last x = x\n"
    )
    prep = prepare("Stock.fs", "fsharp", source)
    lines = source.splitlines()
    found = {d.symbol: d for d in list_definitions(prep)}
    for symbol, doc in [("Sku", "/// A SKU."), ("Zone", "/// Where a bin stands."), ("onHand", "/// Units on hand."),
                        ("Helpers", "/// Small helpers."), ("Helpers.thrice", "    /// Three times x."),
                        ("Bin", "/// A bin."), ("Bin.Label", "    /// Its label."), ("last", "/// The last one.")]:
        definition = found[f"Shop.Stock.{symbol}"]
        assert lines[definition.first - 2] == doc, symbol  # (the line above its first: its comment's)
        assert not lines[definition.last - 1].lstrip().startswith("///"), symbol
    assert lines[found["Shop.Stock.Helpers.thrice"].last - 1] == "        // (still thrice's)"
    chunks = _syntax("Stock.fs", "fsharp", source, unit="chars", budget=4000)
    assert [c.symbol for c in chunks] == ["Shop.Stock"]
    small = _syntax("Stock.fs", "fsharp", source, unit="chars", budget=120)
    for chunk in small:
        if chunk.symbol.endswith(("Zone", "onHand", "Helpers.thrice", "Bin.Label", "last")) and chunk.part == 1:
            assert chunk.text.lstrip().startswith("///"), chunk.symbol
        assert not chunk.text.rstrip().endswith(("/// Where a bin stands.", "/// A bin.", "/// The last one."))


def test_a_broken_fsharp_file_is_chunked_around_the_damage_or_falls_back() -> None:
    text = (SAMPLES / _FSHARP).read_text("utf-8")
    old = "{ b with OnHand = b.OnHand - quantity } else b"
    assert old in text
    broken = prepare(_FSHARP, "fsharp", text.replace(old, "{ b with OnHand = b.OnHand - quantity else b", 1))
    assert broken.damage.ratio > 0  # (a ``}`` left out)
    chunks = chunk_document(broken, ChunkSettings(unit="chars", budget=400), "syntax")
    assert_lossless(broken, chunks)
    assert_slices_true(broken, chunks)
    assert all(c.fallback is None for c in chunks)
    assert {c.symbol for c in chunks if "damaged" in c.flags} == {"Shop.Warehouse.Allocation.Stock.Take"}
    assert any(c.symbol == "Shop.Warehouse.Allocation.allocate" and not c.flags for c in chunks)
    # Every definition is still found, but the broken line's own (``let take (b: Bin) = ...``).
    lost = {d.symbol for d in list_definitions(_prep(_FSHARP))} - {d.symbol for d in list_definitions(broken)}
    assert lost == {"Shop.Warehouse.Allocation.Stock.Take.take"}
    # Where errors are most of the file, it is cut in plain windows.
    garbage = "".join(f"let ) rule_{i} ] = ( in end struct ;; }} ->\n" for i in range(12))
    prep = prepare("Bad.fs", "fsharp", garbage)
    chunks = chunk_document(prep, ChunkSettings(unit="chars", budget=200), "syntax")
    assert chunks and all(c.fallback == "parse_error" for c in chunks)
    assert_lossless(prep, chunks)


def test_an_fsharp_module_rec_keeps_its_name_and_its_declarations() -> None:
    # The grammar does not know ``module rec``: it named the module ``rec`` and read all that
    # follows as one expression. The parser reads that ``rec`` as spaces; the text keeps it.
    source = "module rec Shop.Stock\n\n/// Restocks a bin.\nlet restock bin = refill bin\n\nlet refill bin = bin\n"
    prep = prepare("Stock.fs", "fsharp", source)
    assert prep.damage.ratio == 0
    found = {(d.symbol, d.kind) for d in list_definitions(prep)}
    assert found == {("Shop.Stock", "module"), ("Shop.Stock.restock", "function"), ("Shop.Stock.refill", "function")}
    chunks = _syntax("Stock.fs", "fsharp", source, unit="chars", budget=110)
    assert chunks[0].text == "module rec Shop.Stock" and chunks[0].kind == "class_header"
    assert next(c for c in chunks if c.symbol == "Shop.Stock.restock").text.startswith("/// Restocks a bin.\nlet")


def test_fsharp_scripts_are_fsharp_and_signature_files_are_not_read() -> None:
    # ``.fsi`` signature files have a grammar of their own, which misreads a top-level
    # ``module``/``namespace``, type definitions and named arguments: they stay unknown.
    assert (detect_language("Allocation.fs"), detect_language("build.fsx")) == ("fsharp", "fsharp")
    assert detect_language("Allocation.fsi") is None
    # A Markdown fence names it as GitHub's do: ``fsharp``, ``f#``, ``fs``.
    assert {fence_language(word) for word in ("fsharp", "F#", "fs", "fsx")} == {"fsharp"}


_FORTRAN_MODULE = (
    "!> Shelf counts, one routine a step.\nmodule shelf_ops\n  implicit none\n  integer, parameter :: aisles = 12\n"
    "contains\n\n"
    + "".join(
        f"  !> Moves stock, step {i}.\n  subroutine move_{i}(levels, qty)\n    integer, intent(inout) :: levels(:)\n"
        f"    integer, intent(in) :: qty\n    levels({i + 1}) = levels({i + 1}) + qty * {i}\n  end subroutine move_{i}\n\n"
        for i in range(6)
    )
    + "end module shelf_ops\n\n"
)
_FORTRAN_LONG = "subroutine rebalance(levels, reserve)\n  integer, intent(inout) :: levels(:)\n  integer, intent(in) :: reserve\n" + "".join(
    f"  levels({i + 1}) = max(levels({i + 1}) - reserve * {i}, 0)\n" for i in range(40)
) + "end subroutine rebalance\n"


def test_fortran_a_big_module_is_split_into_header_and_procedures_and_a_long_subroutine_into_parts() -> None:
    chunks = _syntax("shelf_ops.f90", "fortran", _FORTRAN_MODULE + _FORTRAN_LONG, unit="chars", budget=300)
    header = next(c for c in chunks if c.kind == "class_header" and c.symbol == "shelf_ops")
    # The module's own statement is its head, with the doc comment above it.
    assert header.text.startswith("!> Shelf counts, one routine a step.\nmodule shelf_ops\n")
    assert "members of shelf_ops" in header.header and "move_4" in header.header
    procedures = [c for c in chunks if c.symbol.startswith("shelf_ops.move_")]
    assert [c.symbol for c in procedures] == [f"shelf_ops.move_{i}" for i in range(6)]
    assert all(c.kind == "subroutine" and c.parent_id == header.id for c in procedures)
    assert all(c.header == "module shelf_ops" for c in procedures)
    assert procedures[0].text.startswith("  !> Moves stock, step 0.\n  subroutine move_0(levels, qty)")
    # ``end module`` and ``contains`` close what is above them: never a chunk of their own.
    assert not any(c.text.strip() in ("contains", "end module shelf_ops") for c in chunks)
    assert procedures[-1].text.rstrip().endswith("end module shelf_ops")
    parts = [c for c in chunks if c.symbol == "rebalance"]
    assert len(parts) >= 4 and [c.part for c in parts] == list(range(1, len(parts) + 1))
    assert parts[0].text.startswith("subroutine rebalance(levels, reserve)")
    assert all(c.header == "subroutine rebalance(levels, reserve)" and c.parent_id == parts[0].id for c in parts[1:])
    assert parts[-1].text.rstrip().endswith("end subroutine rebalance")
    assert_budget(chunks, 300)


_GLSL_BLOCK = (
    "/// Everything the pass needs, bound once per frame.\nlayout(std140, binding = 0) uniform Frame {\n"
    + "".join(f"    vec4 shelfColor{i};   // the tint of shelf {i}, premultiplied\n" for i in range(12))
    + "} frame;\n\n"
)
_GLSL_LONG = "vec4 shade(vec2 uv, float level) {\n    vec4 color = vec4(0.0);\n" + "".join(
    f"    color += frame.shelfColor{i % 12} * smoothstep({i}.0, {i + 1}.0, level * 40.0);\n" for i in range(30)
) + "    return color;\n}\n"


def test_glsl_a_big_uniform_block_is_split_into_header_and_fields_and_a_long_function_into_parts() -> None:
    chunks = _syntax("pass.frag", "glsl", _GLSL_BLOCK + _GLSL_LONG, unit="chars", budget=300)
    header = chunks[0]
    assert (header.kind, header.symbol) == ("class_header", "Frame")
    assert header.text.startswith("/// Everything the pass needs, bound once per frame.\nlayout(std140, binding = 0) uniform Frame {")
    fields = [c for c in chunks if c.parent_id == header.id]
    assert len(fields) >= 2 and all(c.header == "layout(std140, binding = 0) uniform Frame" for c in fields)
    assert fields[-1].text.rstrip().endswith("} frame;")
    parts = [c for c in chunks if c.symbol == "shade"]
    assert len(parts) >= 4 and [c.part for c in parts] == list(range(1, len(parts) + 1))
    assert all(c.kind == "function" for c in parts)
    assert parts[0].text.startswith("vec4 shade(vec2 uv, float level) {")
    assert all(c.header == "vec4 shade(vec2 uv, float level)" and c.parent_id == parts[0].id for c in parts[1:])
    assert_budget(chunks, 300)


def test_glsl_es_precision_qualifiers_and_a_compute_stage_layout_are_read_undamaged() -> None:
    # ``CodeSpec.annotations``: the C-derived grammar read each of these as an ERROR (or a
    # declaration missing its name), flagging the shader's first chunk and every ``highp``
    # function ``damaged``.
    source = (
        "#version 310 es\nprecision mediump float;\nlayout(local_size_x = 16, local_size_y = 16) in;\n\n"
        "/// The tint of one bin.\nhighp vec4 tint(const in vec4 base, lowp float level) {\n    return base * level;\n}\n\n"
        "void main() {\n    mediump vec4 c = tint(vec4(1.0), 0.5);\n}\n"
    )
    found = {(d.symbol, d.kind) for d in list_definitions(prepare("bins.comp", "glsl", source))}
    assert {("tint", "function"), ("main", "function")} <= found
    chunks = _syntax("bins.comp", "glsl", source, unit="chars", budget=4000)
    assert not any("damaged" in c.flags for c in chunks)
    tint = next(c for c in chunks if c.symbol == "tint")
    assert tint.text.startswith("/// The tint of one bin.\nhighp vec4 tint(const in vec4 base, lowp float level) {")


def test_fortran_a_split_derived_type_lists_its_type_bound_procedures_by_their_binding_names() -> None:
    source = (
        "module models\n  implicit none\n\n  !> Demand smoothing, one model per SKU.\n  type :: demand_model_t\n"
        + "".join(f"    real :: weight_{i} = 0.{i}  ! the weight of day {i} in the moving average\n" for i in range(8))
        + "  contains\n    procedure :: observe => model_observe\n    procedure :: forecast\n  end type demand_model_t\n"
        + "end module models\n"
    )
    assert not prepare("models.f90", "fortran", source).tree.root_node.has_error
    chunks = _syntax("models.f90", "fortran", source, unit="chars", budget=250)
    header = next(c for c in chunks if c.kind == "class_header" and c.symbol == "models.demand_model_t")
    assert header.text.startswith("  !> Demand smoothing, one model per SKU.\n  type :: demand_model_t")
    assert header.header == "! members of models.demand_model_t: observe, forecast"
    members = [c for c in chunks if c.parent_id == header.id]
    assert members and all(c.header == "type :: demand_model_t" for c in members)
    assert members[-1].text.rstrip().endswith("end type demand_model_t")


# ---- CSS and SCSS -------------------------------------------------------------------------------


@pytest.mark.parametrize(("rel", "group", "members", "function", "signature"), [
    # ``:root``'s design tokens: a rule set packed declaration by declaration under its selector.
    ("polyglot_scripts/css/checkout.css", "@media (max-width: 40em)",
     [".cart-line", ".cart-line__price", ".order-total--sticky"], ":root", ":root"),
    ("polyglot_scripts/scss/_shelf-labels.scss", "@media print", [".sheet", ".shelf-label", ".no-print"],
     "price-block", "@mixin price-block($scale: 1, $show-unit-price: true)"),
], ids=["css", "scss"])
def test_css_a_big_group_rule_splits_into_a_head_and_rules_and_a_big_rule_set_into_parts(
    rel, group, members, function, signature
) -> None:
    prep = _prep(rel)
    budget = 300 if rel.endswith(".css") else 200
    chunks = chunk_document(prep, ChunkSettings(unit="chars", budget=budget), "syntax")
    assert_lossless(prep, chunks)
    assert_slices_true(prep, chunks)
    assert_budget(chunks, budget)
    head = next(c for c in chunks if c.kind == "class_header" and c.symbol == group)
    assert f"\n{group} {{" in f"\n{head.text}" and f"members of {group}" in head.header  # (its comment above it)
    inside = [c for c in chunks if c.parent_id == head.id]
    assert [c.symbol for c in inside] == [f"{group} \u00bb {member}" for member in members]
    # Under the group's head (a rule that fits only without it goes without).
    assert all(c.kind == "rule" and c.header in (group, "") for c in inside)
    assert any(c.header == group for c in inside)
    parts = [c for c in chunks if c.symbol == function]
    assert len(parts) >= 4 and [c.part for c in parts] == list(range(1, len(parts) + 1))
    opening = next(i for i, c in enumerate(parts) if f"{signature} {{" in c.text)
    assert all(c.header == signature and c.parent_id == parts[0].id for c in parts[opening + 1 :])
    assert not any(c.flags or c.fallback for c in chunks)


def test_css_nested_rules_of_a_split_rule_set_are_its_members_under_its_selectors() -> None:
    prep = _prep("polyglot_scripts/css/checkout.css")
    chunks = chunk_document(prep, ChunkSettings(unit="chars", budget=300), "syntax")
    tag = [c for c in chunks if c.symbol.startswith(".price-tag")]
    assert list(dict.fromkeys(c.symbol for c in tag)) == [
        ".price-tag", ".price-tag \u00bb &.is-discounted", ".price-tag \u00bb &.is-member",
        ".price-tag \u00bb .price-tag__currency::after",
    ]
    assert tag[0].text.startswith("/**\n * A price tag.") and tag[0].kind == "rule"
    assert all(c.kind == "rule" and c.parent_id is not None for c in tag[1:])
    # Its declarations after the first part, and its nested rules, under its selectors.
    assert tag[1].symbol == ".price-tag" and tag[1].header == ".price-tag"
    assert tag[-2].header == ".price-tag" and tag[-2].text.startswith("  &.is-member {")
    # The breadcrumb keeps each selector as written: ``::after`` is no path separator.
    assert tag[-1].embed_text.startswith(
        "/* polyglot_scripts/css/checkout.css :: .price-tag \u00bb .price-tag__currency::after */\n.price-tag\n"
    )


def test_css_siblings_packed_together_share_their_group_once_in_the_breadcrumb() -> None:
    source = "@media print {\n" + "".join(f"  .no-print-{i} {{ display: none; }}\n" for i in range(3)) + "}\n"
    chunks = _syntax("print.css", "css", source, unit="chars", budget=4000, merge_siblings=True)
    assert [c.symbol for c in chunks] == ["@media print"]
    small = _syntax("print.css", "css", source, unit="chars", budget=140, merge_siblings=True)
    assert "@media print \u00bb {.no-print-0, .no-print-1}" in [c.symbol for c in small], [c.symbol for c in small]


def test_css_files_by_extension_and_less_and_sass_stay_text() -> None:
    assert (detect_language("a.css"), detect_language("b.scss")) == ("css", "scss")
    # No grammar for Less or Sass's indented syntax here: blank-line blocks, as before.
    for path in ("theme.less", "theme.sass"):
        chunks = _syntax(path, detect_language(path), ".a\n  color: red\n\n.b\n  margin: 0\n", unit="chars", budget=12)
        assert chunks and all(c.strategy == "text" for c in chunks)


# ---- CMake ------------------------------------------------------------------------------------

_CMAKE_LISTS = "polyglot_scripts/cmake/CMakeLists.txt"
_CMAKE_MODULE = "polyglot_scripts/cmake/cmake/StockTools.cmake"


def test_cmake_targets_are_definitions_with_the_calls_that_configure_them_right_after() -> None:
    prep = _prep(_CMAKE_LISTS)
    assert prep.doc.language == "cmake"
    found = {d.symbol: d for d in list_definitions(prep)}
    assert {(s, d.kind) for s, d in found.items()} >= {
        ("stockcore", "library"), ("pickstation", "executable"), ("label-samples", "target"), ("nlohmann_json", "dependency")
    }
    text = prep.doc.data.decode()
    lines = text.splitlines()
    # ``add_library(stockcore ...)``, then every call whose first argument is ``stockcore``, with
    # the comment above the last: one definition, up to the alias, which names another target.
    stockcore = found["stockcore"]
    assert lines[stockcore.name_line - 1] == "add_library(stockcore STATIC"
    assert lines[stockcore.last - 1].startswith("stock_embed_price_table(stockcore ")
    chunks = chunk_document(prep, ChunkSettings(unit="chars", budget=1500), "syntax")
    target = next(c for c in chunks if c.symbol == "stockcore")
    assert (target.kind, target.parts) == ("library", 1)
    assert target.text.startswith("# Stock levels per bin") and "target_link_libraries(stockcore" in target.text
    assert "# The prices the labels print" in target.text and "ALIAS" not in target.text
    assert target.embed_text.startswith(f"# {_CMAKE_LISTS} :: stockcore")
    # A ``FetchContent_Declare`` takes its ``FetchContent_MakeAvailable``; the station its
    # warnings, not the ``if()`` block after it (whose first argument is no target).
    assert next(c for c in chunks if c.symbol == "nlohmann_json").text.rstrip().endswith("FetchContent_MakeAvailable(nlohmann_json)")
    station = next(c for c in chunks if c.symbol == "pickstation")
    assert station.text.rstrip().endswith("stock_strict_warnings(pickstation)")
    # Targets in a top-level ``if()`` stay in its block (a loose statement, whole): no definitions.
    assert "stockcore_tests" not in found and "Catch2" not in found


@pytest.mark.parametrize("budget", [400, 500, 700, 1000, 1500])
def test_cmake_blocks_and_commands_of_many_lines_are_never_cut_when_they_fit(budget: int) -> None:
    for rel in (_CMAKE_LISTS, _CMAKE_MODULE):
        prep = _prep(rel)
        chunks = chunk_document(prep, ChunkSettings(unit="chars", budget=budget), "syntax")
        assert_slices_true(prep, chunks)
        assert_lossless(prep, chunks)
        assert_budget(chunks, budget)
        # Every block and command of several lines, at the top level or in a function's body,
        # that fits beside a breadcrumb and a repeated signature (200 characters at most here).
        whole = 0
        stack = list(prep.tree.root_node.children)
        while stack:
            node = stack.pop()
            if node.type in ("function_def", "macro_def", "body"):
                stack.extend(node.children)
            first, last = node.start_point.row + 1, node.end_point.row + 1
            blocky = node.type in ("normal_command", "if_condition", "foreach_loop", "while_loop", "function_def")
            if not blocky or first == last or len(node.text) + 200 > budget:
                continue
            whole += 1
            assert any(c.start_line <= first and last <= c.end_line for c in chunks), (rel, budget, node.type, first)
        assert whole >= 4
        assert not any(c.text.strip() in ("endfunction()", "endmacro()", ")") for c in chunks)


def test_cmake_a_target_in_a_function_is_a_statement_and_a_call_between_ends_a_targets_settings() -> None:
    source = (
        "function(shop_add_plugin name)\n  add_library(${name} MODULE ${ARGN})\n"
        "  target_link_libraries(${name} PRIVATE shop_core)\nendfunction()\n"
        "add_library(shop_core STATIC core.c)  # the core\ntarget_compile_features(shop_core PUBLIC cxx_std_20)\n"
        "install(TARGETS shop_core)\ntarget_link_libraries(shop_core PRIVATE m)\n"
    )
    found = [(d.symbol, d.kind, d.first, d.last) for d in list_definitions(prepare("CMakeLists.txt", "cmake", source))]
    assert found == [("shop_add_plugin", "function", 1, 4), ("shop_core", "library", 5, 6)]
    chunks = _syntax("CMakeLists.txt", "cmake", source, unit="chars", budget=4000)
    assert [(c.kind, c.symbol, c.start_line, c.end_line) for c in chunks] == [
        ("function", "shop_add_plugin", 1, 4), ("library", "shop_core", 5, 6), ("module", "<module>", 7, 8)
    ]


def test_cmake_a_long_function_is_split_into_parts_under_its_signature_with_its_nested_function() -> None:
    # No containers in CMake: a function's nested function is the member of its split parts.
    prep = _prep(_CMAKE_MODULE)
    chunks = chunk_document(prep, ChunkSettings(unit="chars", budget=300), "syntax")
    assert_slices_true(prep, chunks)
    assert_lossless(prep, chunks)
    assert_budget(chunks, 300)
    signature = "function(stock_embed_price_table target csv)"
    parts = [c for c in chunks if c.symbol == "stock_embed_price_table"]
    assert len(parts) >= 5 and [c.part for c in parts] == list(range(1, len(parts) + 1))
    assert all(c.kind == "function" and c.parts == len(parts) for c in parts)
    assert all(c.parent_id == parts[0].id for c in parts[1:])
    opening = next(i for i, c in enumerate(parts) if signature in c.text)
    assert all(c.header == signature for c in parts[opening + 1 :])
    assert parts[-1].text.rstrip().endswith("endfunction()")
    nested = [c for c in chunks if c.symbol == "stock_embed_price_table._stock_cents"]
    inner = "function(_stock_cents euros out_var)"
    assert len(nested) >= 2 and nested[0].parent_id == parts[0].id and nested[0].header in (signature, inner)
    assert nested[0].text.lstrip().startswith("# Euros as the export writes them")
    assert all(c.header == inner and c.parent_id == nested[0].id for c in nested[1:])
    assert nested[-1].text.rstrip().endswith("  endfunction()")
    # A target too big for a chunk: its parts repeat its head, the calls after it included.
    prep = _prep(_CMAKE_LISTS)
    chunks = chunk_document(prep, ChunkSettings(unit="chars", budget=300), "syntax")
    assert_lossless(prep, chunks)
    target = [c for c in chunks if c.symbol == "stockcore"]
    assert len(target) >= 4 and all(c.kind == "library" for c in target)
    assert [c.part for c in target] == list(range(1, len(target) + 1))
    assert all(c.header == "add_library(stockcore STATIC" and c.parent_id == target[0].id for c in target[1:])
    assert "stock_embed_price_table(stockcore" in target[-1].text
    assert not any(set(c.flags) - {"divider"} or c.fallback for c in chunks)  # (``# ---- the station ----``)


def test_cmake_a_bracket_comment_too_big_for_a_chunk_is_cut_by_lines() -> None:
    # Cut by its children, its ``#[[`` and its ``]]`` were each a chunk of their own.
    source = "#[[\n" + "".join(f"  Restock rule {i}: order a pack when the bin holds less than {i} units.\n" for i in range(8)) + "]]\n"
    source += "cmake_minimum_required(VERSION 3.24)\n"
    chunks = _syntax("rules.cmake", "cmake", source, unit="chars", budget=300)
    assert len(chunks) >= 3
    assert chunks[0].text.startswith("#[[\n  Restock rule 0")
    assert not any(c.text.strip() in ("#[[", "]]") for c in chunks)


@pytest.mark.parametrize("budget", [30, 40, 60])
def test_a_line_no_node_holds_goes_with_a_chunk(budget: int) -> None:
    # R's grammar keeps no node for a ``;`` alone on its line: in a function split statement
    # by statement, the line between the last statement's pieces and the ``}`` was in no chunk.
    source = "main <- function(x) {\n  a <- read(x)\n  b <- write(a, 'out.csv', row.names = FALSE)\n  print(b)\n;\n}\n"
    prep = prepare("m.R", "r", source)
    chunks = chunk_document(prep, ChunkSettings(unit="chars", budget=budget), "syntax")
    assert_lossless(prep, chunks)
    assert any(";" in c.text for c in chunks)


def test_no_chunk_is_whitespace_alone_and_the_parts_stay_numbered() -> None:
    # PowerShell's grammar ended a file cut after a backtick's line continuation on a node of
    # the trailing spaces: a chunk of seven spaces, part 6 of 6 of the function.
    source = ("function Get-X {\n    $reply = Invoke-RestMethod -Method Post -Uri \"https://example.com/v1/stock\" "
              "-Headers $headers `\n       ")
    prep = prepare("x.ps1", "powershell", source)
    chunks = chunk_document(prep, ChunkSettings(unit="chars", budget=60), "syntax")
    assert_slices_true(prep, chunks)
    assert_lossless(prep, chunks)
    parts = [c for c in chunks if c.symbol == "Get-X"]
    assert [c.part for c in parts] == list(range(1, len(parts) + 1)) and all(c.parts == len(parts) for c in parts)


# ---- MATLAB ----------------------------------------------------------------------------------


def test_matlab_a_classdef_splits_into_its_head_blocks_and_methods_and_a_long_method_into_parts() -> None:
    rel = "polyglot_scripts/matlab/StockLedger.m"
    prep = _prep(rel)
    chunks = chunk_document(prep, ChunkSettings(unit="chars", budget=400), "syntax")
    assert_lossless(prep, chunks)
    assert_slices_true(prep, chunks)
    heads = [c for c in chunks if c.kind == "class_header" and c.symbol == "StockLedger"]
    header = heads[0]
    # Its head is its first line and its help text, all of it (``CodeSpec.help_heads``).
    assert header.text.startswith("classdef StockLedger < handle\n    %STOCKLEDGER Units on hand")
    assert "%   See also plan_restock." in "\n".join(c.text for c in heads)
    assert "members of StockLedger" in header.header and "pick" in header.header and "get.SkuCount" in header.header
    inside = [c for c in chunks if c.parent_id in {h.id for h in heads}]
    # The ``properties`` and ``events`` blocks are the class's statements, under its head.
    blocks = [c for c in inside if c.kind == "statements"]
    assert any("properties (SetAccess = private)" in c.text for c in blocks)
    assert any(c.text.lstrip().startswith("events") for c in blocks)
    assert all(c.header == "classdef StockLedger < handle" for c in blocks)
    # A ``methods`` block's line leads its first method, as a decorator would.
    methods = {c.symbol: c for c in inside if c.kind in ("method", "getter", "setter")}
    assert {"StockLedger.StockLedger", "StockLedger.receive", "StockLedger.fromCount", "StockLedger.record"} <= set(methods)
    assert methods["StockLedger.StockLedger"].text.startswith("    methods\n        function obj = StockLedger(site)")
    assert methods["StockLedger.fromCount"].text.startswith("    methods (Static)\n        function ledger = fromCount(")
    assert methods["StockLedger.get.SkuCount"].kind == "getter" and methods["StockLedger.set.Site"].kind == "setter"
    parts = [c for c in chunks if c.symbol == "StockLedger.pick"]
    assert len(parts) >= 3 and [c.part for c in parts] == list(range(1, len(parts) + 1))
    assert parts[0].text.startswith("        function pick(obj, order)\n            %PICK Takes an order's lines")
    assert parts[0].parent_id == header.id
    assert all(c.header == "function pick(obj, order)" and c.parent_id == parts[0].id for c in parts[1:])
    assert not any(c.flags or c.fallback for c in chunks)


def test_matlab_a_long_function_repeats_its_signature_without_its_help_or_arguments_block() -> None:
    rel = "polyglot_scripts/matlab/plan_restock.m"
    prep = _prep(rel)
    found = {(d.symbol, d.kind) for d in list_definitions(prep)}
    assert {("plan_restock", "function"), ("plan_restock.target_units", "function"), ("packs_for", "function"),
            ("cheapest_offer", "function"), ("drop_small_orders", "function")} <= found
    chunks = chunk_document(prep, ChunkSettings(unit="chars", budget=300), "syntax")
    assert_lossless(prep, chunks)
    assert_budget(chunks, 300)
    parts = [c for c in chunks if c.symbol == "plan_restock"]
    assert len(parts) >= 5 and [c.part for c in parts] == list(range(1, len(parts) + 1))
    signature = "function plan = plan_restock(ledger, suppliers, options)"
    # The help text right under the signature is the function's head: it leads part 1.
    assert parts[0].text.startswith(signature + "\n%PLAN_RESTOCK Purchase lines")
    assert all(c.header == signature and c.parent_id == parts[0].id for c in parts[1:])
    # The ``arguments`` block follows the help, in the parts, not in the repeated signature.
    assert any("\narguments\n    ledger (1,1) StockLedger" in c.text for c in parts[1:])
    nested = next(c for c in chunks if c.symbol == "plan_restock.target_units")
    assert nested.text.lstrip().startswith("function units = target_units(sku)") and nested.parent_id == parts[0].id
    local = next(c for c in chunks if c.symbol == "packs_for")
    assert local.parent_id is None and local.text.startswith("function packs = packs_for(packSize, shortfall)\n%PACKS_FOR")
    # Where the budget leaves room for a whole head, the signature is still its own line: the
    # head's help and ``arguments`` block are not repeated (``head_ends``), nor the help of a
    # function without parameters (``uncommented_heads``).
    body = "".join(f"total = total + lines({i}).Units * lines({i}).PriceEur;\n" for i in range(1, 16))
    for head, signature in (
        ("function total = cart_total(lines)\n% Sums a cart.\narguments\n    lines struct\nend\n",
         "function total = cart_total(lines)"),
        ("function restock_all\n% Restocks every aisle.\n", "function restock_all"),
    ):
        parts = _syntax("cart.m", "matlab", head + "total = 0;\n" + body, unit="chars", budget=400)
        assert len(parts) >= 3 and parts[0].text.startswith(head.rstrip())
        assert all(c.header == signature for c in parts[1:])


def test_matlab_comments_a_function_without_end_ends_with_go_with_the_function_below() -> None:
    # Without ``end`` a function's block runs on to the next ``function``: the help of the one
    # below and a section's title were the last lines of the one above (``CodeSpec.tail_comments``).
    source = (
        "function reprice(labels)\n% Reprices every label.\nfor k = 1:numel(labels)\n"
        "    labels(k) = round_price(labels(k));\nend\n\n"
        "% ROUND_PRICE rounds to 5 cents (the tills hold no smaller coin).\nfunction p = round_price(p)\n"
        "p = round(p * 20) / 20;\n% (rounded half up)\n\n%% Printing\n\nfunction print_labels(labels)\ndisp(labels)\n"
    )
    chunks = _syntax("reprice.m", "matlab", source, unit="chars", budget=4000)
    texts = {c.symbol: c.text for c in chunks}
    assert texts["reprice"].endswith("    labels(k) = round_price(labels(k));\nend")
    assert texts["round_price"].startswith("% ROUND_PRICE rounds to 5 cents")
    assert texts["round_price"].endswith("% (rounded half up)"), "a comment right under its code is its own"
    assert "%% Printing" not in texts["round_price"]
    assert all(c.symbol != "reprice" or "ROUND_PRICE" not in c.text for c in chunks)
    lines = {d.symbol: (d.first, d.last) for d in list_definitions(prepare("reprice.m", "matlab", source))}
    assert lines == {"reprice": (1, 5), "round_price": (8, 10), "print_labels": (14, 15)}


def test_matlab_a_class_help_stays_in_its_header_when_methods_follow_it() -> None:
    # With no ``properties`` block between, the help under ``classdef`` went to the first
    # method, as a comment above a definition does (``CodeSpec.help_heads``).
    methods = "".join(
        f"        function n = free{i}(obj)\n            % Free slots, way {i}.\n            n = obj.Slots - {i};\n        end\n"
        for i in range(6)
    )
    source = (
        "classdef Shelf\n    %SHELF One bay of the Lyon racks.\n    %   Holds one SKU at a time.\n"
        f"    methods\n{methods}    end\nend\n"
    )
    chunks = _syntax("Shelf.m", "matlab", source, unit="chars", budget=250)
    header = chunks[0]
    assert (header.kind, header.symbol) == ("class_header", "Shelf")
    assert header.text == "classdef Shelf\n    %SHELF One bay of the Lyon racks.\n    %   Holds one SKU at a time."
    first = next(c for c in chunks if c.symbol == "Shelf.free0")
    assert first.text.startswith("    methods\n        function n = free0(obj)") and first.parent_id == header.id
    found = {d.symbol: d for d in list_definitions(prepare("Shelf.m", "matlab", source))}
    assert found["Shelf"].signature_last == 3
    assert [s for s in found if s != "Shelf"] == [f"Shelf.free{i}" for i in range(6)]


def test_matlab_a_script_is_cut_where_its_cells_start() -> None:
    # ``%%`` opens a cell the editor runs alone (``CodeSpec.cell_marks``): the cut goes there,
    # not after the first lines of the next cell.
    source = (
        "%% Load the nightly export\ndata = readtable(\"stock.csv\");\ndata.Cover = data.Units ./ max(1, data.Daily);\n"
        "%% Flag low cover\nlow = data(data.Cover < 3, :);\nlow = sortrows(low, \"Cover\");\n"
        "fprintf(\"%d SKUs under three days\\n\", height(low));\n%% Mail the buyers\n"
        "body = compose(\"%s: %.1f days\", low.Sku, low.Cover);\n"
        "sendmail(\"buyers@shop.example\", \"Low cover\", strjoin(body, newline));\n"
    )
    chunks = _syntax("low_cover.m", "matlab", source, unit="chars", budget=250)
    assert [c.text.splitlines()[0] for c in chunks] == ["%% Load the nightly export", "%% Flag low cover", "%% Mail the buyers"]
    assert all(c.kind == "module" for c in chunks)
    # A plain comment right above the code it is about goes with it, newline tokens or not
    # (``CodeSpec.blank_tokens``: the grammar's newline after it made it no comment alone).
    source = "% Load\nclear; clc\ndata = readtable(\"stock.csv\");\nformat long\n\n% Cover\ncover = data.Units ./ data.Daily;\n"
    chunks = _syntax("cover.m", "matlab", source, unit="chars", budget=100)
    assert [c.text.splitlines()[0] for c in chunks] == ["% Load", "% Cover"]


def test_matlab_broken_code_is_damaged_in_its_definition_and_garbage_falls_back() -> None:
    source = (
        "function open_till(name)\n% Opens the till.\nfprintf(\"open %s\\n\", name);\nend\n\n"
        "function total = till_total(prices)\n% Sums the prices.\ntotal = 0;\nfor k = 1:numel(prices\n"
        "    total = total + prices(k);\nend\nend\n\nfunction close_till()\ndisp(\"closed\");\nend\n"
    )
    chunks = _syntax("till.m", "matlab", source, unit="chars", budget=150)
    assert all(c.fallback is None for c in chunks)
    assert any("damaged" in c.flags for c in chunks if c.symbol == "till_total")
    for symbol in ("open_till", "close_till"):
        found = [c for c in chunks if c.symbol == symbol]
        assert found and not any("damaged" in c.flags for c in found), symbol
    rel = "polyglot_scripts/matlab/StockLedger.m"
    text = (SAMPLES / rel).read_text("utf-8")
    old = "            obj.ReorderPoints(char(sku)) = max(0, units);"
    assert old in text
    broken = prepare(rel, "matlab", text.replace(old, "            obj.ReorderPoints(char(sku) = max(0, units;", 1))
    chunks = chunk_document(broken, ChunkSettings(unit="chars", budget=400), "syntax")
    assert_lossless(broken, chunks)
    damaged = {c.symbol for c in chunks if "damaged" in c.flags}
    assert damaged == {"StockLedger.setReorderPoint"}, damaged
    assert {d.symbol for d in list_definitions(_prep(rel))} == {d.symbol for d in list_definitions(broken)}
    # A line of words is a command (``hold on``): garbage that starts with punctuation is none.
    garbage = _syntax("junk.m", "matlab", ") ( %{ } { ;; => ] end\n" * 40, unit="chars", budget=200)
    assert garbage and all(c.fallback == "parse_error" for c in garbage)


# ---- Pascal --------------------------------------------------------------------------------------

_PASCAL_UNIT = "polyglot_scripts/pascal/StockLedger.pas"
_PASCAL_PROGRAM = "polyglot_scripts/pascal/PickStation.dpr"


def test_pascal_a_unit_splits_into_its_types_and_routines_and_a_class_into_its_head_and_sections() -> None:
    prep = _prep(_PASCAL_UNIT)
    assert prep.doc.language == "pascal"
    chunks = chunk_document(prep, ChunkSettings(unit="chars", budget=400), "syntax")
    assert_lossless(prep, chunks)
    assert_slices_true(prep, chunks)
    assert_budget(chunks, 400)
    units = [c for c in chunks if c.kind == "class_header" and c.symbol == "StockLedger"]
    assert units[0] is chunks[0] and units[0].parent_id is None
    assert "\nunit StockLedger;" in "\n".join(c.text for c in units) and "IDeliveryNote" in units[0].header
    # The interface's types and the implementation's routines are the unit's members.
    unit = units[0]
    members = {c.symbol: c for c in chunks if c.parent_id in {u.id for u in units}}
    assert {"StockLedger.TBinCode", "StockLedger.IDeliveryNote", "StockLedger.TStockLedger.Create"} <= set(members)
    assert members["StockLedger.TStockLedger.Create"].header == "unit StockLedger;"
    # The ledger class: its head to its parent, the methods it declares in its summary; its
    # visibility sections are its statements, under its head.
    heads = [c for c in chunks if c.kind == "class_header" and c.symbol == "StockLedger.TStockLedger"]
    assert heads and heads[0].parent_id in {u.id for u in units}
    assert heads[0].text.lstrip().startswith("/// Units on hand per SKU and bin")
    assert "  TStockLedger = class(TObject)\n  strict private" in heads[0].text
    assert "members of StockLedger.TStockLedger" in heads[0].header and "PickWave" in heads[0].header
    inside = [c for c in chunks if c.parent_id == heads[0].id]
    assert inside and all(c.kind == "statements" and c.header == "TStockLedger = class(TObject)" for c in inside)
    assert any("property OnLowStock: TLowStockEvent" in c.text for c in inside)
    assert inside[-1].text.rstrip().endswith("  end;")
    # An interface is headed to its GUID; a record is a record.
    note = members["StockLedger.IDeliveryNote"]
    assert note.kind == "interface" and note.text.startswith("  (* What a supplier's delivery note must give")
    assert members["StockLedger.TBinCode"].kind == "record"
    assert not any(c.flags or c.fallback for c in chunks)


def test_pascal_a_long_method_repeats_its_header_and_holds_its_nested_routines() -> None:
    prep = _prep(_PASCAL_UNIT)
    chunks = chunk_document(prep, ChunkSettings(unit="chars", budget=600), "syntax")
    assert_lossless(prep, chunks)
    assert_budget(chunks, 600)
    signature = (
        "function TStockLedger.PickWave(const Skus: array of string; const Units: array of Integer;\n"
        "  out Shortages: TArray<string>): Integer;"
    )
    parts = [c for c in chunks if c.symbol == "StockLedger.TStockLedger.PickWave"]
    assert len(parts) >= 4 and [c.part for c in parts] == list(range(1, len(parts) + 1))
    assert all(c.kind == "method" and c.parts == len(parts) for c in parts)
    # Its ``{ }`` comment leads its first part; its header alone is repeated, not its ``var`` block.
    assert parts[0].text.startswith("{ Takes a pick wave's lines off the shelves")
    assert signature in parts[0].text and "var\n  I, Wanted, Level: Integer;" in parts[0].text
    assert all(c.header == signature and c.parent_id == parts[0].id for c in parts[1:])
    assert parts[-1].text.rstrip().endswith("    Short.Free;\n  end;\nend;")
    # Its nested routines are nested definitions, each with the comment above it.
    nested = {c.symbol: c for c in chunks if c.symbol.startswith("StockLedger.TStockLedger.PickWave.")}
    assert set(nested) == {"StockLedger.TStockLedger.PickWave.ReorderPointOf", "StockLedger.TStockLedger.PickWave.Warn"}
    assert all(c.parent_id == parts[0].id for c in nested.values())
    reorder = nested["StockLedger.TStockLedger.PickWave.ReorderPointOf"]
    assert reorder.kind == "function" and reorder.text.startswith("  // The reorder point of a SKU")
    assert nested["StockLedger.TStockLedger.PickWave.Warn"].kind == "procedure"


def test_pascal_comments_and_directives_above_a_routine_stay_with_it() -> None:
    source = (
        "unit Labels;\n\ninterface\n\nprocedure PrintLabel(const Sku: string);\n\nimplementation\n\n"
        "// Sends one label to the aisle's printer.\nprocedure PrintLabel(const Sku: string);\nbegin\n"
        "  WriteLn(Sku);\nend;\n\n{ The label's width in dots,\n  at the printer's 203 dpi. }\n"
        "function LabelDots(Mm: Integer): Integer;\nbegin\n  Result := Mm * 8;\nend;\n\n"
        "(* The zone letter of a bin code. *)\n{$IFDEF ZONES}\nfunction ZoneOf(const Bin: string): Char;\nbegin\n"
        "  Result := Bin[1];\nend;\n{$ENDIF}\n\nend.\n"
    )
    found = [(d.symbol, d.kind, d.first, d.last) for d in list_definitions(prepare("Labels.pas", "pascal", source))]
    assert found == [
        ("Labels", "unit", 1, 30), ("Labels.PrintLabel", "procedure", 10, 13), ("Labels.LabelDots", "function", 17, 20),
        ("Labels.ZoneOf", "function", 23, 27),
    ]
    chunks = _syntax("Labels.pas", "pascal", source, unit="chars", budget=200)
    texts = {c.symbol: c.text for c in chunks}
    assert texts["Labels.PrintLabel"].startswith("// Sends one label to the aisle's printer.\nprocedure PrintLabel")
    assert texts["Labels.LabelDots"].startswith("{ The label's width in dots,\n  at the printer's 203 dpi. }\nfunction")
    assert texts["Labels.ZoneOf"].startswith("(* The zone letter of a bin code. *)\n{$IFDEF ZONES}\nfunction ZoneOf")


def test_pascal_a_program_is_its_declarations_routines_and_main_block() -> None:
    assert [detect_language(p) for p in ("a.pas", "b.dpr", "c.lpr")] == ["pascal"] * 3
    prep = _prep(_PASCAL_PROGRAM)
    found = {(d.symbol, d.kind) for d in list_definitions(prep)}
    assert {("PickStation", "program"), ("PickStation.TStationScreen", "class"),
            ("PickStation.TStationScreen.LowStock", "method"), ("PickStation.LoadWave", "procedure"),
            ("PickStation.ShortageReport", "function"), ("PickStation.PrintUsage", "procedure"),
            ("PickStation.<main>", "main")} <= found
    chunks = chunk_document(prep, ChunkSettings(unit="chars", budget=700), "syntax")
    assert_lossless(prep, chunks)
    head = chunks[0]
    assert (head.kind, head.symbol) == ("class_header", "PickStation") and "<main>" in head.header
    main = [c for c in chunks if c.symbol == "PickStation.<main>"]
    assert main and main[0].kind == "main" and main[0].parent_id == head.id
    assert main[0].text.startswith("begin\n  if (ParamCount > 1)") and main[-1].text.rstrip().endswith("end.")
    # A project file's ``uses X in 'X.pas'`` clause, which the grammar does not know, is read
    # without its path (``CodeSpec.annotations``): nothing is damaged, the text is kept.
    assert any("StockLedger in 'StockLedger.pas';" in c.text for c in chunks)
    assert not any(c.flags or c.fallback for c in chunks)


def test_pascal_broken_code_is_damaged_in_its_routine_only_and_lossless() -> None:
    text = (SAMPLES / _PASCAL_UNIT).read_text("utf-8")
    old = "      Level := GetLevel(Skus[I]);\n      if Level < Wanted then"
    assert old in text
    new = "      Level := GetLevel(Skus[I]) + ;\n      if Level < Wanted then"
    broken = prepare(_PASCAL_UNIT, "pascal", text.replace(old, new, 1))
    chunks = chunk_document(broken, ChunkSettings(unit="chars", budget=600), "syntax")
    assert_lossless(broken, chunks)
    assert_slices_true(broken, chunks)
    assert all(c.fallback is None for c in chunks)
    damaged = {c.symbol for c in chunks if "damaged" in c.flags}
    assert damaged == {"StockLedger.TStockLedger.PickWave"}, damaged
    assert {d.symbol for d in list_definitions(_prep(_PASCAL_UNIT))} == {d.symbol for d in list_definitions(broken)}


# ---- Verilog and VHDL ---------------------------------------------------------------------------


@pytest.mark.parametrize(("rel", "container", "head", "repeat", "members", "function", "signature", "end"), [
    # The module's head is its name, parameters and ports, to their ``;``; a labelled
    # ``always_ff`` block is named by its label and its parts repeat its timing control.
    ("polyglot_scripts/verilog/conveyor_sorter.sv", "conveyor_sorter",
     "module conveyor_sorter\n  import sorter_pkg::*;\n#(", "module conveyor_sorter",
     ["conveyor_sorter.next_state", "conveyor_sorter.track", "conveyor_sorter.chute",
      "conveyor_sorter.always @(posedge clk)"],
     "conveyor_sorter.track", "always_ff @(posedge clk or negedge rst_n)", "endmodule : conveyor_sorter"),
    # The architecture's declarations and statements are its members, ``begin`` between them.
    ("polyglot_scripts/vhdl/scale_reporter.vhd", "scale_reporter.rtl", "architecture rtl of scale_reporter is",
     "architecture rtl of scale_reporter is",
     ["scale_reporter.rtl.uart_byte_tx", "scale_reporter.rtl.net", "scale_reporter.rtl.debounce",
      "scale_reporter.rtl.average", "scale_reporter.rtl.send_frame", "scale_reporter.rtl.bar"],
     "scale_reporter.rtl.send_frame", "send_frame : process (clk)", "end architecture rtl;"),
], ids=["verilog", "vhdl"])
def test_an_hdl_module_splits_into_its_head_and_blocks_and_a_long_block_into_parts(
    rel, container, head, repeat, members, function, signature, end
) -> None:
    prep = _prep(rel)
    chunks = chunk_document(prep, ChunkSettings(unit="chars", budget=300), "syntax")
    assert_lossless(prep, chunks)
    assert_slices_true(prep, chunks)
    assert_budget(chunks, 300)
    heads = [c for c in chunks if c.kind == "class_header" and c.symbol == container]
    assert heads and head in "\n".join(c.text for c in heads)
    assert f"members of {container}" in heads[0].header
    inside = [c for c in chunks if c.parent_id in {h.id for h in heads}]
    assert set(members) <= {c.symbol for c in inside}, sorted({c.symbol for c in inside})
    # Whole, under the container's head when they fit with it.
    assert all(c.header == repeat for c in inside if c.header and c.parts == 1 and c.kind != "class_header")
    assert any(c.header == repeat and c.symbol in members for c in inside)
    parts = [c for c in chunks if c.symbol == function]
    assert len(parts) >= 3 and [c.part for c in parts] == list(range(1, len(parts) + 1))
    opening = next(i for i, c in enumerate(parts) if signature in c.text)
    assert all(c.header == signature and c.parent_id == parts[0].id for c in parts[opening + 1 :])
    # The container's end is no line of its last member's parts.
    assert not any(end in c.text for c in parts)
    assert any(end in c.text for c in chunks)
    assert not any(c.flags or c.fallback for c in chunks)


def test_verilog_always_blocks_are_named_by_their_label_else_their_timing_control() -> None:
    source = (
        "module m (input clk, input d, output reg q, output reg r);\n"
        "  always @(posedge clk) begin : capture\n    q <= d;\n  end\n"
        "  always @(negedge clk)\n    r <= q;\n"
        "  always_comb begin\n    r = q;\n  end\n"
        "  initial begin\n    q = 0;\n  end\n"
        "endmodule\n"
    )
    found = [(d.symbol, d.kind) for d in list_definitions(prepare("m.v", "verilog", source))]
    assert found == [
        ("m", "module"), ("m.capture", "always"), ("m.always @(negedge clk)", "always"),
        ("m.always_comb", "always"), ("m.initial", "initial"),
    ]


def test_hdl_files_by_extension() -> None:
    assert [detect_language(f"x{ext}") for ext in (".v", ".vh", ".sv", ".svh", ".vhd", ".vhdl", ".VHD")] == [
        "verilog", "verilog", "verilog", "verilog", "vhdl", "vhdl", "vhdl",
    ]


def test_a_split_vhdl_subprogram_holds_none_of_the_declarations_after_it() -> None:
    # A subprogram is its own body, and the package body's declarations around it start where
    # the first one does: read as the closers of a call around it, they were that first
    # function's members (``scale_pkg.twice.restock``, its lines in two chunks).
    source = (
        "package body shop_pkg is\n  function twice(x : natural) return natural is\n  begin\n    return 2 * x;\n"
        "  end function;\n  procedure restock(signal q : inout natural) is\n  begin\n    q <= MAX;\n"
        "  end procedure restock;\nend package body shop_pkg;\n"
    )
    chunks = _syntax("shop_pkg.vhd", "vhdl", source, unit="chars", budget=120)
    assert {c.symbol for c in chunks} == {"shop_pkg", "shop_pkg.twice", "shop_pkg.restock"}
    twice = [c for c in chunks if c.symbol == "shop_pkg.twice"]
    assert twice[-1].text.rstrip().endswith("end function;")


def test_starlark_build_files_are_read_by_name_and_a_target_is_never_cut_while_it_fits() -> None:
    # BUILD files and .bzl macros were skipped as of an unknown type.
    assert [detect_language(name) for name in ("BUILD", "BUILD.bazel", "WORKSPACE", "MODULE.bazel", "defs.bzl",
                                               "Tiltfile", "build", "build.sh")] == [
        "starlark", "starlark", "starlark", "starlark", "starlark", "starlark", None, "bash"]  # (``build``: a script's)
    prep = _prep("polyglot_scripts/bazel/BUILD.bazel")
    lines = prep.doc.text.split("\n")
    # Each target: from its rule's line to its closing parenthesis.
    targets = [(at + 1, next(end for end in range(at, len(lines)) if lines[end] == ")") + 1)
               for at, line in enumerate(lines) if line.endswith("(") and not line.startswith(" ")]
    assert len(targets) == 13
    for budget in (500, 800):
        chunks = chunk_document(prep, ChunkSettings(unit="chars", budget=budget), "syntax")
        assert_slices_true(prep, chunks)
        assert_lossless(prep, chunks)
        assert not any(c.flags or c.fallback for c in chunks)
        # Every target that fits beside its breadcrumb is whole in a chunk (the office library
        # and the label genrule do not: they are split, see below).
        fitting = [(first, last) for first, last in targets if len("\n".join(lines[first - 1 : last])) + 60 <= budget]
        assert len(fitting) >= 9
        for first, last in fitting:
            assert any(c.start_line <= first and c.end_line >= last for c in chunks), (budget, first)


# ---- Groovy -----------------------------------------------------------------------------------

_GROOVY_SERVICE = "polyglot_scripts/groovy/ParcelDispatch.groovy"
_GRADLE_BUILD = "polyglot_scripts/groovy/build.gradle"
_JENKINSFILE = "polyglot_scripts/groovy/Jenkinsfile"


def test_groovy_gradle_and_jenkinsfiles_are_code_read_by_the_groovy_grammar() -> None:
    # They were text, cut at blank lines: a method split wherever a blank line fell.
    assert [detect_language(name) for name in ("Dispatch.groovy", "tools.gvy", "build.gradle", "settings.gradle",
                                               "Jenkinsfile", "Jenkinsfile.nightly", "deploy.jenkinsfile",
                                               "build.gradle.kts")] == ["groovy"] * 7 + ["kotlin"]
    assert isinstance(LANGUAGES["groovy"], type(LANGUAGES["java"])) and "groovy" in CODE_LANGUAGES
    assert fence_language("groovy") == "groovy" and fence_language("gradle") == "groovy"


def test_groovy_definitions_are_read_from_each_statements_head() -> None:
    source = (
        "@ToString(includeNames = true)\n"
        "public abstract class Bin extends Shelf implements Priced, Comparable<Bin> {\n"
        "    private static final int LOW = 4\n"
        "    @Override\n    int compareTo(Bin other) { 0 }\n"
        "    static <T> List<T> sample(List<T> xs) { xs }\n"
        "    def 'reserves the last unit'() {\n        expect: true\n    }\n"
        "    static class Slot {\n        Slot(int n) { }\n    }\n"
        "    void restock(int n) {\n        items.each { println it }\n        def label = { s -> s }\n"
        "        if (n) {\n            stage('Nested') { }\n        }\n    }\n"
        "}\n"
        "@interface Audited {\n}\n"
        "if (project.hasProperty('fast')) {\n    println 'fast'\n}\n"
        "def skus = ['a', 'b'].collect { it.toUpperCase() }\n"
        "Closure<Integer> weigh = { int n -> n }\n"
        "node('linux') {\n    stage('Checkout') {\n        checkout scm\n    }\n"
        "    stage(\"Build ${env.BRANCH}\") {\n        sh './gradlew build'\n    }\n}\n"
    )
    found = [(d.symbol, d.kind) for d in list_definitions(prepare("Bin.groovy", "groovy", source))]
    assert found == [
        ("Bin", "class"), ("Bin.compareTo", "method"), ("Bin.sample", "method"),
        ("Bin.reserves the last unit", "method"), ("Bin.Slot", "class"), ("Bin.Slot.Slot", "method"),
        ("Bin.restock", "method"), ("Audited", "annotation"), ("weigh", "function"), ("node('linux')", "block"),
        ("node('linux').Checkout", "stage"), ("node('linux').Build ${env.BRANCH}", "stage"),
    ]  # fmt: skip
    # ``@Override`` alone on its line goes with its method; the annotation the grammar cannot
    # read (its arguments) heads the class's signature, whose name it does not hide.
    chunks = _syntax("Bin.groovy", "groovy", source, unit="chars", budget=4000)
    compare = next(c for c in chunks if c.symbol == "Bin")
    assert compare.text.startswith("@ToString(includeNames = true)\npublic abstract class Bin")
    prep = prepare("Bin.groovy", "groovy", source)
    by_symbol = {d.symbol: d for d in list_definitions(prep)}
    assert prep.doc.text.splitlines()[by_symbol["Bin.compareTo"].first - 1].strip() == "@Override"


def test_groovy_a_big_class_splits_into_its_header_and_its_members_with_their_comments() -> None:
    prep = _prep(_GROOVY_SERVICE)
    assert prep.doc.language == "groovy"
    chunks = chunk_document(prep, ChunkSettings(unit="chars", budget=800), "syntax")
    assert_slices_true(prep, chunks)
    assert_lossless(prep, chunks)
    assert_budget(chunks, 800)
    assert not any(c.fallback for c in chunks)
    head = next(c for c in chunks if c.symbol == "DispatchService")
    assert head.kind == "class_header" and "class DispatchService {" in head.text
    assert head.text.startswith("/**\n * Dispatch of the packed parcels")  # (its doc comment, its annotation)
    assert "@CompileStatic" in head.text
    members = [c for c in chunks if c.symbol.startswith("DispatchService.")]
    assert {c.symbol for c in members} >= {
        "DispatchService.DispatchService", "DispatchService.onWeighed", "DispatchService.isPallet",
        "DispatchService.accept", "DispatchService.chooseCarrier", "DispatchService.planWave",
        "DispatchService.backlog",
    }  # fmt: skip
    assert all(c.parent_id == head.id for c in members if c.part == 1)
    accept = next(c for c in members if c.symbol == "DispatchService.accept")
    assert (accept.kind, accept.header) == ("method", "class DispatchService {")
    assert accept.text.lstrip().startswith("/** Takes a parcel the packing station has closed")
    assert accept.embed_text.startswith(f"// {_GROOVY_SERVICE} :: DispatchService.accept\n")
    closure = next(c for c in members if c.symbol == "DispatchService.onWeighed")
    assert closure.text.lstrip().startswith("// Called by the packing station")
    # A type that fits is one chunk, with the doc comment above it.
    carrier = next(c for c in chunks if c.symbol == "Carrier")
    assert (carrier.kind, carrier.parts) == ("enum", 1) and carrier.text.startswith("/**\n * The carriers")
    assert carrier.text.rstrip().endswith("}")


def test_groovy_a_long_method_is_split_into_parts_under_its_signature() -> None:
    prep = _prep(_GROOVY_SERVICE)
    chunks = chunk_document(prep, ChunkSettings(unit="chars", budget=700), "syntax")
    assert_lossless(prep, chunks)
    assert_budget(chunks, 700)
    signature = "Map<String, List<Parcel>> planWave(LocalTime now, List<String> doors) {"
    parts = [c for c in chunks if c.symbol == "DispatchService.planWave"]
    assert len(parts) >= 4 and [c.part for c in parts] == list(range(1, len(parts) + 1))
    assert all(c.kind == "method" and c.parts == len(parts) for c in parts)
    assert signature in parts[0].text and parts[0].text.lstrip().startswith("/**")
    assert all(c.header == signature and c.parent_id == parts[0].id for c in parts[1:])
    # Cut between its statements: a ``for`` loop's lines or a closure's are never cut when they fit.
    lines = prep.doc.text.splitlines()
    for chunk in parts:
        assert chunk.text.splitlines()[0] == lines[chunk.start_line - 1]
    loop = next(i + 1 for i, line in enumerate(lines) if line.strip() == "byDoor.each { String door, List<Parcel> parcels ->")
    assert any(c.start_line <= loop and loop + 3 <= c.end_line for c in parts)


def test_gradle_blocks_and_tasks_are_named_definitions_cut_at_their_statements() -> None:
    # Decided for retrieval: "which libraries does the build use?" finds one chunk named
    # ``dependencies``, not a ``<module>`` window of whatever blocks stood around it.
    prep = _prep(_GRADLE_BUILD)
    found = {d.symbol: d.kind for d in list_definitions(prep)}
    assert {s: found.get(s) for s in ("plugins", "dependencies", "repositories", "repositories.maven", "labelSamples",
                                      "dockerImage", "test", "gitCommit", "publishing.publications.dispatch")} == {
        "plugins": "block", "dependencies": "block", "repositories": "block", "repositories.maven": "block",
        "labelSamples": "task", "dockerImage": "task", "test": "task", "gitCommit": "function",
        "publishing.publications.dispatch": "block",
    }  # fmt: skip
    chunks = chunk_document(prep, ChunkSettings(unit="chars", budget=1600), "syntax")
    assert not any(c.flags or c.fallback for c in chunks)
    deps = [c for c in chunks if c.symbol == "dependencies"]
    assert len(deps) == 1 and deps[0].text.startswith("/**\n * Everything the service runs with")
    assert deps[0].text.rstrip().endswith("}") and deps[0].embed_text.startswith(f"// {_GRADLE_BUILD} :: dependencies")
    task = next(c for c in chunks if c.symbol == "labelSamples")
    assert task.kind == "task" and task.text.startswith("// One label per carrier")
    # Too big for a chunk, a block is cut between its statements under its head, never mid-line.
    lines = prep.doc.text.splitlines()
    for budget in (300, 400, 600):
        chunks = chunk_document(prep, ChunkSettings(unit="chars", budget=budget), "syntax")
        assert_slices_true(prep, chunks)
        assert_lossless(prep, chunks)
        assert_budget(chunks, budget)
        deps = [c for c in chunks if c.symbol == "dependencies"]
        assert len(deps) >= 3, budget
        assert all(c.header == "dependencies {" for c in deps[1:])
        assert all(c.parent_id == deps[0].id for c in deps[1:])
        for chunk in deps:
            assert chunk.text.splitlines()[0] == lines[chunk.start_line - 1]
            assert chunk.text.splitlines()[-1] == lines[chunk.end_line - 1]


def test_jenkinsfile_stages_are_definitions_a_pipeline_splits_into() -> None:
    prep = _prep(_JENKINSFILE)
    assert prep.doc.language == "groovy"
    found = {d.symbol: d.kind for d in list_definitions(prep)}
    stages = [s for s, kind in found.items() if kind == "stage"]
    assert stages == [
        "pipeline.stages.Build", "pipeline.stages.Test", "pipeline.stages.Label samples", "pipeline.stages.Image",
        "pipeline.stages.Deploy to the dock", "pipeline.stages.Smoke test", "pipeline.stages.Smoke test.parallel.Labels",
        "pipeline.stages.Smoke test.parallel.Wave plan",
    ]  # fmt: skip
    assert found["pipeline"] == "block" and found["waveIsLoading"] == "function"
    # An oversized pipeline: its head, then a stage a chunk, with the comment above it.
    chunks = chunk_document(prep, ChunkSettings(unit="chars", budget=900), "syntax")
    assert_slices_true(prep, chunks)
    assert_lossless(prep, chunks)
    assert not any(c.fallback for c in chunks)
    test = next(c for c in chunks if c.symbol == "pipeline.stages.Test")
    assert (test.kind, test.parts, test.header) == ("stage", 1, "stages {")
    assert test.text.lstrip().startswith("// Spock specs") and "stage('Test') {" in test.text
    assert test.embed_text.startswith(f"// {_JENKINSFILE} :: pipeline.stages.Test\n")
    stages_head = next(c for c in chunks if c.symbol == "pipeline.stages")
    assert stages_head.kind == "class_header" and "stage('Deploy to the dock') {" in stages_head.header
    assert all(c.parent_id == stages_head.id for c in chunks if c.kind == "stage" and c.symbol.count(".") == 2)


def test_groovy_a_syntax_error_damages_its_definition_only() -> None:
    text = (SAMPLES / _GRADLE_BUILD).read_text("utf-8")
    old = "    runtimeOnly 'org.postgresql:postgresql:42.7.3'\n"
    assert old in text
    line = text[: text.index(old)].count("\n") + 1
    broken = prepare(_GRADLE_BUILD, "groovy", text.replace(old, "    runtimeOnly 'org.postgresql:postgresql:42.7.3' <<<\n", 1))
    assert broken.damage is not None and broken.damage.ratio > 0
    chunks = chunk_document(broken, ChunkSettings(unit="chars", budget=1600), "syntax")
    assert_slices_true(broken, chunks)
    assert_lossless(broken, chunks)
    assert all(c.fallback is None for c in chunks)
    damaged = [c for c in chunks if "damaged" in c.flags]
    assert [c.symbol for c in damaged] == ["dependencies"] and damaged[0].start_line <= line <= damaged[0].end_line
    assert any(c.symbol == "plugins" and not c.flags for c in chunks)
    assert any(c.symbol == "labelSamples" and not c.flags for c in chunks)


_BAZEL_BUILD = "polyglot_scripts/bazel/BUILD.bazel"
_BAZEL_MODULE = "polyglot_scripts/bazel/MODULE.bazel"


def test_starlark_targets_are_definitions_named_by_their_name_of_their_rules_kind() -> None:
    # A BUILD file's targets were loose statements in ``<module>`` chunks, named after nothing.
    prep = _prep(_BAZEL_BUILD)
    found = [(d.symbol, d.kind) for d in list_definitions(prep)]
    assert found == [
        ("prices", "target"), ("stockcore", "library"), ("station", "library"), ("erp_bridge", "library"),
        ("pickstation", "binary"), ("office", "library"), ("restock_report", "binary"),
        ("carrier_labels", "target"), ("label_templates", "target"), ("without_printer", "target"),
        ("restock_rules_test", "test"), ("ledger_test", "test"), ("stock_tests", "test"),
    ]
    chunks = chunk_document(prep, ChunkSettings(unit="chars", budget=800), "syntax")
    assert_lossless(prep, chunks)
    stockcore = next(c for c in chunks if c.symbol == "stockcore")
    assert (stockcore.kind, stockcore.parts) == ("library", 1)
    assert stockcore.embed_text.startswith(f"# {_BAZEL_BUILD} :: stockcore\n")
    # The comment above a target is its own; ``load()``, ``package()`` and ``exports_files()``
    # name nothing: loose statements.
    assert stockcore.text.startswith("# Stock levels per bin, the order queue") and stockcore.text.rstrip().endswith(")")
    loose = [c for c in chunks if c.symbol == "<module>"]
    assert loose[0].text.startswith("# The aisle pick stations'") and "load(" in loose[0].text and "package(" in loose[0].text
    assert loose[-1].text.strip() == 'exports_files(["data/prices.csv", "data/warehouses.csv"])'
    # MODULE.bazel: the module itself, its ``bazel_dep``s and a fetched archive; extensions,
    # ``use_repo`` and an override (named by ``module_name``) are statements.
    module = {d.symbol: d.kind for d in list_definitions(_prep(_BAZEL_MODULE))}
    assert module == {
        "pickstation": "module", "rules_cc": "dependency", "rules_python": "dependency", "platforms": "dependency",
        "nlohmann_json": "dependency", "sqlite3": "dependency", "fmt": "dependency", "googletest": "dependency",
        "zpl_fonts": "dependency",
    }


def test_starlark_call_forms_that_are_and_are_not_targets() -> None:
    source = (
        'workspace(name = "warehouse")\n'
        'load("@bazel_tools//tools/build_defs/repo:http.bzl", "http_archive")\n'
        'http_archive(name = "zlib", urls = ["https://zlib.net/zlib.tar.gz"])\n'
        'git_repository(name = "label_fonts", remote = "https://git.shop/fonts.git", tag = "v2")\n'
        'local_repository(name = "erp_client", path = "../erp")\n'
        'rules.py_test(name = "stock_test", srcs = ["stock_test.py"])\n'
        "test_suite(name = 'all_tests')\n"
        'sh_binary(name = "deploy", srcs = ["deploy.sh"])\n'
        'cc_proto_library(name = "stock_cc_proto", deps = [":stock_proto"])\n'
        'alias(name = "station", actual = ":pickstation")\n'
        # Not named by a string literal, assigned, in a comprehension: code.
        'cc_library(name = "gen_" + SUFFIX)\n'
        'cc_library(name = NAME)\n'
        'lib = cc_library(name = "assigned")\n'
        '[cc_test(name = "t_" + s) for s in ["a", "b"]]\n'
        'licenses(["notice"])\n'
        # In a macro's body a target is one of its statements.
        "def shop_tool(name):\n"
        '    native.cc_library(name = "tool_base", srcs = [])\n'
        '    native.cc_binary(name = name, deps = [":tool_base"])\n'
    )
    found = [(d.symbol, d.kind) for d in list_definitions(prepare("WORKSPACE", "starlark", source))]
    assert found == [
        ("warehouse", "workspace"), ("zlib", "dependency"), ("label_fonts", "dependency"), ("erp_client", "dependency"),
        ("stock_test", "test"), ("all_tests", "test"), ("deploy", "binary"), ("stock_cc_proto", "library"),
        ("station", "target"), ("shop_tool", "function"),
    ]
    chunks = _syntax("WORKSPACE", "starlark", source, unit="chars", budget=4000)
    assert {c.symbol for c in chunks} >= {"warehouse", "zlib", "stock_test", "shop_tool", "<module>"}
    # Python is untouched: a call named ``name = "..."`` at a module's top level is a statement.
    python = 'foo(name="x")\ncc_library(name = "stock")\n\ndef bar():\n    pass\n'
    assert [(d.symbol, d.kind) for d in list_definitions(prepare("build_defs.py", "python", python))] == [("bar", "function")]
    assert [(c.symbol, c.start_line) for c in _syntax("build_defs.py", "python", python, unit="chars", budget=20)][0] == (
        "<module>", 1)
    assert not LANGUAGES["python"].name_keywords and LANGUAGES["starlark"].name_keywords == ("name",)


@pytest.mark.parametrize("budget", [400, 500, 700])
def test_starlark_a_target_too_big_for_a_chunk_is_split_at_its_arguments_under_its_head(budget: int) -> None:
    prep = _prep(_BAZEL_BUILD)
    chunks = chunk_document(prep, ChunkSettings(unit="chars", budget=budget), "syntax")
    assert_slices_true(prep, chunks)
    assert_lossless(prep, chunks)
    assert_budget(chunks, budget)
    lines = prep.doc.text.split("\n")
    for symbol, kind, head in (("office", "library", 'cc_library(\n    name = "office",'),
                               ("carrier_labels", "target", 'genrule(\n    name = "carrier_labels",')):
        parts = [c for c in chunks if c.symbol == symbol]
        assert len(parts) >= 3 and [c.part for c in parts] == list(range(1, len(parts) + 1))
        assert all(c.kind == kind and c.parts == len(parts) and not c.flags for c in parts)
        # The first part holds the head itself; every other part repeats it above its arguments.
        assert head in parts[0].text and parts[0].parent_id is None
        assert all(c.header == head and c.parent_id == parts[0].id for c in parts[1:])
        assert all(c.embed_text.startswith(f"# {_BAZEL_BUILD} :: {symbol}\n{head}\n") for c in parts[1:])
        # Cut between lines only (a long ``srcs`` list by its lines, the ``cmd`` string by its
        # lines: never at an escape), and the last part closes the call.
        assert all(c.text == "\n".join(lines[c.start_line - 1 : c.end_line]) for c in parts)
        assert parts[-1].text.rstrip().endswith(")")
    # Cut at an argument first: the long ``srcs`` list and the genrule's ``cmd`` start parts.
    assert any(c.text.startswith("    srcs = [\n") for c in chunks if c.symbol == "office")
    assert any(c.text.startswith('    cmd = """\n') for c in chunks if c.symbol == "carrier_labels")
    # A string too big for a chunk is cut by its lines, as many as fit in each part: by its
    # children, each ``\\`` escape at a line's end was a piece's edge (a part ended there).
    parts = [c for c in chunks if c.symbol == "carrier_labels"]
    command = next(i for i, c in enumerate(parts) if c.text.startswith('    cmd = """'))
    for part, after in zip(parts[command:], parts[command + 1 :]):
        assert part.size + 1 + len(lines[after.start_line - 1]) > budget, (part.start_line, part.end_line)
    # The definitions cut: a target's head lines end at its name.
    office = next(d for d in list_definitions(prep) if d.symbol == "office")
    assert lines[office.signature_last - 1] == '    name = "office",' and office.signature == 'cc_library(\n    name = "office",'


def test_starlark_a_target_named_after_other_arguments_repeats_its_first_line_and_its_name() -> None:
    # Headed to its name, the ``srcs`` list above it was its head, repeated folded above its parts.
    source = ("cc_library(\n    srcs = [\n" + "".join(f'        "src/bin_{i}.cc",\n' for i in range(12))
              + '    ],\n    name = "late",\n    deps = [":stockcore"],\n)\n')
    [target] = list_definitions(prepare("BUILD", "starlark", source))
    assert (target.symbol, target.kind, target.signature_last) == ("late", "library", 1)
    assert target.signature == 'cc_library(\n    name = "late",'
    chunks = _syntax("BUILD", "starlark", source, unit="chars", budget=200)
    assert len(chunks) >= 3 and all(c.symbol == "late" for c in chunks)
    assert all(c.header == target.signature for c in chunks[1:])
    # Its first part starts at its first argument; its name is in a later part, as written.
    assert chunks[0].text.startswith("cc_library(\n    srcs = [\n") and not chunks[0].header
    assert any('\n    name = "late",\n' in f"\n{c.text}\n" for c in chunks[1:])
# ---- Nix ----------------------------------------------------------------------------------------

_NIX_FLAKE = "polyglot_scripts/nix/flake.nix"
_NIX_MODULE = "polyglot_scripts/nix/modules/stock-api.nix"


def test_nix_files_are_code_and_bindings_are_definitions_by_their_attribute_paths() -> None:
    # ``.nix`` files were text, cut at blank lines; now the grammar's bindings are definitions.
    assert detect_language("flake.nix") == "nix" and isinstance(LANGUAGES["nix"], CodeSpec)
    assert "nix" in CODE_LANGUAGES and fence_language("nix") == "nix"
    prep = _prep(_NIX_MODULE)
    found = {d.symbol: d for d in list_definitions(prep)}
    # Through the module's function and its ``let``: the ``let``'s function, the options (by the
    # path as written, then each option), the config handed to ``mkIf`` and the sets in it.
    assert {(s, d.kind) for s, d in found.items()} >= {
        ("mkExportScript", "function"), ("mkExportScript.query", "function"), ("options.services.stock-api", "attrset"),
        ("options.services.stock-api.port", "option"), ("config", "attrset"), ("config.services.postgresql", "attrset"),
        ("config.systemd.services.stock-api.serviceConfig", "attrset"),
        ('config.services.nginx.virtualHosts."stock.lyon-warehouse.example"', "attrset"),
    }
    # A value, a list, an ``inherit``, an empty set and a function's formals are code.
    assert not {"cfg", "settingsFile", "users.groups.stock-api", "networking.firewall.allowedTCPPorts", "enable"} & {
        s.rsplit(".", 1)[-1] if s.startswith("config.") else s for s in found
    }
    assert "config.users.groups.stock-api" not in found and "config.networking.firewall.allowedTCPPorts" not in found
    lines = prep.doc.text.split("\n")
    assert found["config"].signature == "config = mkIf cfg.enable {" and lines[found["config"].last - 1] == "  };"
    # A curried function's head runs through its formals to the builder's ``{``.
    flake = {d.symbol: d for d in list_definitions(_prep(_NIX_FLAKE))}
    assert flake["outputs.mkPrinterBox"].signature == (
        'mkPrinterBox = aisle: { printer, labelSize ? "100x150", bulky ? false }:\n  lib.nixosSystem {'
    )
    assert flake["outputs.packages"].signature == "packages = forAllSystems (pkgs: {"


def test_nix_a_big_set_is_split_into_its_head_and_its_bindings() -> None:
    prep = _prep(_NIX_MODULE)
    chunks = chunk_document(prep, ChunkSettings(unit="chars", budget=600), "syntax")
    assert_slices_true(prep, chunks)
    assert_lossless(prep, chunks)
    assert_budget(chunks, 600)
    head = next(c for c in chunks if c.symbol == "config")
    assert head.kind == "class_header" and head.text.strip() == "config = mkIf cfg.enable {"
    assert "systemd.services.stock-api" in head.header and "services.nginx" in head.header
    members = {c.symbol: c for c in chunks if c.parent_id == head.id}
    assert {"config.services.postgresql", "config.systemd.services.stock-api", "config.services.nginx"} <= set(members)
    nginx = members["config.services.nginx"]
    assert nginx.kind == "attrset" and nginx.header == "config = mkIf cfg.enable {"
    assert nginx.embed_text.startswith(f"# {_NIX_MODULE} :: config.services.nginx")
    # The flake's outputs: a function whose set's outputs are its nested definitions.
    prep = _prep(_NIX_FLAKE)
    chunks = chunk_document(prep, ChunkSettings(unit="chars", budget=1500), "syntax")
    assert_lossless(prep, chunks)
    by_symbol = {c.symbol: c for c in chunks}
    stock_api = by_symbol["outputs.packages.stock-api"]
    assert (stock_api.kind, stock_api.parts, stock_api.header) == ("derivation", 1, "packages = forAllSystems (pkgs: {")
    assert stock_api.text.lstrip().startswith("# The stock API: bins, stock levels")
    assert by_symbol["outputs.nixosConfigurations"].kind == "attrset"
    assert not any(c.flags or c.fallback for c in chunks)


def test_nix_a_long_function_is_split_into_parts_under_its_signature() -> None:
    prep = _prep(_NIX_MODULE)
    chunks = chunk_document(prep, ChunkSettings(unit="chars", budget=300), "syntax")
    assert_slices_true(prep, chunks)
    assert_lossless(prep, chunks)
    assert_budget(chunks, 300)
    signature = "mkExportScript = { suppliers, outDir, keepDays ? 14 }:"
    parts = [c for c in chunks if c.symbol == "mkExportScript"]
    assert len(parts) >= 6 and [c.part for c in parts] == list(range(1, len(parts) + 1))
    assert all(c.kind == "function" and c.parts == len(parts) for c in parts)
    assert all(c.parent_id == parts[0].id and _under_or_holding(c, signature) for c in parts[1:])
    assert parts[0].text.startswith("  /* The nightly export")
    assert "      '';\n    };\nin" in parts[-1].text  # (the ``let``'s ``in`` closes it)
    # The ``let``'s function in it is its nested definition, split under its own head.
    query = [c for c in chunks if c.symbol == "mkExportScript.query"]
    assert len(query) >= 2 and query[0].parent_id == parts[0].id
    assert all(c.header == "query = supplier:" and c.parent_id == query[0].id for c in query[1:])
    # A shell script in a ``'' ... ''`` string is cut between its lines.
    lines = prep.doc.text.split("\n")
    for c in parts:
        assert c.text.endswith(lines[c.end_line - 1]) and c.text.startswith(lines[c.start_line - 1])


def test_nix_comments_above_a_binding_stay_with_it_and_a_big_list_is_cut_at_its_elements() -> None:
    prep = _prep(_NIX_FLAKE)
    chunks = chunk_document(prep, ChunkSettings(unit="chars", budget=1500), "syntax")
    by_symbol = {c.symbol: c for c in reversed(chunks)}  # (a split one's first part)
    assert by_symbol["outputs.thresholds"].text.lstrip().startswith("/* Stock thresholds shared by the API")
    assert by_symbol["outputs.mkPrinterBox"].text.lstrip().startswith("# A pick station's printer box")
    assert by_symbol["inputs"].text.startswith("  inputs = {")  # (the description is code of the file's)
    # A list too big for a chunk: cut where its elements start, never inside one.
    fetch = '      (fetchurl {{ url = "https://mirror.example/stock-{0}.tar"; hash = "sha256-{0:04d}"; }})\n'
    source = "{\n  stock-api = stdenv.mkDerivation {\n    buildInputs = [\n"
    source += "".join(fetch.format(i) for i in range(12)) + "    ];\n  };\n}\n"
    chunks = _syntax("default.nix", "nix", source, unit="chars", budget=300)
    assert len(chunks) >= 4 and {c.symbol for c in chunks} == {"stock-api"}
    assert all(c.kind in ("class_header", "statements") and not c.flags for c in chunks)  # (the set, split)
    elements = [line for line in source.split("\n") if "fetchurl" in line]
    assert len(elements) == 12
    assert all(sum(element in c.text for c in chunks) == 1 for element in elements)


def test_nix_a_let_in_is_read_through_and_in_closes_its_last_binding() -> None:
    source = (
        "let\n  # The aisles of the Lyon warehouse.\n  aisles = [ \"a01\" \"a02\" ];\n"
        "  mkBin = aisle: n: {\n    name = \"${aisle}-${toString n}\";\n    capacity = 40;\n  };\n"
        "in\n{\n  bins = map (a: mkBin a 1) aisles;\n  stations.a01 = { printer = \"10.20.1.41\"; };\n}\n"
    )
    found = [(d.symbol, d.kind, d.first, d.last) for d in list_definitions(prepare("bins.nix", "nix", source))]
    assert found == [("mkBin", "function", 4, 7), ("stations.a01", "attrset", 11, 11)]
    chunks = _syntax("bins.nix", "nix", source, unit="chars", budget=4000)
    mk_bin = next(c for c in chunks if c.symbol == "mkBin")
    assert "  };\nin\n" in mk_bin.text  # (the ``in`` is no line of the next one's)


# ---- Apex ---------------------------------------------------------------------------------------

_APEX_SERVICE = "polyglot_scripts/apex/StockReservationService.cls"
_APEX_TRIGGER = "polyglot_scripts/apex/OrderReservationTrigger.trigger"
_APEX_TEST = "polyglot_scripts/apex/StockReservationServiceTest.cls"


def test_apex_classes_triggers_and_scripts_are_code_and_a_latex_class_stays_latex() -> None:
    # ``.cls`` and ``.trigger`` files were unknown (``.cls`` is LaTeX's document classes' too):
    # skipped. An Apex ``.cls`` is read by the pack's apex grammar; one whose text is LaTeX's
    # (``%`` comments, ``\NeedsTeXFormat``) and does not parse as Apex is LaTeX, as before it was
    # nothing at all.
    from core.sources import load_bytes

    assert [detect_language(name) for name in ("Foo.cls", "OrderTrigger.trigger", "scripts/apex/seed.apex")] == [
        "apex"
    ] * 3
    assert isinstance(LANGUAGES["apex"], CodeSpec) and "apex" in CODE_LANGUAGES and fence_language("apex") == "apex"
    latex = (
        "%% memo.cls: the warehouse's memo letterhead\n\\NeedsTeXFormat{LaTeX2e}\n"
        "\\ProvidesClass{memo}[2024/03/01 Lyon memos]\n\\LoadClass[11pt]{article}\n"
    )
    assert load_bytes("tex/memo.cls", latex.encode()).language == "latex"
    assert load_bytes("tex/plain.cls", b"\\ProvidesClass{plain}\n\\LoadClass{article}\n").language == "latex"
    apex = "/** A bin. */\npublic with sharing class Bin {\n    public Integer units { get; set; }\n}\n"
    assert load_bytes("classes/Bin.cls", apex.encode()).language == "apex"
    # An Apex class with a typo is still Apex (no TeX in it).
    assert load_bytes("classes/Bin.cls", apex.replace("units {", "units (").encode()).language == "apex"
    for rel in (_APEX_SERVICE, _APEX_TRIGGER, _APEX_TEST):
        prep = _prep(rel)
        assert prep.doc.language == "apex" and not prep.damage.ranges, rel  # (inline SOQL parses too)


_APEX_FORMS = (
    "@RestResource(urlMapping='/stock/*')\nglobal inherited sharing class StockApi {\n"
    "    static { LIMIT_UNITS = 3; }\n    private static Integer LIMIT_UNITS;\n    private final String site;\n"
    "    @HttpGet\n    global static String doGet() { return 'x'; }\n"
    "    @InvocableMethod(label='Reserve' description='Holds stock')\n"
    "    public static List<String> invoke(List<String> xs) { return xs; }\n"
    "    webservice static String legacy() { return ''; }\n"
    "    public StockApi() { this('LYO'); }\n"
    "    void route(Object o) {\n        switch on o {\n            when Account a { System.debug(a); }\n"
    "            when else { }\n        }\n"
    "        List<List<SObject>> found = [FIND 'carton' IN ALL FIELDS RETURNING Product2(Id, Name)];\n"
    "        Map<String, Integer> m = new Map<String, Integer>{ 'a' => 1 };\n    }\n"
    "    public abstract class Base { abstract void go(); }\n"
    "    public virtual class Rush extends Base { public override void go() {} }\n"
    "    public interface Picker extends Comparable { void pick(String bin); }\n"
    "    public enum Level { LOW, HIGH }\n"
    "    transient String note { get; set; }\n"
    "    public static Integer count {\n        get { return count == null ? 0 : count; }\n        private set;\n    }\n"
    "}\n"
)


def test_apex_names_and_kinds_of_classes_members_and_properties() -> None:
    found = [(d.symbol, d.kind) for d in list_definitions(prepare("StockApi.cls", "apex", _APEX_FORMS))]
    # Fields (a static block, ``LIMIT_UNITS``, ``site``) are no definitions; properties are.
    assert found == [
        ("StockApi", "class"), ("StockApi.doGet", "method"), ("StockApi.invoke", "method"),
        ("StockApi.legacy", "method"), ("StockApi.StockApi", "method"), ("StockApi.route", "method"),
        ("StockApi.Base", "class"), ("StockApi.Base.go", "method"), ("StockApi.Rush", "class"),
        ("StockApi.Rush.go", "method"), ("StockApi.Picker", "interface"), ("StockApi.Picker.pick", "method"),
        ("StockApi.Level", "enum"), ("StockApi.note", "property"), ("StockApi.count", "property"),
    ]
    # A trigger is a definition named by its name; anonymous Apex's method a function.
    trigger = "trigger BinTrigger on Stock_Item__c (before insert, after update) {\n    BinRules.check(Trigger.new);\n}\n"
    assert [(d.symbol, d.kind) for d in list_definitions(prepare("BinTrigger.trigger", "apex", trigger))] == [
        ("BinTrigger", "trigger")
    ]
    script = "Integer n = 0;\nvoid bump() { n++; }\nbump();\n"
    assert [(d.symbol, d.kind) for d in list_definitions(prepare("seed.apex", "apex", script))] == [("bump", "function")]


def test_apex_a_class_is_split_into_its_head_and_members_with_annotations_and_doc_comments() -> None:
    prep = _prep(_APEX_SERVICE)
    chunks = chunk_document(prep, ChunkSettings(unit="chars", budget=1500), "syntax")
    assert_slices_true(prep, chunks)
    assert_lossless(prep, chunks)
    assert_budget(chunks, 1500)
    head = next(c for c in chunks if c.kind == "class_header" and c.symbol == "StockReservationService")
    assert head.text.startswith("/**\n * Stock reservations in the Lyon warehouse's Salesforce org.")
    assert "public with sharing class StockReservationService {" in head.text
    assert "public List<Shortfall> shortfalls" in head.header and "public class Shortfall implements Comparable" in head.header
    members = {c.symbol: c for c in chunks if c.parent_id == head.id}
    assert {
        "StockReservationService.shortfalls", "StockReservationService.Shortfall", "StockReservationService.availableBySku",
        "StockReservationService.releaseExpired", "StockReservationService.ShortReason",
    } <= set(members)
    assert all(c.header == "public with sharing class StockReservationService" for c in members.values())
    # A property with accessor bodies is one chunk, its ApexDoc above it.
    shortfalls = members["StockReservationService.shortfalls"]
    assert shortfalls.kind == "property" and shortfalls.text.lstrip().startswith("/** Lines that were held short")
    assert shortfalls.text.rstrip().endswith("private set;\n    }")
    # The annotation and the ApexDoc go with their method; the SOQL query is its statement.
    available = members["StockReservationService.availableBySku"]
    assert available.text.lstrip().startswith("/** The units of each SKU")
    assert "    @AuraEnabled(cacheable=true)\n    public static Map<String, Integer> availableBySku(" in available.text
    assert "GROUP BY Sku__c" in available.text
    # The inner class is whole, its comment above it.
    inner = members["StockReservationService.Shortfall"]
    assert inner.kind == "class" and inner.parts == 1 and inner.text.lstrip().startswith("/**\n     * One line held short")
    # The test class: each ``@isTest`` method a chunk of its own, its annotation first.
    prep = _prep(_APEX_TEST)
    chunks = chunk_document(prep, ChunkSettings(unit="chars", budget=1500), "syntax")
    tests = {c.symbol: c for c in chunks if c.kind == "method"}
    assert tests["StockReservationServiceTest.skipsBlockedBins"].text.lstrip().startswith("@isTest\n    static void")
    assert tests["StockReservationServiceTest.makeBins"].text.lstrip().startswith("// Two bins of the carton")
    assert "@TestSetup\n    static void makeBins()" in tests["StockReservationServiceTest.makeBins"].text


def test_apex_a_long_method_and_a_trigger_are_split_into_parts_under_their_heads() -> None:
    prep = _prep(_APEX_SERVICE)
    chunks = chunk_document(prep, ChunkSettings(unit="chars", budget=800), "syntax")
    assert_slices_true(prep, chunks)
    assert_lossless(prep, chunks)
    assert_budget(chunks, 800)
    signature = "public List<Stock_Reservation__c> reserveOrders(Set<Id> orderIds)"
    parts = [c for c in chunks if c.symbol == "StockReservationService.reserveOrders"]
    assert len(parts) >= 4 and [c.part for c in parts] == list(range(1, len(parts) + 1))
    assert all(c.kind == "method" and c.parts == len(parts) for c in parts)
    assert parts[0].text.lstrip().startswith("/**\n     * Holds the lines of the given orders")
    assert all(c.parent_id == parts[0].id and c.header == signature for c in parts[1:])
    # The ``FOR UPDATE`` query's loop is cut between its statements, never inside the query.
    query = next(c for c in parts if "FOR UPDATE" in c.text)
    assert "for (Stock_Item__c bin : [" in query.text and "ORDER BY On_Hand__c DESC" in query.text
    # A trigger: one definition named by its name, its ApexDoc in its first part, its head
    # (to its events) repeated above the others.
    prep = _prep(_APEX_TRIGGER)
    chunks = chunk_document(prep, ChunkSettings(unit="chars", budget=1500), "syntax")
    assert_lossless(prep, chunks)
    assert_budget(chunks, 1500)
    assert {c.symbol for c in chunks} == {"OrderReservationTrigger"}
    head = "trigger OrderReservationTrigger on Order (before update, after update, before delete, after delete)"
    assert len(chunks) >= 3 and all(c.kind == "trigger" for c in chunks)
    assert chunks[0].text.startswith("/**\n * Holds and gives back stock") and head + " {" in chunks[0].text
    assert all(c.header == head and c.parent_id == chunks[0].id for c in chunks[1:])
    assert chunks[0].embed_text.startswith(f"// {_APEX_TRIGGER} :: OrderReservationTrigger")
# ---- Ada ----------------------------------------------------------------------------------------

_ADA_SPEC = "polyglot_scripts/ada/conveyor-control.ads"
_ADA_BODY = "polyglot_scripts/ada/conveyor-control.adb"
_ADA_SUBUNIT = "polyglot_scripts/ada/conveyor-control-run_shift.adb"


def test_ada_files_are_code_and_definitions_are_named_under_their_package() -> None:
    # ``.adb`` and ``.ads`` files were text, cut at blank lines; now Ada's grammar reads them.
    assert [detect_language(name) for name in ("stock-ledger.adb", "stock-ledger.ads", "PICK.ADB")] == ["ada"] * 3
    assert isinstance(LANGUAGES["ada"], CodeSpec) and "ada" in CODE_LANGUAGES and fence_language("ada") == "ada"
    spec = {d.symbol: d for d in list_definitions(_prep(_ADA_SPEC))}
    assert {(s, d.kind) for s, d in spec.items()} >= {
        ("Conveyor.Control", "package"), ("Conveyor.Control.Parcel", "type"), ("Conveyor.Control.Chute", "type"),
        ("Conveyor.Control.Overflow_Chute", "type"), ("Conveyor.Control.Weight_Grams", "type"),
        ("Conveyor.Control.Carrier", "type"), ("Conveyor.Control.Is_Full", "function"),
        ("Conveyor.Control.Empty", "procedure"), ("Conveyor.Control.Parcel_Queue", "protected"),
        ("Conveyor.Control.Parcel_Queue.Put", "entry"), ("Conveyor.Control.Parcel_Queue.Count", "function"),
        ("Conveyor.Control.Sorter", "task"), ("Conveyor.Control.Sorter.Stop", "entry"),
        ("Conveyor.Control.Beacon", "protected"), ("Conveyor.Control.Beacon.Set", "procedure"),
        ("Conveyor.Control.Smoothing", "package"), ("Conveyor.Control.Smoothing.Current", "function"),
        ("Conveyor.Control.Run_Shift", "procedure"), ("Conveyor.Control.Chute_Of", "function"),
    }
    # Objects, constants and exceptions are code.
    assert not {"Conveyor.Control.Jam_Error", "Conveyor.Control.Belt", "Conveyor.Control.Overflow_Id"} & set(spec)
    assert spec["Conveyor.Control"].signature == "package Conveyor.Control is"
    assert spec["Conveyor.Control.Parcel_Queue"].signature == "protected type Parcel_Queue (Size : Positive) is"
    assert spec["Conveyor.Control.Chute"].signature == "type Chute is tagged record"
    body = {d.symbol: d for d in list_definitions(_prep(_ADA_BODY))}
    assert {(s, d.kind) for s, d in body.items()} >= {
        ("Conveyor.Control", "package"), ("Conveyor.Control.Count_IO", "package"),
        ("Conveyor.Control.Weight_Average", "package"), ("Conveyor.Control.Parcel_Queue", "protected"),
        ("Conveyor.Control.Parcel_Queue.Take", "entry"), ("Conveyor.Control.Parcel_Queue.Clear", "procedure"),
        ("Conveyor.Control.Sorter", "task"), ("Conveyor.Control.Smoothing", "package"),
        ("Conveyor.Control.Smoothing.Push", "procedure"), ("Conveyor.Control.Divide", "function"),
        ("Conveyor.Control.Divert", "procedure"), ("Conveyor.Control.Report", "procedure"),
    }
    assert body["Conveyor.Control"].signature == "package body Conveyor.Control is"
    assert body["Conveyor.Control.Parcel_Queue.Put"].signature == "entry Put (P : Parcel) when Length < Size is"
    assert "Conveyor.Control.Run_Shift" not in body  # (its stub, ``is separate;``, is code)
    # A subunit's body is named as in its parent's, its nested subprograms under it.
    assert [(d.symbol, d.kind) for d in list_definitions(_prep(_ADA_SUBUNIT))] == [
        ("Conveyor.Control.Run_Shift", "procedure"), ("Conveyor.Control.Run_Shift.Full_Chutes", "function"),
        ("Conveyor.Control.Run_Shift.Needs_Overflow", "function"), ("Conveyor.Control.Run_Shift.Tally", "procedure"),
    ]


def test_ada_less_common_declarations_are_named_by_their_specification() -> None:
    source = (
        "package Stock.Ledger is\n   type Ledger is private;\n   type Audited is new Ledger with private;\n"
        "   type Bin;\n   task Watchdog;\n   procedure Reset is null;\n"
        "   function Total (L : Ledger) return Natural is (0);\n"
        "   procedure Clear (L : in out Ledger) renames Reset_All;\n"
        "   generic\n      type Item is private;\n   procedure Swap (A, B : in out Item);\n"
        "   procedure Swap_Bins is new Swap (Natural);\n   function Max_Bin is new Generic_Max (Natural);\n"
        "   Overdraw : exception;\n   pragma Inline (Total);\nprivate\n   type Ledger is tagged null record;\n"
        "   type Bin is record\n      Count : Natural;\n   end record;\nend Stock.Ledger;\n"
    )
    found = {d.symbol: d for d in list_definitions(prepare("stock-ledger.ads", "ada", source))}
    assert [(s, d.kind) for s, d in found.items()] == [
        ("Stock.Ledger", "package"), ("Stock.Ledger.Ledger", "type"), ("Stock.Ledger.Audited", "type"),
        ("Stock.Ledger.Bin", "type"), ("Stock.Ledger.Watchdog", "task"), ("Stock.Ledger.Reset", "procedure"),
        ("Stock.Ledger.Total", "function"), ("Stock.Ledger.Clear", "procedure"), ("Stock.Ledger.Swap", "procedure"),
        ("Stock.Ledger.Swap_Bins", "procedure"), ("Stock.Ledger.Max_Bin", "function"),
    ]  # (the private part's full ``Ledger`` and ``Bin`` too: one symbol each here)
    # A generic subprogram's signature runs through its formals to the line that names it.
    assert found["Stock.Ledger.Swap"].signature == "generic\n   type Item is private;\nprocedure Swap (A, B : in out Item);"


def test_ada_a_package_splits_into_its_head_and_members_and_a_protected_body_into_its_entries() -> None:
    prep = _prep(_ADA_SPEC)
    chunks = chunk_document(prep, ChunkSettings(unit="chars", budget=600), "syntax")
    assert_slices_true(prep, chunks)
    assert_lossless(prep, chunks)
    assert_budget(chunks, 600)
    head = next(c for c in chunks if c.kind == "class_header" and c.symbol == "Conveyor.Control")
    assert head.text == "package Conveyor.Control is" and "members of Conveyor.Control" in head.header
    members = {c.symbol: c for c in chunks if c.parent_id == head.id}
    assert {"Conveyor.Control.Parcel", "Conveyor.Control.Parcel_Queue", "Conveyor.Control.Sorter",
            "Conveyor.Control.Smoothing", "Conveyor.Control.Run_Shift"} <= set(members)
    queue = members["Conveyor.Control.Parcel_Queue"]
    assert (queue.kind, queue.parts, queue.header) == ("protected", 1, "package Conveyor.Control is")
    assert queue.embed_text.startswith(f"-- {_ADA_SPEC} :: Conveyor.Control.Parcel_Queue")
    # ``private`` leads the private part, not the end of the declaration above it.
    assert members["Conveyor.Control.Report"].text.rstrip().endswith("procedure Report (Totals : Shift_Totals);")
    assert any(c.text.startswith("private\n") and c.parent_id == head.id for c in chunks)
    assert chunks[-1].text.rstrip().endswith("end Conveyor.Control;")
    # The package body's protected body, split: its entries and subprograms are its members.
    prep = _prep(_ADA_BODY)
    chunks = chunk_document(prep, ChunkSettings(unit="chars", budget=400), "syntax")
    assert_lossless(prep, chunks)
    assert_budget(chunks, 400)
    queue = next(c for c in chunks if c.kind == "class_header" and c.symbol == "Conveyor.Control.Parcel_Queue")
    assert queue.text.strip() == "protected body Parcel_Queue is"
    entries = {c.symbol: c for c in chunks if c.parent_id == queue.id}
    assert set(entries) == {f"Conveyor.Control.Parcel_Queue.{n}" for n in ("Put", "Take", "Clear", "Count")}
    put = entries["Conveyor.Control.Parcel_Queue.Put"]
    assert (put.kind, put.header) == ("entry", "protected body Parcel_Queue is")
    assert put.text.lstrip().startswith("--  A full queue blocks the shift loop")
    assert not any(c.flags or c.fallback for c in chunks)


def test_ada_a_long_subprogram_is_split_under_its_specification_its_declarations_first() -> None:
    prep = _prep(_ADA_SUBUNIT)
    chunks = chunk_document(prep, ChunkSettings(unit="chars", budget=600), "syntax")
    assert_slices_true(prep, chunks)
    assert_lossless(prep, chunks)
    assert_budget(chunks, 600)
    signature = (
        "procedure Run_Shift\n  (Shift_End        : Time;\n   Parcels_Expected : Natural;\n"
        "   Totals           : out Shift_Totals)\nis"
    )
    parts = [c for c in chunks if c.symbol == "Conveyor.Control.Run_Shift"]
    assert len(parts) >= 5 and [c.part for c in parts] == list(range(1, len(parts) + 1))
    assert all(c.kind == "procedure" and c.parts == len(parts) for c in parts)
    assert all(c.parent_id == parts[0].id and c.header == signature for c in parts[1:])
    # Its comments, the parent's name, its specification and its declarations lead; its
    # subprograms are its nested definitions; its statements follow from ``begin``.
    assert parts[0].text.startswith("--  Each parcel the tunnel reports") and "separate (Conveyor.Control)" in parts[0].text
    assert "   Belt_Speed_Mm_S : constant Positive := 1_200;" in parts[0].text
    nested = [c for c in chunks if c.symbol.startswith("Conveyor.Control.Run_Shift.")]
    assert [c.symbol.rsplit(".", 1)[1] for c in nested] == ["Full_Chutes", "Needs_Overflow", "Tally"]
    assert all(c.parent_id == parts[0].id and c.header == signature for c in nested)
    held = next(c for c in parts if "   Held            : Boolean := False;" in c.text)
    assert held.end_line < nested[0].start_line
    # ``begin`` leads the statements' first part: glued as punctuation, it ended Tally's chunk.
    tally = nested[-1]
    assert tally.text.rstrip().endswith("end Tally;")
    statements = next(c for c in parts if c.start_line > tally.end_line)
    assert statements.text.startswith("begin\n   Totals := (others => <>);")
    assert parts[-1].text.rstrip().endswith("      raise;\nend Run_Shift;")
    assert not any(c.flags or c.fallback for c in chunks)


def test_ada_comments_above_a_definition_stay_with_it() -> None:
    prep = _prep(_ADA_BODY)
    chunks = chunk_document(prep, ChunkSettings(unit="chars", budget=1500), "syntax")
    by_symbol = {c.symbol: c for c in reversed(chunks)}  # (a split one's first part)
    assert by_symbol["Conveyor.Control.Divert"].text.startswith("   --  Swings the paddle of P's chute")
    overriding = next(c for c in chunks if "overriding procedure Empty" in c.text)
    assert overriding.symbol == "Conveyor.Control.Empty" and overriding.kind == "procedure"
    assert overriding.text.startswith("   --  Swapping the overflow cage")
    # The file's own comment, a blank line above its context clauses, is no definition's.
    assert chunks[0].symbol == "<module>" and chunks[0].text.startswith("--  Conveyor control of the Lyon")
    spec = chunk_document(_prep(_ADA_SPEC), ChunkSettings(unit="chars", budget=1500), "syntax")
    by_symbol = {c.symbol: c for c in reversed(spec)}
    assert by_symbol["Conveyor.Control.Sorter"].text.startswith("   --  The sorter: takes parcels off the queue")
    assert by_symbol["Conveyor.Control.Smoothing"].text.startswith("   --  Moving average over the last Window")
    assert "\n   generic\n" in by_symbol["Conveyor.Control.Smoothing"].text


def test_ada_a_generic_package_head_keeps_its_formals_and_no_member() -> None:
    # ``is`` ends a head: it led the first member below it, which a head on its line took in.
    source = (
        "package P is\n\n   --  A moving average over the last readings.\n   generic\n"
        "      type Reading is private;\n      with function \"+\" (A, B : Reading) return Reading is <>;\n"
        "      with function Scale (R : Reading; By : Positive) return Reading;\n   package Smoothing is\n"
        "      procedure Push (R : Reading);\n      function Current return Reading;\n   end Smoothing;\n\nend P;\n"
    )
    chunks = _syntax("p.ads", "ada", source, unit="chars", budget=300)
    heads = [c for c in chunks if c.kind == "class_header" and c.symbol == "P.Smoothing"]
    assert heads and heads[-1].text.rstrip().endswith("   package Smoothing is")
    assert "procedure Push" not in "".join(c.text for c in heads)
    push = next(c for c in chunks if c.symbol == "P.Smoothing.Push")
    assert (push.kind, push.header, push.parent_id) == ("procedure", "package Smoothing is", heads[0].id)
# ---- COBOL --------------------------------------------------------------------------------------

_COBOL = "polyglot_scripts/cobol/PICKPAY.cbl"
_PAY = "PICKPAY.PROCEDURE DIVISION"
_STORAGE = "PICKPAY.DATA DIVISION.WORKING-STORAGE SECTION"


def test_cobol_programs_divisions_sections_paragraphs_and_records_are_definitions() -> None:
    prep = _prep(_COBOL)
    assert prep.doc.language == "cobol" and not prep.damage.ranges
    found = {d.symbol: d for d in list_definitions(prep)}
    assert {(s, d.kind) for s, d in found.items()} >= {
        ("PICKPAY", "program"),
        ("PICKPAY.ENVIRONMENT DIVISION", "division"),
        ("PICKPAY.DATA DIVISION", "division"),
        ("PICKPAY.DATA DIVISION.FILE SECTION.SHIFT-FILE", "file"),
        ("PICKPAY.DATA DIVISION.FILE SECTION.SHIFT-FILE.SHIFT-IN", "record"),
        (_STORAGE, "section"),
        (f"{_STORAGE}.WS-RATES", "record"),
        (f"{_STORAGE}.WS-PICKER-WEEK", "record"),
        (_PAY, "division"),
        (f"{_PAY}.2000-SHIFTS", "section"),
        (f"{_PAY}.2000-SHIFTS.2000-READ-SHIFT", "paragraph"),
        (f"{_PAY}.3000-PAY.3000-CALC-WEEK-PAY", "paragraph"),
    }
    lines = prep.doc.text.splitlines()
    # A paragraph runs from its header to the next paragraph's comments; a section holds its
    # paragraphs; a record its items, to the next 01 (its 05/10 items, its 88 conditions).
    read = found[f"{_PAY}.2000-SHIFTS.2000-READ-SHIFT"]
    assert lines[read.first - 1].strip() == "2000-READ-SHIFT." and lines[read.last - 1].strip() == "END-READ."
    add = found[f"{_PAY}.2000-SHIFTS.2100-ADD-SHIFT"]
    assert lines[add.first - 1].strip() == "2100-ADD-SHIFT." and lines[add.last - 1].strip() == "ADD SR-MISPICKS TO WS-MISPICKS."
    assert found[f"{_PAY}.2000-SHIFTS"].last == add.last
    week = found[f"{_STORAGE}.WS-PICKER-WEEK"]
    assert lines[week.last - 1].strip().startswith("10  WS-GROSS-PAY")
    # 05 items are no definitions of their own; 77 items and ``COPY`` are none either.
    assert not any(s.endswith(("WS-HOURS", "WS-PICKERS-PAID", "SHIFTREC")) for s in found)
    assert found[f"{_PAY}.3000-PAY.3000-CALC-WEEK-PAY"].signature == "3000-CALC-WEEK-PAY."


def test_cobol_a_big_container_is_a_header_and_its_members_and_a_long_paragraph_repeats_its_header() -> None:
    prep = _prep(_COBOL)
    chunks = chunk_document(prep, ChunkSettings(unit="chars", budget=1200), "syntax")
    assert_lossless(prep, chunks)
    assert_budget(chunks, 1200)
    assert not any(c.flags or c.fallback for c in chunks)
    by_id = {c.id: c for c in chunks}
    # The working storage is split into its head (listing its records) and a chunk per record.
    head = next(c for c in chunks if c.kind == "class_header" and c.symbol == _STORAGE)
    assert head.text.strip() == "WORKING-STORAGE SECTION." and "*>   01 WS-RATES" in head.header
    rates = next(c for c in chunks if c.symbol == f"{_STORAGE}.WS-RATES")
    assert rates.kind == "record" and by_id[rates.parent_id] is head
    assert rates.text.startswith("      * Pay rules agreed") and "WS-BONUS-CAP" in rates.text
    # The 60-line paragraph: its parts under its section's head, each after the first under its header.
    parts = [c for c in chunks if c.symbol == f"{_PAY}.3000-PAY.3000-CALC-WEEK-PAY"]
    assert len(parts) >= 2 and all(c.kind == "paragraph" for c in parts)
    assert [c.part for c in parts] == list(range(1, len(parts) + 1))
    # Its comment block above it stays with it.
    assert parts[0].text.startswith("      *----") and "Overtime: hours past 35" in parts[0].text
    assert "       3000-CALC-WEEK-PAY.\n" in parts[0].text
    assert all(c.header == "3000-CALC-WEEK-PAY." and c.parent_id == parts[0].id for c in parts[1:])
    section = by_id[parts[0].parent_id]
    assert section.kind == "class_header" and section.symbol == f"{_PAY}.3000-PAY"
    assert parts[0].embed_text.startswith(f"*> {_COBOL} :: {_PAY}.3000-PAY.3000-CALC-WEEK-PAY\n")
    # A comment right above a statement that ends a record (``COPY``) goes with that statement.
    copy = next(c for c in chunks if "COPY SHIFTREC." in c.text)
    assert "The shift being read" in copy.text and copy.symbol == _STORAGE


def test_cobol_a_big_record_is_cut_between_its_items_under_its_entry() -> None:
    prep = _prep(_COBOL)
    chunks = chunk_document(prep, ChunkSettings(unit="chars", budget=400), "syntax")
    assert_lossless(prep, chunks)
    week = [c for c in chunks if c.symbol == f"{_STORAGE}.WS-PICKER-WEEK"]
    assert len(week) >= 2 and all(c.kind == "record" for c in week)
    assert all(c.header == "01  WS-PICKER-WEEK" for c in week[1:])
    # Cut between items: every part ends on an item's period.
    assert all(c.text.rstrip().endswith(".") for c in week)


def test_cobol_fixed_format_sequence_numbers_and_comments_in_column_7() -> None:
    source = (
        "000100 IDENTIFICATION DIVISION.\n"
        "000200 PROGRAM-ID. AISLES.\n"
        "000300 DATA DIVISION.\n"
        "000400 WORKING-STORAGE SECTION.\n"
        "000500* Bins of one aisle.\n"
        "000600 01  WS-AISLE.\n"
        "000700     05  WS-BIN        PIC X(4) OCCURS 40.\n"
        "000800 PROCEDURE DIVISION.\n"
        "000900*> Counts the bins left to restock.\n"
        "001000 COUNT-BINS.\n"
        "001100     DISPLAY WS-BIN (1) *> the first\n"
        "001200     STOP RUN.\n"
    )
    prep = prepare("AISLES.cbl", "cobol", source)
    assert not prep.damage.ranges
    found = {d.symbol: d for d in list_definitions(prep)}
    assert (found["AISLES.PROCEDURE DIVISION.COUNT-BINS"].first, found["AISLES.PROCEDURE DIVISION.COUNT-BINS"].last) == (10, 12)
    assert found["AISLES.DATA DIVISION.WORKING-STORAGE SECTION.WS-AISLE"].first == 6
    chunks = _syntax("AISLES.cbl", "cobol", source, unit="chars", budget=150)
    paragraph = next(c for c in chunks if c.symbol == "AISLES.PROCEDURE DIVISION.COUNT-BINS")
    assert paragraph.text.startswith("000900*> Counts the bins") and paragraph.kind == "paragraph"
    record = next(c for c in chunks if c.symbol.endswith("WS-AISLE"))
    assert record.text.startswith("000500* Bins of one aisle.") and record.kind == "record"


def test_cobol_broken_code_is_damaged_and_still_lossless() -> None:
    text = (SAMPLES / _COBOL).read_text("utf-8")
    old = "           MOVE WS-PICKER-NAME TO DL-PICKER-NAME\n"
    assert old in text
    broken = prepare(_COBOL, "cobol", text.replace(old, "           MOVE WS-PICKER-NAME TO TO ) DL-PICKER-NAME (\n", 1))
    assert broken.damage.ranges
    chunks = chunk_document(broken, ChunkSettings(unit="chars", budget=600), "syntax")
    assert_lossless(broken, chunks)
    assert_slices_true(broken, chunks)
    assert all(c.fallback is None for c in chunks)
    damaged = {c.symbol for c in chunks if "damaged" in c.flags}
    assert damaged and all(s.startswith(f"{_PAY}.4000-REPORT") for s in damaged), damaged
    assert not any("damaged" in c.flags for c in chunks if c.symbol.endswith("3000-CALC-WEEK-PAY"))


def test_cobol_files_by_extension_and_copybooks_of_records_alone_are_text() -> None:
    from core.sources import load_file

    assert (detect_language("PICKPAY.cbl"), detect_language("pickpay.cob"), detect_language("SHIFTREC.cpy")) == (
        ("cobol",) * 3
    )
    # The grammar reads a program only: a copybook of records alone is cut at blank-line blocks.
    copybook = load_file(SAMPLES / "polyglot_scripts/cobol/SHIFTREC.cpy")
    assert copybook.language == "cobol_copybook"
    prep = prepare(copybook.path, copybook.language, copybook.text)
    chunks = chunk_document(prep, ChunkSettings(unit="chars", budget=700), "syntax")
    assert chunks and all(c.strategy == "text" and not c.fallback for c in chunks)
    assert chunks[0].embed_text.startswith("*> ") and "01  SHIFT-RECORD." in chunks[0].text
    assert_lossless(prep, chunks)
    # The program itself is COBOL's, chunked by its syntax.
    program = load_file(SAMPLES / _COBOL)
    assert program.language == "cobol"


_TS_OVERLOADS = """export function parse(x: string): number;
export function parse(x: number): number;
export function parse(x: string | number): number {
  return Number(x);
}

function g(a: string): void;
function g(a: any) {}

class Cart {
  add(x: string): void;
  add(x: number): void;
  add(x: any) { this.x = x; }
  clear() {}
}

interface Shop {
  buy(x: string): void;
  buy(x: number): void;
  sell(): void;
}
"""


@pytest.mark.parametrize("budget", [60, 120, 2000])
def test_typescript_overloads_are_one_definition_with_their_implementation(budget: int) -> None:
    # Each overload signature was a definition of its own: three ``parse`` chunks, a class
    # summary listing ``add, add, add``.
    defs = {d.symbol: (d.first, d.last) for d in list_definitions(prepare("o.ts", "typescript", _TS_OVERLOADS))}
    assert defs["parse"] == (1, 5) and defs["g"] == (7, 8) and defs["Cart.add"] == (11, 13) and defs["Shop.buy"] == (18, 19)
    chunks = _syntax("o.ts", "typescript", _TS_OVERLOADS, unit="chars", budget=budget)
    for symbol in ("parse", "g", "Cart.add", "Shop.buy"):
        first, last = defs[symbol]
        mine = [c for c in chunks if c.symbol == symbol]
        if not mine:  # held whole by its class's chunk (a big budget)
            assert any(c.start_line <= first and last <= c.end_line for c in chunks), symbol
            continue
        assert [c.part for c in mine] == list(range(1, len(mine) + 1)) and all(c.parts == len(mine) for c in mine), symbol
        assert (mine[0].start_line, mine[-1].end_line) == (first, last), symbol
    for header in (c for c in chunks if c.kind == "class_header" and c.symbol == "Cart"):
        assert "add(x: any)" not in header.header and header.header.count("add(") <= 1


def test_cpp_a_function_defined_by_its_namespaces_name_is_a_function_not_a_method() -> None:
    source = ("namespace shop {\nint twice(int x);\nnamespace detail { int three(int); }\nclass Cart { int total(); };\n}\n\n"
              "int shop::twice(int x) {\n    return x * 2;\n}\n\nint shop::detail::three(int x) { return 3 * x; }\n\n"
              "int shop::Cart::total() { return 0; }\n\nvoid Matrix::multiply() {}\n")
    kinds = {d.symbol: d.kind for d in list_definitions(prepare("q.cpp", "cpp", source))}
    assert kinds["shop.twice"] == kinds["shop.detail.three"] == "function"
    assert kinds["shop.Cart.total"] == kinds["Matrix.multiply"] == "method"  # a class's, defined outside it
    # Read from the tree, not the text: a macro beside the name (libstdc++'s own namespace) is
    # still a namespace, and the word in a comment declares none.
    source = ("namespace std _GLIBCXX_VISIBILITY(default)\n{\n  int helper(int x);\n}\n\n"
              "// namespace shop { was here once }\n\nint std::helper(int x) {\n  return x + 1;\n}\n\n"
              "int shop::twice(int x) {\n  return x * 2;\n}\n")
    kinds = {d.symbol: d.kind for d in list_definitions(prepare("std.cpp", "cpp", source))}
    assert (kinds["std.helper"], kinds["shop.twice"]) == ("function", "method")


def test_the_part_that_holds_a_signature_below_its_annotations_does_not_repeat_it_above() -> None:
    # Annotations filled part 1; part 2 was the signature line alone under a header of the same
    # line (208 of 250 characters, the signature twice and no statement).
    parts = [c for c in _syntax("dup.kt", "kotlin", ANNOTATED_KOTLIN, unit="chars", budget=250) if c.symbol == "summarize"]
    holding = next(c for c in parts if c.text.startswith("fun summarize("))
    assert holding.header == "" and "var total = 0" in holding.text
    assert not any(c.header and c.text.startswith(c.header) for c in parts)


def test_the_ends_of_the_classes_around_a_split_ruby_method_are_no_parts_of_it() -> None:
    # ``tax``'s last part was the ``end``s of Invoice and the module, its third the ``end`` of
    # Line: the class's ``end`` was glued to its last method as Scala 3's ``end name`` is.
    source = ("module Shop::Billing\n  class Invoice\n    class Line\n      def total\n        1\n      end\n\n"
              "      def tax\n        2\n      end\n    end\n  end\nend\n")
    for budget in (60, 75):
        chunks = _syntax("names.rb", "ruby", source, unit="chars", budget=budget)
        tax = [c for c in chunks if c.symbol == "Shop.Billing.Invoice.Line.tax"]
        assert (tax[0].start_line, tax[-1].end_line) == (8, 10), [(c.start_line, c.end_line) for c in tax]
        closers = [c for c in chunks if c.start_line > 10]
        assert closers and all(c.kind == "statements" and not c.symbol.endswith(".tax") for c in closers)
