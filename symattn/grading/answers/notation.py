"""Reading a learner's answer: checks on the raw text, then its reading as a chain of sides.

A learner's answer is untrusted. Before anything parses it, :func:`precheck` looks at the raw
string: its length, its characters, balanced braces, nesting depth, and commands that are not
accepted (``\\def``, every binomial and Pochhammer spelling, factorials, Python code). Each
refusal is one sentence a learner can act on ("unmatched brace at position 9").

It also rewrites the notations a careful grader accepts into one plain form and records, as
a note, every reading that was not literal ("8\\,192 read as 8192"): math delimiters and
``\\boxed``, spacing commands, thin-space and space thousands separators, ``e`` notation with
digits on both sides, ``\\gt``/``\\geqslant``, a trailing period or ``\\ldots``,
``\\mathrm{e}``/``\\mathrm{d}``, a unit in ``\\text{}`` after a number, and ``\\%`` (a
hundredth). Forms that are truly ambiguous (``1,96``, ``8,192``) are refused naming both
readings. :func:`split_chain` then cuts the text at its top-level relations (``=``,
``\\approx``, ``<``, ``\\geq``, ``\\in`` an interval, ...) into sides that the judge parses one
by one (:mod:`symattn.grading.answers.judge`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ...errors import SymattnError
from ...limits import MAX_POWER_DIGITS, TOO_MANY_DIGITS
from ...unicode_text import first_refused
from . import dialects
from .dialects import group_end

#: Longest answer accepted, in characters.
MAX_LENGTH = 400
#: Deepest nesting of brackets and braces accepted. SymPy evaluates a nested expression as it
#: builds it, at a cost that can double with each level (a 20-deep tower e^{-e^{-...}} took
#: 20 s of CPU, an 18-deep one 4 s): the banks' answers nest at most 7 deep (bench/limits.py).
MAX_DEPTH = 12
#: Longest run of digits accepted.
MAX_DIGITS = 40
#: Most terms a \sum or \prod with concrete bounds may have.
MAX_TERMS = 100

_BINOMIAL = "binomial coefficients are not accepted here: write the value itself"
_FORBIDDEN = {
    r"\def": "definitions (\\def) are not accepted here",
    r"\edef": "definitions (\\edef) are not accepted here",
    r"\gdef": "definitions (\\gdef) are not accepted here",
    r"\newcommand": "\\newcommand is not accepted here",
    r"\renewcommand": "\\renewcommand is not accepted here",
    r"\providecommand": "\\providecommand is not accepted here",
    r"\let": "\\let is not accepted here",
    r"\input": "\\input is not accepted here",
    r"\variable": "\\variable placeholders are not accepted here: an answer has no values to fill in",
    r"\include": "\\include is not accepted here",
    r"\write": "\\write is not accepted here",
    r"\catcode": "\\catcode is not accepted here",
    r"\csname": "\\csname is not accepted here",
    r"\expandafter": "\\expandafter is not accepted here",
    r"\neg": "a negation is read only around one relation in parentheses, as in \\neg(N \\leq 8192)",
    r"\lnot": "a negation is read only around one relation in parentheses, as in \\lnot(N \\leq 8192)",
    r"\binom": _BINOMIAL,
    r"\dbinom": _BINOMIAL,
    r"\tbinom": _BINOMIAL,
    r"\choose": _BINOMIAL,
    r"\brack": _BINOMIAL,
    r"\brace": _BINOMIAL,
    r"\genfrac": _BINOMIAL,
    r"\atop": _BINOMIAL,
    r"\operatorname": "\\operatorname is not accepted here: write the value itself",
    r"\Gamma": "the Gamma function is not accepted here: write the value itself",
    r"\int": "integrals are not accepted here",
    r"\iint": "integrals are not accepted here",
    r"\oint": "integrals are not accepted here",
    r"\lim": "limits are not accepted here",
    r"\partial": "derivatives are not accepted here",
    r"\prime": "derivatives are not accepted here",
    r"\det": "determinants are not accepted here",
    r"\begin{vmatrix}": "determinants (vmatrix) are not accepted here",
    r"\begin{Vmatrix}": "norms (Vmatrix) are not accepted here",
}
# Program code. `\lambda` is the Greek letter, so the word lambda counts only without a backslash.
_CODE = re.compile(
    r"__|(?<!\\)\b(?:import|lambda|eval|exec|compile|getattr|globals|locals)\b|\bos\.|\bsys\.|"
    r"\bopen\(|\bprint\(|\bsubprocess\b"
)
_ALLOWED = re.compile(r"[0-9A-Za-z\s\\{}()\[\]^_+\-*/=<>.,&|!:';~$%]")
_UNICODE = {
    "\u2212": "-",  # minus sign
    "\u2013": "-",  # en dash typed as a minus
    "\u2264": r"\leq ",
    "\u2265": r"\geq ",
    "\u2260": r"\neq ",
    "\u2248": r"\approx ",
    "\u221e": r"\infty ",
    "\u00d7": r"\times ",
    "\u22c5": r"\cdot ",
    "\u00b7": r"\cdot ",
    "\u2026": r"\ldots ",
    "\u00a0": " ",  # no-break space
    "\u2009": r"\,",  # thin space
    "\u202f": r"\,",  # narrow no-break space
    "\u03c0": r"\pi ",
}
# Spacing commands; a thousands separator is any one of them (or a space) between digit groups.
_SPACING = (
    r"\\,|\\;|\\:|\\!|\\ |~|\\quad\b|\\qquad\b|\\enspace\b|\\thinspace\b|\\medspace\b|"
    r"\\thickspace\b|\\negthinspace\b|\\hspace\{[^{}]*\}"
)
_SEP = r"(?:\\,|\\;|\\:|\\ |~|\\thinspace\b|\\enspace\b| )"
_THOUSANDS = re.compile(r"(?<![\d.])(\d{1,3})((?:" + _SEP + r"\d{3})+)(?![\d])")
_E_NOTATION = re.compile(r"(?<![\w\\.])(\d+(?:\.\d+)?)[eE]([+-]?\d+)(?![\d.])")
_RELATION_WORDS = {
    r"\gt": ">",
    r"\lt": "<",
    r"\geqslant": r"\geq",
    r"\leqslant": r"\leq",
    r"\geq": r"\geq",
    r"\leq": r"\leq",
    r"\ge": r"\geq",
    r"\le": r"\leq",
    r"\neq": r"\neq",
    r"\ne": r"\neq",
    r"\not=": r"\neq",
    r"\dfrac": r"\frac",
    r"\tfrac": r"\frac",
    r"\cfrac": r"\frac",
    r"\top": "T",
    r"\intercal": "T",
}
_ROW = "\u0001"
_DROP = (r"\displaystyle", r"\textstyle", r"\limits", r"\nolimits")
_FUNCTION_WORDS = ("exp", "sqrt", "log", "ln", "max", "min", "sin", "cos", "tan", "frac", "infty")
# Words a learner may write without a backslash in a subscript (d_{model}) or a unit.
_TEXT = r"\\(?:text|textrm|textnormal|mathrm|mbox|operatorname\*?)"


#: Unit words that may follow a number and are ignored; any other word is refused, since it may
#: change the value ("8192 thousand") or take it back ("1.96 not").
UNITS = frozenset(
    f"{w}{s}"
    for w in (
        "token",
        "dimension",
        "feature",
        "entr",
        "position",
        "word",
        "key",
        "quer",
        "value",
        "head",
        "element",
        "flop",
        "multiply-add",
        "operation",
        "step",
        "item",
        "unit",
    )
    for s in (("y", "ies") if w in ("entr", "quer") else ("", "s"))
) | frozenset({"tokens long", "flops", "multiply adds"})


class InvalidAnswer(SymattnError, ValueError):
    """The answer cannot be judged: empty, unreadable, ambiguous, unsupported or too costly."""


@dataclass(frozen=True)
class Chain:
    """An answer cut at its top-level relations: ``sides[0] rel[0] sides[1] rel[1] ...``.

    A side may be empty where the answer starts or ends with a relation (``\\approx 1.96``).
    Relations are ``=``, ``\\approx``, ``\\equiv``, ``\\sim``, ``<``, ``>``, ``\\leq``,
    ``\\geq``, ``\\neq``.
    """

    sides: tuple[str, ...]
    relations: tuple[str, ...]


def precheck(raw: str, notes: list[str] | None = None, typed: dict[str, str] | None = None) -> str:
    """Check the raw text of an answer; return it in plain form (see the module docstring).

    Each reading that is not literal is appended to ``notes`` (when given) as a short phrase.
    ``typed`` (when given) receives, for each number the plain form writes differently from the
    learner, the plain form and what was typed (``1.9586E0``: ``1.9586e0``), so that the reading
    can echo the number as typed (:func:`symattn.grading.answers.sides.typed_text`).
    """
    notes = [] if notes is None else notes
    typed = {} if typed is None else typed
    if raw is None or not raw.strip():
        raise InvalidAnswer("the answer is empty")
    if MAX_LENGTH < len(raw) <= 10 * MAX_LENGTH:  # a model's worked text: its answer, if it ends in one
        answer = dialects.worked_answer(raw)
        raw = answer if len(answer) <= MAX_LENGTH else raw
    if len(raw) > MAX_LENGTH:
        raise InvalidAnswer(f"the answer is too long ({len(raw)} characters, at most {MAX_LENGTH})")
    if len(boxes := set(dialects.boxed_contents(raw))) > 1:
        raise InvalidAnswer(f"the answer boxes several values ({', '.join(sorted(boxes))}): give one")
    text = dialects.normalise(raw.strip(), notes)
    if m := re.search(r"\^\s*(\d)(\d+)", text):
        a, b = m.groups()
        raise InvalidAnswer(
            f"ambiguous: ^{a}{b} could be the power {a}{b} (as plain text means it) or the power {a} "
            f"followed by {b} (as LaTeX reads it, and a math field shows it); write ^{{{a}{b}}}"
        )
    if m := re.search(r"(?<![\d.,])(\d+)\u00b7(\d+)(?![\d.,])", text):
        a, b = m.groups()
        raise InvalidAnswer(
            f"ambiguous: {a}·{b} could be {a}.{b} (a raised decimal point) or the product {a} × {b}; "
            f"write {a}.{b} or {a} \\cdot {b}"
        )
    for ch, plain in _UNICODE.items():
        text = text.replace(ch, plain)
    if refused := first_refused(text, _ALLOWED):
        raise InvalidAnswer(refused)
    if _CODE.search(text):
        raise InvalidAnswer("this looks like program code, not a mathematical answer")
    for command, why in _FORBIDDEN.items():
        if re.search(re.escape(command) + (r"(?![A-Za-z])" if command[-1].isalpha() else ""), text):
            raise InvalidAnswer(why)
    if re.search(r"\)\s*_|\\right\s*\)\s*_|\)\s*\}\s*_|\\right\s*\)\s*\}\s*_", text):
        raise InvalidAnswer("Pochhammer symbols such as (4)_{1} are not accepted here: write the value")
    text = text.replace("\\\\", _ROW)  # a matrix row break, kept apart from "\\ " (a space)
    # A row break's spacing (\\[2pt]) is layout, not an entry.
    text = re.sub(_ROW + r"\s*\[\s*-?[\d.]*\s*(?:pt|em|ex|mm|cm|in|mu|bp|sp|pc)\s*\]", _ROW, text)
    text = _unwrap(text, notes)
    text = _bare_percent(text)
    text = re.sub(r"(?<!\\)!=", r"\\neq ", text)
    text = text.replace(">=", r"\geq ").replace("<=", r"\leq ")
    if "!" in text.replace(r"\!", ""):
        raise InvalidAnswer("factorials (!) are not accepted here")
    if re.search(r"(?<!\\);", text):
        raise InvalidAnswer("';' is not accepted here: give one answer")
    if "$" in text:
        raise InvalidAnswer("a dollar sign is accepted only around the whole answer")
    text = _units_and_text(text, notes)
    text = _commands(text)
    text = _separators(text, notes)
    text = _e_notation(text, notes, typed)
    for m in re.finditer(r"([\d.]+)\s*\\%", text):
        notes.append(f"{m.group(1)}\\% read as {m.group(1)}/100")
    text = _decimal_commas(text, notes)
    _ambiguous_commas(text)
    if m := re.search(r"\d{" + str(MAX_DIGITS + 1) + ",}", text):
        raise InvalidAnswer(f"too costly to check: a number with {len(m.group())} digits")
    _check_sums(text)
    _check_words(text)
    text = re.sub(r"\s+", " ", text).strip()
    if not text:
        raise InvalidAnswer("the answer is empty")
    _check_brackets(_without_intervals(text))
    return text.replace(_ROW, r" \\ ").replace("  ", " ")


def measures(raw: str) -> dict[str, int]:
    """What :func:`precheck` bounds, measured on an answer's text (bench/limits.py reports the
    largest each bank reaches): its characters, the deepest nesting of brackets and braces, the
    longest run of digits and the most terms of a sum or product with concrete bounds."""
    depth = deepest = 0
    for ch in raw:
        depth += (ch in "{([") - (ch in "})]")
        deepest = max(deepest, depth)
    terms = [
        int(m.group(2) or m.group(3)) - int(m.group(1)) + 1
        for m in re.finditer(
            r"\\(?:sum|prod)\s*_\s*\{\s*[A-Za-z]\s*=\s*(-?\d+)\s*\}\s*\^\s*(?:\{\s*(-?\d+)\s*\}|(\d))", raw
        )
    ]
    digits = max((len(m.group()) for m in re.finditer(r"\d+", raw)), default=0)
    return {"characters": len(raw), "nesting": deepest, "digits": digits, "terms": max(terms, default=0)}


def unwrap(text: str) -> str:
    """``text`` without math delimiters, ``\\boxed``, a trailing period or ``\\ldots`` around it."""
    return _unwrap(text, [])


# -- the rewriting steps, in order ----------------------------------------------------------
def _unwrap(text: str, notes: list[str]) -> str:
    """Remove math delimiters, \\boxed, a trailing period and a trailing \\ldots."""
    for _ in range(4):
        before = text
        for open_, close in (("$$", "$$"), ("$", "$"), (r"\(", r"\)"), (r"\[", r"\]")):
            if len(text) > len(open_) + len(close) and text.startswith(open_) and text.endswith(close):
                text = text[len(open_) : -len(close)].strip()
        text = _strip_command_group(text, r"\boxed")
        text = _strip_command_group(text, r"\fbox")
        text = re.sub(r"(?:\\ |\\,|\s)*\.$", "", text).strip()
        dots = re.search(r"(?:\\ldots|\\dots|\\cdots|\.\.\.)(?:\{\})?\s*\.?$", text)
        if dots and text[: dots.start()].strip():
            text = text[: dots.start()].strip()
            notes.append("the trailing … is ignored: the digits are judged as written")
        if text == before:
            break
    return text


def _strip_command_group(text: str, command: str) -> str:
    """Replace every ``\\command{X}`` by ``X``."""
    while (i := text.find(command + "{")) >= 0:
        end = group_end(text, i + len(command))
        if end < 0:
            break
        text = text[:i] + " " + text[i + len(command) + 1 : end] + " " + text[end + 1 :]
    return text.strip()


def _bare_percent(text: str) -> str:
    if re.search(r"(?<!\\)%", text):
        raise InvalidAnswer(r"a bare % starts a comment in LaTeX: write \% for a percentage")
    return text


def _commands(text: str) -> str:
    """Synonyms of relations and fractions, and commands that change nothing, in plain form."""
    for word in _DROP:
        text = re.sub(re.escape(word) + r"(?![A-Za-z])", " ", text)
    for word, plain in sorted(_RELATION_WORDS.items(), key=lambda kv: -len(kv[0])):
        pattern = re.escape(word) + (r"(?![A-Za-z])" if word[-1].isalpha() else "")
        text = re.sub(pattern, lambda _m, p=plain: f" {p} " if p[0] in "<>\\" else p, text)
    # ^{\mathsf{T}}, ^{\mathrm{T}}, ^{\mathbf{T}} -> ^{T}
    text = re.sub(r"\\(?:mathsf|mathbf|mathrm|text|rm)\{\s*T\s*\}", "T", text)
    return text


def _units_and_text(text: str, notes: list[str]) -> str:
    """``d_{\\text{model}}`` is the symbol d_{model}; a unit word after a number is dropped."""
    text = re.sub(r"(?<![A-Za-z\\])([A-Za-z])_([A-Za-z]{2,})", r"\1_{\2}", text)  # d_model

    def sub_word(m: re.Match) -> str:
        return "_{" + m.group(1) + "}"

    text = re.sub(r"_\{?\s*" + _TEXT + r"\{\s*([A-Za-z]+)\s*\}\s*\}?", sub_word, text)
    unit = re.compile(
        r"([\d}).\]]\s*)(?:(?:\\[ ,;:!]|\\q?quad\b|~)\s*)*"
        + _TEXT
        + r"\{\s*(?:\\[ ,;:]\s*)*((?![edi]\s*\})[A-Za-z][A-Za-z ]*\.?)\s*\}"
    )

    def drop_unit(m: re.Match) -> str:
        word = " ".join(m.group(2).split()).rstrip(".")
        if word == "and":  # "M \text{ and } [1, 0, 0]": a word between two parts, kept apart
            return m.group(1) + ", "
        if word.lower() not in UNITS:  # "8192 thousand", "1.96 not": words that change the value
            raise InvalidAnswer(
                f"'{word}' after a number is not read: only a unit (tokens, dimensions, features, "
                "heads, ...) may follow it; write the value itself"
            )
        notes.append(f"the unit '{word}' is ignored")
        return m.group(1)

    text = unit.sub(drop_unit, text)
    # \mathrm{e}, \mathrm{d}, \rm d: the letter itself.
    text = re.sub(r"\\(?:mathrm|mathit|text|textrm)\{\s*([A-Za-z])\s*\}", r"\1", text)
    text = re.sub(r"\{\\rm\s+([A-Za-z])\}", r"\1", text)
    if re.search(_TEXT + r"\s*\{", text):
        raise InvalidAnswer("text is not read as mathematics: write the value itself")
    return text


def _separators(text: str, notes: list[str]) -> str:
    """Thousands separators (8\\,192, 8 192) and spacing commands."""

    def join(m: re.Match) -> str:
        digits = m.group(1) + re.sub(r"\D", "", m.group(2))
        notes.append(f"{m.group(0).strip()} read as {digits}")
        return digits

    text = _THOUSANDS.sub(join, text)
    text = re.sub(_SPACING, " ", text)
    if m := re.search(r"(\d)\s+(\d)", text):
        left = re.search(r"[\d.]+$", text[: m.start() + 1]).group()
        right = re.match(r"[\d.]+", text[m.end() - 1 :]).group()
        raise InvalidAnswer(
            f"ambiguous: '{left} {right}' could be {left}{right} or {left} times {right}; write one of them"
        )
    return text


def _e_notation(text: str, notes: list[str], typed: dict[str, str]) -> str:
    """``1.1e+1`` is 1.1 x 10^1, unless the answer uses e as Euler's number elsewhere
    (``\\frac{6e+7}{e+1}``, ``e^{2}+1.1e+1``): then an e before a sign is Euler's number, and a
    note says so. An e between digits (``1.9586e0``) is always e-notation: Euler's e times a
    number is written with the number first."""
    rest = _E_NOTATION.sub(" ", text)
    euler = bool(_E_NOTATION.search(text) and re.search(r"(?<![A-Za-z\\])e(?![A-Za-z])", rest))
    if euler and any(m.group(2)[0] in "+-" for m in _E_NOTATION.finditer(text)):
        notes.append("e read as Euler's number throughout, as the answer uses it so")

    def keep_signed(m: re.Match) -> str:  # 6e+7 beside Euler's e: 6e + 7; 1.9586e0 stays 1.9586 x 10^0
        return m.group(0) if euler and m.group(2)[0] in "+-" else sub(m)

    def sub(m: re.Match) -> str:
        mantissa, exponent = m.group(1), int(m.group(2))
        if abs(exponent) > MAX_POWER_DIGITS:  # read exactly, 1e999999 is a million digits
            raise InvalidAnswer(TOO_MANY_DIGITS)
        notes.append(f"{m.group(0)} read as {mantissa} × 10^{exponent}")
        typed[f"{mantissa}E{exponent}"] = m.group(0)
        return f"{mantissa}E{exponent}"  # latex2sympy2 reads this form exactly

    return _E_NOTATION.sub(keep_signed, text)


def _outside_brackets(text: str) -> list[bool]:
    """For each character, whether it stands outside every (), [] and {} pair but braces."""
    out, stack = [], []
    for i, ch in enumerate(text):
        if ch in "([{":
            stack.append("\\{" if ch == "{" and text[i - 1 : i] == "\\" else ch)  # \{ opens a set
        elif ch in ")]}" and stack:
            stack.pop()
        out.append(not stack or stack[-1] == "{")
    return out


def _decimal_commas(text: str, notes: list[str]) -> str:
    """Commas no other reading explains: ``1,95856`` and ``8192,0`` are decimal commas (no
    thousands grouping leaves other than three digits after a comma), ``12,345,678`` thousands
    separators (no number has two decimal commas). ``1,959`` stays ambiguous."""
    outside = _outside_brackets(text)

    def read(m: re.Match) -> str:
        if not outside[m.start()]:
            return m.group(0)
        if m.group("groups"):
            notes.append(f"{m.group(0)} read as {m.group(0).replace(',', '')} (thousands separators)")
            return m.group(0).replace(",", "")
        if len(m.group("b")) != 3:
            notes.append(f"{m.group(0)} read as {m.group('a')}.{m.group('b')} (a decimal comma)")
            return f"{m.group('a')}.{m.group('b')}"
        return m.group(0)

    return re.sub(
        r"(?<![\d.,])(?:(?P<groups>\d{1,3}(?:,\d{3}){2,})|(?P<a>\d+)(?:,|\{,\})(?P<b>\d+))(?![\d,])",
        read,
        text,
    )


def _ambiguous_commas(text: str) -> None:
    """A comma between digits is a decimal comma or a thousands separator: refuse both readings.

    Inside parentheses and brackets a comma separates items ([1, 0, 0], (8192, \\infty)).
    """
    stack: list[str] = []
    for i, ch in enumerate(text):
        if ch in "([{":
            stack.append(ch)
        elif ch in ")]}" and stack:
            stack.pop()
        elif ch == "," and (not stack or stack[-1] == "{"):
            left = re.search(r"(\d+(?:\.\d+)?)\{?$", text[:i])
            right = re.match(r"\}?(\d+)", text[i + 1 :])
            if left and right:
                a, b = left.group(1), right.group(1)
                raise InvalidAnswer(
                    f"ambiguous: {a},{b} could be {a}.{b} (decimal comma) or {a}{b} "
                    "(thousands separator); write it without the comma"
                )


def _check_sums(text: str) -> None:
    r"""\sum and \prod are read only with concrete whole-number bounds and few terms."""
    for m in re.finditer(r"\\(sum|prod)(?![A-Za-z])", text):
        word = "sums" if m.group(1) == "sum" else "products"
        bounds = re.match(
            r"\s*_\s*\{\s*([A-Za-z])\s*=\s*(-?\d{1,6})\s*\}\s*\^\s*(?:\{\s*(-?\d{1,6})\s*\}|(\d))",
            text[m.end() :],
        )
        if not bounds:
            raise InvalidAnswer(
                f"{word} are read only with whole-number bounds, as in \\{m.group(1)}_{{i=1}}^{{3}}"
            )
        low, high = int(bounds.group(2)), int(bounds.group(3) or bounds.group(4))
        if high - low + 1 > MAX_TERMS:
            raise InvalidAnswer(f"too costly to check: {word} of more than {MAX_TERMS} terms")


def _check_words(text: str) -> None:
    """Letters in a row outside a command or subscript are a word, not mathematics."""
    plain = re.sub(r"\\begin\{[^{}]*\}(?:\{[^{}]*\})?|\\end\{[^{}]*\}", " ", text)
    plain = re.sub(r"\\[A-Za-z]+", " ", plain)  # commands
    plain = re.sub(r"_\{[^{}]*\}", " ", plain)  # subscripts
    for m in re.finditer(r"[A-Za-z]{3,}", plain):
        word = m.group()
        if word.lower() in _FUNCTION_WORDS:
            raise InvalidAnswer(f"write \\{word.lower()} for the function, not {word}")
        raise InvalidAnswer(f"'{word}' is not a number or a symbol of this exercise")
    for m in re.finditer(r"\\begin\{([^{}]*)\}", text):
        if m.group(1) not in ("bmatrix", "pmatrix", "matrix", "Bmatrix", "array", "smallmatrix"):
            raise InvalidAnswer(f"the environment {m.group(1)} is not accepted here")


# -- brackets --------------------------------------------------------------------------------
_INTERVAL = re.compile(
    r"\\in\s*(?:\\left\s*)?([(\[\]])(?P<a>[^,;()\[\]]*(?:\([^()]*\)[^,;()\[\]]*)*),"
    r"(?P<b>[^,;()\[\]]*(?:\([^()]*\)[^,;()\[\]]*)*?)(?:\\right\s*)?([)\]\[])\s*$"
)


def _without_intervals(text: str) -> str:
    """The text with an interval after \\in (half-open brackets are fine there) blanked out."""
    m = _INTERVAL.search(text)
    return text if not m else text[: m.start()] + " " * (m.end() - m.start())


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


# -- cutting at relations --------------------------------------------------------------------
_RELATIONS = {
    "=": "=",
    "<": "<",
    ">": ">",
    r"\leq": "<=",
    r"\geq": ">=",
    r"\neq": "!=",
    r"\approx": "~",
    r"\simeq": "~",
    r"\sim": "~",
    r"\equiv": "equiv",
    r"\cong": "equiv",
    r"\doteq": "~",
}
_REL_TOKEN = re.compile(
    r"\\leq(?![A-Za-z])|\\geq(?![A-Za-z])|\\neq(?![A-Za-z])|\\approx(?![A-Za-z])|"
    r"\\simeq(?![A-Za-z])|\\sim(?![A-Za-z])|\\equiv(?![A-Za-z])|\\cong(?![A-Za-z])|"
    r"\\doteq(?![A-Za-z])|=|<|>"
)


def split_chain(text: str) -> Chain:
    """Cut prechecked text at its top-level relations; an interval after ``\\in`` becomes two.

    ``N \\in (8192, \\infty)`` is the chain ``8192 < N < \\infty``; ``[a, b)`` and ``]a, b[``
    follow the usual conventions.
    """
    m = _INTERVAL.search(text)
    if m:
        var = text[: m.start()].strip()
        if not var or _top_level_relations(var):
            raise InvalidAnswer("write the interval as N \\in (a, b) on its own")
        opening, closing = m.group(1), m.group(4)
        low = "<" if opening in "(]" else "<="
        high = "<" if closing in ")[" else "<="
        a = re.sub(r"^\\left\s*|\\right\s*$", "", m.group("a").strip()).strip()
        b = re.sub(r"\\right\s*$", "", m.group("b").strip()).strip()
        if not a or not b:
            raise InvalidAnswer("an interval needs two ends, as in (8192, \\infty)")
        return Chain((a, var, b), (low, high))
    if re.search(r"\\in(?![A-Za-z])", text):
        raise InvalidAnswer("after \\in write an interval such as (8192, \\infty)")
    sides: list[str] = []
    relations: list[str] = []
    last = 0
    for start, end, token in _top_level_relations(text):
        sides.append(text[last:start].strip())
        relations.append(_RELATIONS[token])
        last = end
    sides.append(text[last:].strip())
    return Chain(tuple(sides), tuple(relations))


def _top_level_relations(text: str) -> list[tuple[int, int, str]]:
    """Relation tokens outside braces, brackets, parentheses and environments."""
    found = []
    depth = 0
    env = 0
    i = 0
    while i < len(text):
        if text.startswith(r"\begin{", i):
            env += 1
        elif text.startswith(r"\end{", i):
            env -= 1
        ch = text[i]
        if ch == "\\" and i + 1 < len(text) and text[i + 1] in "{}[]()":
            i += 2
            continue
        if ch in "{([":
            depth += 1
        elif ch in "})]":
            depth -= 1
        elif depth == 0 and env == 0:
            m = _REL_TOKEN.match(text, i)
            if m:
                found.append((i, m.end(), m.group()))
                i = m.end()
                continue
        i += 1
    return found
