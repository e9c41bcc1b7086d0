"""Language knowledge as data: one frozen spec per language, no per-language branches elsewhere.

Adding a language is one :class:`CodeSpec` (or :class:`TextSpec`) entry in ``LANGUAGES``, one
sample file and one parametrized test case. Node type names are tree-sitter-language-pack 0.13's.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from pathlib import PurePosixPath

from core.errors import SettingsError

_COMMENTS = frozenset({"comment", "line_comment", "block_comment", "multiline_comment"})


# Headers' ``extern "C"`` wrappers as macros: glibc's and the BSDs', GLib's, gnulib's.
_C_DECLS_MACROS = ("__BEGIN_DECLS", "__END_DECLS", "G_BEGIN_DECLS", "G_END_DECLS", "BEGIN_C_DECLS", "END_C_DECLS")
# Prototypes' parameter lists for pre-ANSI compilers: zlib's, glibc's and the BSDs' old, GNU
# binutils', libpng's, Tcl's.
_ARGUMENT_MACROS = ("OF", "__P", "PARAMS", "_PROTO", "PNGARG", "_ANSI_ARGS_")
# Microsoft's source annotations (SAL): ``_In_``, ``_Out_opt_``, ``_In_reads_bytes_(cb)``,
# ``_Success_(return != 0)``, ``_IRQL_requires_max_(x)``: an underscore, one of SAL's first
# words, more words, an underscore. Whole names: the edges are checked after the first ``_``, so
# that the search scans for it. (Not any ``_Name_``: X11's include guards, ``_Event_h_``, and
# libstdc++'s ``_M_insert_`` are names of that shape.)
_SAL_WORDS = (
    "In Out Inout Outptr Outref COM Deref Ret Pre Post Success Check Must Use Printf Scanf Frees When Field Struct "
    "Null NullNull Analysis Acquires Releases Requires Guarded Write Interlocked IRQL Kernel Dispatch Reserved "
    "Notnull Maybenull Readable Writable Literal Notliteral Always On Return Result Points Function Raises Maybe "
    "Unchanged Strict Translates Called Valid Notvalid Satisfies At Group Benign"
).split()
# Linux's annotations for its checker, sparse, which stand for nothing to a compiler: ``char
# __user *buf``, ``void __iomem *base``, ``typedef unsigned __bitwise gfp_t``.
_SPARSE_WORDS = "user iomem rcu percpu force kernel bitwise nocast safe".split()
_ANNOTATION_NAMES = r"(?:" + "|".join(_SAL_WORDS) + r")(?:_[A-Za-z0-9]+)*_|_(?:" + "|".join(_SPARSE_WORDS) + r")"
_ANNOTATIONS = r"_(?<![\w$]_)(?:" + _ANNOTATION_NAMES + r")(?![\w$])"
# CUDA's words its grammar does not know, read as those annotations are: ``__align__(16)`` on a
# struct or an array (a macro for ``__attribute__((aligned(16)))``), the launch bounds of
# Hopper's kernels (``__cluster_dims__(2, 1, 1)``, ``__maxnreg__(32)``), and an extended
# lambda's ``__device__`` (``[] __device__ (float x) {...}``, ``[=] __host__ __device__``), right
# after its ``]``: its parameter list is read as its argument, the lambda as one without any.
_CUDA_ANNOTATIONS = (
    r"_(?<![\w$]_)(?:" + _ANNOTATION_NAMES + r"|_(?:align|cluster_dims|maxnreg)__"
    r"|_(?:(?<=\]__)|(?<=\][ \t]__))(?:host|device)__(?:[ \t]+__(?:host|device)__)?)(?![\w$])"
)
# Qt's words in a class's access labels (``public slots:``, ``signals:``), and what they stand
# for: the grammar knows neither.
_QT_LABEL_WORDS = {"slots": "", "Q_SLOTS": "", "signals": "public", "Q_SIGNALS": "public"}
# The Windows API's calling conventions and import macros: words in a declaration's head that
# are never its type (``DWORD WINAPI ThreadProc(LPVOID p)``, ``WINBASEAPI BOOL WINAPI
# CloseHandle(HANDLE h);``, MFC's ``afx_msg void OnPaint();``).
_WINDOWS_HEAD_MACROS = frozenset(
    {
        "WINAPI", "WINAPIV", "APIENTRY", "APIPRIVATE", "CALLBACK", "PASCAL", "NTAPI", "WSAAPI",
        "STDMETHODCALLTYPE", "STDMETHODVCALLTYPE", "STDAPICALLTYPE", "STDAPIVCALLTYPE", "WINBASEAPI",
        "WINUSERAPI", "WINGDIAPI", "WINADVAPI", "NTSYSAPI", "NTSYSCALLAPI", "DECLSPEC_IMPORT", "afx_msg",
    }
)  # fmt: skip


@dataclass(frozen=True)
class CodeSpec:
    """How the syntax chunker reads one tree-sitter grammar.

    - ``functions``: definitions whose body is statements (split statement by statement);
    - ``containers``: definitions whose body holds members (split into header plus members);
    - ``wrappers``: nodes around a definition that belong to it (decorators, ``export``,
      ``template<...>``, ``const f = () => ...``);
    - ``transparent``: nodes whose children are read as if at the enclosing level
      (``#ifndef`` guards, ``extern "C" {}``);
    - ``attached``: sibling nodes that belong to the definition right after them when no blank
      line separates them (comments, Rust attributes);
    - ``name_fields``: fields tried in order for a definition's name; ``receiver_field`` names the
      field whose type qualifies a method (Go receivers, Kotlin extension receivers);
      ``qualifiers``: per definition type, the field whose text qualifies its name (Ruby's
      ``def self.settings`` is ``self.settings``, as a method of ``class << self`` is), or per
      type of a wrapper around it (Ada's subunit, ``separate (Conveyor.Control)`` then
      ``procedure Run_Shift ... is``, holds ``Conveyor.Control.Run_Shift``);
      ``trait_fields``: per definition type, the field naming the trait it implements (Rust's
      ``impl Display for Error`` is ``<Error as Display>``, as Rust's own paths write it, so its
      ``fmt`` is not ``Debug``'s); ``methods_in``: containers whose members are methods though
      their kind is a namespace's
      (a Ruby module is a mixin: its ``def``s are instance methods);
      ``selectors``: definitions named by their selector, each keyword before a parameter
      followed by ``:`` (Objective-C's ``- (void)restock:(NSString *)sku count:(NSInteger)n`` is
      ``restock:count:``, not ``restock:``'s namesake);
      ``name_separators``: tokens in a qualified name that join its parts as ``.`` does (Lua's
      ``function Account:deposit`` is ``Account.deposit``); ``method_marks``: what in a
      function's own name makes it a method written outside its class (C++'s ``void
      Matrix::multiply()``, read as ``Matrix.multiply``; in Lua only ``:``, as ``function
      M.new()`` is a module's function);
    - ``body_types``: node types that hold a body when the grammar has no ``body`` field;
      ``body_hosts``: child types looked through for one (Go's ``struct_type``), through the
      hosts they hold in turn (Verilog's ``always @(posedge clk) begin``: ``statement`` >
      ``statement_item`` > the timing control > its statement > ... > the ``begin`` block);
      ``body_paths``: per definition type, the child types down to a body it has none of its own (Kotest's
      ``class CartSpec : DescribeSpec({ describe("a cart") { ... } })``: its constructor's lambda);
    - ``sibling_bodies``: head node types whose body is not their child but the sibling right
      after them, of the type given (Dart's ``Widget build(BuildContext context)`` then its
      ``function_body``, ``{ ... }`` or ``=> expr;``): the head (or the definition it wraps) and
      that sibling are one definition, named and kinded from the definition, its signature the
      head's text, its body the sibling's block (one of ``body_types``) or the sibling itself;
    - ``kinds``: Chunk ``kind`` for node types that are neither plain functions nor classes;
    - ``name_formats``: node types named from one field through a format (``operator {}``);
      ``name_after``: node types named from the child right after a token of theirs, through a
      format (Dart's ``V operator +(V o)`` is ``operator +``; its named constructor
      ``Cart.fromJson(...)`` is ``fromJson`` after the ``.``, in ``Cart``'s breadcrumb);
      where the token is missing, the name is found as any is; ``name_prefixes``: tokens right
      before a definition's ``name`` that are part of its name (MATLAB's property accessors,
      ``function set.Price(obj, v)`` and ``function v = get.Price(obj)``, are ``set.Price`` and
      ``get.Price``: both were ``Price``);
    - ``scoping``: definitions that, without a body, scope the declarations after them
      (file-scoped namespaces: ``namespace Shop.Orders;``); one is itself in no namespace
      before it, with a body or without (Perl's ``package main;`` or ``package Shop::Price {``
      after ``package Shop::Cart;``);
    - ``assignments``: wrappers that define a name by assigning to it, what is assigned in
      their ``assigned_field`` (``exports.parse =
      function``, ``square = lambda x: ...``); in a function's body they stay statements;
    - ``naming_wrappers``: wrappers whose name is the definition's before its own (``const f =
      x => x`` is ``f``, not the ``x`` inside; ``exports.get = function fetch()`` is
      ``exports.get``; an object's ``"key": function`` is its key);
    - ``self_bodies``: containers that are their own body (a JavaScript object literal of
      methods: ``module.exports = { parse() {...} }``, a Lua table of functions, Scala 3's
      ``extension (s: String)`` whose ``def``s are its own children); such a node is a
      definition only when one of its members is, and without a wrapper around it its
      signature is its text before its first member;
    - ``nameless``: definitions without a name of their own, which are definitions only where
      a naming wrapper names them through one of ``name_fields`` (R's ``function(x)``, whose
      ``name`` field is its keyword: ``total <- function(x)`` and a list's ``total = function(x)``
      are definitions, the function in ``lapply(xs, function(x) ...)`` is not; a call's
      arguments are a class's only when assigned, ``Shop <- R6Class("Shop", ...)``);
    - ``own_bodies``: definitions whose node is their body, always definitions (a Swift
      computed property's ``{ get {...} set {...} }``, named and headed by the declaration
      around it): split, their accessors are their parts under the declaration's signature;
      ``head_ends``: per such definition type, the token (or node) of its own that ends its head (Zig's
      ``pub const Item = struct {``: the ``ContainerDecl``'s fields and ``Decl``s are its own
      children after its ``{``), which then starts at a keyword before it on its line (``pub``);
      for a definition with a body of its own, the token (or node) its repeated signature ends
      with, its head still running to its body (MATLAB's ``function plan = plan(ledger, opts)``:
      its help text and its ``arguments`` block, between its parameters and its ``block``, lead
      its first part and are not repeated above the others). Either may be several tokens, the
      first of them in that order that it has (VHDL's process heads end at the ``)`` of their
      sensitivity list, else at ``process``);
      ``line_heads``: such definitions whose signature, repeated above their members, is their
      first line (Objective-C's ``@interface Store : NSObject <Pricing>``, PowerShell's ``class
      Store : Base {``): their members start on the lines below, no node holds them together;
      ``help_heads``: such definitions whose signature is their first line (and the lines
      that continue it) and whose head runs on over the comment that starts right under it,
      their help text (MATLAB's ``classdef``: what ``help StockLedger`` prints); their members
      start after it. (Read as a comment above the first member, the help went with the first
      method when no ``properties`` block stood between; and members were read from the first
      definition, none when all of them are in ``methods`` blocks);
    - ``uncommented_heads``: the lines of comments inside a definition's head are no part of its
      repeated signature (PowerShell's comment-based help between ``function Sync-Stock {`` and
      its ``param(...)`` block, which is the signature a reader wants above each part);
    - ``needs_body``: definitions that define nothing without a body (C's ``struct sockaddr_in
      addr;`` names a type for a variable; ``struct node;`` only declares one);
      ``bodiless_wrappers``: definitions that, without a body, are wrappers (also listed in
      ``wrappers``) of what they hold: Zig's ``Decl`` is a function with its ``Block`` (``fn
      add() i32 {...}``) and, without one, a declaration around a container (``const Item =
      struct {...};``) or an ``extern fn`` prototype;
    - ``calls``: calls whose argument is the definition a name is given to (``const Button =
      memo(function Button() {...})``, ``forwardRef((props, ref) => ...)``): followed into
      their arguments only under a wrapper that names the definition, and never in a function's
      body (there ``const total = items.map(x => ...)`` is a statement, not a definition);
    - ``anonymous_names`` also names a definition by a wrapper that holds it (``export default
      () => ...`` is ``default``);
    - ``keyword_kinds``: a keyword token in a definition that gives its kind (Kotlin writes
      ``interface Shape`` and ``enum class Color`` as class declarations); ``keyword_names``:
      definitions without a name of their own named by the kind that keyword gives (Solidity's
      ``receive() external payable {}`` and ``fallback() external {}``, one node type with no
      name field; before 0.6, ``function() external payable {}`` is the fallback);
      ``child_kinds``: per definition type, the kind a named child of a type given makes it
      (Ada writes a procedure and a function as one ``subprogram_body``, whose
      ``procedure_specification`` or ``function_specification`` says which);
    - ``label_types``: a definition's labels, which name it joined by dots, their quotes off
      (HCL's ``resource "aws_s3_bucket" "assets"`` is ``aws_s3_bucket.assets``, as Terraform
      addresses it); a definition without labels is named as any is; ``named_kinds``:
      definitions whose kind is the first word of their name-type child (HCL's block type:
      ``resource``, ``variable``, ``module``; Zig's ``enum(u8)``: ``enum``; CSS's at-rule
      keyword, its ``@`` off: ``@layer`` is a ``layer``);
    - ``head_names``: definitions named by their whole head, the text before their body on one
      line (CSS's rule set by its selectors as written, ``.card .title, .card > h2``, however
      many lines they take, their dots and ``::`` kept; ``@media (max-width: 600px)``); one that
      is its own body is named by its text to its ``head_ends`` token, one without a body by its
      first line; ``labelled_heads``: such definitions named by their label when they have one,
      their own or their body's (VHDL's ``sample : process (clk)`` is ``sample``, Verilog's
      ``always_ff @(posedge clk) begin : count`` is ``count``, the name of its block), by their
      head when they have none (``process (clk)``, ``always_ff @(posedge clk)``);
    - ``path_separator``: what joins a nested definition's breadcrumb parts (``.`` but where
      names hold dots themselves: CSS's ``@media (max-width: 600px) » .card .title``, SCSS's
      ``.card » &:hover``);
    - ``docstrings``: statements that are a docstring when a string is all they hold (Python's
      ``expression_statement``): a class's first is its head's, however long;
    - ``comment_hosts``: nodes whose grammar takes in the comments after them, about what
      follows (Kotlin's ``import_list`` and ``package_header`` hold the doc comment of the
      class below them): where one ends with a comment it is read through its children, so
      the comment goes with the definition below; ``tail_comments``: definitions that take in
      the comments after their code when nothing closes them (MATLAB's functions written
      without ``end``, one running on to the next ``function``: the help of the one below, a
      ``%%`` section's title are the last children of its block): those from the first that
      starts its line under a blank line are read as the definition's next siblings, and it
      ends on its code (a comment right under its last statement stays its own);
    - ``blank_tokens``: tokens of whitespace the grammar keeps (MATLAB's newlines, which end
      its statements): in no unit, as the blank they are (a comment with the newline after it
      was no comment alone: not moved down to the code right under it, nor a leading part);
    - ``cell_marks``: how a comment that opens a cell starts, in the language's own editor
      (MATLAB's ``%% Load the export``, a section run alone): loose code is cut where a cell
      starts, as in a notebook's script of ``# %%`` cells;
    - ``annotation_holders``: statements that are an annotation the grammar did not attach
      (Kotlin reads a file-level ``@Suppress("X")`` above a ``fun`` as a ``prefix_expression``):
      one that starts with an ``annotation`` (or a node of ``annotation_starts``: Groovy's
      ``decorate``, ``@Override`` alone on its line, a ``command`` of its own, when it defines
      nothing itself) goes with the definition below, as a decorator;
    - ``member_declarations``: members that declare a method without defining it, listed in
      a split class's member summary like the methods defined there (C++'s ``bool push(const
      Order&);``, with the declarator type it must hold; Go's interface methods);
    - ``prototypes``: statements that declare a function without defining it, with the
      declarator type that must hold the declared name itself (C's ``SQLITE_API int
      sqlite3_open(const char *filename, sqlite3 **ppDb);``, ``char *getenv(const char *);``
      through its pointer, behind ``__attribute__`` or an export macro). At a file's level and
      in what is read as that level (``extern "C" {}``, ``#ifdef`` blocks: ``transparent``), and
      in a namespace, each is a definition of kind ``function`` named after the function, with
      the comment right above it, as a header's reader looks a function up: its doc comment
      stands there, where a definition's does. A variable is none (``extern int errno;``, ``void
      (*on_full)(int);``: the name is held by a pointer, the pointer by the function
      declarator); in a class body such a statement stays a member declaration (listed by
      ``member_declarations`` in the class's header), in a function's body a statement;
    - ``opens_error_root``: a root that is itself an ERROR, or an ERROR child of the root (below
      a licence comment), is measured and chunked through its children (see
      :func:`core.parsing.find_damage`, :func:`core.parsing.top_level_nodes`): in C and C++ the
      preprocessor's ``#ifdef`` blocks make such roots of sound code, in Rust unstable syntax
      (``pub macro``); in other grammars a root ERROR is garbage;
    - ``unclosed_closer``: the closer a file missing one above is read whole as one ERROR for,
      where the grammar supplies none at the end (Ruby's ``end``): the parse writes it after the
      text to find the block it closes, and mends where it went missing
      (:func:`core.parsing._unclosed_block`). Set per language: some grammars never return on
      such a trial (COBOL's);
    - ``comment_macros``: macros the grammar cannot read, which stand for nothing a chunk needs
      (glibc's ``__BEGIN_DECLS``: ``extern "C" {`` in C++, nothing in C): the parser reads
      each as a ``/* */`` comment of its length (no offset moves; as a comment its line is
      still in a chunk, with the definition below it); the chunks keep their text;
    - ``docs_after``: how a comment starts that documents what stands above it (Haddock's
      ``-- ^``): on the line after a definition, or its last, it is that definition's;
    - ``docs_below``: a prototype's documentation may stand right below it (zlib documents
      each function under its prototype): a comment that starts on the line after a prototype
      with no comment above it, and has a blank line after it, is that prototype's;
    - ``enum_macros``: macros that declare an enum from its underlying type and its name
      (Foundation's ``typedef NS_ENUM(NSInteger, Tier) {...};``, ``NS_OPTIONS``, CoreFoundation's
      ``CF_ENUM``): the parser reads each as ``enum Tier`` (``enum``, spaces, the name where it
      stands), as the grammar does not know them (every such enum was an ERROR); the chunks
      keep their text;
    - ``argument_macros``: macros that stand for their argument, a parameter list in double
      parentheses, in headers written for compilers without prototypes too (zlib's
      ``ZEXTERN int ZEXPORT deflate OF((z_streamp strm, int flush));``, glibc's older
      ``__P((...))``, ``PARAMS``, ``_PROTO``, libpng's ``PNGARG``, Tcl's ``_ANSI_ARGS_``): the
      parser reads the macro's name and outer parentheses as spaces, so the declarator is a
      function's (a prototype: see ``prototypes``); the chunks keep their text;
    - ``trailing_macros``: names of the implementation's (``__THROW``, ``__wur``, ``__nonnull
      ((1))``) or in capitals (``G_GNUC_CONST``), with their arguments, between a prototype's
      parameter list and its ``;`` (glibc's every prototype) are read as spaces of their length:
      the grammar read each such prototype as an ERROR (``stdio.h`` fell back to fixed windows);
      the chunks keep their text. A cast (``return (int) EOF;``) is no parameter list;
    - ``head_macros``: macros in a declaration's head, before its type (SQLite's ``SQLITE_API
      int sqlite3_open(...);``, zlib's ``ZEXTERN``, libxml2's ``XMLPUBFUN``, ``CURL_EXTERN``,
      Python's ``Py_DEPRECATED(3.9)``) or between it and the name (``ZEXPORT``, ``XMLCALL``,
      ``FAR``), are read as spaces of their length, on a line where a declaration may start:
      the grammar took the macro for the type and the type for an error, flagging every such
      prototype ``damaged``. A macro is a name in capitals (after a short prefix: ``Py_``),
      with its argument if any; only when the head's type is known otherwise: a built-in
      type, a tag's, the one word not in capitals (``sqlite3_int64``, ``xmlChar``), the word
      before a ``*`` (``CURL *``). ``FILE *f;``, ``BOOL ok;`` have no macro, and ``DWORD WINAPI
      f(void);`` is left as it is (either word may be the type) unless one of them is in
      ``never_types``; the chunks keep their text;
    - ``never_types``: macros in capitals that are never a declaration's type (the Windows
      API's ``WINAPI``, ``CALLBACK``, ``WINBASEAPI``): with them known, ``DWORD WINAPI
      ThreadProc(...) {`` has one type left, ``DWORD``, and its head is read (it was flagged
      ``damaged``, the grammar taking ``WINAPI`` for the name);
    - ``head_keywords``: names reserved to the implementation that are keywords of the
      grammar's own (CUDA's ``__global__``, ``__device__``, ``__host__``, ``__shared__``,
      ``__launch_bounds__(256)``), passed over by ``head_macros`` as ``static`` is. Read as
      C++'s spec reads an unknown ``__owur`` before a known type, as a macro, they were
      spaces to the parser: a kernel lost the word that makes it one, and its repeated
      signature lost it too;
    - ``annotations``: a regular expression of whole names read as spaces wherever they stand, with
      their parenthesised argument if any (Microsoft's SAL: ``_In_ HINSTANCE hInstance``,
      ``_In_reads_bytes_(cb) const BYTE *pb``; Linux's ``char __user *buf``): the grammar took
      each for a type, and every function of a Visual Studio project's template, every
      kernel function taking a user pointer, for an error; the chunks keep their text. (GLSL's
      precision qualifiers and statements the C-derived grammar does not know, too, and CUDA's
      ``__align__(16)`` and an extended lambda's ``__device__``);
    - ``label_words``: words of a class's access labels the grammar does not know, and what
      they stand for, written in their place (Qt's ``public slots:`` is ``public:``,
      ``signals:`` is ``public:``): the members below them were ``damaged``; only in a label,
      so that a variable named ``slots`` stays one; the chunks keep their text;
    - ``class_macros``: an upper-case macro between ``class`` (``struct``, ``union``) and the
      name of a class being defined (an export macro: ``class U_COMMON_API Name : public
      Base {``, ``class V8_EXPORT Isolate {``) is read as spaces of its length: the grammar
      took it for the name, and the name for the start of a declarator;
    - ``macro_lines``: every upper-case identifier alone on its line is such a macro too
      (``_GLIBCXX_BEGIN_NAMESPACE_VERSION``, ``Q_OBJECT``, ``_GLIBCXX20_CONSTEXPR`` above a
      template), read as a ``//`` comment of its length, except above a line that opens a
      function declarator, where it is the function's return type (``BOOL`` over
      ``init_window(...)``), and within code (the line above ends open: a parameter's type,
      an operand). The grammar read such a line as a type or a declaration: the definition
      after it was named after the macro or lost in a parse error. When reading them so leaves
      most of a file in error, the file as written is parsed (:func:`core.parsing.parse`);
    - ``line_nodes``: nodes that, too big for a chunk, are cut by their lines, not by their
      children (CMake's bracket comment ``#[[ ... ]]``, whose ``#[[`` and ``]]`` are children on
      lines of their own: cut by its children, each was a chunk alone);
    - ``packed_members``: containers whose members are packed together up to the budget, as
      with ``merge_siblings``, when the container is split (Rust's ``extern "C" {...}`` of
      one-line foreign functions: a chunk each was ~200 characters of signature);
    - ``doc_comments``: how a documentation comment starts (``/**``, ``///``): one belongs to
      the definition below it across blank lines too (the JDK's class javadocs stand a blank
      line above their class), where another comment must touch it, unless a tag says it is
      about its file or a group (``@file``, ``@license``, Doxygen's ``@{``, ...). Not PHP's: its
      file-level docblock stands a blank line above whatever comes first, often a function; nor
      C's and C++'s, whose Doxygen groups and banners stand apart from the definitions below.
      Any ``attached`` node may be one (Perl's POD, ``=head2 total`` ... ``=cut``, a node of
      its own a blank line above its ``sub``);
    - ``free_wrappers``: wrappers that make the function they hold no member of the class it
      is written in (C++'s ``friend Vec operator+(...) {...}``): kind ``function``, its
      breadcrumb still the class's, where it is written and found;
    - ``guards``: statements (and their clauses and blocks) that, at module or class level,
      are opened when they hold a definition: their definitions are the level's own, their
      heads (``if sys.version_info >= (3, 12):``, ``except ImportError:``) go with the
      definition below them as a decorator does (Python's ``if TYPE_CHECKING`` branches and
      ``try``/``except ImportError`` fallbacks); ``guard_bodies``: their blocks, which a head
      stands before (a block itself has none: its first statements are no head, even before a
      nested ``if``);
    - ``accessors`` and ``properties``: a property declaration with an accessor is a
      definition (kind ``property``); an accessor on the lines after it, which a grammar may
      leave beside the declaration rather than in it (Kotlin's ``var x = 0`` then ``set(v)
      {...}``), joins it; ``name_holders``: children whose own name child names the node
      (Kotlin's ``variable_declaration`` in a property);
    - ``registrations``: calls that hand a block of code to something under a label, read as
      definitions of kind ``callback``: a test's ``describe('cart', () => {...})`` or ``it "adds"
      do ... end``, a route's ``app.post('/users', (req, res) => {...})`` or ``get '/x' do``, a
      Rake ``task :seed do``, an ASP.NET minimal API's ``app.MapGet("/x", () => {...})``. A
      call is one when its first argument is a label (one of ``registration_labels``: a string,
      a symbol, a constant) and its callback (the call's ``block``, else its last argument that
      is a function, through ``argument_wraps``) is one of ``callbacks`` with a ``body`` of
      statements (``callback_bodies``). It is named ``callee(label)``, and calls chained after
      it are its own (``->name('x')``, ``.timeout(5000)``). Such calls count at module and class
      level, not when what they return is given a name (``const off = bus.on('x', ...)``), and
      among statements only in another's body and only when their callee's first or last word
      is one of ``suite_calls`` (``describe`` > ``it``, tape's ``test`` > ``t.test``, Rake's
      ``namespace`` > ``task``): in a test's body, as in a function's, ``stream.on('data',
      ...)`` is one of its statements. At a file's top level a group needs no label: a callback
      that is the only argument of a call chained on a labelled one
      (``Route::middleware('auth')->group(function () {...})``), or Ruby's block on a constant
      (``Rails.application.routes.draw do``). A callback that registers more is split as a
      class is: its head lists what it holds. ``call_suffix``: the node after a call's callee
      that holds its ``value_arguments`` and its trailing lambda, in grammars whose calls have
      no fields for them (Kotlin's and Swift's ``test("adds") { ... }``);
    - ``function_suites``: suite calls count among a plain function's statements too, and a
      function that holds them is split as a suite. Go keeps all code in functions: its
      subtests (``t.Run("empty cart", func(t *testing.T) {...})``) are a test function's units;
    - ``local_statements``: definitions that are plain statements in a function's body (Go's
      ``type testCase struct {...}`` at the top of a test: the test's own code, not a type of
      the package); in a Lisp (``argument_lists``) one of kind ``function`` stays a nested
      definition (Scheme's ``(define (helper x) ...)`` in a ``define``, where ``(define total
      0)`` is a local variable, a statement);
    - ``iife_wraps``: nodes around a function called where it is written (``(function (root)
      { ... })(this);``, ``!function () {...}()``, UMD's factory argument): at a file's top level
      such a statement is opened, and the definitions inside are the file's own (older
      JavaScript's module pattern held a whole library in one);
    - ``name_paths``: where no field holds a definition's name, nodes gone down through, first
      named child after first named child, to it: a name type there, or a ``name_fields`` field
      of a node on the way (Julia's ``function restock!(item)``: ``signature`` >
      ``call_expression`` > ``identifier``, through ``where_expression`` and a return type's
      ``typed_expression``; Haskell's infix ``a <+> b = ...``: ``infix``'s ``operator``); a
      definition without a body has its signature to the line of the name found so (Ada's
      ``generic``, its formals, then ``procedure Swap (A, B : in out Item);``);
      ``path_skips``: named children passed over on that way, as if they were not there
      (CMake's ``function`` keyword, a named node before ``function(restock sku)``'s
      arguments, the first of which is the name); ``call_heads``: definitions that are one
      only when that way passes a node of the type given (Julia's one-line ``total(xs) =
      sum(xs)`` is an ``assignment`` whose left side is a call; ``rate = 0.2`` is a statement);
    - ``body_openers``: a keyword that is the first token of a body (one of ``body_types``) is
      the body's, on its head's line, not a keyword leading the first member (OCaml's ``module
      Stock = struct``, ``sig``, ``object``; as Elixir's ``do`` always is); so is, in a
      definition that is its own body, the keyword that ends its head (``head_ends``: F#'s
      ``with`` of ``interface IPriced with``) or the one right after that token (``type Cell =
      struct``);
    - ``closing_keywords``: keywords that, as ``end`` does, close the definition before them and
      never lead the next one (OCaml's ``in`` after a local ``let rec go acc = ... in``);
      ``opening_keywords``: keywords that open the code below them: alone on their line, one
      leads the statements after it, never glued to the chunk before as a closing brace is
      (Ada's ``begin`` between a subprogram's declarations and its statements, ``exception``
      above its handlers, ``private`` above a package's private part: ``begin`` ended the
      chunk of the last subprogram declared before it);
    - ``function_children``: definitions that are one only when one of their own named children
      is of a type given (OCaml's ``let_binding``: ``let total items = ...`` has a
      ``parameter``, ``let f = fun x -> ...`` a ``fun_expression`` body; ``let rate = 0.2`` and
      a function body's ``let y = x + 1 in`` are statements);
    - ``equations``: definitions that, written one after the other with one name, are one
      definition (Haskell's ``fact 0 = 1`` then ``fact n = n * fact (n - 1)``), with a
      ``type_signatures`` node right above them of that name (``fact :: Int -> Int``); a
      signature alone (a class's method) is a definition of its own. The first equation is the
      unit's definition, the later ones its statements, and the type signature is repeated
      above its parts, with the first equation's head when it is the only one (and lists it in
      a class's summary). What
      follows an equation's body (a ``where`` clause) is read with it: its helpers are the
      equation's nested definitions;
    - ``comment_types``: comments whose node type does not say so (Haskell's ``-- |`` and
      ``-- ^``, ``haddock``): read as comments where a definition's leading comments are told
      from its code (and list them in ``attached`` too);
    - ``definition_calls``: call node types that are a definition when their callee (their
      first child, a word of ``name_types``) is one of ``functions`` or ``containers``: the word
      is then the call's type for every field here (``kinds``, ``needs_body``, ...). Elixir
      writes every definition so: ``defmodule Shop.Cart do``, ``def add(cart, item) do``,
      ExUnit's ``test "adds" do``. Such a call is named by its first argument: ``callee(label)``
      when that is a label (one of ``registration_labels``: ``test("adds")``), else the argument
      itself when of ``name_types`` (``Shop.Cart``), else the name found down from it through
      ``name_fields`` (``add(cart, item)`` through its callee, ``add(x) when x > 0`` through the
      left side). ``trait_fields`` names a keyword argument there: Elixir's ``defimpl Priced,
      for: Item`` is ``<Item as Priced>``, as Rust's ``impl`` is named. The keyword that opens
      its body (``do``) is the body's, no definition's; ``name_followers``: calls right after
      such a definition whose first argument is its name are its own, with the comments between
      them (CMake's ``target_link_libraries(inventory PRIVATE m)``,
      ``set_target_properties(inventory ...)`` or a project's ``shop_strict_warnings(inventory)``
      under ``add_library(inventory ...)``: a target and what configures it are one answer, not
      a definition and a loose chunk of its settings); elsewhere such a call is code;
    - ``name_keywords``: keyword arguments that name the call they are in (Starlark's ``name``):
      a call (one of ``definition_calls``) whose callee's last word (``cc_library``, and
      ``native.cc_library``'s) matches a shell-style pattern of ``named_calls`` and that has such
      an argument whose value is a plain string literal is a definition named by that string
      (``cc_library(name = "stock", srcs = [...])`` is ``stock``), of the type the first pattern
      it matches gives (for every field here: ``kinds``, ``local_statements``, ``body_paths``);
      one without it (``load(...)``, ``package(...)``), with a name that is no literal
      (``name = name + "_gen"``) or whose value is assigned (``pip = use_extension(...)``) is
      code. Its arguments are its body (``body_paths``); its head runs to the end of that
      argument and the comma after it (``cc_library(`` then ``name = "stock",``), repeated above
      the parts of a target too big for a chunk; with arguments before its name, its head is
      its first line, and its parts repeat that line and its name's;
    - ``closers``: statements that close the definition they end, read as a closing brace is
      (glued to the chunk before them when it fits, never a chunk or a member of their own):
      Fortran's ``end module pricing``, ``end subroutine restock``, ``end type``, named nodes
      of their own where other grammars have a ``}`` token (and ``contains``, which ends a
      module's declarations: alone it was a chunk of one word); or keywords, with what follows
      them on their line (Verilog's ``endmodule : sorter``, a block's ``end``, an ```endif``;
      VHDL's ``end process sample;``), which, unlike ``closing_keywords``, never join the
      lines of the definition above them: a split function's last part is its own, not
      ``endpackage``'s;
    - ``argument_lists``: a defining call is a Lisp list, ``(defn total "doc" [items] body...)``:
      its callee is its first child past ``callee_skips`` (the ``(``, metadata on the list), a
      word of ``name_types`` or a node whose ``name_fields`` child is one (Clojure's symbol,
      ``^:private helper``; a qualified callee is read whole: spec's ``s/def`` is no
      ``def``); its arguments are its own children after
      the callee, its name its first argument's. It is its own body (``own_bodies``), its head
      its text to its ``head_ends`` node (the parameter vector) or to the argument before its
      first of ``body_starts`` (a multi-arity ``([x] ...)``, a protocol's signatures), else
      to its name (``(def rate 0.2)``); a word whose ``head_ends`` is ``""`` has no such node
      (Scheme's ``(define total (lambda ...))`` is headed ``(define total``); a split part
      repeats that head. ``dispatch_names``: such
      definitions named by their first two arguments (a multimethod's implementation:
      ``(defmethod price :book [item]`` is ``price :book``); ``member_calls``: per container
      word, the type every other list in it is, named by its callee (a protocol's method
      signatures, a record's implementations: ``(price [this] ...)`` in ``defrecord Item`` is
      ``Item.price``); ``member_groups``: such containers whose members stand in groups, each
      under the word before it, which qualifies their names and is no part of the head
      (``(extend-protocol Priced String (cost [s] ...) nil (cost [_] ...))``: ``String.cost``
      and ``nil.cost``); ``value_kinds``: per definition word, the kind it has when its last
      argument is a list of the word given (``(def total (fn [xs] ...))`` is a function). Its
      docstring, on lines of its own between its name and its parameters, is left out of the
      repeated head (``uncommented_heads``, with strings ``attached``) and leads its first part.
      A list whose callee is itself a definition that is no list wraps it (Common Lisp's
      grammar reads ``(defun ...)`` as a ``defun`` node, the only child of a ``list_lit``);
    - ``keyword_paths``: per node type, the child types down to a keyword of its own that types
      it, as a defining call's callee does (Common Lisp's ``defun`` node holds ``defun``,
      ``defmacro``, ``defgeneric``, ``defmethod`` or ``lambda`` in its ``defun_header``'s
      ``defun_keyword``): the word is its type for every field here, and a word that is none
      of ``functions`` or ``containers`` (``lambda``) makes it no definition;
    - ``name_lists``: per defining word (``argument_lists``), the kind it has when its first
      argument is a list that holds its name as its first word: the call it defines (Scheme's
      ``(define (total items) ...)`` is the function ``total``, headed ``(define (total
      items)``; a curried ``(define ((adder n) x) ...)`` is ``adder``), or a name with its
      options (Common Lisp's ``(defstruct (bin (:conc-name bin-)) ...)`` is ``bin``). Without
      such a list it is named and kinded as any (``(define rate 0.2)``, a variable). A first
      argument that is a list or a string, for any other word, names it as written (R7RS's
      ``(define-library (shop stock) ...)`` is ``(shop stock)``, ASDF's ``(defsystem "shop"
      ...)`` is ``shop``);
    - ``specializer_names``: methods named by their name, their qualifiers and the classes
      their required parameters specialize on, as CLOS tells them apart (Common Lisp's
      ``(defmethod price :around ((item book) qty) ...)`` is ``price :around (book t)``,
      Elisp's ``(cl-defmethod shop-price ((i shop-item)) ...)`` is ``shop-price (shop-item)``);
    - ``open_calls``: defining-list words (``argument_lists``) whose lists, at a file's or a
      container's level, are opened when they hold a definition, as ``guards`` are: their
      definitions are the level's own and what stands before the first goes with it (Scheme's
      ``(begin ...)`` in an R7RS ``define-library``, Common Lisp's ``(eval-when (...)``, Elisp's
      ``(with-eval-after-load 'org``); in a function's body they are code;
    - ``name_parts``: per type of a node found to hold a name (through ``name_fields``, or a
      child's ``name``), the field of it that is the name itself: F#'s ``member this.Add(n)``
      names its ``property_or_ident`` ``this.Add``, whose ``method`` is ``Add`` (``this`` is
      the self-identifier, any word). Followed while there is such a field (a static member's
      ``property_or_ident`` has none: ``Empty`` is its whole text);
    - ``body_after``: per definition type, the token its body follows where no field holds it:
      the first named node after that token, in the definition or in one of its ``body_hosts``
      (F#'s ``member this.Add(n: int) =`` then its expression, of any type, in the member's
      ``method_or_prop_defn``). Without the token it has no body (a property's ``with get() =
      ... and set v = ...``: cut by its children when too big);
    - ``binding_groups``: per definition type, the keyword that joins several bindings in one
      node (F#'s ``let rec even n = ... and odd n = ...``, one ``function_or_value_defn`` with a
      ``body`` field per binding): a node that holds the keyword is read through its children,
      each binding that defines a function (its head or its body of a type the group's
      ``function_children`` gives: ``let rec evens = function ...`` too) a definition of its
      own: its head (its first named child: ``function_declaration_left``) with the keywords
      before it (``let rec``, ``and``), named and kinded by it (``kinds``), its body the node's
      next ``body`` after it (as ``sibling_bodies``'s are). What stands between the head and
      its body (``=``, a return type) is its head's; ``let x = 1 and y = 2`` stays statements;
    - ``head_patterns``: per node type, regular expressions tried in order on a node's head,
      its text from its start to the ``{`` that opens its body (the first token of its last
      ``body_types`` child) with its whitespace closed up, each with the type word it gives:
      the first that matches from the head's start makes that word the node's type for every
      field here (as a defining call's callee word is), and its ``name`` group (else its whole
      match) its name; a node without such a body, or whose head none matches, is code. For a
      grammar that reads every statement as one node type of words, no node for a class or a
      method (Groovy's ``command`` of ``unit``s: ``private static class Bin extends Shelf {``,
      ``def restock(String sku) {``, Gradle's ``tasks.register('pack') {``, a pipeline's
      ``stage('Build') {``), the head's text is what says what it defines; read as text it
      survives the grammar's errors in it (an annotation's arguments). Its repeated signature
      is that head, to the ``{``, whose last words the grammar puts in the body;
    - ``hung_comments``: the grammar hangs the comments between two definitions on the one
      above, as its last descendants (F#'s: the ``///`` doc comment of a ``let`` is the last
      child of the ``let`` or ``type`` before it, a few levels down): those written on lines
      after a node's first and no deeper than the indentation of that line are read as the
      node's next siblings, as an indentation-based block's are (its lines end with its code);
    - ``call_argument``: the field of a call (one of ``calls``) that holds its one argument,
      itself the definition a name is given to, where a grammar applies a function to one
      argument at a time (Nix's ``apply_expression``: ``stdenv.mkDerivation { ... }``, curried
      ``lib.mkIf cfg.enable { ... }``, whose ``function`` is another application). With it such
      a call is followed in a function's body too: a Nix function returns a set, whose bindings
      are that set's attributes, not local code;
    - ``callee_kinds``: the kind of a definition passed to a call (``calls``) by the callee's
      last name (Nix's ``pkgs.stdenv.mkDerivation { ... }`` and ``buildPythonApplication rec {
      ... }`` are ``derivation``s, ``lib.mkOption { ... }`` an ``option``); other callees leave
      the definition its own kind;
    - ``body_chains``: per node type, the field of a definition's body of that type that holds
      the body it stands for, followed while what it holds is another such node, a definition's
      type or one of ``transparent`` (Nix's curried ``name: { port ? 80 }: ...`` is a function
      whose body is a function, whose body may apply a builder to a set: ``mkStation = name: {
      port }: pkgs.writeShellApplication {`` is the head a split function repeats, the set's
      bindings its statements; ``with pkgs; [ ... ]`` stays the body it is). A set found so
      stands for its bindings (its ``body_types`` child): its ``{`` ends the head;
    - ``keyword_hosts``: node types whose keywords are named nodes of the grammar's (Pascal's
      ``kRecord``, ``kConstructor``): for ``keyword_kinds`` and ``plain_kinds``, a definition
      of such a type reads its named children as keywords too, and any definition reads the
      children of its child of such a type (a Pascal routine's ``declProc`` header holds its
      ``kProcedure``);
    - ``plain_kinds``: per function type, the kind a keyword of its own gives it where no
      receiver or method mark makes it a ``method`` and it would be a plain ``function`` (or a
      ``method`` only for being in a container): Pascal's ``procedure Check;``, in a unit or
      nested in a routine, is a ``procedure``, ``function Total: Integer;`` a ``function``,
      while ``procedure TBin.Pick`` stays a ``method`` (``keyword_kinds`` come first:
      ``constructor TBin.Create`` is a ``constructor``);
    - ``sibling_runs``: per definition type, the types (as :meth:`type_of` words) that end it,
      where the grammar gives a definition as a header node and its statements or members as
      the siblings after it (COBOL's ``CALC-OVERTIME.`` paragraph header then its statements,
      its ``2000-PROCESS SECTION.`` header then its paragraphs, a level-01 data description then
      its ``05``/``10`` items): the definition takes in the units after it up to the next whose
      type is one of those (a paragraph runs to the next paragraph or section, a section to the
      next section, a record to the next ``01``/``77``), the comments right above that one
      left to it. Those units are its body: a paragraph's parts repeat its header, a section's
      members are its paragraphs;
    - ``text_names``: per definition type, a regular expression whose ``name`` group, matched
      at the start of the definition's text, is its name, where no node of its own holds it
      (COBOL's ``2000-PROCESS SECTION.`` is ``2000-PROCESS``, ``CALC-OVERTIME.`` is
      ``CALC-OVERTIME``: headers of one ``.`` token);
    - ``empty_comments``: the grammar gives a comment on a line of its own as an empty node at
      that line's end (COBOL's ``*`` in the indicator column, ``*>`` lines): read as a comment
      of its whole line, so it goes with the definition below it (an empty node was no unit).
    """

    name: str
    extensions: tuple[str, ...]
    comment: tuple[str, str]
    functions: frozenset[str]
    containers: frozenset[str]
    wrappers: frozenset[str] = frozenset()
    transparent: frozenset[str] = frozenset()
    attached: frozenset[str] = _COMMENTS
    comment_hosts: frozenset[str] = frozenset()
    docstrings: frozenset[str] = frozenset()
    annotation_holders: frozenset[str] = frozenset()
    name_fields: tuple[str, ...] = ("name",)
    name_types: frozenset[str] = frozenset(
        {"identifier", "type_identifier", "simple_identifier", "constant", "name", "field_identifier"}
    )
    receiver_field: str | None = None
    qualifiers: dict[str, str] = field(default_factory=dict)
    trait_fields: dict[str, str] = field(default_factory=dict)
    methods_in: frozenset[str] = frozenset()
    selectors: frozenset[str] = frozenset()
    name_separators: tuple[str, ...] = ()
    method_marks: tuple[str, ...] = (".",)
    body_types: frozenset[str] = frozenset()
    body_hosts: frozenset[str] = frozenset()
    body_paths: dict[str, tuple[str, ...]] = field(default_factory=dict)
    kinds: dict[str, str] = field(default_factory=dict)
    anonymous_names: dict[str, str] = field(default_factory=dict)
    name_formats: dict[str, tuple[str, str]] = field(default_factory=dict)
    name_after: dict[str, tuple[str, str]] = field(default_factory=dict)
    sibling_bodies: dict[str, str] = field(default_factory=dict)
    scoping: frozenset[str] = frozenset()
    assignments: frozenset[str] = frozenset()
    assigned_field: str = "right"
    naming_wrappers: frozenset[str] = frozenset()
    self_bodies: frozenset[str] = frozenset()
    own_bodies: frozenset[str] = frozenset()
    head_ends: dict[str, str | tuple[str, ...]] = field(default_factory=dict)
    nameless: frozenset[str] = frozenset()
    line_heads: frozenset[str] = frozenset()
    uncommented_heads: bool = False
    needs_body: frozenset[str] = frozenset()
    bodiless_wrappers: frozenset[str] = frozenset()
    calls: frozenset[str] = frozenset()
    keyword_kinds: dict[str, dict[str, str]] = field(default_factory=dict)
    child_kinds: dict[str, dict[str, str]] = field(default_factory=dict)
    keyword_names: frozenset[str] = frozenset()
    label_types: frozenset[str] = frozenset()
    named_kinds: frozenset[str] = frozenset()
    iife_wraps: frozenset[str] = frozenset()
    registrations: frozenset[str] = frozenset()
    suite_calls: frozenset[str] = frozenset()
    registration_labels: frozenset[str] = frozenset()
    callbacks: frozenset[str] = frozenset()
    callback_bodies: frozenset[str] = frozenset()
    argument_wraps: frozenset[str] = frozenset()
    call_suffix: str = ""
    function_suites: bool = False
    local_statements: frozenset[str] = frozenset()
    guards: frozenset[str] = frozenset()
    guard_bodies: frozenset[str] = frozenset()
    accessors: frozenset[str] = frozenset()
    properties: frozenset[str] = frozenset()
    name_holders: frozenset[str] = frozenset()
    member_declarations: dict[str, str] = field(default_factory=dict)
    prototypes: dict[str, str] = field(default_factory=dict)
    free_wrappers: frozenset[str] = frozenset()
    opens_error_root: bool = False
    unclosed_closer: str = ""
    comment_macros: tuple[str, ...] = ()
    argument_macros: tuple[str, ...] = ()
    enum_macros: tuple[str, ...] = ()
    docs_below: bool = False
    docs_after: tuple[bytes, ...] = ()
    macro_lines: bool = False
    class_macros: bool = False
    trailing_macros: bool = False
    head_macros: bool = False
    never_types: frozenset[str] = frozenset()
    head_keywords: frozenset[str] = frozenset()
    annotations: str = ""
    label_words: dict[str, str] = field(default_factory=dict)
    doc_comments: tuple[str, ...] = ()
    packed_members: frozenset[str] = frozenset()
    line_nodes: frozenset[str] = frozenset()
    name_paths: frozenset[str] = frozenset()
    path_skips: frozenset[str] = frozenset()
    call_heads: dict[str, str] = field(default_factory=dict)
    function_children: dict[str, frozenset[str]] = field(default_factory=dict)
    body_openers: bool = False
    closing_keywords: frozenset[str] = frozenset()
    opening_keywords: frozenset[str] = frozenset()
    equations: frozenset[str] = frozenset()
    type_signatures: frozenset[str] = frozenset()
    comment_types: frozenset[str] = frozenset()
    definition_calls: frozenset[str] = frozenset()
    name_followers: bool = False
    name_keywords: tuple[str, ...] = ()
    named_calls: tuple[tuple[str, str], ...] = ()
    closers: frozenset[str] = frozenset()
    argument_lists: bool = False
    callee_skips: frozenset[str] = frozenset()
    body_starts: frozenset[str] = frozenset()
    dispatch_names: frozenset[str] = frozenset()
    member_calls: dict[str, str] = field(default_factory=dict)
    value_kinds: dict[str, dict[str, str]] = field(default_factory=dict)
    member_groups: frozenset[str] = frozenset()
    keyword_paths: dict[str, tuple[str, ...]] = field(default_factory=dict)
    name_lists: dict[str, str] = field(default_factory=dict)
    specializer_names: frozenset[str] = frozenset()
    open_calls: frozenset[str] = frozenset()
    head_names: frozenset[str] = frozenset()
    help_heads: frozenset[str] = frozenset()
    tail_comments: frozenset[str] = frozenset()
    blank_tokens: frozenset[str] = frozenset()
    cell_marks: tuple[str, ...] = ()
    name_prefixes: frozenset[str] = frozenset()
    labelled_heads: frozenset[str] = frozenset()
    path_separator: str = "."
    name_parts: dict[str, str] = field(default_factory=dict)
    body_after: dict[str, str] = field(default_factory=dict)
    binding_groups: dict[str, str] = field(default_factory=dict)
    hung_comments: bool = False
    head_patterns: dict[str, tuple[tuple[str, str], ...]] = field(default_factory=dict)
    annotation_starts: frozenset[str] = frozenset()
    call_argument: str = ""
    callee_kinds: dict[str, str] = field(default_factory=dict)
    body_chains: dict[str, str] = field(default_factory=dict)
    keyword_hosts: frozenset[str] = frozenset()
    plain_kinds: dict[str, dict[str, str]] = field(default_factory=dict)
    sibling_runs: dict[str, frozenset[str]] = field(default_factory=dict)
    text_names: dict[str, str] = field(default_factory=dict)
    empty_comments: bool = False
    grammar: str = ""

    @property
    def parser_name(self) -> str:
        """Name of the grammar in tree-sitter-language-pack."""
        return self.grammar or self.name

    @property
    def definitions(self) -> frozenset[str]:
        """Every node type that starts a chunkable definition."""
        return self.functions | self.containers


@dataclass(frozen=True)
class TextSpec:
    """Prose and config: split at headings or top-level blocks, never mid-line."""

    name: str
    extensions: tuple[str, ...]
    comment: tuple[str, str]
    style: str  # markdown | rst | latex | keys | toml | sql | make | docker | fortran_fixed | cython | blocks


@dataclass(frozen=True)
class TableSpec:
    """Tabular files, handled by :mod:`core.tables`."""

    name: str
    extensions: tuple[str, ...]
    comment: tuple[str, str] = ("#", "")


_C_LIKE = ("//", "")
_MARKUP = ("<!--", " -->")
# Documentation comments: javadoc, JSDoc, KDoc, Scaladoc (``/**``), and ``///`` lines (Rust, C#,
# Swift).
# Calls that register a labelled trailing lambda in a test's or a route's body (Kotest, Spek,
# Quick; Ktor's and Vapor's routes): in Kotlin and Swift a test or a route is a function's statement.
_TRAILING_LAMBDA_SUITES = frozenset(
    {"describe", "context", "it", "test", "should", "feature", "scenario", "given", "Given", "When", "Then",
     "fdescribe", "xdescribe", "fcontext", "xcontext", "fit", "xit", "xtest",
     "routing", "route", "group", "get", "post", "put", "patch", "delete", "head", "options", "webSocket", "authenticate"}
)  # fmt: skip
_DOC_BLOCK = ("/**",)
_DOC_BOTH = ("/**", "///")

# ``describe('cart', () => {...})``, ``app.get('/users/:id', async (req, res) => {...})``.
_JS_REGISTRATIONS: dict[str, frozenset[str]] = {
    "registrations": frozenset({"call_expression"}),
    # Mocha, Jest, Vitest, Jasmine, node:test, tape (``t.test``), ospec (``o.spec``), uvu.
    "suite_calls": frozenset({"describe", "context", "suite", "it", "test", "specify", "spec", "bench", "o"}),
    "registration_labels": frozenset({"string", "template_string"}),
    "callbacks": frozenset({"arrow_function", "function_expression", "function"}),
    "callback_bodies": frozenset({"statement_block"}),
}

_CPP = CodeSpec(
    name="cpp",
    # (Arduino's sources are C++ to the grammar; so are templates' ``.ipp``, ``.tpp`` and
    # inline ``.inl`` files.)
    extensions=(".cpp", ".cc", ".cxx", ".hpp", ".hh", ".hxx", ".ino", ".ipp", ".tpp", ".inl"),
    comment=_C_LIKE,
    functions=frozenset({"function_definition", "lambda_expression"}),
    containers=frozenset(
        {"class_specifier", "struct_specifier", "union_specifier", "enum_specifier", "namespace_definition"}
    ),
    wrappers=frozenset(
        {
            "template_declaration", "type_definition", "declaration", "field_declaration", "friend_declaration",
            "linkage_specification",  # ``extern "C" int f(void);`` (opened when it holds a block)
        }
    ),  # fmt: skip
    free_wrappers=frozenset({"friend_declaration"}),
    # ``extern "C" { ... }``: its block is opened too (a namespace's block is its body,
    # never a sibling, so it is not opened here).
    transparent=frozenset(
        {"preproc_ifdef", "preproc_if", "preproc_else", "preproc_elif", "linkage_specification", "declaration_list"}
    ),
    name_fields=("name", "declarator"),
    naming_wrappers=frozenset({"type_definition"}),  # (as in C)
    kinds={"namespace_definition": "namespace", "enum_specifier": "enum", "struct_specifier": "struct"},
    anonymous_names={"namespace_definition": "<anonymous>"},
    needs_body=frozenset({"class_specifier", "struct_specifier", "union_specifier", "enum_specifier"}),
    member_declarations={"field_declaration": "function_declarator", "declaration": "function_declarator"},
    prototypes={"declaration": "function_declarator"},  # (in a class body: member declarations)
    opens_error_root=True,
    comment_macros=_C_DECLS_MACROS,
    argument_macros=_ARGUMENT_MACROS,
    docs_below=True,
    macro_lines=True,
    class_macros=True,
    trailing_macros=True,
    head_macros=True,
    never_types=_WINDOWS_HEAD_MACROS,
    annotations=_ANNOTATIONS,
    label_words=_QT_LABEL_WORDS,
)

# CUDA is C++ with the qualifiers of where code runs (``__global__``, ``__device__``,
# ``__host__``, ``__shared__``, ``__constant__``, ``__launch_bounds__(256)``) and kernel launches
# (``scale<<<blocks, threads>>>(...)``): the C++ grammar read every kernel's head and launch as
# an error. Its own grammar is C++'s with those added, the same node types, so it is read as
# C++ is; a kernel (``__global__``, a keyword of the function's own) is of kind ``kernel``, its
# prototype too.
_CUDA = replace(
    _CPP,
    name="cuda",
    extensions=(".cu", ".cuh"),
    keyword_kinds={"function_definition": {"__global__": "kernel"}, "declaration": {"__global__": "kernel"}},
    annotations=_CUDA_ANNOTATIONS,
    head_keywords=frozenset(
        {
            "__global__", "__device__", "__host__", "__forceinline__", "__noinline__", "__launch_bounds__",
            "__shared__", "__constant__", "__managed__", "__local__", "__grid_constant__",
        }
    ),  # fmt: skip
)

def _cmake_spellings(words: tuple[str, ...]) -> frozenset[str]:
    """CMake commands as written: as documented, lower-cased and upper-cased (CMake reads
    ``ADD_LIBRARY`` as ``add_library``; the grammar keeps the text)."""
    return frozenset(spelling for word in words for spelling in (word, word.lower(), word.upper()))


# CMake's defining calls, by kind: a target, or a dependency fetched or built with the project.
_CMAKE_TARGET_KINDS = (
    (("add_library",), "library"),
    (("add_executable",), "executable"),
    (("add_custom_target",), "target"),
    (("FetchContent_Declare", "ExternalProject_Add"), "dependency"),
)
_CMAKE_TARGETS = frozenset().union(*(_cmake_spellings(words) for words, _ in _CMAKE_TARGET_KINDS))


_PYTHON = CodeSpec(
    name="python",
    extensions=(".py", ".pyi", ".pyw"),
    comment=("#", ""),
    # ``square = lambda x: x * x`` defines ``square``.
    functions=frozenset({"function_definition", "lambda"}),
    containers=frozenset({"class_definition"}),
    wrappers=frozenset({"decorated_definition", "expression_statement", "assignment"}),
    name_fields=("name", "left"),
    assignments=frozenset({"assignment"}),
    naming_wrappers=frozenset({"assignment"}),
    docstrings=frozenset({"expression_statement"}),
    guards=frozenset(
        {"if_statement", "elif_clause", "else_clause", "try_statement", "except_clause", "finally_clause", "block"}
    ),
    guard_bodies=frozenset({"block"}),
)

# Starlark's defining calls by the rule's (or macro's, or repository rule's) name, first match
# first: Bazel names its rules ``<language>_library``, ``_binary`` and ``_test`` (a test rule
# must end in ``_test``); a repository fetched for the build (WORKSPACE's ``http_archive``,
# ``git_repository``, ``local_repository``; MODULE.bazel's ``bazel_dep``) is a dependency, as
# CMake's ``FetchContent_Declare`` is; ``module(name = ...)`` and ``workspace(name = ...)`` name
# the project itself; any other call named by ``name = "..."`` (``genrule``, ``filegroup``,
# ``alias``, ``config_setting``, a project's own rule) is a target.
_STARLARK_TARGET_KINDS = (
    (("bazel_dep", "http_archive", "http_file", "http_jar", "*_repository"), "dependency"),
    (("module",), "module"),
    (("workspace",), "workspace"),
    (("*_library",), "library"),
    (("*_binary",), "binary"),
    (("*_test", "test_suite"), "test"),
    (("*",), "target"),
)
# (Types of their own: ``module`` is the grammar's root.)
_STARLARK_TARGETS = {f"{kind}_call": kind for _, kind in _STARLARK_TARGET_KINDS}

# Starlark, Bazel's and Buck's build language (``BUILD``, ``WORKSPACE``, ``MODULE.bazel``, a
# ``.bzl`` file's macros and rules; Tilt's ``Tiltfile``): Python's syntax, fewer statements, read
# by Python's grammar and spec (the pack's own Starlark grammar wraps calls and docstrings
# otherwise, for nothing more). A target is a call named by its ``name = "..."``
# (``name_keywords``): ``cc_library(name = "stock", ...)`` is the library ``stock``, of its
# rule's kind; its arguments are its body, so one too big for a chunk is split between them,
# ``cc_library(`` and ``name = "stock",`` above each part. ``load(...)``, ``package(...)``,
# ``exports_files([...])`` and ``licenses([...])`` name nothing: loose statements, packed
# whole. In a macro's body (``native.cc_library(name = name, ...)``) a call is a statement.
_STARLARK = replace(
    _PYTHON,
    name="starlark",
    extensions=(".bzl", ".star", ".bazel", ".sky"),
    grammar="python",
    functions=_PYTHON.functions | frozenset(_STARLARK_TARGETS),
    definition_calls=frozenset({"call"}),
    name_keywords=("name",),
    named_calls=tuple((pattern, f"{kind}_call") for patterns, kind in _STARLARK_TARGET_KINDS for pattern in patterns),
    kinds=_STARLARK_TARGETS,
    local_statements=frozenset(_STARLARK_TARGETS),
    body_paths=dict.fromkeys(_STARLARK_TARGETS, ("argument_list",)),
    # A genrule's ``cmd = """..."""`` too big for a chunk is cut by its lines, as many as fit
    # (by its children, its escapes, a ``\\`` at a line's end, were each a part's edge).
    line_nodes=frozenset({"string"}),
)

# Groovy's heads, as :attr:`CodeSpec.head_patterns` reads them (whitespace closed up, up to the
# ``{`` of the body). Annotations (``@ToString(includeNames = true)``, with their arguments the
# grammar cannot read) and modifiers before a declaration; words that open a control block or a
# statement, never a definition's name or type.
_GROOVY_ANNOTATIONS = r"(?:@(?!interface\b)[\w.]+(?: ?\([^()]*(?:\([^()]*\)[^()]*)*\))? )*"
_GROOVY_MODIFIERS = (
    r"(?:(?:public|protected|private|static|final|abstract|synchronized|native|transient|volatile|strictfp|default"
    r"|sealed|non-sealed) )*"
)
_GROOVY_CONTROL = r"(?!(?:if|else|for|while|switch|try|catch|finally|do|synchronized|return|new|throw|assert|case|static)\b)"
_GROOVY_HEAD = _GROOVY_ANNOTATIONS + _GROOVY_MODIFIERS
_GROOVY_HEADS: tuple[tuple[str, str], ...] = (
    # ``@interface Audited {``, ``class Bin extends Shelf implements Priced {``, ``trait``, ``enum``.
    *((rf"{_GROOVY_HEAD}{re.escape(word)} (?P<name>[\w$]+)", kind)
      for word, kind in (("@interface", "annotation"), ("class", "class"), ("interface", "interface"),
                         ("trait", "trait"), ("enum", "enum"))),
    # Gradle's tasks: ``task pack(type: Zip) {``, ``tasks.register('pack', Zip) {``, named after
    # the task (``tasks.named('test')`` configures one).
    (r"task (?P<name>[\w$]+)\b", "task"),
    (r"tasks\.(?:register|create|named|getByName) ?\( ?(['\"])(?P<name>[^'\"]+)\1", "task"),
    # A pipeline's ``stage('Build') {``: named by its label.
    (r"stage ?\( ?(['\"])(?P<name>[^'\"]+)\1 ?\)$", "stage"),
    # A constructor (a class's name, called), a method (``def``, or a return type), Spock's
    # ``def "reserves a bin"() {`` by its string.
    (rf"{_GROOVY_HEAD}(?P<name>[A-Z][\w$]*) ?\(.*\)(?: throws [\w.$, ]+)?$", "constructor"),
    (
        rf"{_GROOVY_HEAD}(?:<[^>]*> )?(?:def |{_GROOVY_CONTROL}[\w.$]+(?:<.*?>)?(?:\[\])* )"
        rf"(?P<name>[\w$]+|'[^']*'|\"[^\"]*\") ?\(.*\)(?: throws [\w.$, ]+)?$",
        "method",
    ),
    # A closure given a name where it is declared: ``def onPick = {``, ``Closure<Integer> weigh = {``.
    (rf"{_GROOVY_HEAD}(?:def |var |{_GROOVY_CONTROL}[\w.$]+(?:<.*?>)? )(?P<name>[\w$]+) ?=$", "closure"),
    # Any other call handed a closure: a build script's ``dependencies {``, ``android {``,
    # ``tasks.withType(Test) {``, a pipeline's ``stages {``, ``steps {``, ``node('linux') {``:
    # named by its callee, with its argument when that is one string.
    (rf"{_GROOVY_CONTROL}(?P<name>[\w$]+(?:\.[\w$]+)*(?: ?\((['\"])[^'\"]*\2\))?)(?: ?\(.*\))?$", "block"),
)  # fmt: skip

LANGUAGES: dict[str, CodeSpec | TextSpec | TableSpec] = {
    spec.name: spec
    for spec in (
        _PYTHON,
        _STARLARK,
        CodeSpec(
            name="javascript",
            extensions=(".js", ".mjs", ".cjs", ".jsx"),
            comment=_C_LIKE,
            doc_comments=_DOC_BLOCK,
            attached=_COMMENTS | {"decorator"},  # a member's ``@decorator``, a sibling in the class body
            functions=frozenset(
                {
                    "function_declaration",
                    "generator_function_declaration",
                    "method_definition",
                    "arrow_function",
                    "function_expression",
                    "function",
                    "generator_function",
                }
            ),
            containers=frozenset({"class_declaration", "class", "object"}),
            # ``exports.slugify = function`` and ``Router.prototype.route = function`` are named
            # by what they are assigned to; an object's ``parse: function`` by its key.
            wrappers=frozenset(
                {
                    "export_statement",
                    "lexical_declaration",
                    "variable_declaration",
                    "variable_declarator",
                    "expression_statement",
                    "assignment_expression",
                    "pair",
                    "field_definition",  # class Form { handle = (e) => {...} }
                }
            ),
            name_fields=("name", "left", "key"),
            name_types=frozenset({"identifier", "property_identifier", "private_property_identifier"}),
            kinds={"object": "object"},
            anonymous_names={"export_statement": "default"},
            assignments=frozenset({"assignment_expression"}),
            naming_wrappers=frozenset({"variable_declarator", "pair", "assignment_expression", "field_definition"}),
            self_bodies=frozenset({"object"}),
            calls=frozenset({"call_expression"}),
            iife_wraps=frozenset({"expression_statement", "parenthesized_expression", "unary_expression"}),
            **_JS_REGISTRATIONS,
        ),
        *(
            CodeSpec(
                name=ts_name,
                extensions=ts_ext,
                comment=_C_LIKE,
                doc_comments=_DOC_BLOCK,
                attached=_COMMENTS | {"decorator"},  # ``@Get(":id")`` above a method, a sibling in the class body
                functions=frozenset(
                    {
                        "function_declaration",
                        "generator_function_declaration",
                        "method_definition",
                        "arrow_function",
                        "function_expression",
                        "generator_function",
                        "function_signature",
                        "method_signature",
                        "abstract_method_signature",
                    }
                ),
                containers=frozenset(
                    {
                        "class_declaration",
                        "class",
                        "abstract_class_declaration",
                        "interface_declaration",
                        "enum_declaration",
                        "internal_module",
                        "module",
                        "object",
                        "type_alias_declaration",  # ``type QueryFunction<T> = (ctx: Context) => T``
                    }
                ),
                wrappers=frozenset(
                    {
                        "export_statement",
                        "lexical_declaration",
                        "variable_declaration",
                        "variable_declarator",
                        "expression_statement",
                        "ambient_declaration",
                        "assignment_expression",
                        "pair",
                        "as_expression",  # export const api = { ... } as const
                        "satisfies_expression",
                        "public_field_definition",  # class Form { private handle = (e: Event) => {...} }
                    }
                ),
                name_fields=("name", "left", "key"),
                name_types=frozenset({"identifier", "type_identifier", "property_identifier"}),
                kinds={
                    "interface_declaration": "interface",
                    "enum_declaration": "enum",
                    "internal_module": "namespace",
                    "module": "namespace",
                    "object": "object",
                    "type_alias_declaration": "type",
                },
                anonymous_names={"export_statement": "default"},
                assignments=frozenset({"assignment_expression"}),
                naming_wrappers=frozenset(
                    {"variable_declarator", "pair", "assignment_expression", "public_field_definition"}
                ),
                self_bodies=frozenset({"object"}),
                calls=frozenset({"call_expression"}),
                iife_wraps=frozenset({"expression_statement", "parenthesized_expression", "unary_expression"}),
                # Overloads: the signatures of one name right above its implementation are one
                # definition with it (``function parse(x: string): number;`` twice, then the body).
                equations=frozenset({"function_declaration", "generator_function_declaration", "method_definition"}),
                type_signatures=frozenset({"function_signature", "method_signature"}),
                **_JS_REGISTRATIONS,
            )
            for ts_name, ts_ext in (("typescript", (".ts", ".mts", ".cts")), ("tsx", (".tsx",)))
        ),
        CodeSpec(
            name="java",
            extensions=(".java",),
            comment=_C_LIKE,
            doc_comments=_DOC_BLOCK,
            functions=frozenset({"method_declaration", "constructor_declaration", "compact_constructor_declaration"}),
            containers=frozenset(
                {
                    "class_declaration",
                    "interface_declaration",
                    "enum_declaration",
                    "record_declaration",
                    "annotation_type_declaration",
                    "enum_constant",  # ``PLUS("+") { int apply(...) {...} }``: its body's methods
                    # A field of an anonymous class (``Runnable tick = new Runnable() {...};``):
                    # named by its field, its methods its own.
                    "object_creation_expression",
                }
            ),
            wrappers=frozenset({"field_declaration", "variable_declarator"}),
            naming_wrappers=frozenset({"variable_declarator"}),
            body_types=frozenset({"class_body"}),
            # A plain ``RED,`` or ``new ArrayList<>()`` defines nothing of its own.
            needs_body=frozenset({"enum_constant", "object_creation_expression"}),
            transparent=frozenset({"enum_body_declarations"}),  # an enum's fields, constructors, methods
            kinds={
                "interface_declaration": "interface",
                "enum_declaration": "enum",
                "record_declaration": "record",
                "annotation_type_declaration": "annotation",
                "enum_constant": "constant",
            },
        ),
        # Apex, Salesforce's Java-like language: a ``.cls`` file's class (LaTeX's document
        # classes share the extension: ``_CONTENT_HINTS``), a ``.trigger`` file's trigger, an
        # ``.apex`` file's anonymous Apex (a project's ``scripts/apex/``: statements and methods).
        CodeSpec(
            name="apex",
            extensions=(".cls", ".trigger", ".apex"),
            comment=_C_LIKE,
            doc_comments=_DOC_BLOCK,  # ApexDoc
            # A property (``public Integer onHand { get; private set; }``) is a field with an
            # accessor list, its body; a plain field has none and defines nothing (``needs_body``).
            functions=frozenset(
                {"method_declaration", "constructor_declaration", "trigger_declaration", "field_declaration"}
            ),
            containers=frozenset({"class_declaration", "interface_declaration", "enum_declaration"}),
            name_fields=("name", "declarator"),
            body_types=frozenset({"accessor_list"}),
            needs_body=frozenset({"field_declaration"}),
            kinds={
                "interface_declaration": "interface",
                "enum_declaration": "enum",
                "trigger_declaration": "trigger",
                "field_declaration": "property",
            },
        ),
        CodeSpec(
            name="go",
            extensions=(".go",),
            comment=_C_LIKE,
            functions=frozenset({"function_declaration", "method_declaration", "func_literal"}),
            # ``type X struct {...}`` and each spec of ``type ( ... )`` is a definition of its own.
            containers=frozenset({"type_spec", "type_alias"}),
            transparent=frozenset({"type_declaration", "statement_list"}),
            receiver_field="receiver",
            body_types=frozenset({"field_declaration_list", "interface_type"}),
            body_hosts=frozenset({"struct_type"}),
            kinds={"type_spec": "type", "type_alias": "type"},
            member_declarations={"method_elem": ""},
            # Subtests and sub-benchmarks: ``t.Run("empty cart", func(t *testing.T) {...})``.
            wrappers=frozenset({"expression_statement"}),
            registrations=frozenset({"call_expression"}),
            suite_calls=frozenset({"Run"}),
            registration_labels=frozenset({"interpreted_string_literal", "raw_string_literal"}),
            callbacks=frozenset({"func_literal"}),
            callback_bodies=frozenset({"block"}),
            function_suites=True,
            local_statements=frozenset({"type_spec", "type_alias"}),
        ),
        CodeSpec(
            name="rust",
            extensions=(".rs",),
            comment=_C_LIKE,
            doc_comments=_DOC_BOTH,
            # ``function_signature_item``: a trait's required method (``fn area(&self) -> f64;``).
            functions=frozenset({"function_item", "closure_expression", "function_signature_item"}),
            # ``extern "C" { fn malloc(size: usize) -> *mut u8; ... }``: a block of foreign
            # functions, whole when it fits, else a header listing them and the declarations.
            containers=frozenset(
                {
                    "impl_item",
                    "trait_item",
                    "mod_item",
                    "struct_item",
                    "enum_item",
                    "union_item",
                    "macro_definition",
                    "foreign_mod_item",
                }
            ),
            attached=_COMMENTS | {"attribute_item", "inner_attribute_item"},
            needs_body=frozenset({"mod_item"}),  # ``mod backtrace;`` only names a file
            name_fields=("name", "type"),
            trait_fields={"impl_item": "trait"},
            kinds={
                "impl_item": "impl",
                "trait_item": "trait",
                "mod_item": "module",
                "enum_item": "enum",
                "struct_item": "struct",
                "macro_definition": "macro",
                "foreign_mod_item": "extern",
            },
            anonymous_names={"foreign_mod_item": "extern"},
            packed_members=frozenset({"foreign_mod_item"}),
            # The standard library's ``pub macro name(...) {}`` (unstable syntax) makes the root
            # an ERROR over whole items (core's macros/mod.rs fell back to windows).
            opens_error_root=True,
        ),
        CodeSpec(
            name="c",
            extensions=(".c", ".h"),
            comment=_C_LIKE,
            functions=frozenset({"function_definition"}),
            containers=frozenset({"struct_specifier", "union_specifier", "enum_specifier"}),
            wrappers=frozenset({"type_definition", "declaration"}),
            # ``extern "C" {`` under ``#ifdef __cplusplus``: a header's whole content is in it.
            transparent=frozenset(
                {"preproc_ifdef", "preproc_if", "preproc_else", "preproc_elif", "linkage_specification", "declaration_list"}
            ),
            name_fields=("name", "declarator"),
            # ``typedef struct tag {...} NAME;`` is ``NAME``: the name code uses.
            naming_wrappers=frozenset({"type_definition"}),
            kinds={"enum_specifier": "enum", "struct_specifier": "struct", "union_specifier": "struct"},
            needs_body=frozenset({"struct_specifier", "union_specifier", "enum_specifier"}),
            prototypes={"declaration": "function_declarator"},
            opens_error_root=True,
            comment_macros=_C_DECLS_MACROS,
            argument_macros=_ARGUMENT_MACROS,
            docs_below=True,
            macro_lines=True,
            trailing_macros=True,
            head_macros=True,
            never_types=_WINDOWS_HEAD_MACROS,
            annotations=_ANNOTATIONS,
        ),
        _CPP,
        _CUDA,
        CodeSpec(
            name="csharp",
            extensions=(".cs",),
            comment=_C_LIKE,
            doc_comments=_DOC_BOTH,
            functions=frozenset(
                {
                    "method_declaration",
                    "constructor_declaration",
                    "destructor_declaration",
                    "operator_declaration",
                    "conversion_operator_declaration",
                    "local_function_statement",
                    "property_declaration",
                    "indexer_declaration",  # ``public int this[string key] { get ... }``
                    "event_declaration",  # ``public event EventHandler Changed { add ... }``
                }
            ),
            containers=frozenset(
                {
                    "namespace_declaration",
                    "file_scoped_namespace_declaration",
                    "class_declaration",
                    "struct_declaration",
                    "interface_declaration",
                    "enum_declaration",
                    "record_declaration",
                }
            ),
            kinds={
                "namespace_declaration": "namespace",
                "file_scoped_namespace_declaration": "namespace",
                "interface_declaration": "interface",
                "enum_declaration": "enum",
                "struct_declaration": "struct",
                "property_declaration": "property",
                "indexer_declaration": "indexer",
                "event_declaration": "event",
                "record_declaration": "record",
            },
            keyword_kinds={"record_declaration": {"struct": "struct"}},  # ``record struct``
            anonymous_names={"indexer_declaration": "this[]"},
            # Members under ``#if DEBUG`` are the class's own.
            transparent=frozenset({"preproc_if", "preproc_else", "preproc_elif", "preproc_region"}),
            name_formats={
                "operator_declaration": ("operator", "operator {}"),
                "conversion_operator_declaration": ("type", "operator {}"),
                "destructor_declaration": ("name", "~{}"),
                # (Not its type: ``public Item this[int slot]`` was ``Shelf.Item``.)
                "indexer_declaration": ("parameters", "this[]"),
            },
            scoping=frozenset({"file_scoped_namespace_declaration"}),
            body_types=frozenset({"accessor_list"}),  # a property's, an indexer's, an event's
            # Top-level statements (``Program.cs``): a local function there is a definition, and
            # so is a minimal API's ``app.MapGet("/users/{id}", async (int id) => {...});``.
            wrappers=frozenset({"global_statement", "expression_statement"}),
            registrations=frozenset({"invocation_expression"}),
            registration_labels=frozenset(
                {"string_literal", "verbatim_string_literal", "raw_string_literal", "interpolated_string_expression"}
            ),
            callbacks=frozenset({"lambda_expression", "anonymous_method_expression"}),
            callback_bodies=frozenset({"block"}),
            argument_wraps=frozenset({"argument"}),
        ),
        CodeSpec(
            name="ruby",
            extensions=(".rb", ".rake", ".gemspec", ".podspec", ".ru", ".jbuilder", ".builder", ".thor"),
            comment=("#", ""),
            # A missing ``end`` made the whole file one ERROR, and it fell back to windows.
            unclosed_closer="end",
            functions=frozenset({"method", "singleton_method"}),
            containers=frozenset({"class", "module", "singleton_class"}),
            kinds={"module": "module"},
            anonymous_names={"singleton_class": "self"},
            qualifiers={"singleton_method": "object"},
            methods_in=frozenset({"module"}),
            # RSpec's ``describe Cart do``, ``it "adds" do``, ``let(:lines) do``; Sinatra's
            # ``get '/x' do``; Rake's ``namespace :db do`` and ``task seed: :env do``.
            # (A ``{ ... }`` block is a one-liner: ``let(:cart) { Cart.new }`` is a statement.)
            registrations=frozenset({"call"}),
            suite_calls=frozenset(
                {
                    "describe", "context", "it", "specify", "example", "feature", "scenario", "let", "let!",
                    "subject", "shared_examples", "shared_examples_for", "shared_context",
                    "namespace", "task", "file", "rule", "multitask", "directory",
                    "resources", "resource", "scope", "member", "collection", "concern",
                }
            ),  # fmt: skip
            registration_labels=frozenset(
                {"string", "simple_symbol", "delimited_symbol", "constant", "scope_resolution", "pair"}
            ),
            callbacks=frozenset({"do_block"}),
            callback_bodies=frozenset({"body_statement"}),
        ),
        CodeSpec(
            name="php",
            extensions=(".php",),
            comment=_C_LIKE,
            functions=frozenset({"function_definition", "method_declaration", "anonymous_function"}),
            containers=frozenset(
                {
                    "namespace_definition",
                    "class_declaration",
                    "interface_declaration",
                    "trait_declaration",
                    "enum_declaration",
                }
            ),
            kinds={
                "namespace_definition": "namespace",
                "interface_declaration": "interface",
                "trait_declaration": "trait",
                "enum_declaration": "enum",
            },
            scoping=frozenset({"namespace_definition"}),  # ``namespace App\Cart;`` (no braces)
            anonymous_names={"namespace_definition": "<global>"},  # ``namespace { ... }``
            # A function defined under a guard, Laravel's ``if (! function_exists('app')) {
            # function app() {...} }``: the guard wraps it as a decorator does.
            wrappers=frozenset({"if_statement", "compound_statement", "expression_statement"}),
            name_separators=("\\",),  # ``App\Cart`` is ``App.Cart`` in a breadcrumb
            # Laravel's ``Route::get('/users', function () {...});``, Pest's ``it('adds', function () {...});``.
            registrations=frozenset({"function_call_expression", "scoped_call_expression", "member_call_expression"}),
            suite_calls=frozenset({"describe", "it", "test", "Route"}),  # Route::get in a route group
            registration_labels=frozenset({"string", "encapsed_string", "array_creation_expression"}),
            callbacks=frozenset({"anonymous_function"}),
            callback_bodies=frozenset({"compound_statement"}),
            argument_wraps=frozenset({"argument"}),
        ),
        CodeSpec(
            name="kotlin",
            extensions=(".kt", ".kts"),
            comment=_C_LIKE,
            doc_comments=_DOC_BLOCK,
            functions=frozenset({"function_declaration", "secondary_constructor", "anonymous_initializer"}),
            containers=frozenset({"class_declaration", "object_declaration", "companion_object"}),
            receiver_field="receiver",
            # A body's statements sit in one ``statements`` node: read them as the body's own.
            transparent=frozenset({"statements"}),
            comment_hosts=frozenset({"package_header", "import_list", "import_header"}),
            annotation_holders=frozenset({"prefix_expression"}),
            # ``statements``: an ``init { ... }`` block's own.
            body_types=frozenset({"class_body", "enum_class_body", "function_body", "statements"}),
            body_paths={
                "class_declaration": (
                    "delegation_specifier", "constructor_invocation", "value_arguments", "value_argument",
                    "lambda_literal", "statements",
                )
            },  # fmt: skip
            kinds={"object_declaration": "object", "companion_object": "object", "property_declaration": "property"},
            # ``var isHidden: Boolean? = null`` then ``set(value) { ... }`` on the lines below.
            accessors=frozenset({"getter", "setter"}),
            properties=frozenset({"property_declaration"}),
            name_holders=frozenset({"variable_declaration"}),
            keyword_kinds={"class_declaration": {"interface": "interface", "enum": "enum"}},
            anonymous_names={
                "companion_object": "Companion",
                "anonymous_initializer": "init",
                "secondary_constructor": "constructor",
            },
            # Kotest's ``describe("cart") { it("adds") { ... } }``, a Ktor route's ``get("/") {
            # ... }``, Gradle's ``tasks.register<Copy>("docs") { ... }``: a trailing lambda.
            registrations=frozenset({"call_expression"}),
            suite_calls=_TRAILING_LAMBDA_SUITES,
            registration_labels=frozenset({"string_literal"}),
            callbacks=frozenset({"lambda_literal"}),
            callback_bodies=frozenset({"statements"}),
            argument_wraps=frozenset({"value_argument", "annotated_lambda"}),
            call_suffix="call_suffix",
            function_suites=True,
        ),
        CodeSpec(
            name="swift",
            extensions=(".swift",),
            comment=_C_LIKE,
            doc_comments=_DOC_BOTH,
            # ``protocol_function_declaration``: a protocol's required method (no body).
            functions=frozenset(
                {
                    "function_declaration",
                    "init_declaration",
                    "deinit_declaration",
                    "subscript_declaration",
                    "protocol_function_declaration",
                    "computed_property",  # ``var total: Int { ... }``, named by its declaration
                    "willset_didset_block",  # ``var stock = 0 { didSet { ... } }``, the same
                    "lambda_literal",  # ``let normalize = { (sku: String) in ... }``
                }
            ),
            # class, struct, enum, extension and actor are all ``class_declaration``.
            containers=frozenset({"class_declaration", "protocol_declaration"}),
            wrappers=frozenset({"property_declaration"}),
            # A body's statements sit in one ``statements`` node: read them as the body's own.
            transparent=frozenset({"statements"}),
            # A subscript's ``{ ... }``; a closure's or a computed property's statements.
            body_types=frozenset({"computed_property", "willset_didset_block", "statements"}),
            kinds={"protocol_declaration": "protocol", "computed_property": "property", "willset_didset_block": "property"},
            keyword_kinds={
                "class_declaration": {"struct": "struct", "enum": "enum", "extension": "extension", "actor": "actor"}
            },
            # A subscript's ``name`` field is its return type: it is named by its keyword.
            name_formats={"subscript_declaration": ("name", "subscript")},
            anonymous_names={"deinit_declaration": "deinit"},
            naming_wrappers=frozenset({"property_declaration"}),
            own_bodies=frozenset({"computed_property", "willset_didset_block"}),
            # Quick's ``describe("cart") { it("adds") { ... } }`` in a spec's ``spec()``, a
            # Vapor route's ``app.get("hello") { req in ... }``: a trailing closure.
            registrations=frozenset({"call_expression"}),
            suite_calls=_TRAILING_LAMBDA_SUITES,
            registration_labels=frozenset({"line_string_literal"}),
            callbacks=frozenset({"lambda_literal"}),
            callback_bodies=frozenset({"statements"}),
            argument_wraps=frozenset({"value_argument"}),
            call_suffix="call_suffix",
            function_suites=True,
        ),
        CodeSpec(
            name="scala",
            extensions=(".scala", ".sc", ".sbt"),
            comment=_C_LIKE,
            doc_comments=_DOC_BLOCK,
            # ``function_declaration``: an abstract ``def`` (no body).
            functions=frozenset({"function_definition", "function_declaration", "lambda_expression"}),
            # ``given_definition``: Scala 3's ``given listShow[A](using ...): Show[List[A]] with``
            # and its methods (an anonymous ``given Show[Int] with`` is named by its type).
            containers=frozenset(
                {
                    "class_definition",
                    "object_definition",
                    "trait_definition",
                    "enum_definition",
                    "extension_definition",
                    "given_definition",
                    "package_object",  # ``package object data { ... }``
                    "package_clause",  # ``package outer { ... }`` (without braces: a statement)
                }
            ),
            needs_body=frozenset({"package_clause"}),
            wrappers=frozenset({"val_definition", "var_definition"}),  # ``val double = (x: Int) => ...``
            body_types=frozenset({"block", "indented_block"}),  # a lambda's ``{ ... }``
            name_fields=("name", "return_type"),
            kinds={
                "object_definition": "object",
                "trait_definition": "trait",
                "enum_definition": "enum",
                "extension_definition": "extension",
                "given_definition": "given",
                "package_object": "package",
                "package_clause": "package",
            },
            # ``extension (s: String)`` is named by what it extends (not by its first method),
            # and its methods are its own children: it is its own body.
            name_formats={"extension_definition": ("parameters", "extension {}")},
            naming_wrappers=frozenset({"val_definition", "var_definition"}),
            self_bodies=frozenset({"extension_definition"}),
        ),
        CodeSpec(
            name="bash",
            extensions=(".sh", ".bash", ".zsh"),
            comment=("#", ""),
            functions=frozenset({"function_definition"}),  # ``f() {`` and ``function f {``
            containers=frozenset(),
            # ``if ! type log >/dev/null; then log() {...}; fi``: a fallback defined under a guard.
            wrappers=frozenset({"if_statement"}),
        ),
        CodeSpec(
            name="lua",
            extensions=(".lua",),
            comment=("--", ""),
            # ``function M.f()``, ``function M:m()``, ``local function f()``; and ``function``
            # expressions assigned to a name.
            functions=frozenset({"function_declaration", "function_definition"}),
            # A table of functions (``local Account = { deposit = function ... }``).
            containers=frozenset({"table_constructor"}),
            wrappers=frozenset({"variable_declaration", "assignment_statement", "expression_list", "field"}),
            kinds={"table_constructor": "table"},
            naming_wrappers=frozenset({"assignment_statement", "field"}),
            # ``M.on_load = function() ... end``; in a function's body such an assignment
            # (``getmetatable("").__mod = function``) is one of its statements.
            assignments=frozenset({"assignment_statement"}),
            assigned_field="value",
            anonymous_names={"function_definition": "<function>"},  # ``{"required", function(self) ... end}``
            self_bodies=frozenset({"table_constructor"}),
            name_separators=(":",),  # ``function Account:deposit`` is ``Account.deposit``
            method_marks=(":",),  # ... a method, while ``function M.new()`` is a module's function
        ),
        CodeSpec(
            name="proto",
            extensions=(".proto",),
            comment=_C_LIKE,
            # Protocol Buffers: messages (nested ones too), enums and services, whose rpcs are
            # their members; names stand in ``message_name`` and the like, no field holds them.
            functions=frozenset({"rpc"}),
            containers=frozenset({"message", "enum", "service"}),
            wrappers=frozenset(),
            name_types=frozenset({"message_name", "enum_name", "service_name", "rpc_name"}),
            body_types=frozenset({"message_body", "enum_body"}),
            own_bodies=frozenset({"service"}),  # its rpcs are its own children
            kinds={"message": "message", "enum": "enum", "service": "service", "rpc": "rpc"},
        ),
        CodeSpec(
            name="hcl",
            extensions=(".tf", ".tfvars", ".hcl"),
            comment=("#", ""),
            # Terraform and other HCL: every block is a definition, named by its labels
            # (``aws_s3_bucket.assets``) or, without any, by its type (``terraform``, ``locals``),
            # of the kind its type says; its attributes and nested blocks are its members.
            functions=frozenset(),
            containers=frozenset({"block"}),
            wrappers=frozenset(),
            transparent=frozenset({"body"}),  # (the file's own body; a block's is found as its body)
            name_types=frozenset({"identifier"}),
            body_types=frozenset({"body"}),
            label_types=frozenset({"string_lit"}),
            named_kinds=frozenset({"block"}),
        ),
        CodeSpec(
            name="graphql",
            extensions=(".graphql", ".gql", ".graphqls"),
            comment=("#", ""),
            # A schema's types, interfaces, inputs and enums, whose fields are their members
            # (packed together, as a class's fields are), and a client's operations and
            # fragments. The grammar nests each in ``definition`` > ``type_system_definition`` >
            # ``type_definition``: those are opened.
            functions=frozenset({"operation_definition", "fragment_definition"}),
            containers=frozenset(
                {
                    "object_type_definition", "interface_type_definition", "input_object_type_definition",
                    "enum_type_definition", "object_type_extension", "interface_type_extension", "schema_definition",
                }
            ),
            wrappers=frozenset(),
            transparent=frozenset(
                {
                    "document", "definition", "type_system_definition", "type_definition", "executable_definition",
                    "type_system_extension", "type_extension",
                }
            ),
            name_types=frozenset({"name", "fragment_name"}),
            body_types=frozenset(
                {"fields_definition", "enum_values_definition", "input_fields_definition", "selection_set"}
            ),
            kinds={
                "object_type_definition": "type", "interface_type_definition": "interface",
                "input_object_type_definition": "input", "enum_type_definition": "enum",
                "object_type_extension": "extension", "interface_type_extension": "extension",
                "schema_definition": "schema", "operation_definition": "operation",
                "fragment_definition": "fragment",
            },
        ),  # fmt: skip
        CodeSpec(
            name="haskell",
            extensions=(".hs",),
            comment=("--", ""),
            # A top-level function is its type signature (``restock :: Int -> Item -> Item``)
            # and its equations, separate siblings to the grammar (``function``; ``bind`` for
            # one without arguments: ``main = do``), joined as one definition (``equations``).
            # A class's signature without a default is a method of its own. ``header``: the
            # module header (``module Shop.Restock (...) where``); ``type_synomym`` is spelled
            # so by the grammar.
            functions=frozenset(
                {
                    "function", "bind", "signature", "header", "newtype", "type_synomym", "type_family",
                    "data_family", "pattern_synonym", "foreign_import",
                }
            ),
            containers=frozenset({"class", "instance", "data_type"}),
            equations=frozenset({"function", "bind"}),
            # In a function's body a ``bind`` is a statement: ``x <- getLine`` in a ``do`` block
            # (and a ``where`` clause's value, ``discount = 5``).
            local_statements=frozenset({"bind"}),
            type_signatures=frozenset({"signature"}),
            wrappers=frozenset(),
            # ``-- |`` and ``-- ^`` are ``haddock`` nodes, plain ``--`` ones ``comment``.
            attached=_COMMENTS | {"haddock"},
            comment_types=frozenset({"haddock"}),
            docs_after=(b"-- ^", b"{- ^"),
            # The file's declarations sit in one ``declarations`` node; a ``where`` clause's
            # helpers in ``local_binds`` (a split function's nested definitions).
            # A ``do`` block's statements are its equation's (``main = do``).
            transparent=frozenset({"declarations", "local_binds", "do"}),
            # The grammar hangs the comments after the last import (the first declaration's
            # haddock) on ``imports``.
            comment_hosts=frozenset({"imports"}),
            # ``operator``: an infix equation's (``a <+> b = ...``, through ``name_paths``);
            # ``module``: the module header's ``module Shop.Pricing (...) where``.
            name_fields=("name", "operator", "module"),
            name_types=frozenset({"variable", "name", "constructor", "prefix_id"}),
            name_paths=frozenset({"infix", "equation", "apply"}),  # (and ``pattern Foo x = Just x``)
            body_types=frozenset({"class_declarations", "instance_declarations", "data_constructors", "gadt_constructors"}),
            # An equation's body is its first ``match`` (``= expression``, or its first guard's
            # ``| cond = expression``): its later guards and its ``where`` clause follow it.
            body_paths={"function": ("match",), "bind": ("match",)},
            # The module header names the declarations after it (``Shop.Pricing.quote``).
            scoping=frozenset({"header"}),
            # ``instance Priced Item`` is ``<Item as Priced>``, as Rust's impls are named.
            name_formats={"instance": ("patterns", "{}")},
            trait_fields={"instance": "name"},
            kinds={
                "header": "module", "instance": "instance", "data_type": "data", "newtype": "newtype",
                "type_synomym": "type", "type_family": "type_family", "data_family": "data_family",
                "pattern_synonym": "pattern", "foreign_import": "foreign",
            },
        ),  # fmt: skip
        CodeSpec(
            name="julia",
            extensions=(".jl",),
            comment=("#", ""),
            # ``function f(x) ... end``, ``macro m(ex) ... end``, and the one-line ``f(x) = ...``:
            # an ``assignment`` whose left side is a call (``call_heads``).
            functions=frozenset({"function_definition", "macro_definition", "assignment"}),
            # Modules and structs hold their members in a ``block``; ``abstract type`` and
            # ``primitive type`` have none.
            containers=frozenset(
                {"module_definition", "struct_definition", "abstract_definition", "primitive_definition"}
            ),
            call_heads={"assignment": "call_expression"},
            # ``@inline function f(x)``, ``@kwdef struct Config``: the macro call holds the definition.
            wrappers=frozenset({"macrocall_expression", "macro_argument_list"}),
            # A docstring is a string right above the definition it documents.
            attached=_COMMENTS | {"string_literal"},
            comment_types=frozenset({"string_literal"}),
            # No field holds a name but a module's: ``signature`` > ``call_expression`` > the
            # name, through ``where {T}`` and a return type's ``::T``; a struct's ``type_head``
            # > ``Cart{T} <: AbstractCart``. ``Base.show(io::IO, x)`` is named ``Base.show``.
            name_paths=frozenset(
                {
                    "signature", "call_expression", "where_expression", "typed_expression", "type_head",
                    "binary_expression", "parametrized_type_expression",
                }
            ),
            name_types=frozenset({"identifier", "field_expression", "operator"}),  # ``+(a::Money, b::Money) = ...``
            body_types=frozenset({"block"}),
            kinds={
                "module_definition": "module", "struct_definition": "struct", "abstract_definition": "abstract",
                "primitive_definition": "primitive", "macro_definition": "macro",
            },
            anonymous_names={"function_definition": "<callable>"},  # ``function (c::Cart)(x)``: a functor
        ),  # fmt: skip
        CodeSpec(
            name="dart",
            extensions=(".dart",),
            comment=_C_LIKE,
            doc_comments=_DOC_BOTH,
            # ``@override`` and ``///`` above a member are its siblings in the class body.
            attached=_COMMENTS | {"documentation_comment", "annotation"},
            # The grammar wraps no function in one node: a top-level ``function_signature``
            # (``getter_signature``, ``setter_signature``) and a member's ``method_signature``
            # are followed by their ``function_body`` as a sibling (see ``sibling_bodies``). In a
            # class the definition is the signature a ``method_signature`` wraps, so its kind
            # says what it is. Abstract methods and constructors without a body (``const
            # Cart({super.key});``, ``Sku(this.code);``) are ``declaration``s: statements, packed
            # with the fields.
            functions=frozenset(
                {
                    "function_signature", "getter_signature", "setter_signature", "operator_signature",
                    "constructor_signature", "factory_constructor_signature",
                    "type_alias",  # ``typedef Json = Map<String, dynamic>;``
                }
            ),
            containers=frozenset(
                {"class_definition", "mixin_declaration", "extension_declaration", "extension_type_declaration",
                 "enum_declaration"}
            ),
            wrappers=frozenset({"method_signature"}),  # ``static``, ``external`` around a member's signature
            sibling_bodies={
                "function_signature": "function_body", "getter_signature": "function_body",
                "setter_signature": "function_body", "method_signature": "function_body",
            },
            # A local function (``int helper(int x) { ... }`` in a body) is a signature and a
            # body in a ``lambda_expression``: read as the siblings they are at other levels.
            transparent=frozenset({"local_function_declaration", "lambda_expression"}),
            name_types=frozenset({"identifier"}),  # (a ``type_identifier`` is a return type)
            body_types=frozenset({"class_body", "block"}),  # a mixin's; a function body's block
            kinds={
                "mixin_declaration": "mixin", "extension_declaration": "extension",
                "extension_type_declaration": "extension_type", "enum_declaration": "enum",
                "getter_signature": "getter", "setter_signature": "setter",
                "constructor_signature": "constructor", "factory_constructor_signature": "constructor",
                "type_alias": "type",
            },
            name_after={
                "operator_signature": ("operator", "operator {}"),
                "constructor_signature": (".", "{}"),  # ``Cart.empty()``: ``Cart.empty`` in the breadcrumb
                "factory_constructor_signature": (".", "{}"),
                "type_alias": ("typedef", "{}"),
            },
            anonymous_names={"extension_declaration": "extension"},  # ``extension on String``
        ),  # fmt: skip
        CodeSpec(
            name="solidity",
            extensions=(".sol",),
            comment=_C_LIKE,
            doc_comments=_DOC_BOTH,  # NatSpec: ``/// @notice`` lines and ``/** @dev */`` blocks
            # A contract's functions, modifiers (``_;`` is their body's statement), its
            # constructor and ``receive``/``fallback``; events and custom errors are one-line
            # declarations, definitions without a body (as Rust's trait methods are).
            functions=frozenset(
                {
                    "function_definition", "modifier_definition", "constructor_definition",
                    "fallback_receive_definition", "event_definition", "error_declaration",
                    "user_defined_type_definition",  # ``type Price is uint256;``
                }
            ),
            containers=frozenset(
                {
                    "contract_declaration", "interface_declaration", "library_declaration", "struct_declaration",
                    "enum_declaration",
                }
            ),
            wrappers=frozenset(),
            kinds={
                "contract_declaration": "contract", "interface_declaration": "interface",
                "library_declaration": "library", "struct_declaration": "struct", "enum_declaration": "enum",
                "modifier_definition": "modifier", "constructor_definition": "constructor",
                "event_definition": "event", "error_declaration": "error", "user_defined_type_definition": "type",
            },
            # ``receive() external payable {}`` and ``fallback() external {}`` are one node type,
            # named by neither field: its keyword names it (before 0.6: ``function() external``).
            keyword_kinds={
                "fallback_receive_definition": {"receive": "receive", "fallback": "fallback", "function": "fallback"}
            },
            keyword_names=frozenset({"fallback_receive_definition"}),
            anonymous_names={"constructor_definition": "constructor"},
        ),  # fmt: skip
        CodeSpec(
            name="zig",
            extensions=(".zig", ".zon"),
            comment=_C_LIKE,
            # ``///`` above a declaration (``//!`` is its container's, the file's: no item's).
            attached=_COMMENTS | {"doc_comment"},
            doc_comments=("///",),
            # A ``Decl`` is ``fn name(...) T`` with its ``Block``; without one it is a wrapper
            # (``bodiless_wrappers``) of a ``VarDecl`` (``const Item = struct {...};``, named by
            # its identifier) or an ``extern fn`` prototype (a function without a body). ``test
            # "name" {...}`` and ``test name {...}`` are tests, named by their string or identifier.
            functions=frozenset({"Decl", "FnProto", "TestDecl"}),
            # ``struct``, ``enum``, ``union`` and ``opaque`` bodies: their fields and ``Decl``s are
            # their own children (``own_bodies``), their kind is their ``ContainerDeclType``'s
            # first word (``named_kinds``: ``enum(u8)`` is an ``enum``, ``union(enum)`` a
            # ``union``). The expression nodes that hold one under a ``const`` are wrappers.
            # An error set (``const ParseError = error{ MissingField, BadNumber };``) likewise. In
            # a function's body a ``Statement`` holding one is a local type (``const Context =
            # struct { fn lessThan ... }``, the only way Zig nests a function), and a generic
            # type's ``return struct {...}`` (``AssignExpr``) is named ``struct``: ``Box.struct.get``.
            containers=frozenset({"ContainerDecl", "ErrorSetDecl"}),
            wrappers=frozenset({"Decl", "VarDecl", "ErrorUnionExpr", "SuffixExpr", "Statement", "AssignExpr"}),
            bodiless_wrappers=frozenset({"Decl"}),
            naming_wrappers=frozenset({"VarDecl"}),
            own_bodies=frozenset({"ContainerDecl", "ErrorSetDecl"}),
            head_ends={"ContainerDecl": "{", "ErrorSetDecl": "{"},  # its head: ``pub const Item = struct {``
            body_types=frozenset({"Block"}),
            name_types=frozenset({"IDENTIFIER", "STRINGLITERALSINGLE", "ContainerDeclType"}),
            name_holders=frozenset({"FnProto"}),  # a ``Decl``'s name is its prototype's
            named_kinds=frozenset({"ContainerDecl"}),
            kinds={"TestDecl": "test", "ErrorSetDecl": "error"},
            anonymous_names={"TestDecl": "test"},  # ``test { _ = Item; }``
        ),  # fmt: skip
        CodeSpec(
            name="r",
            extensions=(".r",),  # (``.R`` too: suffixes are matched lower-cased)
            comment=("#", ""),
            # Every function is an anonymous ``function(x)`` (or ``\(x)``) given a name by an
            # assignment, ``name <- function``, ``name = function``, ``name <<- function``: the
            # grammar's ``binary_operator``, named by its left side. Not an ``assignments``
            # entry, so that a helper assigned in a function's body is a nested definition.
            functions=frozenset({"function_definition"}),
            # An R6 class, a Reference class, a list of functions: ``Shop <- R6Class("Shop",
            # public = list(total = function() ...))`` is the call's ``arguments``, its own body,
            # whose named arguments are its members (``public`` is a container of its own).
            containers=frozenset({"arguments"}),
            self_bodies=frozenset({"arguments"}),
            kinds={"arguments": "class"},
            # The assignment, the call around the class's arguments, a named argument.
            wrappers=frozenset({"binary_operator", "call", "argument"}),
            naming_wrappers=frozenset({"binary_operator", "argument"}),
            name_fields=("lhs", "name"),
            # (A function's body may be a bare identifier: no name of the function's.)
            name_types=frozenset(),
            nameless=frozenset({"function_definition", "arguments"}),
            # ``setMethod("area", "Shape", function(shape) {...})``: S4 methods, named by their
            # generic (a ``callback``, as other languages' registered blocks are).
            registrations=frozenset({"call"}),
            registration_labels=frozenset({"string"}),
            callbacks=frozenset({"function_definition"}),
            callback_bodies=frozenset({"braced_expression"}),
            argument_wraps=frozenset({"argument"}),
        ),
        CodeSpec(
            name="perl",
            extensions=(".pl", ".pm", ".t"),
            comment=("#", ""),
            # POD (``=head2 total`` ... ``=cut``) is a subroutine's documentation, a blank line
            # above it as often as not; ``=head1 NAME`` above ``package`` is the package's.
            attached=_COMMENTS | {"pod"},
            doc_comments=("=head", "=item", "=pod", "=begin", "=for"),
            # ``sub name {...}``; Perl 5.38's ``method name {...}`` in a ``class``; an anonymous
            # ``sub {...}`` given a name at file level (``my $on_error = sub {...};``, ``local
            # *name = sub {...};``: named as written, sigil and all).
            functions=frozenset(
                {"subroutine_declaration_statement", "method_declaration_statement", "anonymous_subroutine_expression"}
            ),
            # ``package Shop::Cart { ... }`` and ``class Shop::Item { ... }`` hold their subs;
            # ``package Shop::Cart;`` (``class Shop::Item;``) scopes the subs after it, until
            # the next one. A package's name is whole: ``package Shop::Price {`` after it is
            # ``Shop.Price``, not in ``Shop.Cart``.
            containers=frozenset({"package_statement", "class_statement"}),
            scoping=frozenset({"package_statement", "class_statement"}),
            body_types=frozenset({"block"}),  # a package's or a class's (a sub's is its ``body``)
            # A package is a namespace: its subs are functions (Perl does not say which are
            # methods); a class's ``method``s are methods.
            kinds={"package_statement": "package", "method_declaration_statement": "method"},
            # ``my $on_error = sub {...};`` at file level; in a sub's body such an assignment is
            # one of its statements (a ``my sub helper {...}`` there is a nested definition).
            wrappers=frozenset({"expression_statement", "assignment_expression"}),
            assignments=frozenset({"assignment_expression"}),
            naming_wrappers=frozenset({"assignment_expression"}),
            # The variable assigned to, through ``my``/``our``/``local``: ``$on_error``, ``*name``.
            name_types=frozenset({"scalar", "glob", "array", "hash"}),
            name_holders=frozenset({"variable_declaration", "localization_expression"}),
        ),
        CodeSpec(
            name="elixir",
            extensions=(".ex", ".exs"),
            comment=("#", ""),
            # Every definition is a ``call`` (``definition_calls``), typed by its callee's word:
            # a module, protocol or implementation holds functions; ExUnit's ``describe "x" do``
            # holds ``test "y" do``s, named ``describe("x")`` and ``test("y")``.
            definition_calls=frozenset({"call"}),
            functions=frozenset(
                {
                    "def", "defp", "defmacro", "defmacrop", "defguard", "defguardp", "defdelegate",
                    "defn", "defnp",  # Nx's numerical functions
                    "test", "setup", "setup_all",
                }
            ),
            containers=frozenset({"defmodule", "defprotocol", "defimpl", "describe"}),
            # ``@doc``, ``@spec``, ``@impl true`` right above a ``def`` are its own.
            attached=_COMMENTS | {"unary_operator"},
            body_types=frozenset({"do_block"}),
            # ``def add(cart, item)``: through the call's callee; ``add(x) when x > 0``: its left.
            name_fields=("target", "left"),
            name_types=frozenset({"identifier", "alias", "dot"}),  # ``defmodule __MODULE__.Sub do``
            registration_labels=frozenset({"string"}),  # ``test "adds an item" do``
            # ``test "pending"`` without a body is ExUnit's skipped test, ``setup(context)`` a call.
            needs_body=frozenset({"test", "describe", "setup", "setup_all", "defmodule", "defimpl"}),
            anonymous_names={"setup": "setup", "setup_all": "setup_all"},
            # ``defimpl Priced, for: Item`` is ``<Item as Priced>``: its module, ``Priced.Item``,
            # is neither the protocol nor the type (``defimpl Inspect do`` in a struct's module
            # keeps the protocol's name).
            trait_fields={"defimpl": "for"},
            kinds={
                "defmodule": "module", "defprotocol": "protocol", "defimpl": "impl", "describe": "callback",
                # A module's functions are functions, a protocol's too (no methods in Elixir).
                "def": "function", "defp": "function", "defdelegate": "function", "defn": "function",
                "defnp": "function", "defmacro": "macro", "defmacrop": "macro", "defguard": "guard",
                "defguardp": "guard", "test": "callback", "setup": "callback", "setup_all": "callback",
            },
        ),  # fmt: skip
        CodeSpec(
            name="objc",
            extensions=(".mm",),  # (a ``.m`` file or a ``.h`` header is told by its content: ``_CONTENT_HINTS``)
            comment=_C_LIKE,
            # A class's ``@implementation`` holds its methods (``- (void)restock:(NSString *)sku
            # count:(NSInteger)n {...}``), each in an ``implementation_definition`` (a wrapper);
            # C's functions, structs and enums stand beside them. ``@interface`` (a category's
            # too: ``@interface Store (Discounts)``) and ``@protocol`` list properties and methods
            # declared, no body node around them: they are their own bodies.
            functions=frozenset({"function_definition", "method_definition"}),
            containers=frozenset(
                {
                    "class_interface", "class_implementation", "protocol_declaration",
                    "struct_specifier", "union_specifier", "enum_specifier",
                }
            ),
            wrappers=frozenset({"implementation_definition", "type_definition", "declaration"}),
            transparent=frozenset(
                {"preproc_ifdef", "preproc_if", "preproc_else", "preproc_elif", "linkage_specification"}
            ),
            own_bodies=frozenset({"class_interface", "class_implementation", "protocol_declaration"}),
            line_heads=frozenset({"class_interface", "class_implementation", "protocol_declaration"}),
            # A class is named by its first identifier (no field holds it), a C function by its
            # declarator, a method by its selector (``restock:count:``), declared or defined.
            name_fields=("name", "declarator"),
            selectors=frozenset({"method_definition", "method_declaration"}),
            naming_wrappers=frozenset({"type_definition"}),  # ``typedef struct {...} Point;``
            kinds={
                "class_interface": "interface", "class_implementation": "implementation",
                "protocol_declaration": "protocol", "enum_specifier": "enum", "struct_specifier": "struct",
                "union_specifier": "struct",
            },
            # ``@interface Store (Discounts)``, ``@implementation Store (Discounts)``: a category
            # of ``Store`` (its methods are ``Store``'s). A class extension, ``@interface Store
            # ()``, is one too: no token tells them apart.
            keyword_kinds={"class_interface": {"(": "category"}, "class_implementation": {"(": "category"}},
            needs_body=frozenset({"struct_specifier", "union_specifier", "enum_specifier"}),
            body_types=frozenset({"compound_statement"}),  # a method's (no field names it)
            # An ``@interface``'s and a ``@protocol``'s method declarations, listed in its summary
            # when it is split (its ``@property`` lines stay members, unlisted).
            member_declarations={"method_declaration": ""},
            # Foundation's ``NS_ASSUME_NONNULL_BEGIN`` alone on its line (the grammar read it as
            # a declaration's type, and the definition below as its declarator).
            macro_lines=True,
            enum_macros=(
                "NS_ENUM", "NS_OPTIONS", "NS_CLOSED_ENUM", "NS_ERROR_ENUM", "CF_ENUM", "CF_OPTIONS", "CF_CLOSED_ENUM",
            ),
        ),  # fmt: skip
        CodeSpec(
            name="powershell",
            extensions=(".ps1", ".psm1"),
            comment=("#", ""),
            # ``function``, ``filter`` and ``workflow`` are all a ``function_statement``; a class's
            # constructors and methods are ``class_method_definition``s.
            functions=frozenset({"function_statement", "class_method_definition"}),
            containers=frozenset({"class_statement", "enum_statement"}),
            # Statements stand in a ``statement_list`` (the file's, a block's); an advanced
            # function's ``begin``/``process``/``end`` blocks in a ``named_block_list``, opened
            # (their ``statement_block``s too): a function defined in ``begin {}`` is the
            # function's own, and a big ``process {}`` is packed statement by statement.
            transparent=frozenset({"statement_list", "named_block_list", "named_block", "statement_block"}),
            name_types=frozenset({"function_name", "simple_name"}),
            # A function's ``script_block`` holds its ``param(...)`` block then its body: the
            # param block is the signature, repeated above the body's parts.
            body_types=frozenset({"script_block_body"}),
            body_hosts=frozenset({"script_block"}),
            uncommented_heads=True,  # (its help comment, when it stands above the param block)
            own_bodies=frozenset({"class_statement", "enum_statement"}),  # members are their own children
            line_heads=frozenset({"class_statement", "enum_statement"}),  # ``class Store : Base {``
            kinds={"enum_statement": "enum"},
            keyword_kinds={"function_statement": {"filter": "filter", "workflow": "workflow"}},
        ),
        # ``.mli`` interfaces are another grammar of the same nodes: one spec for both.
        *(
            CodeSpec(
                name=ml_name,
                extensions=ml_ext,
                comment=("(*", " *)"),
                doc_comments=("(**",),  # ``(** Adds stock. *)``, a blank line above its ``let`` or not
                # ``let``, ``module``, ``class`` and ``type`` items hold their bindings (``let rec
                # even n = ... and odd n = ...``): opened, each binding is a definition, its keyword
                # (``let rec``, ``and``) going with it. A function body's ``let ... in`` chain and
                # ``a; b`` sequences are opened too: their parts are the body's statements.
                transparent=frozenset(
                    {
                        "value_definition", "module_definition", "class_definition", "class_type_definition",
                        "type_definition", "let_expression", "sequence_expression",
                        "functor", "structure",  # ``module F = functor (P : S) -> struct ... end``: its items
                    }
                ),
                # A ``let_binding`` is a function when it has parameters or is a ``fun``/``function``
                # (``function_children``); ``val``s and ``external``s of a signature, a class's
                # methods, ``method virtual``s and a class type's ``method``s are declared in one line.
                functions=frozenset(
                    {
                        "let_binding", "method_definition", "method_specification", "value_specification", "external",
                        "exception_definition",
                    }
                ),
                function_children={"let_binding": frozenset({"parameter", "fun_expression", "function_expression"})},
                # Modules (and functors: ``module Make (P : PRICED) = struct``), module types
                # (``module type S = sig ... end``), classes and class types hold their items; a
                # type's variants or record fields are its members.
                containers=frozenset(
                    {"module_binding", "module_type_definition", "class_binding", "class_type_binding", "type_binding"}
                ),
                name_fields=("pattern", "name"),  # a ``let_binding``'s name is its pattern, ``( +! )`` too
                name_types=frozenset(
                    {
                        "value_name", "module_name", "module_type_name", "class_name", "class_type_name", "method_name",
                        "type_constructor", "constructor_name",
                    }
                ),
                name_paths=frozenset({"constructor_declaration"}),  # ``exception Out_of_stock of string``
                # An interface's ``module Stock : sig ... end`` has no ``body`` field; a class's
                # ``object ... end``, a class type's too.
                body_types=frozenset({"structure", "signature", "object_expression", "class_body_type"}),
                body_openers=True,  # ``struct``, ``sig``, ``object``: the head's last word
                closing_keywords=frozenset({"in"}),  # ``let rec go acc = ... in``: the local function's last word
                kinds={
                    "module_binding": "module", "module_type_definition": "module_type",
                    "class_type_binding": "class_type", "type_binding": "type", "value_specification": "value",
                    "external": "external", "exception_definition": "exception", "method_definition": "method",
                    "method_specification": "method",
                },
            )
            for ml_name, ml_ext in (("ocaml", (".ml",)), ("ocaml_interface", (".mli",)))
        ),  # fmt: skip
        CodeSpec(
            name="fsharp",
            # ``.fs`` and scripts; ``.fsi`` signature files are left out: their grammar misreads
            # a top-level ``module``/``namespace``, type definitions and named arguments.
            extensions=(".fs", ".fsx"),
            comment=("//", ""),
            doc_comments=("///",),  # XML doc comments, a blank line above their definition or not
            # ``[<EntryPoint>]`` above a ``let``, ``[<Struct>]`` above a ``type``.
            attached=_COMMENTS | {"attributes"},
            # The grammar hangs the comments between two definitions on the one above (the
            # doc comment of a ``let`` is the last child of the ``type`` before it).
            hung_comments=True,
            # A ``let`` with parameters (or bound to a ``fun``/``function``) is a function,
            # ``let rate = 0.2`` a statement; ``let rec even n = ... and odd n = ...`` is one
            # node whose bindings are each a definition (``binding_groups``). A member
            # (``member``, ``static member``, ``override``, ``abstract``, ``new``) is a
            # ``member_defn``, its body in its ``method_or_prop_defn`` (``body_after``); an
            # auto-property (``member val``) and ``static let`` are statements.
            functions=frozenset(
                {
                    "function_or_value_defn", "member_defn", "exception_definition", "type_abbrev_defn",
                    "delegate_type_defn",
                }
            ),
            function_children={
                "function_or_value_defn": frozenset(
                    {"function_declaration_left", "fun_expression", "function_expression"}
                ),
                "member_defn": frozenset({"method_or_prop_defn", "member_signature", "additional_constr_defn"}),
            },
            binding_groups={"function_or_value_defn": "and"},
            body_after={"member_defn": "="},
            body_hosts=frozenset({"method_or_prop_defn", "additional_constr_defn"}),
            # ``module Shop.Stock`` (the file's first line, holding the rest), ``namespace``,
            # ``module Pricing =`` blocks, and types: classes, records, unions, enums,
            # interfaces, their members after a ``with``; ``interface IPriced with`` in a class
            # holds its implementation; ``type System.String with`` extends a type.
            containers=frozenset(
                {
                    "named_module", "namespace", "module_defn", "anon_type_defn", "record_type_defn",
                    "union_type_defn", "enum_type_defn", "interface_type_defn", "interface_implementation",
                    "type_extension",
                }
            ),
            # No node holds their members: they are their own children after their head.
            own_bodies=frozenset(
                {
                    "named_module", "namespace", "module_defn", "anon_type_defn", "record_type_defn",
                    "union_type_defn", "enum_type_defn", "interface_type_defn", "interface_implementation",
                }
            ),
            head_ends={
                "named_module": "long_identifier", "namespace": "long_identifier", "module_defn": "=",
                "anon_type_defn": "=", "record_type_defn": "=", "union_type_defn": "=", "enum_type_defn": "=",
                "interface_type_defn": "=", "interface_implementation": "with",
            },
            # ``with`` ends an interface implementation's head; ``struct``/``class``/``interface``
            # after a type's ``=`` is its head's too (``type V = struct``), not its first member's.
            body_openers=True,
            # ``type System.String with``: its ``with`` and members.
            body_types=frozenset({"type_extension_elements"}),
            # ``type A = ... and B = ...`` holds both; a function body's ``let`` chain and
            # sequences hold its statements; each member, case and field is a unit of its own;
            # definitions under an ``#if`` the parser reads (on a file's first line: see
            # ``annotations``) are the level's own.
            transparent=frozenset(
                {
                    "type_definition", "declaration_expression", "sequential_expression", "type_extension_elements",
                    "union_type_cases", "enum_type_cases", "record_fields", "preproc_if", "preproc_else",
                }
            ),
            closing_keywords=frozenset({"in"}),
            # ``#if DEBUG``, ``#else`` and ``#endif`` lines: the grammar reads them only at a
            # file's level, and an ``#else`` at column 0 inside an indented module or class left
            # the whole file in error. The parser reads each as a ``//`` comment (its text
            # kept): both branches are code, their definitions the level's own. And the ``rec``
            # of ``module rec Shop.Stock``, which the grammar does not know (it read the
            # module's name as ``rec``, its declarations as one expression), as spaces.
            annotations=r"(?<=\n)[ \t]*#(?:if|elif|else|endif)\b[^\n]*|(?<=\bmodule )rec(?= )",
            # A module's and a namespace's ``name``; an exception's; a member's ``this.Add`` is
            # ``Add``. A type's ``type_name`` holds its name (past ``private``, type arguments
            # dropped), a ``let``'s head its own (``(|Low|High|)``, ``(+.)``, ````adds an
            # item````); an interface implementation is named by its type.
            name_fields=("name", "exception_name"),
            name_parts={"property_or_ident": "method"},
            name_types=frozenset(
                {"identifier", "long_identifier", "op_identifier", "active_pattern", "identifier_pattern"}
            ),
            name_holders=frozenset(
                {"type_name", "function_declaration_left", "value_declaration_left", "member_signature"}
            ),
            name_paths=frozenset({"simple_type", "generic_type"}),
            anonymous_names={"member_defn": "new"},  # ``new(sku) = Bin(sku, 0)``
            keyword_kinds={"anon_type_defn": {"struct": "struct", "interface": "interface", "class": "class"}},
            kinds={
                "named_module": "module", "namespace": "namespace", "module_defn": "module",
                "record_type_defn": "record", "union_type_defn": "union", "enum_type_defn": "enum",
                "interface_type_defn": "interface", "interface_implementation": "implementation",
                "type_extension": "extension", "function_or_value_defn": "function",
                "function_declaration_left": "function", "value_declaration_left": "function",
                "exception_definition": "exception",
                "type_abbrev_defn": "type", "delegate_type_defn": "delegate",
            },
        ),  # fmt: skip
        CodeSpec(
            name="erlang",
            extensions=(".erl", ".hrl"),
            comment=("%", ""),
            # A function's clauses (``total([]) -> 0; total([H | T]) -> ...``) are one ``fun_decl``
            # each: joined as one definition (``equations``), with the ``-spec`` right above them.
            functions=frozenset(
                {
                    "fun_decl", "spec", "callback", "record_decl", "type_alias", "opaque", "pp_define",
                    # ``Double = fun(X) -> X * 2 end`` in a body: a nested function named by its variable.
                    "anonymous_fun",
                }
            ),
            equations=frozenset({"fun_decl"}),
            type_signatures=frozenset({"spec"}),
            # ``-module(stock).`` has no body: it scopes the forms after it (``stock.add``).
            containers=frozenset({"module_attribute"}),
            scoping=frozenset({"module_attribute"}),
            wrappers=frozenset({"match_expr"}),
            naming_wrappers=frozenset({"match_expr"}),
            nameless=frozenset({"anonymous_fun"}),  # ``lists:map(fun(X) -> ... end, L)`` is no definition
            # A clause's name is its first atom (through ``name_paths``); a spec's, a callback's,
            # its ``fun`` field; a bound fun's, its variable (``lhs``); ``-type sku() ::`` is
            # ``sku``. A macro's is its whole ``lhs``: ``-define(CENTS(E), ...)`` is ``CENTS(E)``.
            name_fields=("fun", "lhs"),
            name_types=frozenset({"atom", "var"}),
            name_paths=frozenset({"function_clause", "type_name"}),
            # A function's body is its (first) clause's ``-> ...``.
            body_paths={"fun_decl": ("function_clause", "clause_body"), "anonymous_fun": ("fun_clause", "clause_body")},
            kinds={
                "module_attribute": "module", "spec": "spec", "callback": "callback", "record_decl": "record",
                "type_alias": "type", "opaque": "type", "pp_define": "macro",
            },
        ),  # fmt: skip
        CodeSpec(
            name="fortran",
            extensions=(".f90", ".f95", ".f03", ".f08"),  # free form (fixed-form ``.f``/``.for``: ``fortran_fixed``)
            comment=("!", ""),
            # Doxygen's ``!>`` opens a procedure's documentation (``!!`` lines continue it): it
            # belongs to the definition below across a blank line too.
            doc_comments=("!>", "!!"),
            # No node holds a body: a procedure's ``function_statement`` (``pure function
            # f(x) result(y)``), its declarations and statements, its ``contains`` section and
            # its ``end function`` are all its own children (``own_bodies``), its head that first
            # statement (``head_ends``: continuation lines too). A main ``program`` is code run as
            # a procedure's is, its ``contains`` section holding its procedures; a submodule's
            # ``module procedure sep`` implements a procedure its module declared.
            functions=frozenset({"function", "subroutine", "module_procedure", "program"}),
            # A module's (a submodule's) declarations, derived types, interfaces and procedures;
            # a derived type's components and type-bound procedures; an interface block's
            # procedure declarations (``interface operator(+)``, ``abstract interface``).
            containers=frozenset({"module", "submodule", "derived_type_definition", "interface"}),
            # The ``contains`` section of a module, a procedure or a program: its procedures
            # are the level's own (its ``contains`` line a statement among them).
            # A derived type's ``contains`` holds its type-bound procedures (``procedure ::
            # observe => model_observe``), listed in its summary as a class's declared methods
            # are (as are a generic interface's ``module procedure`` lines).
            transparent=frozenset({"internal_procedures", "derived_type_procedures"}),
            member_declarations={"procedure_statement": ""},
            own_bodies=frozenset(
                {
                    "function", "subroutine", "module_procedure", "program", "module", "submodule",
                    "derived_type_definition", "interface",
                }
            ),
            head_ends={
                "function": "function_statement", "subroutine": "subroutine_statement",
                "module_procedure": "module_procedure_statement", "program": "program_statement",
                "module": "module_statement", "submodule": "submodule_statement",
                "derived_type_definition": "derived_type_statement", "interface": "interface_statement",
            },
            # No field names a definition: its first statement holds the name (``type, public
            # :: price_t``'s ``type_name``, after its attributes; a generic interface's ``name``
            # or ``operator(+)``).
            name_holders=frozenset(
                {
                    "function_statement", "subroutine_statement", "module_procedure_statement", "program_statement",
                    "module_statement", "submodule_statement", "derived_type_statement", "interface_statement",
                    "binding",  # a type-bound procedure's ``observe => model_observe``: ``observe``
                }
            ),
            name_types=frozenset({"name", "type_name", "operator", "binding_name", "method_name"}),
            anonymous_names={"interface": "interface"},  # ``abstract interface``, an external procedures' block
            # ``end module pricing``, ``end subroutine``: a closing brace, glued to the chunk before;
            # so is ``contains``, which closes a module's (a procedure's) specification part.
            closers=frozenset(
                {
                    "contains_statement",
                    "end_function_statement", "end_subroutine_statement", "end_module_procedure_statement",
                    "end_program_statement", "end_module_statement", "end_submodule_statement",
                    "end_type_statement", "end_interface_statement",
                }
            ),
            kinds={
                "function": "function", "subroutine": "subroutine", "module_procedure": "procedure",
                "program": "program", "module": "module", "submodule": "submodule",
                "derived_type_definition": "type", "interface": "interface",
            },
        ),  # fmt: skip
        CodeSpec(
            name="glsl",
            # Shaders by stage: vertex, fragment, compute, geometry, tessellation control and
            # evaluation (and a shared ``.glsl`` include).
            extensions=(".glsl", ".vert", ".frag", ".comp", ".geom", ".tesc", ".tese"),
            comment=_C_LIKE,
            # The grammar is C's: functions (``void main()``) and structs; ``#define`` macros
            # stay code, as in C.
            functions=frozenset({"function_definition"}),
            # An interface block (``layout(std140) uniform Lights { ... } lights;``, a ``buffer``
            # block, ``out VertexData { ... } vs_out;``) is a ``declaration`` with a body of
            # its own, its fields: a container of kind ``block``, named by its block name.
            containers=frozenset({"struct_specifier", "declaration"}),
            # A declaration without that body wraps the struct it defines (``struct Light {...}
            # sun;``), else it is a plain variable (``uniform sampler2D albedo;``).
            wrappers=frozenset({"declaration"}),
            bodiless_wrappers=frozenset({"declaration"}),
            body_types=frozenset({"field_declaration_list"}),
            # Variants under ``#ifdef USE_SHADOWS`` are the file's own definitions.
            transparent=frozenset({"preproc_ifdef", "preproc_if", "preproc_else", "preproc_elif"}),
            name_fields=("name", "declarator"),
            kinds={"struct_specifier": "struct", "declaration": "block"},
            needs_body=frozenset({"struct_specifier"}),  # ``Light sun;`` names a type for a variable
            # GLSL ES's precision qualifiers (``highp vec4 tint(...)``), its ``precision mediump
            # float;`` statement, a parameter's ``const`` before ``in`` and a stage's
            # ``layout(local_size_x = 16) in;`` (compute, geometry): the grammar reads none of
            # them (each was an ERROR), so the parser reads them as spaces.
            annotations=(
                r"(?<![\w.])(?:precision[ \t]+(?:highp|mediump|lowp)[ \t]+\w+[ \t]*;|(?:highp|mediump|lowp)(?![\w(])"
                r"|const(?=[ \t]+in[ \t])|layout[ \t]*\([^()\n]*\)[ \t]*(?:in|out)[ \t]*;)"
            ),
        ),
        CodeSpec(
            name="clojure",
            extensions=(".clj", ".cljs", ".cljc"),  # (``.edn`` is data: left to the text blocks)
            comment=(";;", ""),
            # Every form is a list; one is a definition by its first symbol, ``(defn name "doc"
            # [args] body...)``: a Lisp's defining call (``argument_lists``), typed by that word.
            definition_calls=frozenset({"list_lit"}),
            argument_lists=True,
            callee_skips=frozenset({"(", "meta_lit", "old_meta_lit"}),  # ``^:private (def ...)``
            # ``(ns shop.cart ...)`` scopes the definitions after it (its body is its requires).
            functions=frozenset(
                {
                    "ns", "defn", "defn-", "defmacro", "defmulti", "defmethod", "def", "defonce",
                    "deftest",  # clojure.test's
                    "(method)", "(signature)",  # a record's implementation, a protocol's signature
                }
            ),
            containers=frozenset(
                {"defprotocol", "definterface", "defrecord", "deftype", "extend-protocol", "extend-type"}
            ),
            scoping=frozenset({"ns"}),
            # ``.cljc``'s reader conditionals, ``#?(:clj (defn now [] ...) :cljs (defn now [] ...))``:
            # the definitions in each branch are the level's own (as C's ``#ifdef`` blocks are).
            transparent=frozenset({"read_cond_lit"}),
            member_calls={
                "defprotocol": "(signature)", "definterface": "(signature)", "defrecord": "(method)",
                "deftype": "(method)", "extend-protocol": "(method)", "extend-type": "(method)",
            },
            # A definition is its own body: its head ends with its parameter vector, or before
            # its first list (a multi-arity ``([x] ...)``, a protocol's signatures, ``(fn ...)``
            # assigned by ``def``).
            own_bodies=frozenset(
                {
                    "defn", "defn-", "defmacro", "defmulti", "defmethod", "def", "defonce", "deftest", "(method)",
                    "defprotocol", "definterface", "defrecord", "deftype", "extend-protocol", "extend-type",
                }
            ),
            head_ends=dict.fromkeys(
                (
                    "defn", "defn-", "defmacro", "defmulti", "defmethod", "def", "defonce", "deftest", "(method)",
                    "defprotocol", "definterface", "defrecord", "deftype", "extend-protocol", "extend-type",
                ),
                "vec_lit",
            ),
            body_starts=frozenset({"list_lit"}),
            # A docstring (between the name and the parameters) is no part of the head a split
            # definition's parts repeat: ``(defn plan-restock [bins suppliers today]``.
            attached=_COMMENTS | {"str_lit"},
            uncommented_heads=True,
            dispatch_names=frozenset({"defmethod"}),  # ``(defmethod price :book [item]``: ``price :book``
            # A symbol's name, past its metadata (``^:private helper``) and its namespace.
            name_fields=("name",),
            name_types=frozenset({"sym_name"}),
            kinds={
                "ns": "namespace", "deftest": "test", "defmacro": "macro", "defmulti": "multimethod", "defmethod": "method",
                "def": "variable", "defonce": "variable", "(method)": "method", "(signature)": "method",
                "defprotocol": "protocol", "definterface": "interface", "defrecord": "record", "deftype": "type",
                "extend-protocol": "extension", "extend-type": "extension",
            },
            # ``(def total (fn [xs] ...))`` defines a function (its value names no other kind).
            value_kinds={"def": {"fn": "function"}, "defonce": {"fn": "function"}},
            # ``(extend-protocol Priced String (cost [s] ...) nil (cost [_] ...))``: ``Priced.String.cost``,
            # ``Priced.nil.cost``; ``(extend-type Item Priced (cost ...) Shipped (weight ...))``.
            member_groups=frozenset({"extend-protocol", "extend-type"}),
        ),  # fmt: skip
        CodeSpec(
            name="cmake",
            extensions=(".cmake",),  # (and ``CMakeLists.txt``: ``_BY_WHOLE_NAME``)
            comment=("#", ""),
            # ``function(name args)`` ... ``endfunction()`` and ``macro(...)`` ... ``endmacro()``:
            # a ``function_def`` holds its head (``function_command``), its ``body`` and its end.
            # A target is a call (``definition_calls``), typed by its command:
            # ``add_library(inventory STATIC ...)``, ``add_executable``, ``add_custom_target``,
            # and a dependency fetched or built beside the project (``FetchContent_Declare(fmt
            # ...)``, ``ExternalProject_Add``), named by its first argument. Commands are
            # case-insensitive: the lower- and upper-case spellings are listed (``ADD_LIBRARY``).
            definition_calls=frozenset({"normal_command"}),
            functions=frozenset({"function_def", "macro_def", *_CMAKE_TARGETS}),
            containers=frozenset(),
            # In a function's body a target is one of its statements (``add_executable(${name}
            # ...)`` in a project's helper).
            local_statements=_CMAKE_TARGETS,
            # ``target_link_libraries(inventory ...)`` right after ``add_library(inventory ...)``
            # is the target's own: one chunk of the target and its settings.
            name_followers=True,
            # ``#[[ ... ]]`` bracket comments as well as ``#`` lines.
            attached=_COMMENTS | {"bracket_comment"},
            line_nodes=frozenset({"bracket_comment"}),
            body_types=frozenset({"body"}),
            # No field names a definition: a function's name is its head's first argument, past
            # the ``function`` keyword (a named node); a target's, its call's first argument
            # (``${PROJECT_NAME}_core`` as written, quotes off).
            name_paths=frozenset({"function_command", "macro_command", "argument_list"}),
            path_skips=frozenset({"function", "macro"}),
            name_types=frozenset({"identifier", "argument"}),
            # ``endfunction()`` closes its function as a brace does.
            closers=frozenset({"endfunction_command", "endmacro_command"}),
            kinds={
                "macro_def": "macro",
                **{word: kind for words, kind in _CMAKE_TARGET_KINDS for word in _cmake_spellings(words)},
            },
        ),
        CodeSpec(
            name="cobol",
            extensions=(".cob", ".cbl", ".cpy"),  # (``.cpy``: a copybook, records or paragraphs alone)
            comment=("*>", ""),
            # Fixed format (the grammar passes over the sequence area, columns 1-6, and reads a
            # ``*`` in column 7 as a comment). A program is a container named by its
            # ``PROGRAM-ID``, headed by its identification division; its divisions, the data
            # division's sections and a file's ``FD`` are containers of their own body, headed
            # to their first ``.``.
            containers=frozenset(
                {
                    "program_definition", "environment_division", "data_division", "procedure_division",
                    "file_section", "working_storage_section", "local_storage_section", "linkage_section",
                    "report_section", "screen_section", "file_description", "section_header",
                }
            ),
            # A paragraph, and a level-01 data description (a record: its level number is its
            # type, ``keyword_paths``), are the statements or items written after their header.
            functions=frozenset({"paragraph_header", "01", "1"}),
            own_bodies=frozenset(
                {
                    "program_definition", "environment_division", "data_division", "procedure_division",
                    "file_section", "working_storage_section", "local_storage_section", "linkage_section",
                    "report_section", "screen_section", "file_description",
                }
            ),
            head_ends={
                "program_definition": "identification_division",
                "file_description": "file_description_entry",
                **dict.fromkeys(
                    (
                        "environment_division", "data_division", "procedure_division", "file_section",
                        "working_storage_section", "local_storage_section", "linkage_section",
                        "report_section", "screen_section",
                    ),
                    ".",
                ),
            },
            # The grammar nests neither paragraphs in sections nor items in records: a header is
            # a sibling of what it heads, which runs to the next header of its rank.
            keyword_paths={"data_description": ("level_number",)},
            sibling_runs={
                "section_header": frozenset({"section_header"}),
                "paragraph_header": frozenset({"section_header", "paragraph_header"}),
                **dict.fromkeys(("01", "1"), frozenset({"01", "1", "77", "copy_statement"})),
            },
            text_names={
                "section_header": r"(?P<name>[\w-]+)\s+SECTION\b",
                "paragraph_header": r"(?P<name>[\w-]+)",
            },
            # The FD's records are in a list of their own, as a linkage section's may be.
            transparent=frozenset({"record_description_list"}),
            empty_comments=True,
            # ``PROGRAM-ID. PAYROLL.`` in its identification division, ``FD SHIFT-FILE.``'s
            # file, a record's ``entry_name``.
            name_paths=frozenset({"identification_division", "file_description_entry"}),
            path_skips=frozenset({"comment", "file_type"}),
            name_types=frozenset({"program_name", "entry_name", "WORD"}),
            anonymous_names={
                "environment_division": "ENVIRONMENT DIVISION", "data_division": "DATA DIVISION",
                "procedure_division": "PROCEDURE DIVISION", "file_section": "FILE SECTION",
                "working_storage_section": "WORKING-STORAGE SECTION",
                "local_storage_section": "LOCAL-STORAGE SECTION", "linkage_section": "LINKAGE SECTION",
                "report_section": "REPORT SECTION", "screen_section": "SCREEN SECTION",
            },
            closers=frozenset({"end_program"}),  # ``END PROGRAM PAYROLL.`` closes it as a brace does
            kinds={
                "program_definition": "program",
                **dict.fromkeys(("environment_division", "data_division", "procedure_division"), "division"),
                **dict.fromkeys(
                    (
                        "file_section", "working_storage_section", "local_storage_section", "linkage_section",
                        "report_section", "screen_section", "section_header",
                    ),
                    "section",
                ),
                "file_description": "file",
                "paragraph_header": "paragraph",
                "01": "record",
                "1": "record",
            },
        ),  # fmt: skip
        CodeSpec(
            name="groovy",
            # (Gradle's Groovy build scripts; a ``Jenkinsfile``: ``_BY_FILENAME``, ``_BY_NAME_PREFIX``.)
            extensions=(".groovy", ".gvy", ".gradle", ".jenkinsfile"),
            comment=_C_LIKE,
            doc_comments=_DOC_BLOCK,
            # The grammar knows no class nor method: every statement is a ``command`` of words
            # (``unit``s), its closure or body a ``block`` that holds the head's last words
            # before its ``{``. What a command defines is read from its head's text
            # (``head_patterns``): a type of its keyword, a method, a named closure, a Gradle
            # task, a pipeline's stage, any other call handed a closure (a ``block``: a build
            # script's ``dependencies {``, a pipeline's ``stages {``), all of them containers but
            # methods and closures, so that a pipeline splits into its stages and their steps.
            head_patterns={"command": _GROOVY_HEADS},
            functions=frozenset({"method", "constructor", "closure"}),
            containers=frozenset({"class", "interface", "trait", "enum", "annotation", "task", "stage", "block"}),
            body_types=frozenset({"block"}),
            # In a method's body a call's closure (``items.each {``), a named one, a stage of a
            # scripted pipeline's helper are its statements.
            local_statements=frozenset({"closure", "task", "stage", "block"}),
            # ``@Override`` alone on its line is a ``command`` of its own.
            annotation_holders=frozenset({"command"}),
            annotation_starts=frozenset({"decorate"}),
            kinds={
                "interface": "interface", "trait": "trait", "enum": "enum", "annotation": "annotation",
                "task": "task", "stage": "stage", "block": "block",
            },
        ),  # fmt: skip
        CodeSpec(
            name="matlab",
            extensions=(".m",),  # (a ``.m`` file of Objective-C is told by its content: ``_CONTENT_HINTS``)
            comment=("%", ""),
            # MATLAB's and GNU Octave's (Octave's own syntax, ``#`` comments and ``endfunction``,
            # is not the grammar's). A function file's primary function and the local functions
            # after it, with ``end`` or without, a function nested in one (named ``outer.inner``),
            # a script's local functions after its statements. ``function_signature``: a method
            # declared in a ``methods`` block without a body (abstract, or defined in its own file).
            functions=frozenset({"function_definition", "function_signature"}),
            # A ``classdef`` holds its blocks as its own children: ``properties``, ``events`` and
            # ``enumeration`` blocks are its statements (its fields), a ``methods`` block is
            # opened (``guards``): its functions are the class's methods, its line (``methods
            # (Static)``) and the comments under it go with the first of them, as a decorator does.
            containers=frozenset({"class_definition"}),
            guards=frozenset({"methods"}),
            guard_bodies=frozenset({"function_definition", "function_signature"}),
            own_bodies=frozenset({"class_definition"}),
            help_heads=frozenset({"class_definition"}),  # ``classdef Ledger < handle`` and its help text
            # A function's help text is the comment block right under its signature, then comes
            # its ``arguments`` block: both are its head, in its first part; its ``function ...
            # (...)`` line alone is repeated above the others (and with no parameters, its
            # help's lines are left out of it).
            body_types=frozenset({"block"}),
            head_ends={"function_definition": "function_arguments"},
            uncommented_heads=True,
            # Without ``end`` a function's block runs on to the next ``function``: the comments
            # it ends with after a blank line are the next one's (its help, a ``%%`` title).
            tail_comments=frozenset({"function_definition"}),
            blank_tokens=frozenset({"\n"}),  # (every statement's newline is a token)
            cell_marks=("%%",),  # a script's ``%% Load the export`` cells
            # A property's accessors, ``function set.Price(obj, v)``, ``get.Price``.
            name_prefixes=frozenset({"set.", "get."}),
            keyword_kinds={"function_definition": {"set.": "setter", "get.": "getter"}},
        ),
        # Scheme (R7RS, R6RS, Guile) and Racket: every form is a list, a definition by its first
        # symbol, as Clojure's are (``argument_lists``). ``(define (total items) ...)`` writes the
        # function as the call it defines: named by that list's first word, headed by the list
        # (``name_lists``); ``(define rate 0.2)`` is a variable, ``(define f (lambda ...))`` a
        # function. A ``define`` in a ``define``'s body is its nested definition.
        CodeSpec(
            name="scheme",
            extensions=(".scm", ".ss", ".sld", ".sls"),  # (R7RS libraries ``.sld``, R6RS ones ``.sls``)
            comment=(";;", ""),
            definition_calls=frozenset({"list"}),
            argument_lists=True,
            callee_skips=frozenset({"(", "[", "{"}),
            name_types=frozenset({"symbol"}),
            functions=frozenset({"define", "define*", "define-public", "define-syntax", "define-syntax-rule"}),
            # An R7RS ``define-library`` (an R6RS ``library``) holds its exports, imports and
            # definitions; Guile's ``(define-module (shop stock) ...)`` scopes what follows, as
            # Clojure's ``ns`` does. Both are named by their list as written: ``(shop stock)``.
            containers=frozenset({"define-record-type", "define-library", "library", "define-module"}),
            scoping=frozenset({"define-module"}),
            # R7RS's ``(begin ...)`` in a ``define-library`` (or at a file's top) holds definitions.
            open_calls=frozenset({"begin"}),
            own_bodies=frozenset(
                {"define", "define*", "define-public", "define-syntax", "define-syntax-rule", "define-library", "library"}
            ),
            # A definition is its own body, headed by its call list (``name_lists``), else (no
            # token of its own ends its head: ``""``) by its name and the atoms after it up to its
            # first list: ``(define total`` over a ``(lambda ...)``, ``(define-library (shop
            # stock)`` over its ``(export ...)``, ``(define rate`` of ``(define rate 0.2)``.
            head_ends=dict.fromkeys(
                ("define", "define*", "define-public", "define-syntax", "define-syntax-rule", "define-library", "library"),
                "",
            ),
            body_starts=frozenset({"list"}),
            name_lists={
                "define": "function", "define*": "function", "define-public": "function",
                "define-syntax": "macro", "define-syntax-rule": "macro",
            },
            value_kinds=dict.fromkeys(
                ("define", "define*", "define-public"), {"lambda": "function", "case-lambda": "function"}
            ),
            # In a body, ``(define total 0)`` is a local variable, one of its statements; an
            # internal ``(define (helper x) ...)`` is a nested function.
            local_statements=frozenset({"define", "define*", "define-syntax", "define-syntax-rule"}),
            kinds={
                "define": "variable", "define*": "variable", "define-public": "variable", "define-syntax": "macro",
                "define-syntax-rule": "macro", "define-record-type": "record", "define-library": "module",
                "library": "module", "define-module": "module",
            },
            method_marks=(),  # (a name may hold a dot: no method written outside its class)
        ),  # fmt: skip
        CodeSpec(
            name="racket",
            extensions=(".rkt",),
            comment=(";;", ""),
            definition_calls=frozenset({"list"}),
            argument_lists=True,
            callee_skips=frozenset({"(", "[", "{"}),
            name_types=frozenset({"symbol"}),
            attached=_COMMENTS | {"sexp_comment"},  # ``#;`` comments a whole form out
            functions=frozenset(
                {
                    "define", "define/contract", "define-syntax", "define-syntax-rule", "define-simple-macro",
                    "define-syntax-parse-rule",
                }
            ),
            # A ``struct``'s fields and options; a submodule's forms (``(module+ test ...)``,
            # ``(module shop racket/base ...)``, headed by its language).
            containers=frozenset({"struct", "define-struct", "module", "module+", "module*"}),
            open_calls=frozenset({"begin", "begin-for-syntax"}),
            own_bodies=frozenset(
                {
                    "define", "define/contract", "define-syntax", "define-syntax-rule", "define-simple-macro",
                    "define-syntax-parse-rule", "module", "module+", "module*",
                }
            ),
            head_ends=dict.fromkeys(
                (
                    "define", "define/contract", "define-syntax", "define-syntax-rule", "define-simple-macro",
                    "define-syntax-parse-rule", "module", "module+", "module*",
                ),
                "",  # (``(module shop racket/base``: headed by its language too)
            ),
            body_starts=frozenset({"list"}),
            # ``(define/contract (restock! item n) (-> item? natural? item?) ...)``: its contract
            # is the first line of its body.
            name_lists={
                "define": "function", "define/contract": "function", "define-syntax": "macro",
                "define-syntax-rule": "macro", "define-simple-macro": "macro", "define-syntax-parse-rule": "macro",
            },
            value_kinds=dict.fromkeys(
                ("define", "define/contract"), {"lambda": "function", "λ": "function", "case-lambda": "function"}
            ),
            local_statements=frozenset(
                {"define", "define-syntax", "define-syntax-rule", "define-simple-macro", "define-syntax-parse-rule"}
            ),
            kinds={
                "define": "variable", "define/contract": "variable", "define-syntax": "macro",
                "define-syntax-rule": "macro", "define-simple-macro": "macro", "define-syntax-parse-rule": "macro",
                "struct": "struct", "define-struct": "struct", "module": "module", "module+": "module",
                "module*": "module",
            },
            method_marks=(),
        ),  # fmt: skip
        CodeSpec(
            name="commonlisp",
            extensions=(".lisp", ".lsp", ".asd"),  # (not ``.cl``: OpenCL's too)
            comment=(";;", ""),
            # The grammar reads ``defun``, ``defmacro``, ``defgeneric`` and ``defmethod`` (and
            # ``lambda``) as a ``defun`` node, typed by the keyword in its header
            # (``keyword_paths``), named by the header's ``function_name`` (``(setf qty)`` too),
            # headed by that header, its lambda list last; every other form is a list typed by
            # its first symbol (``argument_lists``).
            definition_calls=frozenset({"list_lit"}),
            argument_lists=True,
            callee_skips=frozenset({"("}),
            keyword_paths={"defun": ("defun_header", "defun_keyword")},
            name_paths=frozenset({"defun_header"}),
            name_fields=("function_name",),
            # A symbol; a keyword's or an uninterned symbol's name (``:shop``, ``#:shop``: ``shop``).
            name_types=frozenset({"sym_lit", "kwd_symbol"}),
            functions=frozenset(
                {
                    "defun", "defmacro", "defgeneric", "defmethod", "defvar", "defparameter", "defconstant",
                    "deftype", "defpackage", "in-package", "defsystem",
                }
            ),
            # A class's (a condition's) slots; a struct's, named in ``(defstruct (bin (:conc-name
            # bin-)) ...)`` too (``name_lists``).
            containers=frozenset({"defclass", "define-condition", "defstruct"}),
            name_lists={"defstruct": "struct"},
            # ``(in-package :shop)`` scopes the definitions after it (``shop.restock``);
            # ``defpackage`` defines the package, no scope.
            scoping=frozenset({"in-package"}),
            # ``(defmethod price :around ((item book) qty)``: ``price :around (book t)``.
            specializer_names=frozenset({"defmethod"}),
            # A feature expression, ``#+sbcl (defun ...)``, is the definition's, as a decorator is.
            wrappers=frozenset({"include_reader_macro"}),
            open_calls=frozenset({"progn", "eval-when"}),
            own_bodies=frozenset({"defun", "defmacro", "defgeneric", "defmethod", "defclass", "define-condition"}),
            head_ends={
                **dict.fromkeys(("defun", "defmacro", "defgeneric", "defmethod"), "defun_header"),
                "defclass": "list_lit", "define-condition": "list_lit",  # its superclasses
            },
            kinds={
                "defmacro": "macro", "defgeneric": "generic", "defmethod": "method", "defvar": "variable",
                "defparameter": "variable", "defconstant": "constant", "deftype": "type", "defpackage": "package",
                "in-package": "namespace", "defsystem": "system", "defclass": "class",
                "define-condition": "condition", "defstruct": "struct",
            },
            method_marks=(),
        ),  # fmt: skip
        CodeSpec(
            name="elisp",
            extensions=(".el",),
            comment=(";;", ""),
            # ``defun`` (``defsubst``) and ``defmacro`` are nodes of their own, named by their
            # ``name`` field, headed to their parameters; ``defvar`` and ``defconst`` are special
            # forms typed by their keyword token (read as a word: ``name_types``); every other
            # definition is a list typed by its first symbol (``argument_lists``).
            definition_calls=frozenset({"list", "special_form"}),
            argument_lists=True,
            callee_skips=frozenset({"("}),
            name_types=frozenset({"symbol", "defvar", "defconst", "progn"}),
            functions=frozenset(
                {
                    "function_definition", "macro_definition", "defvar", "defconst", "defvar-local", "defcustom",
                    "defgroup", "defface", "defalias", "cl-defun", "cl-defmacro", "cl-defgeneric", "cl-defmethod",
                    "define-minor-mode", "define-globalized-minor-mode", "define-derived-mode", "ert-deftest",
                }
            ),
            containers=frozenset({"cl-defstruct", "defclass"}),  # (``defclass``: EIEIO's, its slots)
            name_lists={"cl-defstruct": "struct"},  # ``(cl-defstruct (shop-bin (:constructor ...)) ...)``
            specializer_names=frozenset({"cl-defmethod"}),
            # ``(with-eval-after-load 'org (defun ...))``, ``(eval-and-compile (defmacro ...))``.
            open_calls=frozenset({"progn", "eval-and-compile", "eval-when-compile", "with-eval-after-load"}),
            own_bodies=frozenset(
                {
                    "function_definition", "macro_definition", "cl-defun", "cl-defmacro", "cl-defgeneric",
                    "cl-defmethod", "ert-deftest", "defclass",
                }
            ),
            head_ends=dict.fromkeys(
                (
                    "function_definition", "macro_definition", "cl-defun", "cl-defmacro", "cl-defgeneric",
                    "cl-defmethod", "ert-deftest", "defclass",
                ),
                "list",
            ),
            kinds={
                "macro_definition": "macro", "defvar": "variable", "defvar-local": "variable", "defconst": "constant",
                "defcustom": "option", "defgroup": "group", "defface": "face", "defalias": "alias",
                "cl-defmacro": "macro", "cl-defgeneric": "generic", "cl-defmethod": "method",
                "define-minor-mode": "mode", "define-globalized-minor-mode": "mode", "define-derived-mode": "mode",
                "ert-deftest": "test", "cl-defstruct": "struct", "defclass": "class",
            },
            method_marks=(),
        ),  # fmt: skip
        *(
            CodeSpec(
                name=css_name,
                extensions=css_extensions,
                comment=("/*", " */"),
                # A rule set is a definition named by its selectors as written (``head_names``),
                # its declarations its statements: an oversized one is packed declaration by
                # declaration under its selectors. A rule set nested in one (SCSS's, CSS
                # nesting's ``&:hover {...}``) is its nested definition. SCSS's ``@mixin
                # name(...)`` and ``@function name(...)`` are functions too.
                functions=frozenset({"rule_set", "mixin_statement", "function_statement"}),
                # Group rules hold rule sets: ``@media``, ``@supports`` and the generic
                # ``at_rule`` (``@layer base {``, ``@container``, ``@font-face``, ``@page``)
                # are named by their head, ``@media (max-width: 600px)``; ``@keyframes fade-in``
                # by its name, its ``from``/``50%``/``to`` blocks are its members.
                containers=frozenset(
                    {"media_statement", "supports_statement", "scope_statement", "at_rule", "keyframes_statement"}
                ),
                # SCSS's ``@if``/``@else``, ``@for``, ``@each`` and ``@while`` at a file's or a
                # group rule's level are opened: the rule sets they generate are the level's
                # own, the directive's head going with the first one (in a rule set or a mixin
                # they stay its statements).
                guards=frozenset(
                    {
                        "if_statement", "else_if_clause", "else_clause", "for_statement", "each_statement",
                        "while_statement", "block",
                    }
                ),
                guard_bodies=frozenset({"block"}),
                # ``//`` comments (SCSS's) are ``js_comment``s.
                attached=_COMMENTS | {"js_comment"},
                needs_body=frozenset({"at_rule"}),  # ``@layer reset, base;`` orders layers, defines none
                name_types=frozenset({"identifier", "keyframes_name", "at_keyword"}),
                head_names=frozenset({"rule_set", "media_statement", "supports_statement", "scope_statement", "at_rule"}),
                named_kinds=frozenset({"at_rule"}),  # ``@layer`` is a ``layer``, ``@font-face`` a ``font-face``
                body_types=frozenset({"block", "keyframe_block_list"}),
                kinds={
                    "rule_set": "rule", "media_statement": "media", "supports_statement": "supports",
                    "scope_statement": "scope", "keyframes_statement": "keyframes", "mixin_statement": "mixin",
                    "function_statement": "function",
                },
                # Selectors hold dots (``.card .title``): nested parts are joined by `` » ``,
                # ``@media (max-width: 600px) » .card .title``, ``.card » &:hover``.
                path_separator=" \u00bb ",
                doc_comments=css_docs,
            )
            # SassDoc's ``///`` lines document the mixin or function below them across a blank line.
            for css_name, css_extensions, css_docs in (("css", (".css",), ()), ("scss", (".scss",), ("///",)))
        ),  # fmt: skip
        CodeSpec(
            name="verilog",
            extensions=(".v", ".vh", ".sv", ".svh"),  # Verilog and SystemVerilog: one grammar
            comment=_C_LIKE,
            # ```ifdef SIM`` right above a block goes with it (its ```endif`` closes it, below).
            attached=_COMMENTS | {"id_directive"},
            # A module (an interface, a program, a package, a class) is its own body: its head is
            # its name, parameters and ports to their ``;``, its items its members. Its ``always``,
            # ``initial`` and ``final`` blocks are named by their block's label (``begin :
            # count``, as the design's hierarchy names them), else by their head, ``always_ff
            # @(posedge clk)``. Functions and tasks (a ``function_body_declaration`` inside the
            # ``function`` keyword's node) are their own bodies too, headed to their ``;``.
            functions=frozenset(
                {
                    "function_body_declaration", "task_body_declaration", "class_constructor_declaration",
                    # ``extern`` and ``pure virtual`` methods, declared:
                    "function_prototype", "task_prototype", "class_constructor_prototype",
                    "always_construct", "initial_construct", "final_construct",
                    "type_declaration", "text_macro_definition", "constraint_declaration", "covergroup_declaration",
                    "property_declaration", "sequence_declaration",
                }
            ),
            # A labelled ``for`` generate block (``for (genvar i = 0; i < N; i++) begin : lane``)
            # holds what it generates, named by its label.
            containers=frozenset(
                {
                    "module_declaration", "interface_declaration", "program_declaration", "package_declaration",
                    "class_declaration", "interface_class_declaration", "loop_generate_construct",
                }
            ),
            # Items sit in a node of their level's kind (``module_or_generate_item``, ``class_item``);
            # ``function`` and ``task`` hold their body declaration; ``virtual``, ``extern`` and
            # ``pure`` stand in a ``class_method`` around them; ``typedef`` in a ``data_declaration``.
            wrappers=frozenset(
                {
                    "module_or_generate_item", "package_or_generate_item_declaration", "interface_or_generate_item",
                    "non_port_program_item", "class_item", "class_method", "interface_class_item",
                    "interface_class_method", "function_declaration", "task_declaration", "data_declaration",
                }
            ),
            # (Their keywords and qualifiers start the signature: ``virtual task automatic ship(...);``.)
            naming_wrappers=frozenset(
                {"function_declaration", "task_declaration", "class_method", "interface_class_method"}
            ),
            # ``generate ... endgenerate`` holds items of its module; a statement's layers
            # (``statement`` > ``statement_item``, ``begin ... end`` of a Verilog-2001 function)
            # are read as the statements they hold.
            transparent=frozenset(
                {
                    "generate_region", "statement_or_null", "statement", "statement_item",
                    "function_statement_or_null", "function_statement",
                }
            ),
            own_bodies=frozenset(
                {
                    "module_declaration", "interface_declaration", "program_declaration", "package_declaration",
                    "class_declaration", "interface_class_declaration", "function_body_declaration",
                    "task_body_declaration", "class_constructor_declaration",
                }
            ),
            # Their parameters and ports are their head, and its first chunk's; above their
            # members, their first line stands for it (``module conveyor_sorter #(``), not a
            # port list cut after six lines.
            line_heads=frozenset({"module_declaration", "interface_declaration", "program_declaration"}),
            head_ends={
                "module_declaration": ";", "package_declaration": ";", "class_declaration": ";",
                "function_body_declaration": ";", "task_body_declaration": ";", "class_constructor_declaration": ";",
                "interface_declaration": ("interface_ansi_header", "interface_nonansi_header"),
                "program_declaration": ("program_ansi_header", "program_nonansi_header"),
                "interface_class_declaration": "interface_class_item",  # (its first is the ``;`` after its name)
            },
            # An ``always`` block's statements are its ``begin ... end`` block's, under its
            # timing control; a generate loop's, its ``begin ... end`` block's.
            body_types=frozenset({"seq_block", "par_block", "generate_block"}),
            body_hosts=frozenset(
                {
                    "statement", "statement_item", "statement_or_null", "procedural_timing_control_statement",
                    "function_statement", "function_statement_or_null",
                }
            ),
            head_names=frozenset(
                {"always_construct", "initial_construct", "final_construct", "loop_generate_construct"}
            ),
            labelled_heads=frozenset(
                {"always_construct", "initial_construct", "final_construct", "loop_generate_construct"}
            ),
            name_types=frozenset(
                {
                    "simple_identifier", "function_identifier", "task_identifier", "class_identifier",
                    "package_identifier", "interface_identifier", "program_identifier", "text_macro_identifier",
                    "generate_block_identifier", "constraint_identifier", "covergroup_identifier",
                    "property_identifier", "sequence_identifier",
                }
            ),
            name_holders=frozenset(
                {
                    "module_header", "interface_ansi_header", "interface_nonansi_header", "program_ansi_header",
                    "program_nonansi_header", "text_macro_name", "generate_block",
                }
            ),
            anonymous_names={"class_constructor_declaration": "new", "class_constructor_prototype": "new"},
            # ``endmodule : sorter``, ``endfunction``, a block's ``end``, an ```endif``: the end of
            # what is above them, glued to its last chunk (never a line of a member's).
            closers=frozenset(
                {
                    "end", "endmodule", "endinterface", "endprogram", "endpackage", "endclass", "endfunction",
                    "endtask", "endgenerate", "endgroup", "endproperty", "endsequence", "zero_directive",
                }
            ),
            # A block's ``begin`` (``for (...) begin``) leads no member below it.
            closing_keywords=frozenset({"begin", "fork"}),
            kinds={
                "module_declaration": "module", "interface_declaration": "interface", "program_declaration": "program",
                "package_declaration": "package", "interface_class_declaration": "interface",
                "loop_generate_construct": "generate", "task_body_declaration": "task", "task_prototype": "task",
                "class_constructor_declaration": "constructor", "class_constructor_prototype": "constructor",
                "always_construct": "always", "initial_construct": "initial", "final_construct": "final",
                "type_declaration": "type", "text_macro_definition": "macro", "constraint_declaration": "constraint",
                "covergroup_declaration": "covergroup", "property_declaration": "property",
                "sequence_declaration": "sequence",
            },
        ),  # fmt: skip
        CodeSpec(
            name="vhdl",
            extensions=(".vhd", ".vhdl"),
            comment=("--", ""),
            # An entity (its generics and ports), an architecture of it (``architecture rtl of
            # sorter``: ``sorter.rtl``), a package and its body hold their declarations and
            # statements as their own children after their ``is``: the ``declarative_part`` and
            # the ``concurrent_statement_part`` are opened, so a process, a function, a
            # component is a member. A process is named by its label (``sample : process``),
            # else by its head, ``process (clk)``; a labelled ``for ... generate`` and a ``block``
            # hold the statements they label.
            functions=frozenset(
                {
                    "entity_declaration", "process_statement", "function_body", "procedure_body",
                    "function_declaration", "procedure_declaration",  # a package's subprograms, declared
                    "component_declaration", "subtype_declaration", "if_generate_statement",
                    "case_generate_statement", "configuration_declaration",
                }
            ),
            # A type: a record's fields, a protected type's subprograms are its members.
            containers=frozenset(
                {
                    "architecture_body", "package_declaration", "package_body", "for_generate_statement",
                    "block_statement", "full_type_declaration",
                }
            ),
            transparent=frozenset(
                {
                    "design_unit", "declarative_part", "concurrent_statement_part", "sequence_of_statements",
                    "entity_header", "generate_statement_body",
                }
            ),
            own_bodies=frozenset(
                {
                    "entity_declaration", "architecture_body", "package_declaration", "package_body",
                    "for_generate_statement", "block_statement", "function_body", "procedure_body",
                    "process_statement",
                }
            ),
            head_ends={
                "entity_declaration": "is", "architecture_body": "is", "package_declaration": "is",
                "package_body": "is", "function_body": "is", "procedure_body": "is",
                "for_generate_statement": "generate", "block_statement": ("is", "block"),
                # ``sample : process (clk)``, ``process is``: its ``is`` stays on its line.
                "process_statement": (")", "process"),
            },
            body_types=frozenset({"record_type_definition", "protected_type_declaration", "protected_type_body"}),
            # A subprogram's name is its ``designator`` (``"+"`` too); a package body's, its
            # package's; a labelled statement's, its ``label``'s identifier.
            name_fields=("name", "designator", "package"),
            name_types=frozenset({"identifier"}),
            name_holders=frozenset({"label"}),
            qualifiers={"architecture_body": "entity"},
            head_names=frozenset({"process_statement"}),
            labelled_heads=frozenset({"process_statement"}),
            # ``end architecture rtl;``, ``end process sample;`` (its words on the line with it):
            # the end of what is above it. (``begin`` goes with what follows it.)
            closers=frozenset({"end"}),
            # The words that end a head (``package body scale_pkg is``, ``bar : for i in 0 to 7
            # generate``) lead no member below them, a function's nor a process's.
            closing_keywords=frozenset({"is", "generate", "block", "process"}),
            kinds={
                "entity_declaration": "entity", "architecture_body": "architecture", "package_declaration": "package",
                "package_body": "package_body", "for_generate_statement": "generate",
                "if_generate_statement": "generate", "case_generate_statement": "generate", "block_statement": "block",
                "full_type_declaration": "type", "subtype_declaration": "subtype", "process_statement": "process",
                "function_body": "function", "function_declaration": "function", "procedure_body": "procedure",
                "procedure_declaration": "procedure", "component_declaration": "component",
                "configuration_declaration": "configuration",
            },
        ),  # fmt: skip
        CodeSpec(
            name="nix",
            extensions=(".nix",),
            comment=("#", ""),
            # A file is one expression: a function (``{ pkgs, lib, ... }:``), ``let ... in``,
            # ``with pkgs;``, ``assert ...;`` around a set (``{ ... }``, ``rec { ... }``), each
            # opened down to the set's bindings, the file's definitions (a ``let``'s too). A
            # binding names what it binds by its attribute path as written (``services.nginx``,
            # ``packages.x86_64-linux.default``): a function (``mkStation = name: ...``), a set,
            # or a set handed to a call (``stdenv.mkDerivation { ... }``, ``lib.mkIf cond {
            # ... }``); other bindings (``version = "2.4.1";``, a list, ``inherit``) are code.
            # Breadcrumbs join with ``.``: ``{ services = { nginx = ...; }; }`` and ``services.nginx
            # = ...`` are one attribute, so nesting reads as the path Nix itself writes.
            functions=frozenset({"function_expression"}),
            containers=frozenset({"attrset_expression", "rec_attrset_expression"}),
            nameless=frozenset({"function_expression", "attrset_expression", "rec_attrset_expression"}),
            needs_body=frozenset({"attrset_expression", "rec_attrset_expression"}),  # (``{ }``: code)
            wrappers=frozenset({"binding", "parenthesized_expression", "with_expression"}),
            naming_wrappers=frozenset({"binding"}),
            name_fields=("attrpath",),
            calls=frozenset({"apply_expression"}),
            call_argument="argument",
            callee_kinds={
                **dict.fromkeys(
                    (
                        "mkDerivation", "buildPythonPackage", "buildPythonApplication", "buildGoModule",
                        "buildRustPackage", "buildNpmPackage", "buildDotnetModule", "buildMavenPackage",
                        "buildPerlPackage", "mkYarnPackage", "buildEnv", "symlinkJoin", "mkShell", "mkShellNoCC",
                        "writeShellApplication", "buildImage", "buildLayeredImage", "callPackage",
                    ),
                    "derivation",
                ),
                "mkOption": "option",
                "import": "import",  # ``pkgs = import nixpkgs { inherit system; };``
            },  # fmt: skip
            transparent=frozenset(
                {
                    "function_expression", "let_expression", "with_expression", "assert_expression",
                    "attrset_expression", "rec_attrset_expression", "binding_set",
                }
            ),  # fmt: skip
            body_types=frozenset({"binding_set"}),
            body_chains={
                "function_expression": "body", "with_expression": "body", "assert_expression": "body",
                "apply_expression": "argument",
            },  # fmt: skip
            # The ``{`` of a set read through goes with what follows it, a comment does.
            attached=_COMMENTS | {"{"},
            # A ``let``'s ``in`` closes its last binding; it opens nothing.
            closing_keywords=frozenset({"in"}),
            kinds={
                "function_expression": "function", "attrset_expression": "attrset", "rec_attrset_expression": "attrset",
            },  # fmt: skip
        ),
        CodeSpec(
            name="ada",
            extensions=(".adb", ".ads"),
            comment=("--", ""),
            # A package (``package Stock.Ledger is``, ``package body Stock.Ledger is``, named by
            # its dotted name as written) holds its declarations after its ``is``: subprograms,
            # types, tasks, protected objects, instantiations. A subprogram body's declarative
            # part and its statements are its own (``non_empty_declarative_part`` and
            # ``handled_sequence_of_statements`` opened), so a subprogram declared there is its
            # nested definition and a split one repeats its specification, ``procedure Pick (N
            # : Integer) is``, above its parts. A protected body holds its entries and
            # subprograms, a task or protected type (or single task or protected object) its
            # entry and subprogram declarations; a task body is its statements.
            functions=frozenset(
                {
                    "subprogram_body", "subprogram_declaration", "expression_function_declaration",
                    "null_procedure_declaration", "generic_subprogram_declaration", "subprogram_renaming_declaration",
                    "entry_body", "entry_declaration", "task_body", "generic_instantiation",
                    "subtype_declaration", "private_type_declaration", "private_extension_declaration",
                    "incomplete_type_declaration",
                }
            ),
            # A type: a record's components, a protected or task type's declarations, its members.
            containers=frozenset(
                {
                    "package_declaration", "package_body", "protected_body", "full_type_declaration",
                    "single_protected_declaration", "single_task_declaration",
                }
            ),
            # ``generic ... package Smoothing is``, ``separate (Conveyor.Control) procedure ...``:
            # the generic formals and the parent's name are the definition's; a single task or
            # protected object is an object declaration's.
            wrappers=frozenset({"generic_package_declaration", "subunit", "object_declaration"}),
            transparent=frozenset({"compilation_unit", "non_empty_declarative_part", "handled_sequence_of_statements"}),
            own_bodies=frozenset(
                {"package_declaration", "package_body", "protected_body", "subprogram_body", "entry_body", "task_body"}
            ),
            head_ends={
                "package_declaration": "is", "package_body": "is", "protected_body": "is", "subprogram_body": "is",
                "entry_body": "is", "task_body": "is",
            },
            body_types=frozenset({"component_list", "protected_definition", "task_definition"}),
            body_hosts=frozenset(
                {
                    "record_type_definition", "record_definition", "derived_type_definition", "record_extension_part",
                    "protected_type_declaration", "task_type_declaration",
                }
            ),
            name_types=frozenset({"identifier", "selected_component"}),
            name_holders=frozenset({"protected_type_declaration", "task_type_declaration"}),
            # A subprogram is named by its specification's name (``procedure Clear renames
            # Reset_All;`` is ``Clear``), past ``overriding`` and a generic's formals.
            name_paths=frozenset({"procedure_specification", "function_specification"}),
            path_skips=frozenset({"overriding_indicator", "generic_formal_part"}),
            # A subunit's body is named as in its parent's body: ``separate (Conveyor.Control)``
            # then ``procedure Run_Shift`` is ``Conveyor.Control.Run_Shift``.
            qualifiers={"subunit": "parent_unit_name"},
            # ``end Conveyor.Control;``, ``end Pick;``, ``end record;``: the end of what is above.
            closers=frozenset({"end"}),
            # ``begin`` (a subprogram's statements after its declarations), ``exception`` (its
            # handlers), ``private`` (a package's private part) open the code below them.
            opening_keywords=frozenset({"begin", "exception", "private"}),
            # The ``is`` that ends a head (``package Smoothing is``, ``procedure Tally (P :
            # Parcel) is``) leads no member below it.
            closing_keywords=frozenset({"is"}),
            # One node type for a procedure and a function: its specification says which.
            child_kinds={
                **dict.fromkeys(
                    (
                        "subprogram_body", "subprogram_declaration", "null_procedure_declaration",
                        "generic_subprogram_declaration", "subprogram_renaming_declaration",
                    ),
                    {"procedure_specification": "procedure", "function_specification": "function"},
                ),
                "full_type_declaration": {"protected_type_declaration": "protected", "task_type_declaration": "task"},
            },
            keyword_kinds={"generic_instantiation": {"package": "package", "procedure": "procedure", "function": "function"}},
            kinds={
                "package_declaration": "package", "package_body": "package", "protected_body": "protected",
                "single_protected_declaration": "protected", "single_task_declaration": "task", "task_body": "task",
                "entry_body": "entry", "entry_declaration": "entry", "expression_function_declaration": "function",
                "full_type_declaration": "type", "subtype_declaration": "type", "private_type_declaration": "type",
                "private_extension_declaration": "type", "incomplete_type_declaration": "type",
                "subprogram_body": "procedure", "subprogram_declaration": "procedure",
            },
        ),
        # Pascal: Delphi's and Free Pascal's units, programs and libraries (``.dpr`` projects,
        # Lazarus's ``.lpr``). The grammar makes every keyword a named node (``kProcedure``).
        CodeSpec(
            name="pascal",
            extensions=(".pas", ".dpr", ".lpr"),
            comment=("//", ""),
            # A routine (``defProc``): its header, its ``var``/``const`` blocks and nested routines,
            # its ``begin ... end`` block, all its own children (``own_bodies``), its head its
            # header (``procedure TBin.Pick(N: Integer);``), what a split routine repeats. A
            # program's (a library's) main ``begin ... end.`` block is ``<main>``; in a routine's
            # body a ``block`` is a statement.
            functions=frozenset({"defProc", "block"}),
            local_statements=frozenset({"block"}),
            anonymous_names={"block": "<main>"},
            # A unit, a program, a library hold their sections' declarations and routines, the
            # ``interface`` and ``implementation`` sections read through (``transparent``): a
            # class is ``StockLedger.TStockLedger``, its method implemented below
            # ``implementation`` ``StockLedger.TStockLedger.PickWave``. A ``type`` section's
            # classes, records and old ``object``s (``declClass``), interfaces, class helpers and
            # enums are containers named by the ``declType`` around them, headed to their
            # parents (to their GUID, the type a helper is for); a class's visibility sections are
            # read through, their fields, properties and method declarations its statements.
            containers=frozenset({"unit", "program", "library", "declClass", "declIntf", "declHelper", "declEnum"}),
            own_bodies=frozenset(
                {"unit", "program", "library", "declClass", "declIntf", "declHelper", "defProc", "declEnum"}
            ),
            head_ends={
                "defProc": "declProc", "declEnum": "(", "unit": ";", "program": ";", "library": ";",
                "declClass": (")", "kClass", "kRecord", "kObject"), "declIntf": ("guid", "kInterface"),
                "declHelper": "typeref",
            },
            wrappers=frozenset({"declType", "type"}),
            naming_wrappers=frozenset({"declType"}),
            nameless=frozenset({"declClass", "declIntf", "declHelper", "declEnum"}),
            transparent=frozenset({"interface", "implementation", "declTypes", "declSection"}),
            member_declarations={"declProc": ""},
            # ``procedure TBin<T>.Pick``'s name is its ``genericDot``: ``TBin.Pick``, a method.
            name_fields=("name", "moduleName"),
            name_types=frozenset({"identifier", "moduleName", "genericDot"}),
            body_types=frozenset({"block"}),
            # ``end.`` closes its unit as a brace does; ``{$IFDEF DEBUG}`` goes with the routine below.
            closers=frozenset({"kEnd", "kEndDot"}),
            attached=_COMMENTS | {"pp"},
            kinds={
                "unit": "unit", "program": "program", "library": "library", "declIntf": "interface",
                "declHelper": "helper", "declEnum": "enum", "block": "main",
            },
            # The keywords are named nodes, a routine's in its ``declProc`` header: a record is a
            # ``record``, a constructor a ``constructor`` (``TStockLedger.Create`` too); a routine
            # no class's name marks as a method is a ``procedure`` or a ``function`` by its keyword.
            keyword_hosts=frozenset({"declClass", "declProc"}),
            keyword_kinds={
                "declClass": {"kRecord": "record", "kObject": "object"},
                "defProc": {"kConstructor": "constructor", "kDestructor": "destructor"},
            },
            plain_kinds={"defProc": {"kProcedure": "procedure", "kFunction": "function", "kOperator": "operator"}},
            # A project's ``uses Ledger in 'src/Ledger.pas';`` (``{Form1}`` after it): the grammar
            # knows no ``in``, and read the whole ``uses`` clause as an error.
            annotations=r"(?i:\bin)[ \t]+'[^'\n]*'(?=[ \t]*(?:\{[^}\n]*\}[ \t]*)?[,;])",
        ),  # fmt: skip
        # (MDX, Quarto and R Markdown are Markdown with code in fences or JSX between.)
        TextSpec("markdown", (".md", ".markdown", ".mdx", ".qmd", ".rmd"), ("<!--", " -->"), "markdown"),
        TextSpec("latex", (".tex", ".ltx"), ("%", ""), "latex"),
        # (Fixed-form Fortran, which the Fortran grammar reads as errors: sections per program unit.)
        TextSpec("fortran_fixed", (".f", ".for", ".f77", ".ftn"), ("!", ""), "fortran_fixed"),
        # (Cython, which the Python grammar reads as errors: sections per top-level definition.)
        TextSpec("cython", (".pyx", ".pxd", ".pxi"), ("#", ""), "cython"),
        TextSpec("rst", (".rst",), ("..", ""), "rst"),
        TextSpec("yaml", (".yaml", ".yml"), ("#", ""), "keys"),
        TextSpec("toml", (".toml", ".ini", ".cfg"), ("#", ""), "toml"),
        TextSpec("json", (".json", ".jsonl", ".ndjson", ".jsonc", ".json5"), ("//", ""), "keys"),
        TextSpec("sql", (".sql",), ("--", ""), "sql"),
        TextSpec("makefile", (".mk",), ("#", ""), "make"),
        TextSpec("dockerfile", (".dockerfile",), ("#", ""), "docker"),
        TextSpec("text", (".txt", ".text", ".log", ""), ("#", ""), "blocks"),
        # Code and markup with no syntax-aware spec yet: cut at blank-line blocks, never inside a
        # line (a web project's ``.vue``, ``.html`` and ``.css`` were skipped as unknown).
        *(
            TextSpec(name, extensions, comment, "blocks")
            for name, extensions, comment in (
                ("html", (".html", ".htm", ".xhtml"), _MARKUP),
                ("xml", (".xml", ".xsd", ".xsl"), _MARKUP),
                ("vue", (".vue",), _MARKUP),
                ("svelte", (".svelte",), _MARKUP),
                ("astro", (".astro",), _MARKUP),
                ("sass", (".sass",), ("//", "")),  # (no grammar for the indented syntax, nor for Less)
                ("less", (".less",), ("//", "")),
                ("properties", (".properties",), ("#", "")),
                # A COBOL copybook (``.cpy``) of records or paragraphs alone, with no program around
                # them, which the grammar cannot read (a copybook that is a whole program parses
                # and is COBOL): told by its content (``_CONTENT_HINTS``), it owns no extension.
                ("cobol_copybook", (), ("*>", "")),
                # Languages a repository is written in that have no spec here yet (most have a
                # grammar in the pack, none a spec): cut at blank lines, never skipped as
                # unknown (an Elm or a COBOL project chunked nothing). Only extensions no other
                # language claims: not D's ``.d`` (make's dependency files), Hack's ``.hh``
                # (C++'s headers).
                ("nim", (".nim", ".nims", ".nimble"), ("#", "")),
                ("elm", (".elm",), ("--", "")),
                ("purescript", (".purs",), ("--", "")),
                ("gleam", (".gleam",), ("//", "")),
                ("odin", (".odin",), ("//", "")),
                ("tcl", (".tcl", ".tm"), ("#", "")),
                ("crystal", (".cr",), ("#", "")),
                ("haxe", (".hx",), ("//", "")),
                ("vala", (".vala",), ("//", "")),
                ("luau", (".luau",), ("--", "")),
                ("cairo", (".cairo",), ("//", "")),
                ("smali", (".smali",), ("#", "")),
                ("puppet", (".pp",), ("#", "")),
                ("jsonnet", (".jsonnet", ".libsonnet"), ("//", "")),
                ("thrift", (".thrift",), ("//", "")),
                ("capnp", (".capnp",), ("#", "")),
                ("prisma", (".prisma",), ("//", "")),
                ("bicep", (".bicep",), ("//", "")),
                ("meson", (), ("#", "")),  # (``meson.build``, ``meson_options.txt``: by name)
                ("fish", (".fish",), ("#", "")),
                ("awk", (".awk",), ("#", "")),
                ("batch", (".bat", ".cmd"), ("REM", "")),
                ("asm", (".asm", ".nasm"), (";", "")),
                ("gomod", (), ("//", "")),  # (Go's ``go.mod`` and ``go.work``: by name)
                ("asciidoc", (".adoc", ".asciidoc"), ("//", "")),
                ("org", (".org",), ("#", "")),
                ("bibtex", (".bib",), ("%", "")),
            )
        ),
        TableSpec("csv", (".csv",)),
        TableSpec("tsv", (".tsv", ".tab")),
        TableSpec("xlsx", (".xlsx",)),
    )
}

_BY_EXTENSION = {ext: spec for spec in LANGUAGES.values() for ext in spec.extensions if ext}
_BY_FILENAME = {
    "readme": "markdown",
    "license": "text",
    "makefile": "makefile",
    "gnumakefile": "makefile",
    "dockerfile": "dockerfile",
    "containerfile": "dockerfile",
    "pipfile": "toml",
    # A repository's plain-text files by name.
    **dict.fromkeys(("copying", "notice", "authors", "contributors", "changelog", "changes", "procfile", "codeowners"), "text"),
    "jenkinsfile": "groovy",
    # Ruby's DSL files: Rake tasks, Bundler, CocoaPods, fastlane, Vagrant, Guard, Capistrano, Danger.
    **dict.fromkeys(
        (
            "rakefile", "gemfile", "podfile", "fastfile", "appfile", "vagrantfile", "guardfile", "capfile",
            "dangerfile", "brewfile", "berksfile", "thorfile", "puppetfile", "steepfile", "appraisals",
        ),  # fmt: skip
        "ruby",
    ),
}
# (``Jenkinsfile.release``, ``Jenkinsfile.nightly``: a pipeline each, as Jenkins's editors read them.)
_BY_NAME_PREFIX = (
    ("dockerfile.", "dockerfile"), ("containerfile.", "dockerfile"), ("makefile.", "makefile"), ("jenkinsfile.", "groovy")
)
# Well-known names whose suffix says something else (a ``.txt`` that is CMake's).
_BY_WHOLE_NAME = {
    "cmakelists.txt": "cmake", "meson.build": "meson", "meson_options.txt": "meson", "meson.options": "meson",
    "go.mod": "gomod", "go.work": "gomod",
}  # fmt: skip
# Names matched as written: Bazel's ``BUILD`` (a project's ``build`` script is a shell's).
_BY_EXACT_NAME = dict.fromkeys(("BUILD", "BUCK", "WORKSPACE", "Tiltfile"), "starlark")

CODE_LANGUAGES = tuple(name for name, spec in LANGUAGES.items() if isinstance(spec, CodeSpec))
TEXT_LANGUAGES = tuple(name for name, spec in LANGUAGES.items() if isinstance(spec, TextSpec))
TABLE_LANGUAGES = tuple(name for name, spec in LANGUAGES.items() if isinstance(spec, TableSpec))


# Extensions two languages share, told apart by their text: a ``.h`` header is C's unless it
# holds what only C++ writes (the C grammar reads a C++ header as damage, a namespace as a function).
# What only Objective-C writes at a line's start: its class and protocol blocks, ``#import``.
_OBJC_HINT = re.compile(r"^[ \t]*(?:@(?:interface|implementation|protocol)\b|#[ \t]*import[ \t]*[<\"])", re.MULTILINE)
_CPP_HINT = re.compile(
    r"^[ \t]*(?:namespace(?:[ \t]+[\w:]+)?[ \t]*\{|template[ \t]*<|class[ \t]+\w+|"
    r"(?:public|private|protected)[ \t]*:|#[ \t]*include[ \t]*<\w+>|using[ \t]+namespace\b)",
    re.MULTILINE,
)
# What only CUDA writes: a line that opens with where a function runs (``__global__ void``,
# ``__host__ __device__ inline``, after ``template <...>`` or ``static``), or a kernel launch.
_CUDA_HINT = re.compile(
    r"^[ \t]*(?:template[ \t]*<[^\n]*>[ \t]*)?(?:(?:static|inline)[ \t]+)*__(?:global|device|host)__[ \t]"
    r"|\w[ \t]*<<<[^;\n]*>>>[ \t]*\(",
    re.MULTILINE,
)
# Extensions two languages share, and what tells the other one, tried in order: a header
# named ``.h`` may be Objective-C's, CUDA's or C++'s; a ``.m`` file MATLAB's or Objective-C's
# (an iOS project's every class).
# What only a Coq (Rocq) proof script writes at a line's start: its vernacular commands. A
# ``.v`` file is Verilog's unless it does; Coq's, with no grammar here, is cut as text.
_COQ_HINT = re.compile(
    r"^[ \t]*(?:(?:From[ \t]+\S+[ \t]+)?Require(?:[ \t]+(?:Import|Export))?[ \t]|(?:Theorem|Lemma|Fixpoint|Inductive)"
    r"[ \t]+\w|Proof\.|Qed\.|Defined\.)",
    re.MULTILINE,
)
# What a LaTeX class (``.cls``, Apex's classes' extension too) writes at a line's start and
# Apex never does: a ``%`` comment, or a TeX command (``\NeedsTeXFormat{LaTeX2e}``,
# ``\ProvidesClass{memo}``, ``\LoadClass``, ``\DeclareOption``, ``\newcommand``, ...).
_LATEX_CLASS_HINT = re.compile(r"^[ \t]*(?:%|\\[A-Za-z@]+)", re.MULTILINE)
_CONTENT_HINTS: dict[str, tuple[tuple[re.Pattern[str], str], ...]] = {
    ".h": ((_OBJC_HINT, "objc"), (_CUDA_HINT, "cuda"), (_CPP_HINT, "cpp")),
    ".m": ((_OBJC_HINT, "objc"),),
    ".v": ((_COQ_HINT, "text"),),
    ".cls": ((_LATEX_CLASS_HINT, "latex"),),
    ".cpy": ((re.compile(""), "cobol_copybook"),),  # (any copybook that does not parse as a program)
}


def content_hint(path: str, text: str) -> str | None:
    """The other language ``text`` looks written in where ``path``'s extension is shared
    (:data:`_CONTENT_HINTS`), or None. A hint only: :func:`core.sources.load_bytes` takes it
    when the file does not parse as its extension's language."""
    hints = _CONTENT_HINTS.get(PurePosixPath(path.replace("\\", "/")).suffix.lower(), ())
    return next((language for pattern, language in hints if pattern.search(text, 0, 200_000)), None)


# A Jupyter notebook: its cells are read as a script (:mod:`core.notebook`), in its kernel's
# language, known only once the file is read; Python, nbformat's default, until then.
NOTEBOOK_SUFFIX = ".ipynb"


def is_notebook(name: str) -> bool:
    """Whether ``name`` is a Jupyter notebook's file name."""
    return name.lower().endswith(NOTEBOOK_SUFFIX)


# The interpreter a script without an extension names on its ``#!`` line (``#!/bin/sh``,
# ``#!/usr/bin/env python3``): its language. A version after the name is dropped (python3.11).
_SHEBANG_INTERPRETERS = {
    "sh": "bash", "bash": "bash", "dash": "bash", "ksh": "bash", "zsh": "bash", "ash": "bash",
    "python": "python", "pypy": "python", "node": "javascript", "nodejs": "javascript", "deno": "typescript",
    "bun": "typescript", "ts-node": "typescript", "ruby": "ruby", "perl": "perl", "php": "php", "lua": "lua",
    "luajit": "lua", "rscript": "r", "julia": "julia", "pwsh": "powershell", "tclsh": "tcl", "wish": "tcl",
    "awk": "awk", "gawk": "awk", "fish": "fish", "elixir": "elixir", "groovy": "groovy", "scala": "scala",
    "kotlin": "kotlin", "swift": "swift", "ocaml": "ocaml", "racket": "racket", "guile": "scheme",
    "sbcl": "commonlisp", "runghc": "haskell", "runhaskell": "haskell", "dart": "dart", "crystal": "crystal",
}  # fmt: skip
_SHEBANG = re.compile(rb"#![ \t]*(\S+)([^\r\n]*)")
_VERSION_TAIL = re.compile(r"[\d.]+$")


def shebang_language(head: bytes) -> str | None:
    """The language of a script by its ``#!`` line (the start of its bytes), or None: the
    interpreter's name, or ``env``'s argument (``#!/usr/bin/env -S python3 -u``)."""
    found = _SHEBANG.match(head)
    if found is None:
        return None
    words = [found.group(1).decode("utf-8", "replace"), *found.group(2).decode("utf-8", "replace").split()]
    program = words[0].rsplit("/", 1)[-1]
    if program == "env":
        program = next((w for w in words[1:] if not w.startswith("-") and "=" not in w), "")
    name = _VERSION_TAIL.sub("", program.lower()) or program.lower()
    language = _SHEBANG_INTERPRETERS.get(name)
    return language if language in LANGUAGES else None


def detect_language(path: str) -> str | None:
    """Language name for a file path by its extension (or well-known name); None if unknown.
    A notebook's is Python here; loading it reads its kernel's (:func:`core.sources.load_bytes`)."""
    pure = PurePosixPath(path.replace("\\", "/"))
    if is_notebook(pure.name):
        return "python"
    whole = _BY_EXACT_NAME.get(pure.name) or _BY_WHOLE_NAME.get(pure.name.lower())
    if whole is not None:
        return whole
    spec = _BY_EXTENSION.get(pure.suffix.lower())
    if spec is not None:
        return spec.name
    name = pure.name.lower()
    if not pure.suffix:
        return _BY_FILENAME.get(name)
    # ``Dockerfile.prod``, ``Makefile.am``: a well-known name with a suffix of its own.
    return next((language for prefix, language in _BY_NAME_PREFIX if name.startswith(prefix)), None)


# What a Markdown fence's info string may call a code language beside its own name and its
# files' extensions (``rs``, ``kt``, ``exs``): the names other tools write. A shell session
# (``console``, ``shell-session``) is prompts and output, no script, and is not here.
_FENCE_ALIASES = {
    "yml": "yaml", "jsonc": "json", "json5": "json", "docker": "dockerfile", "make": "makefile",
    "golang": "go", "c++": "cpp", "c#": "csharp", "cs": "csharp", "f#": "fsharp", "shell": "bash", "node": "javascript",
    "python3": "python", "py3": "python", "objective-c": "objc", "objectivec": "objc", "obj-c": "objc",
    "terraform": "hcl", "protobuf": "proto", "pwsh": "powershell", "posh": "powershell", "octave": "matlab",
    "common-lisp": "commonlisp", "emacs-lisp": "elisp", "systemverilog": "verilog",
}  # fmt: skip
# The info string's first word: after an opening ``{`` and a dot (R Markdown's ``{r setup}``,
# Pandoc's ``{.python}``), up to a space, a comma (rustdoc's ``rust,ignore``) or a brace.
_FENCE_WORD = re.compile(r"^\{?\.?([^\s,{}]+)")


# Text languages whose fences are cut by their own structure too: a config's keys, tables, a
# script's statements (a README's ``docker-compose.yml`` example by its services).
_FENCE_TEXT_STYLES = frozenset({"keys", "toml", "sql", "make", "docker"})


def fence_language(info: str) -> str | None:
    """The language a Markdown fence's info string names (what follows its opening backticks:
    ``python``, ``{r}``, ``rust,ignore``, ``ts title="app.ts"``, ``yaml``) when its fences are
    cut by that language's structure here: a code language, or a config one (YAML, JSON, TOML,
    SQL, a Dockerfile, a Makefile); else None (``console``, ``diff``, ``text``, nothing)."""
    found = _FENCE_WORD.match(info.strip())
    if found is None:
        return None
    word = found.group(1).lower()
    spec = LANGUAGES.get(_FENCE_ALIASES.get(word, word)) or _BY_EXTENSION.get("." + word)
    if isinstance(spec, CodeSpec) or (isinstance(spec, TextSpec) and spec.style in _FENCE_TEXT_STYLES):
        return spec.name
    return None


def get_spec(language: str) -> CodeSpec | TextSpec | TableSpec:
    """The spec of ``language``; a :class:`SettingsError` naming the known ones otherwise."""
    try:
        return LANGUAGES[language]
    except KeyError:
        known = ", ".join(sorted(LANGUAGES))
        raise SettingsError(f"unknown language {language!r}; known languages: {known}") from None


# What ends a line for str.splitlines (and for an editor): a file name may hold any of them.
_LINE_BREAKS = re.compile("[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]")


def comment_line(language: str, content: str) -> str:
    """``content`` as one comment line in ``language``'s syntax (for breadcrumbs and summaries);
    a line break in it (a file named ``a\\nb.py``) is written escaped, so the line stays one."""
    spec = LANGUAGES.get(language)
    prefix, suffix = spec.comment if spec is not None else ("#", "")
    content = _LINE_BREAKS.sub(lambda found: repr(found.group())[1:-1], content)
    return f"{prefix} {content}{suffix}"
