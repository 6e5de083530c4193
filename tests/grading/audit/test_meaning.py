"""Claims by meaning (issue 47, must-have 2): shapes and dimension bookkeeping, complexity, identities
in the text's letters, words for quantities, statistics in any notation, and facts in words
(symattn/grading/audit/shapes.py, complexity.py, letters.py, words.py, meaning.py). Each rule on
a true text written here by hand, then the same text with one planted error, which must be
flagged at its line; the expected verdicts come from reading, not from the audit."""

from __future__ import annotations

import pytest

from symattn.grading.audit.keys import audit_claims


def _verdicts(text: str) -> list[tuple[int, str]]:
    return [(c.line, c.verdict) for c in audit_claims(text)]


def _wrong_lines(text: str) -> list[int]:
    return [c.line for c in audit_claims(text) if c.verdict == "wrong"]


# Each case: a true text, (what to replace, by what) planting one error, the line it lands on.
CASES = {
    "shapes: a product of declared shapes": (
        "The inputs $X$ are of shape $N \\times D_x$ and the weights $W_k$ of shape $D_x \\times D_k$.\n\n"
        "The keys are $K = X W_k$.\n",
        ("$D_x \\times D_k$", "$D_k \\times D_x$"),
        3,
    ),
    "shapes: the output projection takes the heads side by side": (
        "Multi-head attention is\n\n"
        "$$\\mathrm{MultiHead}(Q, K, V) = "
        "\\mathrm{Concat}(\\mathrm{head}_1, \\ldots, \\mathrm{head}_h) W^O$$\n\n"
        "with $W_i^V \\in \\mathbb{R}^{d_{\\text{model}} \\times d_v}$ and "
        "$W^O \\in \\mathbb{R}^{hd_v \\times d_{\\text{model}}}$.\n",
        ("hd_v \\times", "d_v \\times"),
        5,
    ),
    "shapes: a dot product of two rows": (
        "Queries $Q \\in \\mathbb{R}^{M \\times D_k}$, keys $K \\in \\mathbb{R}^{N \\times D_k}$ and inputs "
        "$X \\in \\mathbb{R}^{N \\times D_x}$.\n\n"
        "A score is $e_{ij} = q_j \\cdot k_i / \\sqrt{D_k}$.\n",
        ("q_j \\cdot k_i", "q_j \\cdot x_i"),
        3,
    ),
    "shapes: a shape said in words": (
        "Take $Q \\in \\mathbb{R}^{T \\times d_k}$ and $K \\in \\mathbb{R}^{T \\times d_k}$.\n\n"
        "The product $QK^T$ compares every query with every key, resulting in a matrix of the shape "
        "$T \\times T$.\n",
        ("the shape $T \\times T$", "the shape $T \\times d_k$"),
        3,
    ),
    "shapes: a display's parameters declared after it, in a where-clause": (
        "Given a query $\\mathbf{q} \\in \\mathbb{R}^q$ and a key $\\mathbf{k} \\in \\mathbb{R}^k$, "
        "the score is\n\n"
        "$$a(\\mathbf q, \\mathbf k) = \\mathbf w_v^\\top "
        "\\tanh(\\mathbf W_q\\mathbf q + \\mathbf W_k \\mathbf k) "
        "\\in \\mathbb{R},$$\n"
        ":eqlabel:`eq_additive`\n\n"
        "where $\\mathbf W_q\\in\\mathbb R^{h\\times q}$, $\\mathbf W_k\\in\\mathbb R^{h\\times k}$ and\n"
        "$\\mathbf w_v\\in\\mathbb R^{h}$ are learned.\n",
        ("\\in \\mathbb{R},", "\\in \\mathbb{R}^{h},"),
        3,
    ),
    "shapes: a where-clause's shapes make the display's product undefined": (
        "Given a query $\\mathbf{q} \\in \\mathbb{R}^q$ and a key $\\mathbf{k} \\in \\mathbb{R}^k$, "
        "the score is\n\n"
        "$$a(\\mathbf q, \\mathbf k) = \\mathbf w_v^\\top "
        "\\tanh(\\mathbf W_q\\mathbf q + \\mathbf W_k \\mathbf k) "
        "\\in \\mathbb{R},$$\n\n"
        "where $\\mathbf W_q\\in\\mathbb R^{h\\times q}$, $\\mathbf W_k\\in\\mathbb R^{h\\times k}$ and\n"
        "$\\mathbf w_v\\in\\mathbb R^{h}$ are learned.\n",
        ("\\mathbf W_k\\in\\mathbb R^{h\\times k}", "\\mathbf W_k\\in\\mathbb R^{k\\times h}"),
        3,
    ),
    "shapes: a batch of products, written as a list": (
        "Stack the matrices:\n\n"
        "$$\\mathbf{Q} = [\\mathbf{Q}_1, \\mathbf{Q}_2, \\ldots, \\mathbf{Q}_n] "
        "\\in \\mathbb{R}^{n \\times a \\times b}, \\\\\n"
        "  \\mathbf{K} = [\\mathbf{K}_1, \\mathbf{K}_2, \\ldots, \\mathbf{K}_n] "
        "\\in \\mathbb{R}^{n \\times b \\times c}.\n$$\n\n"
        "The batch product is\n\n"
        "$$\\textrm{BMM}(\\mathbf{Q}, \\mathbf{K}) = "
        "[\\mathbf{Q}_1 \\mathbf{K}_1, \\mathbf{Q}_2 \\mathbf{K}_2, "
        "\\ldots, \\mathbf{Q}_n \\mathbf{K}_n] \\in \\mathbb{R}^{n \\times a \\times c}.$$\n",
        ("\\mathbb{R}^{n \\times a \\times c}", "\\mathbb{R}^{n \\times b \\times c}"),
        9,
    ),
    "shapes: a matrix times a vector, each letter in bold": (
        "Let $\\mathbf{W} \\in \\mathbb{R}^{m \\times n}$ and $\\mathbf{x} \\in \\mathbb{R}^{n}$.\n\n"
        "$$\\mathbf{y} = \\mathbf{W}\\mathbf{x} \\in \\mathbb{R}^{m}$$\n",
        ("\\mathbf{x} \\in \\mathbb{R}^{n}", "\\mathbf{x} \\in \\mathbb{R}^{m}"),
        3,
    ),
    "shapes: an outer product of two columns": (
        "Let $\\mathbf{q} \\in \\mathbb{R}^{d}$ and $\\mathbf{k} \\in \\mathbb{R}^{e}$.\n\n"
        "$$\\mathbf{P} = \\mathbf{q}\\mathbf{k}^\\top \\in \\mathbb{R}^{d \\times e}$$\n",
        ("\\mathbb{R}^{d \\times e}", "\\mathbb{R}^{e \\times d}"),
        3,
    ),
    "complexity: the attention scores, one per query and key": (
        "Flash attention never materializes the $\\mathcal{O}\\left(S^{2}\\right)$ attention scores "
        "in off-chip memory.\n",
        ("\\left(S^{2}\\right)", "\\left(S\\right)"),
        1,
    ),
    "complexity: the attention scores of every head and example": (
        "A naive algorithm computes all $O(A B S^2)$ attention scores of a layer.\n",
        ("$O(A B S^2)$", "$O(A B S^2 D)$"),
        1,
    ),
    "premises: a product of letters a relation equates with a given letter": (
        "Assume $D=4096$, $L=64$ and $N\\cdot H=D$.\n\n"
        "Per token, the caches hold $2 \\cdot L \\cdot N \\cdot H = 2 \\cdot 64 \\cdot 4096$ values.\n",
        ("2 \\cdot 64 \\cdot 4096", "2 \\cdot 64 \\cdot 8192"),
        3,
    ),
    "complexity: the receptive field of stacked convolutions, over wrapped lines": (
        "For example, $\\mathbf{x}_1$ and $\\mathbf{x}_5$\n"
        "are within the receptive field of a two-layer CNN\nwith kernel size 3.\n",
        ("two-layer", "one-layer"),
        2,
    ),
    "complexity: positions outside a receptive field": (
        "Here $x_1$ and $x_9$ are not within the receptive field of a three-layer CNN with kernel size 3.\n",
        ("$x_9$", "$x_7$"),
        1,
    ),
    "masked softmax: the columns beyond each valid length": (
        "The attention weights vanish for anything beyond the second and sixth column respectively "
        "(because of setting the valid length to $2$ and $6$).\n",
        ("second and sixth", "third and sixth"),
        1,
    ),
    "complexity: from the layer": (
        "Self-attention has a computational complexity of $\\mathcal{O}(n^2 d)$ and "
        "$\\mathcal{O}(1)$ sequential operations.\n",
        ("\\mathcal{O}(n^2 d)", "\\mathcal{O}(n d)"),
        1,
    ),
    "complexity: from the products named": (
        "Multiplying the $d \\times d$ weight matrix and the $d$-dimensional hidden state has a "
        "computational complexity of $\\mathcal{O}(d^2)$.\n",
        ("\\mathcal{O}(d^2)", "\\mathcal{O}(d^3)"),
        1,
    ),
    "letters: an identity under the text's assumptions": (
        "Assume $F = 4D$ and $D = NH$.\n\nThen $\\frac{12BT^2NH}{18BTDF + 24BTDNH} = \\frac{T}{8D}$.\n",
        ("\\frac{T}{8D}", "\\frac{T}{6D}"),
        3,
    ),
    "letters: an approximation drops terms of lower degree": (
        "Training costs $6ND + 2N \\approx 6ND$ FLOPs.\n",
        ("\\approx 6ND$", "\\approx 4ND$"),
        1,
    ),
    "letters: an approximation keeps the degree": (
        "The embeddings require $(V+S)D \\approx VD + SD$ parameters, about $(V+S)D$.\n",
        ("$(V+S)D \\approx", "$(V+S)D^2 \\approx"),
        1,
    ),
    "units: binary bytes": (
        "The cache takes $2 \\cdot 8192 \\cdot 64 \\cdot 8192 = 8\\text{GiB}$.\n",
        ("8\\text{GiB}", "8\\text{GB}"),
        1,
    ),
    "scientific notation": (
        "This run used about `6 * 37e9 * 14.8e12 = 3.3e24` FLOPs.\n",
        ("3.3e24", "3.9e24"),
        1,
    ),
    "words: a ratio": (
        "Here $2048$ is twice $1024$.\n",
        ("twice", "three times"),
        1,
    ),
    "words: an order of magnitude": (
        "So $e^{20}$ is an order of magnitude larger than $e^{18}$.\n",
        ("e^{18}", "e^{12}"),
        1,
    ),
    "words: a factor, i.e. one thing instead of another": (
        "The extra factor of $\\sigma^2$, i.e., having $\\sigma^4$ instead of $\\sigma^2$, is not an "
        "issue.\n",
        ("having $\\sigma^4$", "having $\\sigma^6$"),
        1,
    ),
    "words: a factor down": (
        "Grouping the keys shrinks the cache by a factor of $4$, i.e., having $H/4$ instead of $H$ heads.\n",
        ("$H/4$", "$H/2$"),
        1,
    ),
    "words: a factor with a product written together": (
        "Each product picks up a factor of $d$, i.e., having $d\\sigma^4$ instead of $\\sigma^4$.\n",
        ("$d\\sigma^4$ instead", "$d^2\\sigma^4$ instead"),
        1,
    ),
    "words: a percentage": (
        "Then $96$ is 20 % of $480$.\n",
        ("20 %", "25 %"),
        1,
    ),
    "statistics in words, any notation": (
        "Assume the entries of $q$ and $k$ are independent with zero mean and unit variance.\n"
        "The dot product between both vectors has zero mean and a variance of $d_k$.\n",
        ("a variance of $d_k$", "a variance of $\\sqrt{d_k}$"),
        2,
    ),
    "statistics of N(0, sigma^2) entries": (
        "$$q_i \\sim \\mathcal{N}(0,\\sigma^2), k_i \\sim \\mathcal{N}(0,\\sigma^2) \\to "
        "\\text{Var}\\left(\\sum_{i=1}^{d_k} q_i\\cdot k_i\\right) = \\sigma^4\\cdot d_k$$\n",
        ("\\sigma^4\\cdot d_k$$", "\\sigma^2\\cdot d_k$$"),
        1,
    ),
    "facts in words: weights sum to one": (
        "The softmax weights are positive and sum to one.\n",
        ("sum to one", "sum to zero"),
        1,
    ),
    "facts in words: softmax weights are positive": (
        "The softmax operation ensures nonnegative attention weights.\n",
        ("nonnegative attention", "negative attention"),
        1,
    ),
    "facts in words: softmax weights are positive, said after them": (
        "Softmax makes the attention weights\npositive, in every row.\n",
        ("\npositive", "\nnegative"),
        2,
    ),
    "facts in words: the output is a weighted average of the values": (
        "Each row of the attention output is a weighted average of the values.\n",
        ("of the values", "of the queries"),
        1,
    ),
    "facts in words: the values, weighted into a mean": (
        "We apply a softmax and multiply with the value vectors to obtain a weighted mean.\n",
        ("value vectors", "key vectors"),
        1,
    ),
    "facts in words: permutation equivariance": (
        "Self-attention is permutation-equivariant.\n",
        ("permutation-equivariant", "permutation-invariant"),
        1,
    ),
    "facts in words: a sentence wrapped over its paragraph's lines": (
        "The scores go through a softmax layer that makes an attention matrix with\n"
        "weights summing to one. They then weigh the values.\n",
        ("summing to one", "summing to zero"),
        2,
    ),
    "facts in words: permuted inputs, permuted outputs": (
        "Self-attention treats its inputs alike: if we apply a permutation to the input vectors, the\n"
        "outputs will be permuted in exactly the same way.\n",
        ("will be permuted in exactly the same way", "will be unchanged"),
        2,
    ),
    "facts in words: the variance grows with the width": (
        "For vectors with a larger dimensionality, more terms are summed in the dot product, and this\n"
        "implies a larger variance of the scores.\n",
        ("a larger variance", "a smaller variance"),
        2,
    ),
    "facts in words: dividing the scores spreads the weights": (
        "This scaling procedure shrinks the scores, so that the resulting attention weights are more\n"
        "spread-out.\n",
        ("more\nspread-out", "more\nconcentrated"),
        2,
    ),
    "facts in words: a more similar key gets more weight": (
        "The weights come from a softmax over the scores. Hence we assign those values a higher weight\n"
        "whose key is most similar to the query.\n",
        ("a higher weight", "a lower weight"),
        1,
    ),
    "facts in words: heads at a fixed cost": (
        "Each of the $h$ heads has its own projections. To keep the total computation the same, the\n"
        "key and value dimensions may be reduced accordingly.\n",
        ("reduced accordingly", "increased accordingly"),
        2,
    ),
    "facts in words: dot products are the cheapest score": (
        "A distance is a fine score. Distance functions are slightly more expensive to compute than "
        "dot products.\n",
        ("more expensive", "cheaper"),
        1,
    ),
    "facts in words: the crossover with recurrence": (
        "When the sequence length exceeds the hidden dimensionality, self-attention becomes more "
        "expensive than RNNs.\n",
        (
            "When the sequence length exceeds the hidden dimensionality",
            "When the hidden dimensionality exceeds the sequence length",
        ),
        1,
    ),
    "facts in words: the crossover, the other way round": (
        "Self-attention layers are faster than recurrent layers when the sequence length $n$ is smaller "
        "than the representation dimensionality $d$.\n",
        ("are faster", "are slower"),
        1,
    ),
    "words: an example of a kind of number": (
        "It sets the masked scores to a large negative number, such as $-10^{6}$, so they vanish.\n",
        ("$-10^{6}$", "$-10^{-6}$"),
        1,
    ),
    "words: a count and a list without a serial comma": (
        "The attention function takes three arguments: the queries, the keys and the values.\n",
        ("three arguments", "two arguments"),
        1,
    ),
    "facts in words: the cost is quadratic in the length": (
        "However, the quadratic computational complexity with respect to the sequence length makes "
        "self-attention slow for very long sequences.\n",
        ("the sequence length", "the model dimension"),
        1,
    ),
    "facts in words: the shortest path": (
        "Both CNNs and self-attention enjoy parallel computation\nand self-attention has the shortest "
        "maximum path length.\n",
        ("shortest", "longest"),
        2,
    ),
    "arithmetic: a whole and its parts": (
        "Here, we will use a set size of 10, i.e. 9 images from one category + 1 anomaly.\n",
        ("9 images", "8 images"),
        1,
    ),
    "arithmetic: a total and its parts in letters": (
        "During training we have a total of 6NPM FLOPs, compared to 2NPM during inference: 2NPM in "
        "the forward pass, 4NPM in the backward pass.\n",
        ("4NPM in the backward", "3NPM in the backward"),
        1,
    ),
    "words: a count and the items listed": (
        "We incorporate two additional matrices: one for *alignment scores*, and the other for "
        "*attention*; both are learned.\n",
        ("two additional", "three additional"),
        1,
    ),
    "words: a count and the list that follows": (
        "The residual connection matters for two reasons:\n\n"
        "1. It lets gradients flow through deep stacks.\n"
        "2. It keeps the input's information.\n",
        ("two reasons", "three reasons"),
        1,
    ),
    "words: a count and the lines of a code block": (
        "Assume that we have the following three sentences:\n\n```\nDive into Deep Learning\n"
        "Learn to code <blank>\nHello world <blank> <blank>\n```\n",
        ("three sentences", "four sentences"),
        1,
    ),
    "shapes: a product named in words by its operands": (
        "Consider attention, where an $n \\times d$ matrix is multiplied by\na $d \\times n$ matrix.\n",
        ("a $d \\times n$ matrix", "a $n \\times d$ matrix"),
        2,
    ),
    "shapes: the output of a product named in words": (
        "Here an $n \\times d$ matrix is multiplied by a $d \\times n$ matrix, then the output $n \\times n$ "
        "matrix is used.\n",
        ("the output $n \\times n$", "the output $n \\times d$"),
        1,
    ),
    "shapes: parameters of the weights a section declares": (
        "## MLP\n\nThe block is $z = \\phi(z W^0) W^1$ where $W^0$ and $W^1$ are (D, ED)- and (ED, D)-shaped "
        "matrices,\nrespectively.\n\nThis block requires $2ED^2$ parameters per layer, counting weights "
        "only.\n",
        ("$2ED^2$ parameters", "$ED^2$ parameters"),
        6,
    ),
    "statistics in words, the paragraph's own width": (
        "Additive attention takes queries $q \\in \\mathbb{R}^q$.\n\n"
        "Assume all elements of $q \\in \\mathbb{R}^d$ and $k \\in \\mathbb{R}^d$ are independent "
        "with zero mean and unit variance. The dot product between both vectors has zero mean and a "
        "variance of $d$.\n",
        ("a variance of $d$", "a variance of $\\sqrt{d}$"),
        3,
    ),
}


@pytest.mark.parametrize("name", list(CASES))
def test_a_true_claim_is_certified_and_its_planted_error_flagged_at_its_line(name):
    text, (before, after), line = CASES[name]
    verdicts = _verdicts(text)
    assert "certified" in [v for _, v in verdicts] and "wrong" not in [v for _, v in verdicts], verdicts
    assert text.count(before) == 1
    assert _wrong_lines(text.replace(before, after)) == [line]


def test_a_declared_shape_that_leaves_its_sentences_product_undefined_is_flagged_where_it_is_written():
    text = (
        "Inputs $X$ are of shape $N \\times D_x$.\n\n"
        "Keys are $K = X W_k$ where $W_k$ is a\n"
        "learnable weight matrix of shape $D_x \\times D_k$.\n"
    )
    assert [v for _, v in _verdicts(text)] == ["certified"]  # the product, on line 3
    planted = text.replace("shape $D_x \\times D_k$", "shape $D_k \\times D_x$")
    assert _wrong_lines(planted) == [3, 4]  # the product is undefined; the declaration made it so


@pytest.mark.parametrize(
    "text",
    [
        # a relation the text never states: the chain may hold under it, so nothing is decided
        "Then $\\frac{12BT^2NH}{18BTDF + 24BTDNH} = \\frac{T}{8D}$.\n",
        # Q redefined for self-attention (M = N there): a definition, never "M x D_k is not N x D_k"
        "Queries $Q$ are of shape $M \\times D_k$, inputs $X$ of shape $N \\times D_x$, and $W_q$ is of "
        "shape $D_x \\times D_k$.\n\nIn self-attention the queries are $Q = X W_q$.\n",
        # "three times smaller" has no agreed meaning: never judged
        "Here $1024$ is three times smaller than $2048$.\n",
        # a denial is not read as the claim it denies
        "With positional encodings, the transformer is no longer permutation-invariant.\n",
        # "roughly" in the sentence before: within one unit of the last digit
        "The total is roughly $L D$. For these numbers, this is $64 \\cdot 260e6 = 16e9$.\n",
        # from a hostile review: true texts the audit once called wrong
        "The base model uses $d_k = d_v = 64$.\n",
        # shapes, hostile review: the letters q and k are sizes here, and vectors whose shapes are not given
        "Additive attention scores a query against a key:\n\n$$a(\\mathbf q, \\mathbf k) = \\mathbf "
        "w_v^\\top \\tanh(\\mathbf W_q\\mathbf q + \\mathbf W_k \\mathbf k) \\in "
        "\\mathbb{R},$$\n\nwhere $\\mathbf W_q\\in\\mathbb R^{h\\times q}$, $\\mathbf W_k\\in\\mathbb "
        "R^{h\\times k}$, and $\\mathbf w_v\\in\\mathbb R^{h}$ are learnable.\n",
        # shapes, hostile review: v is a size and a vector whose shape is not given
        "The value projection maps a value to the output space:\n\n$$\\mathbf{o} = \\mathbf{W}_o "
        "\\mathbf{v} \\in \\mathbb{R}^{d},$$\n\nwhere $\\mathbf{W}_o \\in \\mathbb{R}^{d \\times v}$ "
        "is learned.\n",
        # shapes, hostile review: exp of a vector whose shape is not given
        "Given scores $\\mathbf{z}$ for $m$ keys, the softmax first takes the elementwise exponential "
        "$\\exp(\\mathbf{z}) \\in \\mathbb{R}^{m}$ and then normalizes it.\n",
        # shapes, hostile review: a bias broadcast over the rows, inside an elementwise sigma
        "Let $\\mathbf{X} \\in \\mathbb{R}^{n \\times d}$, $\\mathbf{W} \\in \\mathbb{R}^{d \\times "
        "h}$ and $\\mathbf{b} \\in \\mathbb{R}^{h}$.\n\n$$\\mathbf{H} = \\sigma(\\mathbf{X}\\mathbf{W} "
        "+ \\mathbf{b}) \\in \\mathbb{R}^{n \\times h}.$$\n",
        # shapes, hostile review: a 1 x h bias broadcast over the rows
        "Let $\\mathbf{X} \\in \\mathbb{R}^{n \\times d}$ be the inputs, $\\mathbf{W} \\in "
        "\\mathbb{R}^{d \\times h}$ the weights and $\\mathbf{b} \\in \\mathbb{R}^{1 \\times h}$ the "
        "bias. The hidden layer computes\n\n$$\\mathbf{H} = \\mathbf{X}\\mathbf{W} + "
        "\\mathbf{b}.$$\n\nBroadcasting adds $\\mathbf b$ to each row.\n",
        # shapes, hostile review: a list of vectors may be columns
        "Let $\\mathbf{X} \\in \\mathbb{R}^{n \\times d}$ hold the tokens as rows. Its transpose "
        "stacks them as columns: $\\mathbf{X}^\\top = [\\mathbf{x}_1, \\ldots, \\mathbf{x}_n] \\in "
        "\\mathbb{R}^{d \\times n}$.\n",
        # shapes, hostile review: the text lists X by its columns
        "We collect the tokens as columns, $\\mathbf{X} = [\\mathbf{x}_1, \\ldots, \\mathbf{x}_n] \\in "
        "\\mathbb{R}^{d \\times n}$, and let $\\mathbf{W}_q \\in \\mathbb{R}^{k \\times "
        "d}$.\n\n$$\\mathbf{q}_i = \\mathbf{W}_q \\mathbf{x}_i \\in \\mathbb{R}^{k}.$$\n",
        # shapes, hostile review: a d x 1 column: q^T q is 1 x 1, a scalar
        "Let $\\mathbf{q} \\in \\mathbb{R}^{d \\times 1}$ and $\\mathbf{K} \\in \\mathbb{R}^{m \\times "
        "d}$. Then $\\mathbf{K}\\mathbf{q} \\in \\mathbb{R}^{m}$ holds the scores, and "
        "$\\mathbf{q}^\\top\\mathbf{q} \\in \\mathbb{R}$.\n",
        # shapes, hostile review: row vectors and a 1 x 1 scalar
        "Let $\\mathbf{q} \\in \\mathbb{R}^{d}$ and $\\mathbf{K} \\in \\mathbb{R}^{m \\times d}$. The "
        "scores of the query form the row vector $\\mathbf{q}^\\top \\mathbf{K}^\\top \\in "
        "\\mathbb{R}^{1 \\times m}$, and the single score $\\mathbf{q}^\\top \\mathbf{q} \\in "
        "\\mathbb{R}^{1 \\times 1}$ is a scalar.\n",
        # shapes, hostile review: outer products of a column and a row
        "Let $\\mathbf{x} \\in \\mathbb{R}^{d}$. The Gram matrix of one vector is $\\mathbf{x} "
        "\\mathbf{x}^\\top \\in \\mathbb{R}^{d \\times d}$, and its squared norm is $\\mathbf{x}^\\top "
        "\\mathbf{x} \\in \\mathbb{R}$.\n\nLet $\\mathbf{u} \\in \\mathbb{R}^{m}$ and $\\mathbf{v} "
        "\\in \\mathbb{R}^{d}$. The outer product $\\mathbf{u} \\, \\mathbf{v}^\\top \\in "
        "\\mathbb{R}^{m \\times d}$ is a rank-one matrix.\n",
        # shapes, hostile review: a 'with' paragraph about the next layer declares nothing for the display
        "Let $\\mathbf{X} \\in \\mathbb{R}^{n \\times d}$ and $\\mathbf{W} \\in \\mathbb{R}^{d \\times "
        "h}$.\n\n$$\\mathbf{H} = \\mathbf{X}\\mathbf{W} \\in \\mathbb{R}^{n \\times h}.$$\n\nWith the "
        "hidden states computed, a second layer maps them back: for it we reuse the letter, "
        "$\\mathbf{W} \\in \\mathbb{R}^{h \\times d}$, and write $\\mathbf{O} = "
        "\\mathbf{H}\\mathbf{W}$.\n",
        "Self-attention costs $O(n^2 d)$ per layer, and recurrent layers cost $O(n d^2)$.\n",
        "The maximum path length is $O(1)$ for self-attention and $O(n)$ for recurrent layers.\n",
        "Self-attention costs $O(n^2 d)$ time and $O(n^2)$ memory.\n",
        "Here $96$ is 1.5 times $64$, and $64$ is 1/8 of $512$.\n",
        "A matrix of $4096^2 \\times 2 = 32$ MiB, and "
        "$2\\cdot32\\cdot4096\\cdot2\\cdot32\\cdot1024 \\approx 17\\,\\text{GB}$.\n",
        "The attention weights never sum to zero.\n",
        "Attention pooling makes the transformer encoder invariant to the order of the set elements.\n",
        # facts in words: what each proposition leaves alone
        "The gradient of the softmax sums to zero along each row.\n",
        "Attention pooling over a set: permuting the inputs leaves the pooled outputs unchanged.\n",
        "Without scaling, the attention weights are more concentrated.\n",
        "Scaling up the logits makes the softmax weights sharper.\n",
        "A lower temperature gives a sharper softmax, and a key most similar to the query gets a "
        "higher weight.\n",
        "After scaling by $1/\\sqrt{d}$, larger dimensionality no longer gives a larger variance of the "
        "scores.\n",
        "Keys less similar to the query receive a lower weight.\n",
        "Self-attention is faster than recurrent layers for short sequences.\n",
        "We use two matrices: $W_q$, which makes queries, and $W_k$.\n",
        # from a hostile review: true sentences the facts in words once called wrong
        "Each row sums to one, so the two rows of a two-query attention matrix together sum to two.\n",
        "After centering, the attention scores sum to zero.\n",
        "The masked entries of the softmax output sum to zero.\n",
        "A Transformer encoder followed by averaging over positions is permutation-invariant.\n",
        "The cross-attention layer is invariant to the order of the encoder outputs.\n",
        "Self-attention is permutation-equivariant: permuting the input tokens permutes the outputs the "
        "same way.\n",
        "If we shuffle the input tokens and undo the shuffle on its outputs, the outputs are identical.\n",
        "After permuting the input tokens, the sum of the outputs is unchanged.\n",
        "Self-attention is often described as permutation-invariant, but strictly it is "
        "permutation-equivariant.\n",
        "With more dimensions, the dot products of random unit vectors have a smaller variance.\n",
        "When the logits are scaled by a large constant, the attention distribution becomes sharper.\n",
        "The scores are divided by $\\sqrt{d_k}$, which keeps the softmax from getting sharper.\n",
        "The more similar key gets a larger weight, leaving less weight for the other keys.\n",
        "To keep the number of parameters fixed while using fewer heads, the head dimension must be "
        "increased.\n",
        "LSH buckets keys by their distances, so a lookup is cheaper than dot products with every key.\n",
        "Self-attention is cheaper than RNNs for short inputs, and the gap closes once the sequence "
        "length exceeds the model dimension.\n",
        "In wall-clock time, self-attention is faster than RNNs even when the sequence length exceeds "
        "the hidden size.\n",
        "A decoder has two attention layers: the masked self-attention, and the cross-attention that "
        "reads the keys and the values from the encoder.\n",
        "By design, a RNN takes two inputs at each time step: an input (in the case of the encoder, one "
        "word from the input sentence), and a hidden state.\n",
        # an approximation that needs a premise (S much smaller than V, T about D): not decided
        "The above components require $(V+S)D \\approx VD$ parameters per model.\n",
        "It costs $4BTD^2 + 2BT^2D \\approx 6BTD^2$ FLOPs when $T \\approx D$.\n",
        "We can make the approximation:\n\n$$S \\gg T = 1 \\implies \\frac{ST}{S+T} \\approx 1$$\n",
        "So $18BTDF + 24BTDNH \\approx 18BTDF$ when F is large.\n",
        "A total of 6ND FLOPs per token: 2ND for the forward pass, and 4NT for the backward pass over "
        "the tokens.\n",
        "The softmax weights on the first two keys sum to 0.5.\n",
        "A Transformer encoder followed by summing over tokens is permutation-invariant.\n",
        "When we permute the input tokens, the elementwise maximum of the outputs is unchanged.\n",
        "With more dimensions, the average of the dot product's terms has a smaller variance.\n",
        "The self-attention layer's total cost, including its projections, is quadratic in the model "
        "dimension.\n",
        "During decoding with a KV cache, the cost of self-attention for each new token is linear in the "
        "sequence length.\n",
        "We use a local window of 7, i.e. 3 tokens on each side + 1 centre token.\n",
        "Here a $d \\times m$ matrix is multiplied by an $n \\times d$ matrix from the left.\n",
        "Let $d_k = d$.\n\nHere an $n \\times d_k$ matrix is multiplied by a $d \\times n$ matrix.\n",
        "Attention dominates when $T > 8D$; the per-head width is $D/32$, so for $D = 4096$, this is "
        "$128$.\n",
        "We train with $T = 2048$ and $D = 1024$.\n\nThe two costs are equal when $2T = 16D$.\n",
        "Linear attention makes the cost linear in the sequence length.\n",
        "The MLP cost of a transformer is linear in the sequence length.\n",
        "FlashAttention's memory grows linearly with the sequence length, unlike the attention matrix.\n",
        "We train on 2 GPUs, i.e. 1 node + 1 spare, for 3 days.\n",
        "Consider the following two sentences:\n\n```\n# toy inputs\nI like tea\nYou like coffee\n```\n",
        "The keys $K = X W_k$, with the learned projection $W_k$, form a\nmatrix of shape $N \\times D_k$.\n",
        "A small positive constant, such as $10^{-5}$, keeps the division finite; a large number like "
        "$-\\infty$ would not.\n",
        "Let $d_{model} = 512$ and $h = 8$.\n\nIf we instead used $d_{model} = 1024$, each head "
        "would be $d_{model}/h = 128$ wide.\n",
        "<!-- a draft: $1 + 1 = 3$ -->\nAnd $2^{10} = 1\\,024$, while $\\log 1000 = 3$.\n",
        "````markdown\n```\n$1 + 1 = 3$\n```\n````\n",
        "Let $q, k \\in \\mathbb{R}^{d}$ have independent standard normal entries; $q \\cdot k$ has zero "
        "mean and a variance of $d$.\n\nFor a query $q \\in \\mathbb{R}^{q}$, additive attention is used "
        "instead.\n",
    ],
)
def test_what_a_careful_reader_would_not_call_wrong_is_not_flagged(text):
    assert "wrong" not in [v for _, v in _verdicts(text)]


def test_a_relation_the_text_assumes_is_a_premise_and_is_named_by_the_verdict():
    claims = audit_claims("Assume $F = 4D$ and $D = NH$.\n\nThen $18BTDF + 24BTDNH = 96BTD^2$.\n")
    assert [(c.line, c.verdict) for c in claims] == [(3, "certified")]  # F = 4D is not a claim
    assert claims[0].rule.endswith("assuming F = 4*D, D = H*N")


@pytest.mark.parametrize(
    "text",
    [
        # hostile review: bold capitals are matrices, which do not commute; read as sizes, these
        # false identities were certified (A⁻¹ is W Σ⁻¹ W⁻¹, A² is W Σ² W⁻¹)
        "Let $\\mathbf{A} = \\mathbf{W}\\boldsymbol{\\Sigma}\\mathbf{W}^{-1}$. "
        "Then $\\mathbf{A}^{-1} = \\mathbf{W}^{-1}\\boldsymbol{\\Sigma}^{-1}\\mathbf{W}$.\n",
        "Let $\\mathbf{A} = \\mathbf{W}\\boldsymbol{\\Sigma}\\mathbf{W}^{-1}$. "
        "Then $\\mathbf{A}^2 = \\mathbf{W}^2\\boldsymbol{\\Sigma}^2\\mathbf{W}^{-2}$.\n",
    ],
)
def test_matrices_in_bold_are_not_multiplied_as_sizes(text):
    assert "certified" not in [v for _, v in _verdicts(text)]


def test_queries_defined_anew_must_keep_the_keys_width():
    """cs231n's self-attention section: Q = X W_q, after the keys K = X W_k of width D_k. With
    W_q of width D_v the queries cannot be dotted with the keys, whatever the product makes."""
    text = (
        "Inputs $X$ are of shape $N \\times D_x$.\n\n"
        "The key vectors are $K = X W_k$ where $W_k$ is of shape $D_x \\times D_k$.\n\n"
        "In self-attention the query vectors are $Q = X W_q$ where $W_q$ is of shape $D_x \\times D_k$.\n"
    )
    assert _wrong_lines(text) == []
    planted = text.replace("$W_q$ is of shape $D_x \\times D_k$", "$W_q$ is of shape $D_x \\times D_v$")
    assert _wrong_lines(planted) == [5]
    [claim] = [c for c in audit_claims(planted) if c.verdict == "wrong"]
    assert claim.value == (
        "queries of width D_v cannot be matched with keys of width D_k: "
        "the dot products of Q K^T are not defined"
    )
    # The same letters in a text that speaks of no queries and keys: two matrices, nothing to match
    other = planted.replace("key vectors", "first maps").replace("query vectors", "second maps")
    assert _wrong_lines(other) == []


def test_a_term_the_same_for_every_key_cancels_in_the_softmax():
    """D2L, line 60: the -|q|^2/2 term of the distance score depends on q only; normalizing the
    weights to 1 makes it disappear (softmax(z + c) = softmax(z), SymPy). The 1 is the premise."""
    text = (
        "First, note that the final term depends on $\\mathbf{q}$ only. As such it is identical for all "
        "pairs. Normalizing the attention weights to $1$, as is done in the softmax, ensures that this "
        "term disappears entirely.\n"
    )
    claims = [c for c in audit_claims(text) if "cancels in the softmax" in c.rule]
    assert [(c.verdict, c.value) for c in claims] == [
        (
            "certified",
            "softmax(z + c) = softmax(z): a term the same for every key cancels in the normalisation",
        )
    ]
    assert all(c.verdict != "unchecked" for c in audit_claims(text))  # the 1 is part of the claim
    other = text.replace("Normalizing the attention weights to $1$, as is done in the softmax", "Thus")
    assert [c for c in audit_claims(other) if "cancels in the softmax" in c.rule] == []


def test_weights_within_the_valid_lengths_are_positive():
    """D2L, line 639: a masked softmax keeps the first L weights of a row, each positive."""
    text = "That is, only terms within the chosen valid length $(2, 6)$ are nonzero.\n"
    verdicts = [c.verdict for c in audit_claims(text) if c.rule.startswith("masked softmax")]
    assert verdicts == ["certified"]
    flipped = [
        c.verdict for c in audit_claims(text.replace("nonzero", "zero")) if c.rule.startswith("masked")
    ]
    assert flipped == ["wrong"]


def test_the_valid_lengths_given_are_the_premise_of_the_columns_claim():
    text = CASES["masked softmax: the columns beyond each valid length"][0]
    assert [c.verdict for c in audit_claims(text)] == ["certified"]  # the 2 and 6 are part of it


def test_outputs_the_same_but_for_the_elements_switched_are_permuted():
    """UvA tutorial 6, cell 17: "the output is exactly the same besides the elements 1 and 2
    switched" is equivariance (the sentence runs on past "e.g."); "exactly the same" alone would
    be invariance, which is wrong."""
    text = (
        "If we switch two input elements in the sequence, e.g. $X_1\\leftrightarrow X_2$, the output is "
        "exactly the same besides the elements 1 and 2 switched.\n"
    )
    verdicts = [c.verdict for c in audit_claims(text) if "permutation-equivariant" in c.rule]
    assert verdicts == ["certified"]
    same = text.replace(" besides the elements 1 and 2 switched", "")
    assert [c.verdict for c in audit_claims(same) if "permutation-equivariant" in c.rule] == ["wrong"]


@pytest.mark.parametrize(
    ("text", "verdicts"),
    [
        (
            "We distinguish between even ($i \\text{ mod } 2=0$) and uneven ($i \\text{ mod } 2=1$) ones.",
            ["certified"] * 2,
        ),
        (
            "We distinguish between even ($i \\text{ mod } 2=1$) and odd ($i \\text{ mod } 2=0$) ones.",
            ["wrong"] * 2,
        ),
    ],
)
def test_a_parity_is_named_with_its_residue(text, verdicts):
    assert [c.verdict for c in audit_claims(text + "\n") if c.rule.startswith("parity")] == verdicts


@pytest.mark.parametrize(
    ("words", "verdict"),
    [("the sum of all the axes", "wrong"), ("twice the product of all the axes", "certified")],
)
def test_a_formula_called_the_sum_or_the_product_of_the_axes(words, verdict):
    """The JAX scaling book's Q3 (a real error): 2·I·J·K·L·M·N·O is twice the product of the axes."""
    text = f"So this is just $$2 \\cdot I \\cdot J \\cdot K \\cdot L \\cdot M \\cdot N \\cdot O$$, {words}.\n"
    assert [c.verdict for c in audit_claims(text) if "sum or the product" in c.rule] == [verdict]


@pytest.mark.parametrize(
    ("clause", "verdict"),
    [
        ("and H is the number of heads", "wrong"),  # the JAX scaling book's Appendix A (a real error)
        ("and N is the number of heads", "certified"),
    ],
)
def test_the_letters_a_where_clause_explains_are_the_shapes_axes(clause, verdict):
    text = (
        "The attention QK product has shape $[B, S, T, N]$ where B is the batch size, S and T are the Q and "
        f"K sequence dims, {clause}, this claim comes with caveats.\n"
    )
    assert [c.verdict for c in audit_claims(text) if "where-clause" in c.rule] == [verdict]


@pytest.mark.parametrize(
    ("formula", "verdict"),
    [
        ("\\sum_i (q \\cdot k_i - \\text{running max})", "wrong"),  # the JAX scaling book (a real error)
        ("\\sum_i \\exp(q \\cdot k_i - \\text{running max})", "certified"),
    ],
)
def test_a_softmax_denominator_sums_exponentials(formula, verdict):
    text = f"Flash attention computes the softmax in chunks.\n\nL: The running denominator $${formula}$$\n"
    claims = [c for c in audit_claims(text) if c.rule.startswith("softmax: its denominator")]
    assert [c.verdict for c in claims] == [verdict]


def test_a_chunks_local_sum_subtracts_its_own_maximum():
    """The JAX scaling book's flash attention (a real error): L^2 subtracts chunk 1's maximum."""
    sums = (
        "$$L^1 = \\sum_i \\exp(Q \\cdot K_i^1 - \\max_j Q \\cdot K_j^1)$$\n\n"
        "$$L^2 = \\sum_i \\exp(Q \\cdot K_i^2 - \\max_j Q \\cdot K_j^1)$$\n"
    )
    combined = "\nThen $$L = \\exp(M^1 - \\max(M^1, M^2)) L^1 + \\exp(M^2 - \\max(M^1, M^2)) L^2$$\n"

    def claims(text: str) -> list[tuple[int, str]]:
        return [(c.line, c.verdict) for c in audit_claims(text) if c.rule.startswith("softmax in chunks")]

    assert claims(sums + combined) == [(1, "certified"), (3, "wrong")]
    # the combination itself, with each chunk's sum rescaled by its own maximum (SymPy)
    named = combined.replace("$$L = ", "$$L^{combined} = ")
    assert claims(sums + named) == [(1, "certified"), (3, "wrong"), (5, "certified")]
    swapped = named.replace("(M^1 - \\max", "(M^2 - \\max", 1).replace(
        "(M^2 - \\max(M^1, M^2)) L^2", "(M^1 - \\max(M^1, M^2)) L^2"
    )
    assert claims(sums + swapped)[-1] == (5, "wrong")
    lost = named.replace(" + \\exp(M^2 - \\max(M^1, M^2)) L^2", "")
    assert claims(sums + lost)[-1] == (5, "wrong")  # chunk 2 lost
    # a hostile review's plants: a chunk unscaled, the min for the max, the exponent reversed
    for slip in (
        named.replace("\\exp(M^2 - \\max(M^1, M^2)) L^2", "L^2"),
        named.replace("\\max", "\\min"),
        named.replace("\\exp(M^1 - \\max(M^1, M^2))", "\\exp(\\max(M^1, M^2) - M^1)"),
    ):
        assert claims(sums + slip)[-1] == (5, "wrong"), slip
    # true when the text supposes which maximum is larger (a hostile review's true text)
    supposed = "If $M^1 \\ge M^2$, then\n\n$$L^{combined} = L^1 + \\exp(M^2 - M^1) L^2$$\n"
    assert claims(sums + "\n" + supposed)[-1] == (7, "certified")
    assert claims(sums + "\n" + supposed.replace("\\ge", "\\le"))[-1] == (7, "wrong")
    # local sums less the whole's maximum need no rescaling: the rule is not read
    whole = sums.replace("\\max_j Q \\cdot K_j^1)", "M)")
    assert (5, "certified") not in claims(whole + named)
    # one shared maximum, no rescaling: L^1 + L^2 is exact (a hostile review's case)
    assert claims(sums) == []


@pytest.mark.parametrize(("word", "verdict"), [("reducing", "wrong"), ("raising", "certified")])
def test_loading_fewer_bytes_raises_the_arithmetic_intensity(word, verdict):
    """The JAX scaling book's flash attention (a real error): keeping Q on chip and loading only
    the KV chunks moves fewer bytes for the same FLOPs, which raises FLOPs per byte."""
    text = (
        "This lets us fit our chunk of Q into VMEM so we only have to load the KV chunks on each "
        f"iteration, {word} the arithmetic intensity.\n"
    )
    assert [c.verdict for c in audit_claims(text) if "arithmetic intensity" in c.rule] == [verdict]


@pytest.mark.parametrize(
    ("text", "rule", "verdicts"),
    [
        # a third review's: not the sum of the axes, not one exponential, not the elements swapped
        ("So this is $I \\cdot J + K$, the sum of all the axes.", "sum or the product", []),
        ("The softmax's running denominator $$\\sum_j \\exp(s_j)^2$$", "softmax: its denominator", []),
        (
            "If we swap the input tokens 1 and 2, the output is the same besides the elements 1 and 3 "
            "switched.",
            "permutation-equivariant",
            ["wrong"],
        ),
    ],
)
def test_what_looks_like_a_rules_claim_but_is_another(text, rule, verdicts):
    assert [c.verdict for c in audit_claims(text + "\n") if rule in c.rule] == verdicts
