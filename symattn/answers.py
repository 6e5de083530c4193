"""Reading a learner's answer: checks on the raw text, then latex2sympy2 in a worker.

A learner's answer is untrusted. Before anything parses it, :func:`precheck` looks at the raw
string: its length, its characters, balanced braces, nesting depth, and commands that are not
accepted (``\\def``, ``\\binom``, factorials, Python code). Each refusal is one sentence a
learner can act on ("unmatched brace at position 9"). Parsing and comparison then run in a
forked worker with a wall-clock, CPU and memory limit (:mod:`symattn.judge`).
"""

from __future__ import annotations

import re

from .errors import SymattnError

#: Longest answer accepted, in characters.
MAX_LENGTH = 400
#: Deepest nesting of brackets and braces accepted.
MAX_DEPTH = 40
#: Longest run of digits accepted.
MAX_DIGITS = 40

_FORBIDDEN = {
    r"\def": "definitions (\\def) are not accepted here",
    r"\newcommand": "\\newcommand is not accepted here",
    r"\renewcommand": "\\renewcommand is not accepted here",
    r"\let": "\\let is not accepted here",
    r"\input": "\\input is not accepted here",
    r"\include": "\\include is not accepted here",
    r"\write": "\\write is not accepted here",
    r"\catcode": "\\catcode is not accepted here",
    r"\csname": "\\csname is not accepted here",
    r"\binom": "\\binom is not accepted here",
    r"\choose": "\\choose is not accepted here",
    r"\operatorname": "\\operatorname is not accepted here: write the value itself",
    r"\mathrm": "\\mathrm is not accepted here: write the value itself",
    r"\prod": "products (\\prod) are not accepted here",
    r"\sum": "sums (\\sum) are not accepted here: write the value itself",
    r"\int": "integrals are not accepted here",
    r"\lim": "limits are not accepted here",
}
_CODE = re.compile(r"__|\bimport\b|\blambda\b|\beval\b|\bexec\b|\bos\.|\bsys\.|\bopen\(|\bprint\(")
_ALLOWED = re.compile(r"[0-9A-Za-z\s\\{}()\[\]^_+\-*/=<>.,&|!:']")
_COMMA_NUMBER = re.compile(r"^\s*-?\d+(,\d+)+\s*$")


class InvalidAnswer(SymattnError, ValueError):
    """The answer cannot be judged: empty, unreadable, unsupported or too costly."""


def precheck(raw: str) -> str:
    """Check the raw text of an answer; return it cleaned (outer $ signs and spaces removed)."""
    if raw is None or not raw.strip():
        raise InvalidAnswer("the answer is empty")
    if len(raw) > MAX_LENGTH:
        raise InvalidAnswer(f"the answer is too long ({len(raw)} characters, at most {MAX_LENGTH})")
    text = raw.strip()
    if text.startswith("$") and text.endswith("$"):
        text = text.strip("$").strip()
    text = text.replace("\u2212", "-")  # a typographic minus sign
    for pos, ch in enumerate(text, start=1):
        if not _ALLOWED.fullmatch(ch):
            shown = ch if ch.isprintable() else f"U+{ord(ch):04X}"
            raise InvalidAnswer(f"the character {shown!r} at position {pos} is not accepted here")
    if _CODE.search(text):
        raise InvalidAnswer("this looks like program code, not a mathematical answer")
    for command, why in _FORBIDDEN.items():
        if re.search(re.escape(command) + r"(?![A-Za-z])", text):
            raise InvalidAnswer(why)
    if "!" in text:
        raise InvalidAnswer("factorials (!) are not accepted here")
    if _COMMA_NUMBER.match(text):
        plain = text.replace(",", "")
        if text.count(",") == 1:
            raise InvalidAnswer(
                f"write {text.replace(',', '.')}, not {text} (or {plain} if you meant thousands)"
            )
        raise InvalidAnswer(f"write {plain}, not {text}: commas are not read as thousands")
    if m := re.search(r"\d{" + str(MAX_DIGITS + 1) + ",}", text):
        raise InvalidAnswer(f"too costly to check: a number with {len(m.group())} digits")
    _check_brackets(text)
    return text


def _check_brackets(text: str) -> None:
    pairs = {"}": "{", ")": "(", "]": "["}
    stack: list[tuple[str, int]] = []
    i = 0
    while i < len(text):
        ch = text[i]
        if ch == "\\" and i + 1 < len(text) and text[i + 1] in "{}[]()":
            # \{ \} are literal braces; \left( and \right) are handled as plain brackets
            i += 2
            continue
        if ch in "{([":
            stack.append((ch, i + 1))
            if len(stack) > MAX_DEPTH:
                raise InvalidAnswer(f"too costly to check: nested more than {MAX_DEPTH} deep")
        elif ch in "})]":
            if not stack:
                raise InvalidAnswer(f"unmatched {_name(ch)} at position {i + 1}")
            opened, pos = stack.pop()
            if opened != pairs[ch]:
                # "[0, 1)" style intervals are not answers here; report the first mismatch
                raise InvalidAnswer(f"unmatched {_name(opened)} at position {pos}")
        i += 1
    if stack:
        opened, pos = stack[-1]
        raise InvalidAnswer(f"unmatched {_name(opened)} at position {pos}")


def _name(ch: str) -> str:
    return {
        "{": "brace",
        "}": "brace",
        "(": "parenthesis",
        ")": "parenthesis",
        "[": "bracket",
        "]": "bracket",
    }[ch]
