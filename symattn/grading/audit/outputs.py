"""The shape of attention's output, said in words.

Attention gives one output per query, as wide as a value: for a batch, its output is (batch,
queries, value width), whatever the number of keys (the keys are summed over). Texts say this
in words around a worked example (D2L: "a minibatch size of 2, a total of 10 keys and values,
... the dimensionality of the values is 4 ... we expect the output to be a 2 × 1 × 4 tensor,
i.e., one row per example"), and self-attention, which has a query per token, keeps its input's
tokens ("computes the self-attention of a tensor with shape (batch size, number of tokens, d).
The output tensor has the same shape.").

- **A worked example's output**: the givens are read from the paragraph (up to the end of the
  claim's sentence); each axis the text gives is compared, and the claim is certified only when
  all three are given. An axis that is the number of keys where the queries' number is not
  given decides nothing: the example may have as many queries as keys.
- **Self-attention's output**: a shape said for the output after a self-attention of an input
  shape in words must keep the input's batch and token axes; "the same shape" is certified when
  the paragraph gives each output the input's width (``y_i ∈ R^d``, d the input's last axis).
- **Attention maps**: "a tensor of shape [Batch, Heads, SeqLen, SeqLen]" said of the maps ends in
  two position axes (one weight per query and key).
- **Heads joined**: a concatenation or reshape keeps every entry, so the products of the sizes
  before and after agree.
- **Outputs as wide as the values**: "the vectors Y of shape M × D_k" where the values are
  ``V = X W_v`` with W_v of shape D_x × D_v is wrong.

Each is read only where nothing takes the output further (heads taken one at a time or joined,
a projection, pooling, a softmax), no layout of the text's own is said (batch last, time-major,
columns), and names are words (single letters name different axes in different texts).
"""

from __future__ import annotations

import re
from collections.abc import Callable

import sympy as sp

from .context import AuditContext
from .document import Line
from .indices import SHAPED
from .match import CERTIFIED, WRONG, Claim, inside
from .said import Math, Said

RULE = "attention's output: one row per query, as wide as a value, for each example of the batch"

_BATCH = re.compile(r"\b(?:mini-?)?batch(?:\s+size)?\s+(?:of|is|=)\s*(?:size\s+)?⟨(?P<n>\d+)⟩", re.I)
_KEYS = re.compile(r"⟨(?P<n>\d+)⟩\s+(?:keys|key-value pairs|key–value pairs)\b", re.I)
_VALUES = re.compile(
    r"\b(?:dimensionality|dimension|width|size)\s+of\s+(?:the\s+)?values\s+(?:is|=)\s*⟨(?P<n>\d+)⟩"
    r"|\bvalues?\s+(?:of|with)\s+(?:width|dimension|dimensionality)\s+⟨(?P<m>\d+)⟩",
    re.I,
)
_QUERIES = re.compile(
    r"⟨(?P<n>\d+)⟩\s+quer(?:y|ies)\b|\b(?P<one>one|a single)\s+(?:query|row)\s+per\s+"
    r"(?:example|observation|sequence|instance)\b",
    re.I,
)
_OUTPUT = re.compile(r"\boutput\b[^.⟨]{0,40}?⟨(?P<dims>[^⟨⟩]*×[^⟨⟩]*)⟩\s*(?:tensor|array)\b", re.I)
#: What makes the output something else than attention's own (batch, queries, value width): heads
#: joined or taken one at a time, a projection, a reduction, the weights, or a layout of its own.
_TRANSFORMED = re.compile(
    r"\b(?:heads?|per-head|project\w*|concatenat\w*|linear|dense|mean|average\w*|pool\w*|sum\w*|"
    r"max\w*|softmax|weights?|scores?|logits?|norm\w*|residual|layout|transpos\w*|axes|axis|order|"
    r"batch_first|time-major|sequence-first|length-first|for each)\b",
    re.I,
)


def example_output_claims(au: AuditContext, line: Line, add: Callable, covered: list) -> None:
    """The output shape of a worked example, against the batch, queries and value width the
    text gives for it."""
    for m in _OUTPUT.finditer(line.text):
        start, end = m.start("dims") - 1, m.end("dims") + 1
        if inside(covered, start, end):
            continue
        dims = _numbers(m.group("dims"))
        if dims is None or len(dims) != 3:
            continue
        sentence, at = au.doc.sentence(line, start)
        end_of_sentence = sentence[at:]
        paragraph = au.doc.block_text(line)
        head = paragraph[: paragraph.find(line.text)] if line.text in paragraph else ""
        given = head + line.text[: m.start()] + " " + end_of_sentence
        if _TRANSFORMED.search(head + line.text[:end] + end_of_sentence) or re.match(
            r"\s*⟩?\s*(?:tensor|array)?\s*\(", line.text[end:]
        ):
            continue  # "through a linear layer of width 6: the output is ...", "(queries, width, batch)"
        expected = (_given(_BATCH, given), _queries(given), _given(_VALUES, given))
        keys = _given(_KEYS, given)
        said = Said(_shape(expected))
        wrong = [k for k, (a, b) in enumerate(zip(dims, expected, strict=True)) if b is not None and a != b]
        if not wrong and None in expected:
            continue  # an axis not given: the middle may be the number of queries, as many as the keys
        verdict = WRONG if wrong else CERTIFIED
        if keys is not None and expected[1] is not None and dims[1] == keys != expected[1]:
            said = Said(_shape(expected), ": the keys are summed over, one row per query")
        add(Claim(line.number, line.text[start:end], verdict, said, RULE, [(start, end)]))


def _numbers(dims: str) -> tuple[int, ...] | None:
    parts = [p.strip() for p in dims.split("×")]
    return tuple(int(p) for p in parts) if all(p.isdigit() for p in parts) else None


def _given(pattern: re.Pattern, text: str) -> int | None:
    found = {int(next(g for g in m.groups() if g is not None)) for m in pattern.finditer(text)}
    return found.pop() if len(found) == 1 else None


def _queries(text: str) -> int | None:
    found = {1 if m.group("one") else int(m.group("n")) for m in _QUERIES.finditer(text)}
    return found.pop() if len(found) == 1 else None


def _shape(dims: tuple[int | None, ...]) -> str:
    return " × ".join("?" if d is None else str(d) for d in dims)


# -- self-attention keeps its input's tokens ----------------------------------------------------
_SELF_INPUT = re.compile(
    r"\bself-attention\s+of\s+(?:a|an|the)\s+(?:tensor|array|input|batch)\s+with\s+shape\s*"
    r"\((?P<axes>[^()]*)\)",
    re.I,
)
_SAID_OUTPUT = re.compile(
    r"\b(?:the\s+)?output(?:\s+tensor)?\s+(?:has|is\s+of)\s+(?:the\s+)?(?:(?P<same>same\s+shape)"
    r"|shape\s*\((?P<axes>[^()]*)\))",
    re.I,
)
#: What takes the tokens' axis away between the self-attention and its output said.
_REDUCED = re.compile(
    r"\b(?:pool\w*|mean|average\w*|sum\w*|max\w*|first|last|cls|classif\w*|head|project\w*|linear|"
    r"select\w*|tak(?:e|es|ing)|reduc\w*|flatten\w*|readout|class\w*|reshap\w*|one\s+example|"
    r"single\s+example|on\s+its\s+own|unbatched|without\s+the\s+batch)\b|\[CLS\]",
    re.I,
)
_WIDTH = re.compile(r"⟨\s*(?:bold\()?y\)?_\(?\w+\)?[^⟨⟩]*∈\s*R\^\(?(?P<width>\w+)\)?\s*⟩")


def self_attention_output_claims(au: AuditContext, line: Line, add: Callable, covered: list) -> None:
    """ "The output tensor has the same shape" (or a shape in words) after "the self-attention of
    a tensor with shape (batch size, number of tokens, d)": one output per token."""
    for m in _SAID_OUTPUT.finditer(line.text):
        if inside(covered, *m.span()):
            continue
        paragraph = au.doc.block_text(line)
        head = paragraph[: paragraph.find(line.text)] if line.text in paragraph else ""
        before = head + line.text[: m.start()]
        given = list(_SELF_INPUT.finditer(before))
        if not given or _REDUCED.search(before[given[-1].end() :] + line.text[m.start() : m.end()]):
            continue  # "... and then pools over the tokens. The output has shape (batch size, d)"
        axes = _axes(given[-1].group("axes"))
        if len(axes) != 3:
            continue
        said = Said("(", ", ".join(a.replace("⟨", "").replace("⟩", "") for a in axes), ")")
        said = said + Said(": self-attention gives one output per token")
        if m.group("same"):
            width = {w.group("width") for w in _WIDTH.finditer(au.previous_block(line) + "\n" + head)}
            if width != {axes[2].strip("⟨⟩ ")}:
                continue  # the output's width is the values': the text must give it
            verdict = CERTIFIED
        elif len(_axes(m.group("axes"))) < len(axes):
            verdict = WRONG  # an axis dropped: the tokens', or the batch's
        else:
            continue  # the same axes in other words, or another width: the values' to say
        add(Claim(line.number, line.text[m.start() : m.end()], verdict, said, RULE, [m.span()]))


def _axes(text: str) -> list[str]:
    return [a.strip() for a in text.split(",") if a.strip()]


# -- attention maps: one weight per query and key -----------------------------------------------
_MAPS = re.compile(r"\battention[_ ](?:maps?|weights|matri(?:x|ces)|probabilities)\b", re.I)
_TENSOR_SHAPE = re.compile(r"\b(?:tensor|array)s?\s+of\s+shape\s*[\[(](?P<axes>[^\[\]()]*)[\])]", re.I)
#: Axes named in words: a query's or a key's position, or something else. A single letter names
#: either (N is the heads in one text and the length in another): it decides nothing.
_POSITIONAL = re.compile(r"seq|len|token|time|step|position|quer|key|src|tgt|target|source", re.I)
_NOT_POSITIONAL = re.compile(r"batch|head|hidden|dim|feature|channel|model|width|embed|class", re.I)
WEIGHTS_RULE = "attention maps: one weight per query and key, so the last two axes run over positions"


def weights_shape_claims(au: AuditContext, line: Line, add: Callable, covered: list) -> None:
    """A tensor of attention weights said to have axes in words ("Each element is a tensor of
    shape [Batch, Heads, SeqLen, SeqLen]", after "attention_maps"): its last two axes are the
    queries' and the keys' positions; a batch, head or width axis there is wrong."""
    for m in _TENSOR_SHAPE.finditer(line.text):
        if inside(covered, *m.span()):
            continue
        sentence, at = au.doc.sentence(line, m.start())
        if not _of_the_maps(au, line, sentence, at):
            continue
        axes = _axes(m.group("axes"))
        if len(axes) < 2 or any(len(a.strip("⟨⟩ ")) == 1 for a in axes):
            continue  # single letters: which is a position, the text's convention says
        last = axes[-2:]
        positional = [a for a in axes if _POSITIONAL.search(a) and not _NOT_POSITIONAL.search(a)]
        if (
            len(positional) == len(last)
            and all(a in positional for a in last)
            and not _CROSS.search(sentence)
        ):
            verdict = CERTIFIED
        elif len(positional) == 1 and any(_BATCH_OR_HEADS.match(a.strip("⟨⟩ ")) for a in last):
            verdict = WRONG  # one position axis in all, and the batch or the heads where a key runs
        else:
            continue  # the positions elsewhere ("heads last"), or axes named otherwise (pixels, channels)
        if verdict == CERTIFIED:
            said = Said("the last two axes ", " × ".join(last), ": one weight per query and key")
        else:
            said = Said("one weight per query and key needs two position axes, not ", " × ".join(last))
        add(Claim(line.number, line.text[m.start() : m.end()], verdict, said, WEIGHTS_RULE, [m.span()]))


#: A sentence that goes on with the one before: "Each element is ...", "They are ...".
_PRONOUN = re.compile(
    r"\s*(?:(?:each|every)\s+(?:element|one|entry|item)|(?:they|these))\s+(?:is|are)\b", re.I
)
#: An axis that is the batch or the heads by its whole name.
_BATCH_OR_HEADS = re.compile(r"^(?:batch(?:_?size)?|heads?|num_heads|n_heads|n_head|nheads)$", re.I)
#: Attention between two sequences: its weights run over a target and a source, not one length.
_CROSS = re.compile(r"cross[- ]attention|encoder[- ]decoder|source|memory", re.I)


def _of_the_maps(au: AuditContext, line: Line, sentence: str, at: int) -> bool:
    """The shape's sentence speaks of the attention maps: they are its subject ("the attention
    weights are a tensor of shape ..."), or the sentence before names them and this one goes on
    with a pronoun ("Each element is a tensor of shape ..."), never another noun ("The hidden
    states are a tensor of shape ...")."""
    own = re.split(r"[;:,]", sentence[:at])[-1]  # the clause the shape stands in
    if _MAPS.search(own):
        return True
    if not _PRONOUN.match(own):
        return False
    paragraph = au.doc.block_text(line).replace("\n", " ")
    found = paragraph.find(sentence.strip()[:40])
    before = paragraph[:found] if found > 0 else ""
    last = re.split(r"(?<=[.!?])\s+", before.strip())[-1] if before.strip() else ""
    return bool(_MAPS.search(last))


# -- heads joined: a concatenation keeps every entry ---------------------------------------------
_JOINED = re.compile(r"\b(?:concatenat\w*|reshap\w*|re-?form\w*|flatten\w*|merg\w*|join\w*)\b", re.I)
JOINED_RULE = (
    "shapes: tensors concatenated or reshaped into another keep every entry (the sizes' products agree)"
)


def joined_claims(au: AuditContext, line: Line, add: Callable, covered: list) -> None:
    """ "these (B, S, D/A, A)-shaped tensors are then concatenated along the e-direction to re-form
    a (B, S, D)-shaped tensor": the entries before and after are as many, so the products of the
    sizes agree (in the text's letters). The claim stands on the line of the first shape, through
    the line of the second."""
    from . import letters
    from .letters import read

    for m in SHAPED.finditer(line.text):
        if inside(covered, *m.span()):
            continue
        sentence, at = au.doc.sentence(line, m.start())
        shaped = list(SHAPED.finditer(sentence))
        k = next((k for k, s in enumerate(shaped) if s.start() == at), None)
        if (
            k is None
            or k + 1 >= len(shaped)
            or not _JOINED.search(sentence[shaped[k].end() : shaped[k + 1].start()])
        ):
            continue  # no shape formed after this one, or no joining between the two
        if _DROPPED.search(sentence[shaped[k].end() : shaped[k + 1].start()]):
            continue  # averaged, summed or taken over an axis: entries are not kept
        sizes = [[read(a.strip("⟨⟩ ")) for a in _axes(s.group("axes"))] for s in shaped[k : k + 2]]
        if any(x is None for s in sizes for x in s) or len(sizes[0]) <= len(sizes[1]):
            continue
        # the relations the text states between sizes, in its math or its words ("since D = AH")
        relations = [(r, v) for r, v in au.relations] + _said_relations(sentence)
        before, after = (letters.assumed(sp.Mul(*s), relations) for s in sizes)
        ok = sp.simplify(before - after) == 0
        ratio = sp.simplify(before / after)
        vanished = all(sizes[0].count(x) >= sizes[1].count(x) for x in sizes[1])
        if not ok and ratio.free_symbols and not vanished:
            continue  # letters the text relates in a way not read here (D = AH in a table)
        said = Said(Math(before), " entries before" + (" and after" if ok else ", not "))
        if not ok:
            said = said + Said(Math(after))
        formed = _line_of(au, line, m.end(), shaped[k + 1].group(0))
        verdict = CERTIFIED if ok else WRONG
        add(
            Claim(
                line.number,
                line.text[m.start() : m.end()],
                verdict,
                said,
                JOINED_RULE,
                [m.span()],
                through=formed,
            )
        )


#: Words that take entries away: an average, a sum or a selection over an axis.
_DROPPED = re.compile(
    r"\b(?:averag\w*|mean|summ?\w*|pool\w*|max\w*|select\w*|slic\w*|index\w*|drop\w*|project\w*|"
    r"mix\w*|weight\w*|linear)\b",
    re.I,
)


def _said_relations(sentence: str) -> list[tuple[sp.Symbol, sp.Expr]]:
    """``D = AH`` said in a sentence, in its math or its words: the letter and what it equals."""
    from .letters import read

    out = []
    for m in re.finditer(
        r"(?<![\w^_])(?P<a>[A-Z])\s*=\s*(?P<b>[A-Z]{2,3}|[A-Z]\s*[*·]\s*[A-Z])(?![\w(])", sentence
    ):
        value = read(m.group("b"))
        if value is not None:
            out.append((sp.Symbol(m.group("a"), positive=True), value))
    return out


def _line_of(au: AuditContext, line: Line, after: int, text: str) -> int:
    """The number of the line that holds ``text``: this one after ``after``, or one after it in
    its paragraph (a sentence wraps)."""
    if text in line.text[after:]:
        return line.number
    at = au.doc.next_in_block(line)
    while at is not None and text not in at.text:
        at = au.doc.next_in_block(at)
    return at.number if at is not None else line.number


# -- the outputs are as wide as the values -------------------------------------------------------
WIDTH_RULE = "attention's output: a weighted sum of the values, as wide as a value"
#: "where ⟨W_v⟩ is of shape ⟨D_x × D_v⟩", "⟨W^V⟩ is a learnable matrix of shape ⟨d × d_v⟩".
_VALUE_WEIGHTS = re.compile(
    r"⟨\s*W(?:_\(?[vV]\)?|\^\(?[vV]\)?)\s*⟩\s+is\s+(?:an?\s+)?(?:[\w-]+\s+){0,4}?(?:of\s+)?(?:shape|size)\s+"
    r"⟨(?P<dims>[^⟨⟩]+)⟩"
)
#: "Outputs of an attention layer are the vectors ⟨Y⟩ of shape ⟨M × D_k⟩".
_OUTPUTS = re.compile(
    r"\b[Oo]utputs?\b[^.⟨]{0,60}?\bvectors?\s+⟨\s*[A-Za-z]\w*\s*⟩\s+(?:of|with)\s+(?:shape|size)\s+"
    r"⟨(?P<dims>[^⟨⟩]+)⟩"
)


def output_width_claims(au: AuditContext, line: Line, add: Callable, covered: list) -> None:
    """ "Outputs of an attention layer are the vectors Y of shape M × D_k" where the text's value
    weights W_v are of shape D_x × D_v (CS231n's notes): an output is a weighted sum of values,
    so its width is D_v. The value weights are read anywhere in the text."""
    from .shapes import read_dims

    widths = au.doc.once("value width", _value_width)
    if widths is None:
        return
    width, declared = widths
    for m in _OUTPUTS.finditer(line.text):
        span = (m.start("dims") - 1, m.end("dims") + 1)
        dims = read_dims(m.group("dims"))
        if inside(covered, *span) or dims is None or len(dims) < 2:
            continue
        if re.search(
            r"project\w*|W_\(?[oO]\)?|W\^\(?[oO]\)?|\bafter\b|output weights?|columns?",
            au.doc.sentence(line, m.start())[0],
        ):
            continue  # the output taken further, or laid out by columns
        ok = sp.simplify(dims[-1] - width) == 0
        said = Said("as wide as a value: ", Math(width), f" (W_v of shape {declared})")
        add(Claim.judged(line.number, line.text[slice(*span)], ok, said, WIDTH_RULE, [span]))


def _value_width(doc) -> tuple[sp.Expr, str] | None:
    """The width of a value, from the shape the text gives its value weights (one shape only)."""
    from .shapes import read_dims

    text = doc.text().replace("\n", " ")
    found = {m.group("dims").strip() for m in _VALUE_WEIGHTS.finditer(text)}
    if len(found) != 1 or not re.search(r"⟨\s*V\s*=\s*X\s*W_\(?[vV]\)?\s*⟩", text):
        return None  # values as rows, V = X W_v, with W_v in by out: else another convention
    declared = found.pop()
    dims = read_dims(declared)
    return (dims[-1], declared) if dims is not None and len(dims) == 2 else None
