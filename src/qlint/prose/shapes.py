"""Item shapes: what kind of item a question is, recognised before any prose rule reads it.

A prose rule reads English sentences. Some items are not sentences to read that way: a
True/False pair is not an "opposite pair" and its "False" is no double negative; code options
differ by the punctuation being tested; numeric options are values, not words. Each rule
declares the shapes it judges (`@rule(..., abstains=..., preview_on=...)`) and the engine
skips it on the others, so no rule has to recognise these shapes itself.

The shapes, computed once per question (`shapes(q)`):

- `true-false`: exactly two options, one "true" and one "false" word of the same language
  (True/False, Yes/No, Verdadero/Falso, Vrai/Faux, Richtig/Falsch, 正确/错误, ...), markup,
  case and end punctuation aside.
- `code-stem`: the stem holds code: a fenced or indented code block, or an inline code span.
- `code-options`: at least half of the options (two or more) are code: a code span or block
  that makes up the option, a shell/CLI command (`kubectl get pods`, `git rebase -i`), or a
  programming literal or expression (`undefined`, `[1, 2]`, `"abc"`, `x => x + 1`, `a === b`).
- `numeric`: more than half of the options are numbers with at most a unit or a short
  qualifier ("12 km/h", "$4.50", "25%", "3/4", "Less than 24 hours").
- `statement`: the stem states rather than asks: no sentence ends in `?`, it ends in `.` or
  `!` (not `:`, a blank or mid-sentence, as completion items do), and its last sentence asks
  nothing: it opens with no question word or task verb, also after an opening preposition
  ("In how many ways ...") or an opening if-clause ("If ..., find ...").
- `clue`: a statement whose first or last sentence points at the answer with "this"/"these" (or
  the same word in Spanish, French, Italian, German, Portuguese): "This planet has the most
  moons.", or that opens with a personal pronoun ("He was the lawyer who won the case.").
- `select-n`: more than one answer is expected: a `multiple` question, more than one key, or a
  stem that asks for N (N >= 2) answers ("Choose TWO", "Which three ...", "Elige dos").
- `no-reasons`: fewer than half of the options (steps, prompts) carry a rationale: the item
  gives the writer's own words for its options only in their texts and the explanation.
"""

from __future__ import annotations

import re
import unicodedata

from qlint.model import Question
from qlint.prose.sentences import raw_sentences
from qlint.prose.views import per_question

TRUE_FALSE = "true-false"
CODE_STEM = "code-stem"
CODE_OPTIONS = "code-options"
NUMERIC = "numeric"
STATEMENT = "statement"
CLUE = "clue"
SELECT_N = "select-n"
NO_REASONS = "no-reasons"
SHAPES = (TRUE_FALSE, CODE_STEM, CODE_OPTIONS, NUMERIC, STATEMENT, CLUE, SELECT_N, NO_REASONS)

DESCRIPTIONS = {
    TRUE_FALSE: "two options that are a true/false or yes/no pair (in any of 20 languages)",
    CODE_STEM: "the stem holds code (a fenced or indented block, or an inline code span)",
    CODE_OPTIONS: "half or more of the options are code: code spans, commands, literals",
    NUMERIC: "most options are numbers with at most a unit or a short qualifier",
    STATEMENT: "the stem states rather than asks (no question, task or completion)",
    CLUE: "a statement stem that points at the answer with 'this ...'",
    SELECT_N: "more than one answer is expected (multiple type, several keys, 'choose N')",
    NO_REASONS: "fewer than half of the options carry a rationale",
}

# (true word, false word) per language; a pair counts when both options come from one row.
_TF_PAIRS = (
    ("true", "false"), ("yes", "no"), ("correct", "incorrect"), ("right", "wrong"),
    ("verdadero", "falso"), ("cierto", "falso"), ("sí", "no"), ("si", "no"), ("correcto", "incorrecto"),  # es
    ("vrai", "faux"), ("oui", "non"),  # fr
    ("vero", "falso"), ("sì", "no"),  # it
    ("richtig", "falsch"), ("wahr", "falsch"), ("ja", "nein"),  # de
    ("verdadeiro", "falso"), ("sim", "não"), ("certo", "errado"),  # pt
    ("waar", "onwaar"), ("juist", "onjuist"), ("ja", "nee"),  # nl
    ("正确", "错误"), ("正確", "錯誤"), ("对", "错"), ("對", "錯"), ("是", "否"), ("真", "假"),  # zh
    ("正しい", "間違い"), ("正しい", "誤り"), ("はい", "いいえ"), ("真", "偽"), ("〇", "×"),  # ja
    ("참", "거짓"), ("예", "아니요"), ("예", "아니오"), ("네", "아니요"), ("맞다", "틀리다"),  # ko
    ("верно", "неверно"), ("правда", "ложь"), ("да", "нет"), ("истина", "ложь"),  # ru
    ("правда", "неправда"), ("так", "ні"),  # uk
    ("صحيح", "خطأ"), ("صح", "خطأ"), ("نعم", "لا"),  # ar
    ("doğru", "yanlış"), ("evet", "hayır"),  # tr
    ("prawda", "fałsz"), ("tak", "nie"),  # pl
    ("đúng", "sai"), ("có", "không"),  # vi
    ("จริง", "เท็จ"), ("ถูก", "ผิด"),  # th
    ("benar", "salah"), ("ya", "tidak"),  # id
    ("सही", "गलत"), ("सत्य", "असत्य"),  # hi
    ("sant", "falskt"), ("ja", "nej"),  # sv, da
)
_TF = frozenset(frozenset(p) for p in _TF_PAIRS)
_EDGE = re.compile(r"^[\s`*_~\"'“”«».!?。！？:;,()\[\]]+|[\s`*_~\"'“”«».!?。！？:;,()\[\]]+$")


def _tf_word(text: str) -> str:
    return unicodedata.normalize("NFC", _EDGE.sub("", text or "")).casefold()


def is_true_false(texts: list[str] | tuple[str, ...]) -> bool:
    """Two option texts that are a true/false (or yes/no) pair of one language."""
    return len(texts) == 2 and frozenset(map(_tf_word, texts)) in _TF


# --- code -------------------------------------------------------------------------------------

_FENCE = re.compile(r"^[ \t]*(?:```|~~~)", re.M)
_INDENTED = re.compile(r"(?:^|\n[ \t]*\n)(?: {4}|\t)\S")  # an indented block after a blank line
_SPAN = re.compile(r"(`+)(?!`)(.+?)(?<!`)\1(?!`)", re.S)
_COMMANDS = frozenset("""kubectl helm docker podman git npm npx yarn pip pip3 python python3 node aws gcloud az
    terraform ansible sudo ls cd cp mv rm mkdir rmdir cat echo grep sed awk chmod chown curl wget ssh scp tar
    find touch head tail wc sort uniq cut less more man pwd export source apt apt-get yum brew systemctl
    journalctl kubeadm kubelet minikube kind istioctl etcdctl crictl java javac mvn gradle go cargo rustc gcc
    make cmake ps kill top df du mount ping nc nano vim vi R Rscript sqlite3 psql mysql""".split())
_WORD_RE = r"[A-Za-z_$][\w$]*"
_LITERAL = re.compile(
    r"^(?:undefined|null|NaN|nil|-?Infinity)$"  # keyword literals no prose option is (not True/False)
    r"|^\[.*\]$|^\{.*\}$|^\([^()]*,[^()]*\)$"  # an array, object or tuple literal
    r"|^(?:\"[^\"\s]*\"|'[^'\s]*')$"  # a quoted string without blanks (a quoted title is prose)
    rf"|^(?:new\s+)?{_WORD_RE}(?:\.{_WORD_RE})*\(.*\)$"  # a call: f(), obj.method(x)
    rf"|^{_WORD_RE}(?:\.{_WORD_RE})+$"  # a dotted name: Math.max, os.path
    r"|=>|===|!==|==|!=|&&|\|\||\+\+|--(?=\w)|::|->|<-|%>%|;$"  # programming operators
    r"|^(?=.*[A-Za-z_$\"'])[\w$.\[\]\"']+\s+[-+*/%]=?\s+[\w$.\[\]\"']+$"  # an expression: "1" + 2, a * b
    r"|^[\w$]+\s*=\s*\S",  # an assignment
)
_NUMBER_ONLY = re.compile(r"^[-+]?\d[\d,.]*$")
_FLAG_OR_PATH = re.compile(r"(?:^|\s)(?:--?\w|\.{0,2}/|~/|\w+=|\*\.\w|\w+\.\w{1,4}\b|<\w+>|\w+/\w+)")


def _code_spans(text: str) -> list[str]:
    return [m.group(2) for m in _SPAN.finditer(text)]


def is_code_option(text: str) -> bool:
    """An option that is code: a code span or block making up the option (at most three words
    outside code), a shell command, or a programming literal or expression."""
    t = (text or "").strip()
    if not t:
        return False
    if _FENCE.search(t):
        return True
    spans = _code_spans(t)
    if spans:
        outside = _SPAN.sub(" ", t)
        return len(re.findall(r"\w+", outside)) <= 3
    words = t.split()
    if words[0] in _COMMANDS and len(words) > 1 and (words[0] in ("kubectl", "git", "docker", "helm", "npm", "pip")
                                                      or _FLAG_OR_PATH.search(t[len(words[0]):])):
        return True
    if _NUMBER_ONLY.match(t):
        return False
    return bool(_LITERAL.search(t)) and len(words) <= 8


def has_code_stem(stem: str) -> bool:
    """A stem that holds code: a fenced or indented block, or an inline code span."""
    s = stem or ""
    # (each pattern needs a character the literal tests look for: most stems have none of them)
    return bool((("```" in s or "~~~" in s) and _FENCE.search(s)) or ("`" in s and _SPAN.search(s))
                or (("    " in s or "\t" in s) and _INDENTED.search(s)))


# --- numbers ----------------------------------------------------------------------------------

_NUMBER_WORDS = r"one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|fifty|hundred|thousand|million"
_NUM = re.compile(rf"(?i:^(?:{_NUMBER_WORDS})\b)|(?<![^\W\d_])[-+\u2212]?(?:[$€£¥₹]\s*)?\d[\d,.]*(?:\s*/\s*\d+)?%?|√\d+|\d+\s*π")
_QUALIFIERS = frozenset("""less than fewer more greater at least most up to about approximately around roughly
    between and to or under over above below nearly exactly only rs inr usd eur dollars cents none of these
    the above cannot be determined each per a an""".split())


def is_numeric_option(text: str) -> bool:
    """A number with at most a unit or a short qualifier: "12 km/h", "$4.50", "3/4", "Rs. 500",
    "Less than 24 hours", "2√3", "x = 4"."""
    t = re.sub(r"[`*_]", "", text or "").strip()
    if not t or not _NUM.search(t):
        return False
    rest = _NUM.sub(" ", t)
    rest = re.sub(r"\b[a-zA-Z]\b|[=<>≤≥^()+\-*/×÷.,:;]", " ", rest)  # variables, operators
    others = [w for w in re.findall(r"[^\W\d_]+", rest) if w.casefold() not in _QUALIFIERS]
    return len(others) <= 2


# --- stems ------------------------------------------------------------------------------------

# no optional blanks before the first word: each start in a run of blanks would rescan the run
_NOTE_WORDS = ("choose", "select", "pick")
_NOTE = re.compile(r"(?:\(\s*)?(?:choose|select|pick)\s+\w+(?:\s+(?:answers?|options?))?\s*\.?\s*\)?\.?\s*$", re.I)
_BLANK = re.compile(r"_{3,}|\[\s*blank\s*\]|\.{3}|…", re.I)
_ASKS = re.compile(
    r"^[\W\d]*(?:which|what|how|why|where|when|who|whom|whose|choose|select|identify|determine|name|calculate|"
    r"compute|estimate|find|give|list|match|order|arrange|pick|explain|describe|evaluate|decide|complete|guess|fill|solve|"
    r"is|are|does|do|can|should|will|would|could|true or false|"
    r"cuál|cuáles|qué|quién|cómo|dónde|elige|seleccione|selecciona|indique|señale|"
    r"quel|quelle|quels|quelles|qui|comment|choisissez|"
    r"quale|quali|che cosa|chi|come|scegli|"
    r"welche|welcher|welches|was|wer|wie|wähle|wählen)\b", re.I)
_CLUE = re.compile(r"\b(?:this|these|este|esta|estos|estas|ce|cet|cette|ces|questo|questa|questi|queste|"
                   r"dieser|diese|dieses|esse|essa|isto)\b", re.I)
_CODE_BLOCK = re.compile(r"^[ \t]*(?:```|~~~).*?^[ \t]*(?:```|~~~)[ \t]*$", re.S | re.M)


def _prose_of(stem: str) -> str:
    """The stem without code blocks or its trailing "(Choose N.)" note."""
    body = stem or ""
    if "```" in body or "~~~" in body:
        body = _CODE_BLOCK.sub(" ", body)
    if body.isascii() and not any(w in body.lower() for w in _NOTE_WORDS):
        return body.strip()  # every note holds one of its verbs
    return _NOTE.sub("", body).strip()


def sentences(text: str) -> list[str]:
    """The text's sentences, a piece that opens in lower case or with a digit joined to the one
    before: the full stop of an abbreviation ("Rs. 12.40", "no. of", "the A.D.A. who") or a
    colon inside a sentence split it there."""
    out: list[str] = []
    for s in raw_sentences(text):
        if out and s[:1].isdigit() or out and s[:1].islower():
            out[-1] = f"{out[-1]} {s}"
        else:
            out.append(s)
    return out


# A question or task may follow an opening preposition ("In how many ways ...", "During what
# period ..."), an opening clause ("If the costs do not change, compute ...", "..., then find
# ...") or "Can you" ("Can you name the series ...").
_PREPOSITION = re.compile(r"^[\W\d]*(?:in|during|for|by|to|from|at|of|on|with|after|before|under|since|until)\s+", re.I)
_AFTER_CLAUSE = re.compile(r"^[\W\d]*(?:if|when|whenever|given|assuming|suppose|supposing|since|once|while|after|before)\b"
                           r"[^,]{1,200}?,\s*(?:then\s+)?|^[^,.]{0,200}?\bthen\s+|^[\W\d]*(?:can|could)\s+you\s+", re.I)


def asks(sentence: str) -> bool:
    """The sentence asks a question or states a task, with or without a question mark."""
    if _ASKS.match(sentence) or _ASKS.match(_PREPOSITION.sub("", sentence, count=1)):
        return True
    rest = _AFTER_CLAUSE.sub("", sentence, count=1)
    return rest != sentence and bool(_ASKS.match(rest))


def is_statement(stem: str) -> bool:
    """A stem that states rather than asks: no sentence ends in `?`, it does not end in `:` or a
    blank, and its last sentence asks no question and states no task (see `asks`)."""
    body = _prose_of(stem)
    if not body or "?" in body or "？" in body or _BLANK.search(body):
        return False
    if not body.rstrip("*_ )").endswith((".", "!", "。", "！")):
        return False  # ends in ":" or mid-sentence: a completion item, the options finish it
    return not asks(sentences(body)[-1])


# A statement stem that opens with a personal pronoun ("He was the lawyer who ...", "Before
# 1981, he was ...") has no antecedent but the answer.
_OPENING_PRONOUN = re.compile(r"^(?:[^,.]{1,80},\s*)?(?:he|she|it|they|él|ella|il|elle)\b", re.I)


def is_clue(stem: str) -> bool:
    """A statement that points at the answer: its first or last sentence says "this"/"these",
    or it opens with a personal pronoun."""
    if not is_statement(stem):
        return False
    said = sentences(_prose_of(stem))
    return bool(_CLUE.search(said[0]) or _CLUE.search(said[-1]) or _OPENING_PRONOUN.match(said[0]))


_COUNT = r"(?:two|three|four|five|six|[2-6]|dos|tres|cuatro|deux|trois|quatre|due|tre|quattro|zwei|drei|vier|duas|três)"
_ASKS_N = re.compile(
    rf"\b(?:choose|select|pick|mark|elige|elija|seleccione|selecciona|escoja|choisissez|choisir|sélectionnez|"
    rf"scegli|scegliere|seleziona|wähle|wählen\s+sie|escolha|selecione)\s+(?:the\s+)?{_COUNT}\b"
    rf"|\b(?:which|what)\s+{_COUNT}\b|\ball\s+that\s+apply\b|\bone\s+or\s+more\b", re.I)


# The same pattern for lower-cased ASCII text: case-blind matching costs four times as much.
_ASKS_N_LOWER = re.compile(_ASKS_N.pattern)


def asks_for_several(stem: str) -> bool:
    stem = stem or ""
    return bool(_ASKS_N_LOWER.search(stem.lower()) if stem.isascii() else _ASKS_N.search(stem))


@per_question
def shapes(q: Question) -> frozenset[str]:
    """The shapes of a question (see the module docstring), computed once per question."""
    found: set[str] = set()
    texts = [o.text for o in q.options]
    if is_true_false(texts):
        found.add(TRUE_FALSE)
    if has_code_stem(q.stem):
        found.add(CODE_STEM)
    if len(texts) >= 2:
        code = sum(map(is_code_option, texts))
        if code >= 2 and 2 * code >= len(texts):
            found.add(CODE_OPTIONS)
        if 2 * sum(map(is_numeric_option, texts)) > len(texts):
            found.add(NUMERIC)
    if is_statement(q.stem):
        found.add(STATEMENT)
        if is_clue(q.stem):
            found.add(CLUE)
    if q.type == "multiple" or len(q.keys) > 1 or asks_for_several(q.stem):
        found.add(SELECT_N)
    reasons = sum(1 for o in q.options if isinstance(o.rationale, str) and o.rationale.strip())
    if 2 * reasons < len(q.options):
        found.add(NO_REASONS)
    return frozenset(found)
