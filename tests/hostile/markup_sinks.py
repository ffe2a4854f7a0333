"""A static check that server text reaches markup-parsing widgets only made safe.

Walks every module of ``mcp_tui/ui`` and finds the *sinks*, of two kinds, judged differently:

- *markup sinks* parse a ``str`` as markup: constructors of widgets that parse markup (``Label``,
  ``Static``, ``Button``, ...), ``notify``, ``.update(...)``, and assignments to ``border_title``,
  ``label``, ``title`` and friends. What they get must be *markup-inert*: a constant, a name in
  UPPER_CASE, a ``Content``/``Text`` (built from clean parts, or by ``literal``/``literal_line``/
  ``literal_text``/``literal_text_line``, or by a function annotated to return one), a number, or
  an f-string, concatenation or local variable made only of those. A ``str`` from ``visible()`` or
  ``one_line()`` is NOT inert: those escape control characters, not brackets, so
  ``Static(visible(x))`` still parses ``[@click=...]`` in ``x``. Given ``markup=False``, a sink is
  judged as a literal sink instead.
- *literal sinks* (``Content(...)``/``Text(...)``, ``Content.styled``/``assemble``, and markup
  sinks given ``markup=False``) never parse markup but keep control characters: what they get must
  be *clean*, which also admits ``visible()``/``one_line()`` results.

Anything else is a finding, unless the allow-list in the test names it with a reason.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

#: Widgets whose string arguments Textual parses as markup.
MARKUP_WIDGETS = frozenset(
    {
        "Label", "Static", "Button", "Checkbox", "RadioButton", "Collapsible", "Option",
        "Select", "OptionList", "SelectionList", "Switch", "Link", "Tooltip", "Markdown",
        "MarkdownViewer", "Rule", "Placeholder",
    }
)  # fmt: skip


def markup_widget(name: str) -> str | None:
    """The markup widget ``name`` is or, by its name, subclasses (``OrderedButton``: ``Button``).

    Subclasses are reported under their base's name, so an allow-list entry survives a widget
    being swapped for a subclass of it, and a new subclass is never missed.
    """
    if name in MARKUP_WIDGETS:
        return name
    return next(
        (w for w in sorted(MARKUP_WIDGETS, key=len, reverse=True) if name.endswith(w)), None
    )


#: Keyword arguments of those widgets (and ``notify``) that carry text.
TEXT_KEYWORDS = frozenset({"label", "title", "prompt", "content", "renderable", "tooltip", "text"})
#: Literal builders: not parsed as markup, but control characters pass through them.
LITERAL_BUILDERS = frozenset({"Content", "Text"})
#: Helpers whose result is safe server text (mcp_tui.untrusted and mcp_tui.ui.literal; ``inert``
#: keeps the length, for a widget's value).
SANITIZERS = frozenset({"visible", "one_line", "inert", "literal", "literal_line", "literal_text",
                        "literal_text_line", "styled", "assemble"})  # fmt: skip
#: Of those, the ones that return a ``Content``/``Text`` (markup-inert); ``visible`` and
#: ``one_line`` return a ``str``, which a markup sink would still parse.
LITERAL_HELPERS = frozenset({"literal", "literal_line", "literal_text", "literal_text_line"})
#: Calls whose result is a number or bool: never markup.
NUMERIC = frozenset({"len", "int", "float", "round", "abs", "sum", "min", "max", "bool",
                     "countdown", "human_size", "clock"})  # fmt: skip
#: Attribute assignments that Textual renders as markup.
MARKUP_ATTRIBUTES = frozenset(
    {"border_title", "border_subtitle", "label", "tooltip", "title", "sub_title", "prompt"}
)
#: Markup and ANSI parsers that must never see anything but constants.
PARSERS = frozenset({"from_markup", "from_ansi", "to_content"})


@dataclass(frozen=True)
class Finding:
    path: str
    line: int
    sink: str
    source: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.sink} gets {self.source}"


def _text_part(node: ast.expr) -> ast.expr:
    """``Content.assemble`` takes ``(text, style)`` tuples: only the text is text."""
    if isinstance(node, ast.Tuple) and node.elts:
        return node.elts[0]
    return node


def _name(func: ast.expr) -> str:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return ""


class _Checker:
    def __init__(self, tree: ast.Module, path: str, text: str) -> None:
        self.path = path
        self.text = text
        self.findings: list[Finding] = []
        #: Functions of this module annotated to return Content or Text.
        self.content_functions = {
            node.name
            for node in ast.walk(tree)
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
            and node.returns is not None
            and ast.unparse(node.returns) in ("Content", "Text", "Content | None", "Visual")
        }
        self.locals: dict[str, list[ast.expr | None]] = {}
        self.clean_params: set[str] = set()
        self._visiting: set[str] = set()

    # ---- cleanliness ------------------------------------------------------------------------

    def clean(self, node: ast.expr | None, depth: int = 0, *, markup: bool = False) -> bool:
        """Whether ``node`` is clean for a literal sink, or (``markup``) inert in a markup one."""
        if node is None or depth > 20:
            return node is None
        if isinstance(node, ast.Constant):
            return True
        if isinstance(node, ast.JoinedStr):
            return all(self.clean(v, depth + 1, markup=markup) for v in node.values)
        if isinstance(node, ast.FormattedValue):
            spec = ast.unparse(node.format_spec) if node.format_spec is not None else ""
            if spec.rstrip("'\"")[-1:] in tuple("dfgexX%,"):
                return True  # a number format: the value is a number
            return self.clean(node.value, depth + 1, markup=markup)
        if isinstance(node, ast.Subscript):
            return self.clean(node.value, depth + 1, markup=markup)
        if isinstance(node, ast.Name):
            return self._clean_name(node.id, depth, markup=markup)
        if isinstance(node, ast.Attribute):
            return node.attr.isupper() or node.attr.lstrip("_").isupper()
        if isinstance(node, ast.BinOp):
            if any(
                isinstance(side, ast.Constant) and type(side.value) in (int, float)
                for side in (node.left, node.right)
            ):
                return True  # arithmetic
            return self.clean(node.left, depth + 1, markup=markup) and self.clean(
                node.right, depth + 1, markup=markup
            )
        if isinstance(node, ast.IfExp):
            return self.clean(node.body, depth + 1, markup=markup) and self.clean(
                node.orelse, depth + 1, markup=markup
            )
        if isinstance(node, ast.BoolOp):
            return all(self.clean(v, depth + 1, markup=markup) for v in node.values)
        if isinstance(node, ast.Compare | ast.UnaryOp):
            return True  # a bool or a number
        if isinstance(node, ast.Tuple | ast.List):
            return all(self.clean(e, depth + 1, markup=markup) for e in node.elts)
        if isinstance(node, ast.GeneratorExp | ast.ListComp):
            return self.clean(node.elt, depth + 1, markup=markup)
        if isinstance(node, ast.Dict | ast.DictComp):
            return True  # not text (dict.update)
        if isinstance(node, ast.Call):
            return self._clean_call(node, depth, markup=markup)
        return False

    def _clean_name(self, name: str, depth: int, *, markup: bool) -> bool:
        if name.isupper() or name.lstrip("_").isupper() or name in self.clean_params:
            return True
        sources = self.locals.get(name)
        if not sources:
            return False
        if name in self._visiting:  # x = f(x): the other assignments decide
            return True
        self._visiting.add(name)
        try:
            return all(s is not None and self.clean(s, depth + 1, markup=markup) for s in sources)
        finally:
            self._visiting.discard(name)

    def _clean_call(self, node: ast.Call, depth: int, *, markup: bool) -> bool:
        name = _name(node.func)
        args = [*node.args, *(k.value for k in node.keywords if k.arg in TEXT_KEYWORDS)]
        if name in NUMERIC:
            return True
        if name in SANITIZERS and name not in ("styled", "assemble"):
            return name in LITERAL_HELPERS or not markup  # visible()/one_line() give a str
        if name == "assemble":
            return all(self.clean(_text_part(a), depth + 1) for a in node.args)
        if name in LITERAL_BUILDERS or name == "styled":
            return all(self.clean(a, depth + 1) for a in node.args[:1] or args)
        if name in self.content_functions:
            return True
        if isinstance(node.func, ast.Attribute) and name in ("join", "format", "stylize"):
            receiver_clean = self.clean(node.func.value, depth + 1, markup=markup)
            return receiver_clean and all(
                self.clean(a, depth + 1, markup=markup) for a in node.args[:1]
            )
        if isinstance(node.func, ast.Attribute) and name in ("strip", "upper", "lower", "title"):
            return self.clean(node.func.value, depth + 1, markup=markup)
        return False

    # ---- sinks ------------------------------------------------------------------------------

    def check(self, sink: str, node: ast.expr, *, markup: bool = False) -> None:
        if not self.clean(node, markup=markup):
            source = ast.get_source_segment(self.text, node) or ast.unparse(node)
            self.findings.append(Finding(self.path, node.lineno, sink, " ".join(source.split())))

    def visit_function(self, func: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        saved = (self.locals, self.clean_params)
        self.locals = {}
        self.clean_params = {
            a.arg
            for a in (*func.args.args, *func.args.kwonlyargs)
            if a.annotation is not None
            and ast.unparse(a.annotation) in ("Content", "Text", "Visual")
        }
        for node in ast.walk(func):
            if isinstance(node, ast.Assign):
                for target in node.targets:
                    if isinstance(target, ast.Name):
                        self.locals.setdefault(target.id, []).append(node.value)
            elif isinstance(node, ast.AnnAssign | ast.AugAssign) and isinstance(
                node.target, ast.Name
            ):
                self.locals.setdefault(node.target.id, []).append(node.value)
            elif (  # lines.append(x), lines.extend(xs), lines.insert(0, x): x is a source too
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr in ("append", "extend", "insert")
                and isinstance(node.func.value, ast.Name)
                and node.args
            ):
                self.locals.setdefault(node.func.value.id, []).append(node.args[-1])
            elif isinstance(node, ast.For | ast.comprehension | ast.With | ast.NamedExpr):
                # Loop, with and walrus targets: values we cannot follow, so never clean.
                targets: list[ast.expr] = (
                    [i.optional_vars for i in node.items if i.optional_vars is not None]
                    if isinstance(node, ast.With)
                    else [node.target]
                )
                for target in targets:
                    for name_node in ast.walk(target):
                        if isinstance(name_node, ast.Name):
                            self.locals.setdefault(name_node.id, []).append(None)
        self.visit_body(func)
        self.locals, self.clean_params = saved

    def visit_body(self, root: ast.AST) -> None:
        for node in ast.iter_child_nodes(root):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                self.visit_function(node)
                continue
            self.visit_node(node)
            self.visit_body(node)

    def visit_node(self, node: ast.AST) -> None:
        if isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Attribute) and target.attr in MARKUP_ATTRIBUTES:
                    self.check(f".{target.attr} =", node.value, markup=True)
        if not isinstance(node, ast.Call):
            return
        name = _name(node.func)
        keywords = {k.arg: k.value for k in node.keywords if k.arg}
        if name in PARSERS:
            for arg in node.args[:1]:
                if not isinstance(arg, ast.Constant):  # only constants may be parsed
                    source = " ".join(ast.unparse(arg).split())
                    self.findings.append(Finding(self.path, arg.lineno, name, source))
            return
        widget = markup_widget(name) or ("notify" if name == "notify" else None)
        if widget is not None:
            literal = keywords.get("markup")
            parses = not (isinstance(literal, ast.Constant) and literal.value is False)
            for arg in node.args[:1]:
                self.check(widget, arg, markup=parses)
            for key, value in keywords.items():
                if key in TEXT_KEYWORDS:
                    self.check(f"{widget}({key}=)", value, markup=parses)
        elif (name in LITERAL_BUILDERS and isinstance(node.func, ast.Name)) or (
            name in ("styled", "assemble") and isinstance(node.func, ast.Attribute)
        ):
            for arg in node.args if name == "assemble" else node.args[:1]:
                self.check(name, _text_part(arg) if name == "assemble" else arg)
        elif name == "update" and isinstance(node.func, ast.Attribute) and node.args:
            self.check(".update", node.args[0], markup=True)


def findings_in(source: str, path: str = "<code>") -> list[Finding]:
    tree = ast.parse(source)
    checker = _Checker(tree, path, source)
    checker.visit_body(tree)
    return checker.findings


def scan(root: Path, base: Path) -> Iterator[Finding]:
    for file in sorted(root.rglob("*.py")):
        yield from findings_in(file.read_text(encoding="utf-8"), file.relative_to(base).as_posix())
