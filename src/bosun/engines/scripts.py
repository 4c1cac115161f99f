"""The one script language Bosun lets through: a pipeline's arithmetic and comparisons over its
bucket values.

`bucket_selector` and `bucket_script` need a Painless `script`. Bosun runs no scripts, except this
vetted template: an expression over `params.<name>` (names declared in the pipeline's
`buckets_path`), numbers, comparisons (> >= < <= == !=), `&&`, `||`, `!`, + - * / and parentheses. A
selector's expression must be a condition, a bucket_script's a number:

    {"buckets_path": {"total": "teu", "n": "_count"}, "script": "params.total / params.n > 2.5"}

It is parsed here by a parser of its own rather than by a library: no Python library parses a
Painless subset, and `ast`/`eval` would accept Python, not this; a grammar this small is safer read
token by token. It is evaluated in Python over the bucket values (never turned into SQL or sent
anywhere as code of ours). Values follow Java: params are doubles (a gap is NaN), literals without a
point are ints, int / int truncates.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any

from bosun.errors import BadQuery, GuardrailViolation

# pipeline kind -> the type its script yields
SCRIPTED = {"bucket_selector": "bool", "bucket_script": "num"}
FORBIDDEN = "is not allowed: Bosun's queries are read-only and run no scripts"
_TOKEN = re.compile(
    r"\s*(?:(?P<num>(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)|params\.(?P<param>[A-Za-z_]\w*)"
    r"|(?P<op>&&|\|\||[<>=!]=|[<>!()+\-*/]))"
)
# far above any real template (about 20 tokens); a longer or deeper one would exhaust the parser's
# stack
MAX_LENGTH, MAX_TOKENS, MAX_NESTING = 1000, 100, 32
_LEVELS = [("||",), ("&&",), ("==", "!="), ("<", "<=", ">", ">="), ("+", "-"), ("*", "/")]
Value = float | int | bool


@dataclass(frozen=True)
class Node:
    """One node of a parsed expression: a literal (`value`), a parameter (`param`) or an operator on
    `args`."""

    kind: str  # "num" or "bool": what it yields
    op: str = ""
    value: float | int = 0
    param: str = ""
    args: tuple[Node, ...] = ()

    def evaluate(self, params: dict[str, float]) -> Value:
        if self.param:
            return params[self.param]
        if not self.op:
            return self.value
        values = [a.evaluate(params) for a in self.args]
        return _apply(self.op, values)


@dataclass(frozen=True)
class Template:
    """A vetted script: its source parsed, the parameter names it reads."""

    source: str
    root: Node

    def evaluate(self, params: dict[str, float]) -> Value:
        try:
            return self.root.evaluate(params)
        except ZeroDivisionError:
            raise BadQuery("script", f"integer division by zero in {self.source!r}") from None


def refuse(why: str) -> GuardrailViolation:
    """The error for a script outside the vetted template (the same words as for any forbidden
    script)."""
    return GuardrailViolation(
        f"'script' {FORBIDDEN} (a pipeline may use only an expression over params.<name> "
        f"from its buckets_path, numbers, comparisons, && || ! and + - * /: {why})"
    )


def vetted(kind: str, body: dict[str, Any]) -> Template:
    """The parsed script of a bucket_selector / bucket_script body; anything else raises
    GuardrailViolation."""
    if kind not in SCRIPTED:
        raise refuse(f"{kind} takes no script")
    paths = body.get("buckets_path")
    if not isinstance(paths, dict) or not all(isinstance(k, str) for k in paths):
        raise refuse("buckets_path must name each parameter (an object of name: path)")
    source = _source(body.get("script"))
    root = _Parser(source, set(paths)).parse()
    if root.kind != SCRIPTED[kind]:
        raise refuse(
            f"a {kind} script must yield "
            f"{'a condition' if SCRIPTED[kind] == 'bool' else 'a number'}"
        )
    return Template(source, root)


def _source(script: Any) -> str:
    if isinstance(script, str):
        return script
    if (
        isinstance(script, dict)
        and set(script) <= {"source", "lang"}
        and isinstance(script.get("source"), str)
        and script.get("lang", "painless") == "painless"
    ):
        return str(script["source"])
    raise refuse("write the script as its source text (no stored script, params or other language)")


class _Parser:
    """Precedence climbing over the tokens, Java's precedence: || < && < equality < relation < + - <
    * /."""

    def __init__(self, source: str, names: set[str]) -> None:
        if len(source) > MAX_LENGTH:
            raise refuse(f"the expression is longer than {MAX_LENGTH} characters")
        self.tokens, self.names, self.at, self.depth = _tokens(source), names, 0, 0
        if len(self.tokens) > MAX_TOKENS:
            raise refuse(f"the expression has more than {MAX_TOKENS} tokens")

    def parse(self) -> Node:
        node = self.binary(0)
        if self.at != len(self.tokens):
            raise refuse(f"unexpected {self.tokens[self.at][1]!r}")
        return node

    def peek(self) -> str:
        return self.tokens[self.at][1] if self.at < len(self.tokens) else ""

    def take(self) -> tuple[str, str]:
        if self.at >= len(self.tokens):
            raise refuse("the expression ends too soon")
        self.at += 1
        return self.tokens[self.at - 1]

    def deeper(self) -> None:
        self.depth += 1
        if self.depth > MAX_NESTING:
            raise refuse(f"parentheses and prefix operators nest more than {MAX_NESTING} deep")

    def binary(self, level: int) -> Node:
        if level == len(_LEVELS):
            return self.unary()
        node = self.binary(level + 1)
        while self.peek() in _LEVELS[level] and self.tokens[self.at][0] == "op":
            op = self.take()[1]
            node = _typed(op, node, self.binary(level + 1))
        return node

    def unary(self) -> Node:
        if self.peek() in ("!", "-", "+") and self.tokens[self.at][0] == "op":
            op = self.take()[1]
            self.deeper()
            operand = self.unary()
            self.depth -= 1
            want = "bool" if op == "!" else "num"
            if operand.kind != want:
                raise refuse(f"{op!r} needs {'a condition' if want == 'bool' else 'a number'}")
            if op == "+":
                return operand
            return Node(want, op="neg" if op == "-" else op, args=(operand,))
        return self.primary()

    def primary(self) -> Node:
        kind, text = self.take()
        if kind == "num":
            return Node("num", value=float(text) if re.search(r"[.eE]", text) else int(text))
        if kind == "param":
            if text not in self.names:
                raise refuse(f"params.{text} is not a name of its buckets_path")
            return Node("num", param=text)
        if text == "(":
            self.deeper()
            node = self.binary(0)
            if self.take()[1] != ")":
                raise refuse("a parenthesis is not closed")
            self.depth -= 1
            return node
        raise refuse(f"unexpected {text!r}")


def _tokens(source: str) -> list[tuple[str, str]]:
    tokens, at = [], 0
    while source[at:].strip():
        found = _TOKEN.match(source, at)
        if not found:
            raise refuse(f"unexpected {source[at:].strip()[:20]!r}")
        kind = found.lastgroup or "op"
        tokens.append((kind, found[kind]))
        at = found.end()
    return tokens


def _typed(op: str, left: Node, right: Node) -> Node:
    """The node of a binary operator, its operands' types checked as Java checks them."""
    if op in ("&&", "||"):
        want, kind = "bool", "bool"
    elif op in ("==", "!="):
        want, kind = left.kind, "bool"
    elif op in ("<", "<=", ">", ">="):
        want, kind = "num", "bool"
    else:
        want, kind = "num", "num"
    if left.kind != want or right.kind != want:
        raise refuse(f"{op!r} cannot combine {left.kind} and {right.kind}")
    return Node(kind, op=op, args=(left, right))


def _apply(op: str, values: list[Value]) -> Value:
    if op == "!":
        return not values[0]
    if op == "neg":
        return -values[0]
    a, b = values
    if op == "/":
        return _divide(a, b)
    return {
        "&&": lambda: a and b,
        "||": lambda: a or b,
        "==": lambda: a == b,
        "!=": lambda: a != b,
        "<": lambda: a < b,
        "<=": lambda: a <= b,
        ">": lambda: a > b,
        ">=": lambda: a >= b,
        "+": lambda: a + b,
        "-": lambda: a - b,
        "*": lambda: a * b,
    }[op]()


def _divide(a: Value, b: Value) -> Value:
    """Java's division: ints truncate toward zero (by zero: an error); doubles give ±Infinity or NaN
    by zero."""
    if isinstance(a, int) and isinstance(b, int):
        quotient = abs(a) // abs(b)  # ZeroDivisionError: Template.evaluate names it
        return quotient if (a >= 0) == (b >= 0) else -quotient
    if b == 0:
        if a == 0 or math.isnan(a):
            return math.nan
        return math.copysign(math.inf, a) * math.copysign(1.0, b)
    return a / b
