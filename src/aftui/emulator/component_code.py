"""Read a component's metadata from its JavaScript code, without running it.

The emulator has no JavaScript runtime, yet `POST /components` must answer
with the component's name, version and configurable_props the way the
service does. A component is one exported object literal, so a small
tolerant tokenizer plus a recursive-descent parser for object literals is
enough: literal values (strings, numbers, booleans, null, objects, arrays)
are read, and everything else (function bodies, calls, operators) is
skipped by balanced-bracket matching and kept only as text.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from typing import NoReturn

__all__ = [
    "ComponentCodeError",
    "ComponentMeta",
    "JsExpression",
    "JsIdentifier",
    "JsObject",
    "parse_component",
]


class ComponentCodeError(ValueError):
    """The code cannot be read; str(e) says why, with the line where it applies."""

    def __init__(self, reason: str, line: int | None = None) -> None:
        super().__init__(f"line {line}: {reason}" if line is not None else reason)
        self.reason = reason
        self.line = line


@dataclass(frozen=True)
class ComponentMeta:
    name: str
    key: str | None
    version: str
    type: str  # "source" or "action" (a component without type is a source)
    description: str | None
    props: list[dict]  # configurable_props in API form, in declaration order
    hooks: tuple[str, ...]  # which of "deploy", "activate", "deactivate" the code defines
    dedupe: str | None  # "unique" | "greatest" | "last" | None
    methods: tuple[str, ...]
    # Literal argument of the first `.respond({...})` call when it is a static
    # object, so the emulator can answer an HTTP interface with customResponse.
    respond: dict | None


# --------------------------------------------------------------------------
# Values the parser produces besides plain Python literals


@dataclass(frozen=True)
class JsExpression:
    """Code that was skipped rather than evaluated (a function, a call, an operator...)."""

    text: str
    is_function: bool = False


@dataclass(frozen=True)
class JsIdentifier:
    """A bare identifier used as a value, such as an imported app in `props: { github }`."""

    name: str


class JsObject(dict):
    """An object literal: properties in source order, plus each key's line for error messages."""

    def __init__(self) -> None:
        super().__init__()
        self.key_lines: dict[str, int] = {}
        self.has_spread = False  # `...x` added properties that were not read

    def missing(self, what: str) -> str:
        """Say that `what` is missing, hinting at a spread that may have held it."""
        return f"{what} (properties spread from elsewhere are not read)" if self.has_spread else what


# --------------------------------------------------------------------------
# Tokenizer


@dataclass(frozen=True)
class _Token:
    kind: str  # "ident", "num", "str" (quoted or template), "regex", "punct" or "eof"
    value: str  # identifier or punctuator text, cooked string, a number as written
    line: int
    start: int  # offsets into the code, to cut out the text of skipped expressions
    end: int
    number: int | float = 0  # a "num" token's value


_IDENT = re.compile(r"(?:[^\W\d]|\$)(?:\w|\$)*")
_NUMBER = re.compile(
    r"0[xX][0-9a-fA-F][0-9a-fA-F_]*n?|0[bB][01][01_]*n?|0[oO][0-7][0-7_]*n?"
    r"|(?:\d[\d_]*(?:\.[\d_]*)?|\.\d[\d_]*)(?:[eE][+-]?\d[\d_]*)?n?"
)
_MULTI_CHAR_PUNCT = ("...", "=>", "++", "--")
# After these keywords a `/` starts a regular expression, not a division.
_KEYWORDS_BEFORE_EXPRESSION = frozenset(
    [
        "return",
        "typeof",
        "instanceof",
        "in",
        "of",
        "new",
        "delete",
        "void",
        "throw",
        "case",
        "do",
        "else",
        "yield",
        "await",
    ]
)
_ESCAPE = re.compile(r"\\(u\{[0-9a-fA-F]+\}|u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|\r\n|[\s\S])")
_SIMPLE_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "v": "\v", "0": "\0"}
_LINE_CONTINUATIONS = frozenset({"\n", "\r", "\r\n", "\u2028", "\u2029"})


def _unescape(raw: str) -> str:
    """Cook the escape sequences of a JS string literal's body."""
    text = _ESCAPE.sub(_cook_escape, raw)
    if "\\u" in raw:  # JS spells astral characters as surrogate pairs: join them
        text = text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
    return text


def _cook_escape(match: re.Match[str]) -> str:
    body = match.group(1)
    if len(body) > 1 and body[0] in "ux":
        code_point = int(body.strip("ux{}"), 16)
        return chr(code_point) if code_point <= sys.maxunicode else "\ufffd"  # JS refuses `\u{110000}`
    if body in _LINE_CONTINUATIONS:
        return ""
    return _SIMPLE_ESCAPES.get(body, body)


def _number(text: str) -> int | float:
    text = text.rstrip("n").replace("_", "")
    if text[:2].lower() in ("0x", "0b", "0o"):
        return int(text, 0)
    if any(c in text for c in ".eE"):
        return float(text)
    return int(text)


class _Lexer:
    """Turns JS code into tokens, skipping whitespace and comments."""

    def __init__(self, code: str) -> None:
        self.code = code
        self.pos = 0
        self.line = 1
        self.prev: _Token | None = None  # decides whether a `/` starts a regex

    def tokens(self) -> list[_Token]:
        tokens = []
        while (token := self._next()) is not None:
            tokens.append(token)
        tokens.append(_Token("eof", "end of code", self.line, len(self.code), len(self.code)))
        return tokens

    def _advance(self, to: int) -> None:
        self.line += self.code.count("\n", self.pos, to)
        self.pos = to

    def _next(self) -> _Token | None:
        self._skip_space_and_comments()
        code, start, line = self.code, self.pos, self.line
        if start >= len(code):
            return None
        char = code[start]
        number: int | float = 0
        if char in "'\"":
            kind, value = "str", self._string(char)
        elif char == "`":
            kind, value = "str", self._template()
        elif match := _IDENT.match(code, start):
            kind, value = "ident", match.group()
            self._advance(match.end())
        elif match := _NUMBER.match(code, start):
            kind, value = "num", match.group()
            number = _number(value)
            self._advance(match.end())
        elif char == "/" and self._regex_allowed() and self._regex():
            kind, value = "regex", code[start : self.pos]
        else:
            kind, value = "punct", self._punct()
        self.prev = _Token(kind, value, line, start, self.pos, number)
        return self.prev

    def _skip_space_and_comments(self) -> None:
        code = self.code
        while self.pos < len(code):
            if code[self.pos].isspace():
                self._advance(self.pos + 1)
            elif code.startswith("//", self.pos):
                end = code.find("\n", self.pos)
                self._advance(len(code) if end < 0 else end)
            elif code.startswith("/*", self.pos):
                end = code.find("*/", self.pos + 2)
                if end < 0:
                    raise ComponentCodeError("unterminated comment", self.line)
                self._advance(end + 2)
            else:
                return

    def _string(self, quote: str) -> str:
        code, start = self.code, self.pos
        i = start + 1
        while i < len(code) and code[i] not in (quote, "\n"):
            i += 2 if code[i] == "\\" else 1
        if i >= len(code) or code[i] != quote:
            raise ComponentCodeError("unterminated string", self.line)
        self._advance(i + 1)
        return _unescape(code[start + 1 : i])

    def _template(self) -> str:
        """Read a template literal; `${...}` parts are kept as written, not evaluated."""
        code, line = self.code, self.line
        parts: list[str] = []
        chunk_start = i = self.pos + 1
        while i < len(code) and code[i] != "`":
            if code[i] == "\\":
                i += 2
            elif code.startswith("${", i):
                parts.append(_unescape(code[chunk_start:i]))
                self._advance(i + 2)
                self._skip_substitution(line)
                parts.append(code[i : self.pos])
                chunk_start = i = self.pos
            else:
                i += 1
        if i >= len(code):
            raise ComponentCodeError("unterminated template literal", line)
        parts.append(_unescape(code[chunk_start:i]))
        self._advance(i + 1)
        return "".join(parts)

    def _skip_substitution(self, template_line: int) -> None:
        """Lex past the `}` that closes a `${`, so strings and nesting inside it are respected."""
        depth = 0
        while (token := self._next()) is not None:
            if token.value == "{" and token.kind == "punct":
                depth += 1
            elif token.value == "}" and token.kind == "punct":
                if depth == 0:
                    return
                depth -= 1
        raise ComponentCodeError("unterminated template literal", template_line)

    def _regex_allowed(self) -> bool:
        prev = self.prev
        if prev is None:
            return True
        if prev.kind == "punct":
            return prev.value not in (")", "]", "}", "++", "--")
        return prev.kind == "ident" and prev.value in _KEYWORDS_BEFORE_EXPRESSION

    def _regex(self) -> bool:
        """Consume a regex literal; False (consuming nothing) when it is not one after all."""
        code, i, in_class = self.code, self.pos + 1, False
        while i < len(code) and code[i] != "\n":
            char = code[i]
            if char == "\\":
                i += 2
                continue
            if char == "/" and not in_class:
                end = i + 1
                while end < len(code) and (code[end].isalnum() or code[end] == "_"):
                    end += 1
                self._advance(end)
                return True
            if char == "[":
                in_class = True
            elif char == "]":
                in_class = False
            i += 1
        return False

    def _punct(self) -> str:
        for punct in _MULTI_CHAR_PUNCT:
            if self.code.startswith(punct, self.pos):
                break
        else:
            punct = self.code[self.pos]
        self._advance(self.pos + len(punct))
        return punct


# --------------------------------------------------------------------------
# Parser of object literals

_NOT_A_LITERAL = object()  # `_Parser._literal` found something else
_CLOSERS = {"(": ")", "[": "]", "{": "}"}
_LITERAL_IDENTS: dict[str, object] = {"true": True, "false": False, "null": None}
# Words that may follow a literal within one expression (`"a" in x`, TypeScript's `"app" as const`).
_OPERATOR_WORDS = ("in", "instanceof", "as", "satisfies")


def _at(tokens: list[_Token], index: int) -> _Token:
    """The token at `index`, or the final eof token past the end."""
    return tokens[min(index, len(tokens) - 1)]


def _is(token: _Token, *puncts: str) -> bool:
    return token.kind == "punct" and token.value in puncts


def _is_ident(token: _Token, *names: str) -> bool:
    return token.kind == "ident" and token.value in names


def _starts_operand(token: _Token) -> bool:
    """True for a token that cannot follow a literal inside one expression."""
    return token.kind in ("ident", "str", "num") and not _is_ident(token, *_OPERATOR_WORDS)


class _Parser:
    def __init__(self, code: str, tokens: list[_Token]) -> None:
        self.code = code
        self.tokens = tokens
        self.i = 0
        # Brackets of the literals being parsed: running out of code inside
        # one is reported as that bracket never being closed.
        self.open: list[_Token] = []

    # -- token access ------------------------------------------------------

    def _tok(self, index: int) -> _Token:
        return _at(self.tokens, index)

    def _peek(self, offset: int = 0) -> _Token:
        return self._tok(self.i + offset)

    def _next(self) -> _Token:
        token = self._peek()
        self.i = min(self.i + 1, len(self.tokens) - 1)
        return token

    def _text(self, first: int, last: int) -> str:
        return self.code[self.tokens[first].start : self.tokens[last].end]

    # -- entry points ------------------------------------------------------

    def component_object(self) -> JsObject:
        """Parse the object after `export default` / `module.exports =`."""
        for index, token in enumerate(self.tokens):
            if _is_ident(token, "export") and _is_ident(self._tok(index + 1), "default"):
                start = index + 2
            elif (
                _is_ident(token, "module")
                and _is(self._tok(index + 1), ".")
                and _is_ident(self._tok(index + 2), "exports")
                and _is(self._tok(index + 3), "=")
            ):
                start = index + 4
            else:
                continue
            # `defineSource({...})`, `defineAction({...})`, `defineComponent({...})`
            if self._tok(start).kind == "ident" and _is(self._tok(start + 1), "("):
                start += 2
            if not _is(self._tok(start), "{"):
                raise ComponentCodeError("the default export is not an object literal", token.line)
            self.i = start
            return self._object()
        raise ComponentCodeError("the code has no `export default { ... }` or `module.exports = { ... }`")

    def first_respond(self) -> dict | None:
        """The argument of the first `.respond({...})` call, if it is a static object."""
        for index, token in enumerate(self.tokens):
            if _is(token, ".") and _is_ident(self._tok(index + 1), "respond") and _is(self._tok(index + 2), "("):
                if not _is(self._tok(index + 3), "{"):
                    return None
                self.i = index + 3
                try:
                    argument = self._object()
                except ComponentCodeError:
                    return None  # function bodies are never validated; don't start here
                static = _static(argument)
                return static if _is(self._peek(), ")") and isinstance(static, dict) else None
        return None

    # -- literals ----------------------------------------------------------

    def _object(self) -> JsObject:
        self.open.append(self._next())
        obj = JsObject()
        while not _is(self._peek(), "}"):
            self._property(obj)
            if _is(self._peek(), ","):
                self._next()
            elif not _is(self._peek(), "}"):
                self._unexpected("`,` or `}`")
        self._next()
        self.open.pop()
        return obj

    def _property(self, obj: JsObject) -> None:
        first = self.i
        if _is(self._peek(), "..."):  # spread: its content lives elsewhere, skip it
            self._next()
            self._skip_expression()
            obj.has_spread = True
            return
        is_method = self._skip_method_modifiers()
        key_token = self._peek()
        key = self._property_key()
        if _is(self._peek(), "("):
            value: object = self._method_value(first)
        elif is_method:
            self._unexpected("`(`")
        elif _is(self._peek(), ":"):
            self._next()
            value = self._value()
        elif _is(self._peek(), ",", "}") and key_token.kind == "ident":
            value = JsIdentifier(key_token.value)  # shorthand `{ github }`
        else:
            self._unexpected("`:`")
        if key is not None:
            obj[key] = value
            obj.key_lines[key] = key_token.line

    def _skip_method_modifiers(self) -> bool:
        """Skip `async`, `get`, `set` and `*` before a method name; True if there were any."""
        skipped = False
        while _is(self._peek(), "*") or (
            _is_ident(self._peek(), "async", "get", "set")
            and (self._peek(1).kind in ("ident", "str", "num") or _is(self._peek(1), "*", "["))
        ):
            self._next()
            skipped = True
        return skipped

    def _property_key(self) -> str | None:
        """Read a key; None for a computed `[key]`, which cannot be known without running code."""
        token = self._peek()
        if _is(token, "["):
            self._skip_group()
            return None
        if token.kind not in ("ident", "str", "num"):
            self._unexpected("a property name")
        self._next()
        return str(token.number) if token.kind == "num" else token.value  # `{ 0x10: ... }` names "16"

    def _method_value(self, first: int) -> JsExpression:
        self._skip_group()  # parameters
        if not _is(self._peek(), "{"):
            self._unexpected("`{`")
        self._skip_group()  # body
        return JsExpression(self._text(first, self.i - 1), is_function=True)

    def _value(self) -> object:
        start = self.i
        value = self._literal()
        if value is not _NOT_A_LITERAL:
            if _is(self._peek(), ",", "}", "]"):
                return value
            if not isinstance(value, JsIdentifier) and _starts_operand(self._peek()):
                self._unexpected("`,`")  # `version: "1"  run() {}`: no expression goes on like that
        self.i = start  # a literal followed by more (`"a" + b`, `[1].map(f)`) is an expression
        return self._skip_expression()

    def _literal(self) -> object:
        token = self._peek()
        if _is(token, "{"):
            return self._object()
        if _is(token, "["):
            return self._array()
        self._next()
        if token.kind == "str":
            return self._concatenation(token.value)
        if token.kind == "num":
            return token.number
        if _is(token, "-") and self._peek().kind == "num":
            return -self._next().number
        if token.kind == "ident":
            if token.value in _LITERAL_IDENTS:
                return _LITERAL_IDENTS[token.value]
            return JsIdentifier(token.value)
        return _NOT_A_LITERAL

    def _concatenation(self, text: str) -> str:
        """Fold `"a" + "b"`, which long descriptions use to wrap lines."""
        while _is(self._peek(), "+") and self._peek(1).kind == "str":
            self._next()
            text += self._next().value
        return text

    def _array(self) -> list:
        self.open.append(self._next())
        items: list = []
        while not _is(self._peek(), "]"):
            if _is(self._peek(), ","):  # a hole, as in `[a, , b]`
                items.append(None)
                self._next()
                continue
            items.append(self._skip_expression() if _is(self._peek(), "...") else self._value())
            if _is(self._peek(), ","):
                self._next()
            elif not _is(self._peek(), "]"):
                self._unexpected("`,` or `]`")
        self._next()
        self.open.pop()
        return items

    # -- skipping code -----------------------------------------------------

    def _skip_expression(self) -> JsExpression:
        """Skip to the `,` or closing bracket that ends the current value."""
        first = self.i
        while not (self._peek().kind == "eof" or _is(self._peek(), ",", ")", "]", "}")):
            if _is(self._peek(), "(", "[", "{"):
                self._skip_group()
            else:
                self._next()
        if self.i == first:
            self._unexpected("a value")
        return JsExpression(self._text(first, self.i - 1), _looks_like_function(self.tokens[first : self.i]))

    def _skip_group(self) -> None:
        """Skip from an opening bracket past its matching closing bracket."""
        openers = [self._next()]
        while openers:
            token = self._next()
            if token.kind == "eof":
                raise ComponentCodeError(f"`{openers[-1].value}` is never closed", openers[-1].line)
            if _is(token, "(", "[", "{"):
                openers.append(token)
            elif _is(token, ")", "]", "}"):
                opener = openers.pop()
                if token.value != _CLOSERS[opener.value]:
                    raise ComponentCodeError(
                        f"`{token.value}` does not close the `{opener.value}` of line {opener.line}", token.line
                    )

    def _unexpected(self, expected: str) -> NoReturn:
        token = self._peek()
        if token.kind == "eof" and self.open:
            opener = self.open[-1]
            raise ComponentCodeError(f"`{opener.value}` is never closed", opener.line)
        raise ComponentCodeError(f"expected {expected} but found {self._describe(token)}", token.line)

    def _describe(self, token: _Token) -> str:
        if token.kind == "eof":
            return "the end of the code"
        text = self.code[token.start : token.end]
        return f"`{text if len(text) <= 30 else text[:27] + '...'}`"


def _looks_like_function(tokens: list[_Token]) -> bool:
    """True for `function ...`, `async function ...`, `x => ...` and `(...) => ...`."""
    if tokens and _is_ident(tokens[0], "async"):
        tokens = tokens[1:]
    if not tokens:
        return False
    if _is_ident(tokens[0], "function"):
        return True
    if tokens[0].kind == "ident":
        return len(tokens) > 1 and _is(tokens[1], "=>")
    if not _is(tokens[0], "("):
        return False
    depth = 0
    for index, token in enumerate(tokens):
        depth += _is(token, "(", "[", "{") - _is(token, ")", "]", "}")
        if depth == 0:
            return index + 1 < len(tokens) and _is(tokens[index + 1], "=>")
    return False


def _static(value: object) -> object:
    """A plain Python copy of a literal value, or _NOT_A_LITERAL if any part is code."""
    if isinstance(value, (JsExpression, JsIdentifier)):
        return _NOT_A_LITERAL
    if isinstance(value, dict):
        items = {key: _static(item) for key, item in value.items()}
        return _NOT_A_LITERAL if _NOT_A_LITERAL in items.values() else items
    if isinstance(value, list):
        elements = [_static(item) for item in value]
        return _NOT_A_LITERAL if any(item is _NOT_A_LITERAL for item in elements) else elements
    return value


# --------------------------------------------------------------------------
# Imports: which identifiers name app files


def _imported_apps(tokens: list[_Token]) -> dict[str, str]:
    """Map each imported identifier to its app slug (`github.app.mjs` -> `github`)."""
    apps: dict[str, str] = {}
    for index, token in enumerate(tokens):
        binding, path = None, None
        if _is_ident(token, "import"):
            binding, path = _import_binding(tokens, index)
        elif (  # const github = require("../../github.app.js")
            _is_ident(token, "require")
            and index >= 2
            and tokens[index - 2].kind == "ident"
            and _is(tokens[index - 1], "=")
            and _is(_at(tokens, index + 1), "(")
            and _at(tokens, index + 2).kind == "str"
        ):
            binding, path = tokens[index - 2].value, _at(tokens, index + 2).value
        if binding is not None and path is not None:
            apps[binding] = _app_slug(binding, path)
    return apps


def _import_binding(tokens: list[_Token], index: int) -> tuple[str | None, str | None]:
    """The default (or `* as x`) binding of the import at `index`, and its module path."""
    first = _at(tokens, index + 1)
    if first.kind == "ident":
        binding = first.value
    elif _is(first, "*") and _is_ident(_at(tokens, index + 2), "as") and _at(tokens, index + 3).kind == "ident":
        binding = _at(tokens, index + 3).value
    else:
        return None, None
    for later, token in enumerate(tokens[index + 1 :], start=index + 1):
        if _is(token, ";") or _is_ident(token, "import") or token.kind == "eof":
            break
        if _is_ident(token, "from") and _at(tokens, later + 1).kind == "str":
            return binding, _at(tokens, later + 1).value
    return None, None


def _app_slug(binding: str, path: str) -> str:
    basename = path.rsplit("/", 1)[-1]
    for suffix in (".app.mjs", ".app.js", ".app.ts"):
        if basename.endswith(suffix):
            return basename[: -len(suffix)]
    return binding


# --------------------------------------------------------------------------
# Metadata

_TYPES = ("source", "action")
_HOOKS = ("deploy", "activate", "deactivate")
_DEDUPE = ("unique", "greatest", "last")
_PROP_TYPES = frozenset(
    ["app", "$.interface.http", "$.interface.timer", "$.service.db", "data_store", "http_request", "alert"]
    + [t + suffix for t in ("boolean", "integer", "string", "object", "any") for suffix in ("", "[]")]
)
_ALERT_TYPES = ("info", "neutral", "warning", "error")
_MEMBER_PATH = re.compile(r"[\w$]+(?:\s*\.\s*[\w$]+)+")
# Fields copied into configurable_props when the code gives them as static literals,
# in the order they appear in the result.
_PROP_FIELDS = (
    "label", "description", "optional", "default", "secret", "min", "max", "options", "app",
    "customResponse", "alertType", "content", "disabled", "hidden", "reloadProps", "useQuery",
    "propDefinition",
)  # fmt: skip
_STRING_FIELDS = ("label", "description", "app", "alertType", "content")
_BOOLEAN_FIELDS = ("optional", "secret", "customResponse", "disabled", "hidden", "reloadProps", "useQuery")


def parse_component(code: str) -> ComponentMeta:
    """Read a component's metadata; raise ComponentCodeError when the code cannot be read."""
    try:
        tokens = _Lexer(code).tokens()
        parser = _Parser(code, tokens)
        component = parser.component_object()
        respond = parser.first_respond()
    except RecursionError:
        raise ComponentCodeError("the code nests too deeply to be read") from None
    name = _required_string(component, "name")
    version = _required_string(component, "version")
    kind = _optional_string(component, "type")
    if kind is None:
        kind = "source"
    elif kind not in _TYPES:
        raise ComponentCodeError(f'`type` must be "source" or "action", not {kind!r}', _line(component, "type"))
    _require_run(component)
    return ComponentMeta(
        name=name,
        key=_optional_string(component, "key"),
        version=version,
        type=kind,
        description=_optional_string(component, "description"),
        props=_props(component, kind, _imported_apps(tokens)),
        hooks=_hooks(component, kind),
        dedupe=_dedupe(component, kind),
        methods=tuple(_object_field(component, "methods")),
        respond=respond,
    )


def _line(obj: JsObject, key: str) -> int | None:
    return obj.key_lines.get(key)


def _required_string(component: JsObject, field: str) -> str:
    if field not in component:
        raise ComponentCodeError(component.missing(f"the component has no `{field}`"))
    value = component[field]
    if not isinstance(value, str):
        raise ComponentCodeError(f"`{field}` must be a string literal", _line(component, field))
    return value


def _optional_string(component: JsObject, field: str) -> str | None:
    value = component.get(field)
    if value is not None and not isinstance(value, str):
        raise ComponentCodeError(f"`{field}` must be a string literal", _line(component, field))
    return value


def _require_run(component: JsObject) -> None:
    if "run" not in component:
        raise ComponentCodeError(component.missing("the component has no `run` method"))
    # `run: common.run` may well be a function, so only a literal is refused.
    if not isinstance(component["run"], (JsExpression, JsIdentifier)):
        raise ComponentCodeError("`run` must be a method", _line(component, "run"))


def _object_field(component: JsObject, field: str) -> JsObject:
    value = component.get(field, JsObject())
    if not isinstance(value, JsObject):
        raise ComponentCodeError(f"`{field}` must be an object literal", _line(component, field))
    return value


def _sources_only(component: JsObject, field: str, kind: str) -> None:
    if field in component and kind != "source":
        raise ComponentCodeError(f"`{field}` is only allowed on sources", _line(component, field))


def _hooks(component: JsObject, kind: str) -> tuple[str, ...]:
    _sources_only(component, "hooks", kind)
    hooks = _object_field(component, "hooks")
    for name in hooks:
        if name not in _HOOKS:
            raise ComponentCodeError(
                f"unknown hook `{name}` (expected deploy, activate or deactivate)", _line(hooks, name)
            )
    return tuple(hooks)


def _dedupe(component: JsObject, kind: str) -> str | None:
    _sources_only(component, "dedupe", kind)
    dedupe = _optional_string(component, "dedupe")
    if dedupe is not None and dedupe not in _DEDUPE:
        raise ComponentCodeError(
            f'`dedupe` must be "unique", "greatest" or "last", not {dedupe!r}', _line(component, "dedupe")
        )
    return dedupe


# -- props -----------------------------------------------------------------


def _props(component: JsObject, kind: str, apps: dict[str, str]) -> list[dict]:
    props = _object_field(component, "props")
    result = []
    for name, definition in props.items():
        line = props.key_lines[name]
        lines = definition.key_lines if isinstance(definition, JsObject) else {}
        prop = _prop(name, definition, line, apps)
        _check_prop(prop, kind, lines, line)
        result.append(prop)
    return result


def _prop(name: str, definition: object, line: int, apps: dict[str, str]) -> dict:
    if isinstance(definition, str):  # `http: "$.interface.http"`
        return {"name": name, "type": definition}
    if isinstance(definition, JsIdentifier):  # `github` (shorthand of an imported app)
        return {"name": name, "type": "app", "app": apps.get(definition.name, definition.name)}
    if isinstance(definition, JsObject):
        return _prop_from_object(name, definition, line, apps)
    raise ComponentCodeError(f"prop '{name}' must be an object, a type string or an app", line)


def _prop_from_object(name: str, definition: JsObject, line: int, apps: dict[str, str]) -> dict:
    kind = definition.get("type")
    if kind is None and "propDefinition" in definition:
        kind = "string"  # the real type lives in the app file, which is not read
    if not isinstance(kind, str):
        reason = definition.missing("has no `type`") if kind is None else "has a `type` that is not a string literal"
        raise ComponentCodeError(f"prop '{name}' {reason}", definition.key_lines.get("type", line))
    prop: dict = {"name": name, "type": kind}
    for field in _PROP_FIELDS:
        if field not in definition:
            continue
        value, field_line = definition[field], definition.key_lines[field]
        if field == "options":
            prop.update(_options(name, value, field_line))
        elif field == "propDefinition":
            prop[field] = _prop_definition(name, value, field_line, apps)
        elif (static := _static(value)) is not _NOT_A_LITERAL:
            prop[field] = static
    return prop


def _options(name: str, value: object, line: int) -> dict:
    """`options` as API fields: a static list is kept; a method means the options are remote."""
    if isinstance(value, JsExpression) and value.is_function:
        return {"remoteOptions": True}
    static = _static(value)
    if static is _NOT_A_LITERAL:
        return {}  # e.g. a constant imported from another file
    if not isinstance(static, list) or not all(_is_option(option) for option in static):
        raise ComponentCodeError(
            f"prop '{name}': `options` must be a method or an array of strings, numbers or {{label, value}} objects",
            line,
        )
    return {"options": static}


def _is_option(option: object) -> bool:
    if isinstance(option, dict):
        return "label" in option and "value" in option
    return isinstance(option, (str, int, float)) and not isinstance(option, bool)


def _prop_definition(name: str, value: object, line: int, apps: dict[str, str]) -> list:
    """`[github, "repo", inputValues?]` -> `["github", "repo", ...]` (inputValues only if static)."""
    if not isinstance(value, list) or len(value) < 2 or not isinstance(value[1], str):
        raise ComponentCodeError(f"prop '{name}': `propDefinition` must be [app, propName, inputValues?]", line)
    app = value[0]
    if isinstance(app, JsExpression) and _MEMBER_PATH.fullmatch(app.text):
        # `common.props.github` is taken to name the app `github`
        app = JsIdentifier(app.text.rsplit(".", 1)[-1].strip())
    if isinstance(app, JsIdentifier):
        app = apps.get(app.name, app.name)
    if not isinstance(app, str):
        raise ComponentCodeError(f"prop '{name}': the app of `propDefinition` must be an app or its name", line)
    extra = [static for static in map(_static, value[2:3]) if static is not _NOT_A_LITERAL]
    return [app, value[1], *extra]


def _check_prop(prop: dict, kind: str, field_lines: dict[str, int], prop_line: int) -> None:
    """Refuse a prop the service would refuse, pointing at the line of the offending field."""
    name, prop_type = prop["name"], prop["type"]

    def fail(field: str, reason: str) -> NoReturn:
        raise ComponentCodeError(f"prop '{name}' {reason}", field_lines.get(field, prop_line))

    if prop_type not in _PROP_TYPES:
        fail("type", f"has unknown type '{prop_type}'")
    if prop_type.startswith("$.interface.") and kind != "source":
        fail("type", f"is a {prop_type}, which only sources may have")
    for field in _STRING_FIELDS:
        if field in prop and not isinstance(prop[field], str):
            fail(field, f"has a non-string `{field}`")
    for field in _BOOLEAN_FIELDS:
        if field in prop and not isinstance(prop[field], bool):
            fail(field, f"has a non-boolean `{field}`")
    for field in ("min", "max"):
        if field in prop and prop_type != "integer":
            fail(field, f"has `{field}`, which only integer props may have")
        if field in prop and (not isinstance(prop[field], int) or isinstance(prop[field], bool)):
            fail(field, f"has a non-integer `{field}`")
    if prop.get("secret") and prop_type != "string":
        fail("secret", "has `secret`, which only string props may have")
    if prop_type == "app" and not prop.get("app"):
        fail("app", "is an app prop without `app` (the app's name slug)")
    if prop_type == "alert":
        if prop.get("alertType") not in _ALERT_TYPES:
            fail("alertType", "is an alert without `alertType` (info, neutral, warning or error)")
        if "content" not in prop:
            fail("content", "is an alert without `content`")
