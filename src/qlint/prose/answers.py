"""Which option a teaching text states is the answer, and which options it names at all.

Two readings, both used by the key-agreement rules K013 and K014:

- *Answer statements*: "The correct answer is X", "Answer: X", "X is the best choice", "Option B
  is right", "The answer is 3". The words that name the option (the *target*) are resolved to
  options by letter or number (position in `options`), by the option's text, its identity words
  (`qlint.prose.stance.identity`), or a short form ("RCF" for "Random Cut Forest", a "Long Name
  (LN)" alias the question defines). A target that names no option, or names two options
  equally, resolves to nothing: an unresolved statement is no evidence.
- *Naming*: whether a text names an option by any of those means anywhere. K014 asks it of the
  key ("never named") and of each distractor ("argued for").

Statements that describe another scenario are not answer statements: a negation ("is not the
correct answer"), a conditional ("would be the right choice", "is the best choice if ..."), a
qualified claim ("is the best choice for archives"), or one the clause takes back ("is correct,
but ..."). Where options are statements a stem asks about, "X is correct" may mean "the statement
X is true": under a NOT / EXCEPT lead-in only "the answer is X" forms are read.

Every function here is pure and memoised per string or per question (`qlint.prose.views`).
"""

from __future__ import annotations

import re
from functools import lru_cache
from dataclasses import dataclass

from qlint.model import Question
from qlint.prose.names import abbreviations, aliases, expand, text_keys
from qlint.prose.shapes import NUMERIC, shapes
from qlint.prose.stance import _CAMEL, _VERDICT as _VERDICT_WORDS, VENDOR, clauses, identity, mentions, option_words, refutes
from qlint.prose.views import per_question, per_text, view
from qlint.text import STOPWORDS, stem as fine_stem, tokenise

_VERDICT = r"(?:correct|right|best|only correct|most appropriate|most suitable)"
_NOUN = r"(?:answers?|options?|choices?|responses?|solutions?|selections?|alternatives?|ones?)"
# "the correct answer is X", "correct option: X", "answer: X", "the answer is X"
_LEAD = re.compile(
    rf"\b(?:the\s+|a\s+)?(?:{_VERDICT}\s+{_NOUN}|(?:answers?|solutions?)(?=\s*(?:is|are|:|=|-)\s))"
    rf"(?:\s+(?:here|to this question|for this question|in this case))?"
    r"\s*(?:(?:is|are|would be|:|=|-|–)\s*)(?:(?:therefore|thus|then|clearly|obviously|definitely)\s+)?", re.I)
# "X is the best choice", "X is correct", "X is the answer", "X are the right answers"
_TAIL = re.compile(
    rf"\s(?:is|are)\s+(?:(?:clearly|therefore|thus|also|indeed)\s+)?(?:(?:the|a|an)\s+)?"
    rf"(?:(?:{_VERDICT})(?:\s+{_NOUN})?|(?<=the )answers?)\b", re.I)
_OTHER_ANSWER = re.compile(r"\b(?:false|wrong|incorrect|untrue|invalid|bad|worst|other|tempting|trick|obvious|first|second"
                           r"|next|previous|last)\s*$", re.I)
_NEGATED = re.compile(r"\b(?:not|n't|never|no|neither|nor|cannot|hardly)\b|n't\b", re.I)
_MODAL = re.compile(r"\b(?:would|could|might|may|will|should|can)(?:\s+\w+)?\s*$", re.I)
# after the verdict: another scenario ("if", "when", "for archives"), a retraction, a comparison
_QUALIFIED = re.compile(
    r"^\s*(?:,\s*)?(?:only\s+)?(?:if|when|whenever|where|unless|once|in\s+(?!this|these|the\s+(?:scenario|question|case))"
    r"|for\s+(?!this|these|the\s+(?:scenario|question|case|company|team|requirements?))|to\s+\w+"
    r"|at\s+|because\s+it\s+is\s+not|than)\b", re.I)
_RETRACT = re.compile(r"^[^.;]*?\b(?:but|however|although|though|yet|except)\b", re.I)
_TARGET_END = re.compile(r"\s*(?:[.;!?](?:\s|$)|[,:]|\s(?:because|since|as|which|so|and\s+(?![A-J]\b|\d)|but|while|porque|ya|pues|dado|puesto|que"
                         r"|due|given|this|that|it|they)\b)", re.I)
_HEAD_CUT = re.compile(r"[,:;]|\b(?:and|but|while|so|thus|therefore|hence|here|then|that)\b(?!\s*[A-J]\b)", re.I)
_HEAD_WORDS = 12


@dataclass(frozen=True)
class Statement:
    target: str  # the words that name the option
    quote: str  # the statement as written, for the message
    lead: bool  # "the answer is X" form (read under a negative lead-in too)


# The same lead in Spanish, the other language of the corpora qlint is measured on: "la
# respuesta correcta es la 4", "la correcta sería la 5", "la opción correcta es la 2"
_LEAD_ES = re.compile(r"\b(?:(?:la\s+)?(?:respuesta|opci[oó]n|alternativa)\s+(?:correcta|verdadera|acertada)|la\s+correcta)"
                      r"\s+(?:es|ser[ií]a|sea)\s+(?:la\s+|el\s+)?(?:respuesta\s+|opci[oó]n\s+)?", re.I)


# A word each of _LEAD_ES, _LEAD and _TAIL needs: a verdict, "answer", "solution", a Spanish verdict.
_STATEMENT_WORDS = ("correct", "right", "best", "appropriate", "suitable", "answer", "solution", "verdadera", "acertada")


@per_text
def statements(text: str) -> tuple[Statement, ...]:
    """Answer statements of `text`, first to last: "the correct answer is X" and "X is correct"."""
    out: list[Statement] = []
    for c in _sentences(text):
        if c.isascii():  # every form below holds one of these words (case-blind, so ASCII only)
            low = c.lower()
            for w in _STATEMENT_WORDS:
                if w in low:
                    break
            else:
                continue
        for m in _LEAD_ES.finditer(c):
            if re.search(r"\b(?:no|nunca|si)\s*$", c[: m.start()][-12:], re.I):
                continue  # "no es la correcta", "si la correcta fuera ..."
            rest = c[m.end():]
            end = _TARGET_END.search(rest)
            target = (rest[: end.start()] if end else rest).strip()
            if target:
                out.append(Statement(target, (m.group(0) + target).strip(), True))
        for m in _LEAD.finditer(c):
            before = c[: m.start()]
            if _OTHER_ANSWER.search(before):
                continue  # "the false answer is 1", "the wrong option is B": not the answer
            if re.search(r"\b(?:is|are|was|were)\s*$", before):
                continue  # "X is the best choice: ..." is the other form, read below
            if _NEGATED.search(before[-25:]) or _MODAL.search(before) or re.search(r"\b(?:if|when|unless)\b", before[-30:], re.I):
                continue
            rest = c[m.end():]
            if _NEGATED.match(rest) or re.match(r"\s*(?:not|n't)\b", rest, re.I):
                continue
            if re.search(r"\b(?:would|could|might)\s+be\s*$", c[: m.end()], re.I):
                continue
            end = _TARGET_END.search(rest)
            target = rest[: end.start()] if end else rest
            if target.strip():
                out.append(Statement(target.strip(), (m.group(0) + target).strip(), True))
        for m in _TAIL.finditer(c):
            before = c[: m.start()]
            cuts = list(_HEAD_CUT.finditer(before))
            head = before[cuts[-1].end():] if cuts else before
            if _NEGATED.search(head) or _MODAL.search(head):
                continue
            if re.search(r"\b(?:is|are)\s+(?:not|never)\b", c[m.start(): m.end()], re.I):
                continue
            after = c[m.end():]
            if _QUALIFIED.match(after) or _RETRACT.match(after):
                continue
            if re.match(r"\s*(?:which|what|who|if|when|whether|why|how)\b", head, re.I):
                continue
            words = head.split()
            if not words or len(words) > _HEAD_WORDS:
                continue
            out.append(Statement(head.strip(), (head + m.group(0)).strip(), False))
    return tuple(out)


_SPLIT = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9(\"'*])|\n\s*\n|\n(?=\s*(?:[-*]|\d+[.)])\s)")


@per_text
def _sentences(text: str) -> tuple[str, ...]:
    plain = view(text).plain.replace("’", "'")
    return tuple(" ".join(s.split()) for s in _SPLIT.split(plain) if s.strip())


_MARK_WORD = r"(?:options?|answers?|choices?|letters?|responses?|numbers?|no\.?)"
_LIST = r"(?:\s*(?:,|\band\b|\bor\b|&|/)\s*|\s+|(?<=\)))"
_LETTER_LIST = re.compile(rf"^(?:{_MARK_WORD}\s+)?((?:\(?[A-Ja-j]\)?{_LIST})*\(?[A-Ja-j]\)?)\s*(?:[.):]\s*)?(?:\(.*\))?$", re.I)
_NUMBER_LIST = re.compile(rf"^(?:{_MARK_WORD}\s+)?((?:#?\(?[1-9]\)?{_LIST})*#?\(?[1-9]\)?)\s*(?:[.):-]\s*)?(?:\(.*\))?$", re.I)


@per_question
def _options_are_marks(q: Question) -> tuple[bool, bool]:
    """(some option text is a single letter, some is a bare number): then letters (numbers) in
    a target are the options' own texts, not positions."""
    texts = [view(o.text).plain.strip().strip("`*_ ") for o in q.options]
    return (any(re.fullmatch(r"[A-Ja-j][.)]?", t) for t in texts),
            any(re.match(r"[-+$]?\d", t) for t in texts) or NUMERIC in shapes(q))


def _by_position(q: Question, target: str) -> frozenset[int] | None:
    """Options a target names by letter ("B", "option b", "(a)(c)", "A and D") or number
    ("3", "option 2"); None when it is not such a mark. A bare letter must be a capital or in
    parentheses ("A multi-model endpoint" opens with an article, not a letter)."""
    letters_are_text, numbers_are_text = _options_are_marks(q)
    t = target.strip().strip("*_`\"'").strip()
    marked = bool(re.match(rf"{_MARK_WORD}\s", t, re.I))
    found: set[int] = set()
    m = None if letters_are_text else _LETTER_LIST.match(t)
    if m:
        for x in re.findall(r"(?<![A-Za-z])([A-Ja-j])(?![A-Za-z])", m.group(1)):
            if not (x.isupper() or marked or f"({x})" in m.group(1)):
                return None
            found.add(ord(x.upper()) - 65)
    elif not numbers_are_text and (m := _NUMBER_LIST.match(t)):
        found = {int(x) - 1 for x in re.findall(r"[1-9]", m.group(1))}
    if not found or any(i >= len(q.options) for i in found):
        return None
    return frozenset(found)


@per_question
def _own_abbreviations(q: Question) -> tuple[frozenset[str], ...]:
    """Per option, the short forms of its text that no other option's text has ("S3" for
    "Amazon Simple Storage Service"; not "EC2" when every option is an EC2 pricing model)."""
    forms = [abbreviations(o.text) for o in q.options]
    return tuple(f - frozenset().union(*(g for j, g in enumerate(forms) if j != i)) for i, f in enumerate(forms))


@per_question
def _alias_keys(q: Question) -> tuple[frozenset[str], ...]:
    """Per option, the keys of every "Long Name (LN)" alias whose one side its text holds."""
    keys = [text_keys(o.text) for o in q.options]
    out = []
    for k in keys:
        extra: set[str] = set()
        for a, b in aliases(q):
            if a <= k:
                extra |= b
            if b <= k:
                extra |= a
        out.append(frozenset(extra - k))
    return tuple(out)


@per_text
def _fine(text: str) -> frozenset[str]:
    """Words of `text` under the light stemmer (`qlint.text.stem`): finer than the identity
    words' five-letter keys, under which "hyperparameters" names "Hyperband"."""
    return frozenset(fine_stem(t) for t in tokenise(text) if len(t) >= 2 and t not in _FINE_SKIP)


_FINE_SKIP = STOPWORDS | VENDOR | _VERDICT_WORDS  # "correct", "answer" name no option


@per_question
def _fine_own(q: Question) -> tuple[frozenset[str], ...]:
    fine = [_fine(o.text) for o in q.options]
    return tuple(f - frozenset().union(*(g for j, g in enumerate(fine) if j != i)) for i, f in enumerate(fine))


def _score(q: Question, text: str, i: int, free_only: bool = False, strict: bool = False) -> int:
    """How strongly `text` names option i: 3 its whole text, 2 its identity words (two, or all,
    one of them as written) or a short form only it has, 0 otherwise."""
    o = q.options[i]
    words = identity(q)[i]
    have = _fine(text)
    own = _fine(o.text)
    if own and own <= have:
        return 3
    fine_own = _fine_own(q)[i]
    if words and mentions(text, words, free_only) >= min(2, len(words)) and (not fine_own or fine_own & have):
        return 2
    hit = fine_own & have
    if fine_own and len(hit) >= min(2, len(fine_own)) and (not strict or len(hit) >= 2 or _is_name_word(o.text, hit)):
        return 2  # its own words as written ("Hyperband" where the stem's "hyperparameters" hides it)
    own_forms, alias = _own_abbreviations(q)[i], _only_alias_keys(q)[i]
    if not own_forms and not alias:
        return 0  # nothing of the text's keys could name it: not read (the text's keys are costly)
    keys = text_keys(text)
    if own_forms & expand(q, keys):
        return 2
    if alias and alias <= keys:
        return 2
    return 0


@per_question
def _only_alias_keys(q: Question) -> tuple[frozenset[str], ...]:
    """Per option, its alias keys (`_alias_keys`) that no other option's text has."""
    return tuple(_alias_keys(q)[i] - frozenset().union(*(text_keys(p.text) for p in q.options if p.index != i))
                 for i in range(len(q.options)))


@per_question
def resolve(q: Question, target: str) -> frozenset[int]:
    """The options an answer statement's target names; empty when none or no single best."""
    exact = [o.index for o in q.options if _same(o.text, target)]
    if len(exact) == 1:
        return frozenset(exact)  # the option's own text ("2/5", "True")
    pos = _by_position(q, target) or _leading_mark(q, target)
    if pos is not None:
        paren = re.search(r"\(([^)]{2,60})\)", target)
        if paren and len(pos) == 1:
            by_text = _by_text(q, paren.group(1))
            if by_text and by_text != pos:
                return frozenset()  # "Option A (taint)" where the words name another option: unsure
        return pos
    return _by_text(q, target)


def _same(a: str, b: str) -> bool:
    norm = lambda t: " ".join(re.findall(r"[\w/.%$-]+", view(t).plain.lower())).strip(". ")  # noqa: E731
    return bool(norm(a)) and norm(a) == norm(b)


def _leading_mark(q: Question, target: str) -> frozenset[int] | None:
    """A number opening a longer target ("2 although the treatment ...", "3) and the
    complications ..."): the statement names option 2 and goes on; None when the options are
    numbers themselves."""
    if _options_are_marks(q)[1]:
        return None
    m = re.match(rf"^(?:(?:{_MARK_WORDS})\s+)?#?\(?([1-9])\)?(?=[\s).,;:]|$)", target.strip(), re.I)
    if m and int(m.group(1)) <= len(q.options):
        return frozenset({int(m.group(1)) - 1})
    return None


def _by_text(q: Question, target: str) -> frozenset[int]:
    parts = [p for p in re.split(r"\s*(?:,|\band\b|&|\bplus\b)\s*", target) if p.strip()]
    found: set[int] = set()
    for part in parts if len(parts) > 1 else [target]:
        scores = [_score(q, part, o.index) for o in q.options]
        best = max(scores, default=0)
        if best == 0:
            continue
        top = [i for i, s in enumerate(scores) if s == best]
        if len(top) != 1:
            return frozenset()  # two options named as strongly: no single one
        found.add(top[0])
    return frozenset(found)


def names_clearly(q: Question, text: str, i: int) -> bool:
    """True if `text` names option i by its whole text, its own words as written (two, or all;
    the stem's words count: a key's one distinctive word may also be in the stem), a short form
    or alias, a name written with or without its hyphen ("HER-2", "HER2"), or its letter or
    number ("Option 3 is correct", "Answer: E", "la 4"). Narrower than `names`: one shared
    word is not enough."""
    return bool(_score(q, text, i, strict=True)) or _squashed_name(q, text, i) or _by_mark(q, text, i, loose=False) or any(
        i in resolve(q, st.target) for st in statements(text))


def _is_name_word(option: str, hit: frozenset[str]) -> bool:
    """One of `hit` is written as a name in the option: capitalised past its first word, or with
    a digit ("Hyperband strategy" has none past its first word; "AWS Artifact" has "Artifact")."""
    toks = re.findall(r"[A-Za-z0-9][A-Za-z0-9\-]*", option)
    return any(fine_stem(t.lower()) in hit and (t[:1].isupper() or any(c.isdigit() for c in t)) for t in toks[1:])


@per_text
def _squashed(text: str) -> frozenset[str]:
    return frozenset(re.sub(r"[-_.]", "", t).lower() for t in re.findall(r"[A-Za-z0-9][\w.\-]*[A-Za-z0-9]", text))


@per_question
def _squash_names(q: Question) -> tuple[tuple[tuple[str, ...], str | None], ...]:
    """Per option, what `_squashed_name` looks for: its names no other option has (squashed, three
    characters or more) and its initials in capitals (None for a name of one word or over five)."""
    out = []
    for o in q.options:
        others = frozenset().union(*(_squashed(p.text) for p in q.options if p.index != o.index))
        names_ = [re.sub(r"[-_.]", "", t).lower() for t in re.findall(r"[A-Za-z0-9][\w.\-]*[A-Za-z0-9]", o.text)
                  if (any(c.isdigit() for c in t) or any(c.isupper() for c in t[1:])) and t.lower() not in VENDOR]
        names_ = [n for n in names_ if n not in others and len(n) >= 3]  # a name only this option has
        words = [w for w in re.findall(r"[A-Za-z][A-Za-z\-]*", o.text) if w.lower() not in STOPWORDS | VENDOR]
        initials = "".join(w[0] for w in words).upper() if 2 <= len(words) <= 5 else None
        out.append((tuple(names_), initials))
    return tuple(out)


def _squashed_name(q: Question, text: str, i: int) -> bool:
    """A name of option i (a token with a capital past its first letter or a digit: "GnRH",
    "HER2") in `text`, hyphens, underscores and dots aside; or the initials of a lower-case
    multi-word name written as a capital abbreviation ("TTP" for "Thrombotic thrombocytopenic purpura")."""
    names_, initials = _squash_names(q)[i]
    if names_ and any(n in _squashed(text) for n in names_):
        return True
    if initials is None:
        return False
    words = _word_set(text)  # `\bTTPs?\b`: a whole word, as `\w+` cuts them
    return initials in words or initials + "s" in words


@per_text
def _word_set(text: str) -> frozenset[str]:
    return frozenset(re.findall(r"\w+", view(text).plain))


def _by_mark(q: Question, text: str, i: int, loose: bool = True) -> bool:
    """Option i named by its letter or number: "option B", "(B)", "B is", "answer 3", and, when
    `loose`, also "3." opening a line, "la 3", "(3)"."""
    letters_are_text, numbers_are_text = _options_are_marks(q)
    plain = view(text).plain
    by_letter, by_number, loosely = _mark_patterns(i)
    if not letters_are_text and by_letter.search(plain):
        return True
    if numbers_are_text or str(i + 1) not in plain:  # (every number form holds the number's digits)
        return False
    if by_number.search(plain):
        return True
    return loose and bool(loosely.search(plain))


@lru_cache(maxsize=None)
def _mark_patterns(i: int) -> tuple[re.Pattern[str], re.Pattern[str], re.Pattern[str]]:
    """`_by_mark`'s patterns for option i: its letter, its number after a mark word, its number alone."""
    letter = chr(65 + i)
    return (re.compile(rf"\b(?i:options?|answers?|choices?|letters?)\s+\(?(?i:{letter})\b"
                       rf"|\((?i:{letter})\)|(?:^|[.!?]\s+){letter}(?:[.):]|\s+is\b)"),
            re.compile(rf"\b(?:{_MARK_WORDS})\s+#?{i + 1}\b", re.I),
            re.compile(rf"(?:^|\n)\s*{i + 1}\s*[-.):]\s|\b(?:la|el|le)\s+{i + 1}\b(?![.,]\d)|\({i + 1}\)", re.I))


# "option 3" in the languages of the corpora qlint is measured on (a position, not a word)
_MARK_WORDS = ("options?|answers?|choices?|responses?|number|respuestas?|opci[oó]n|opciones|alternativas?"
               "|r[ée]ponses?|risposta|risposte|opzione|opzioni|respostas?|op[çc][ãa]o|antwort")


def names(q: Question, text: str, i: int) -> bool:
    """True if `text` names option i anywhere, by any means: a word of its own (one no other
    option's text has, the stem's words included), a short form or alias, a camel-case name in
    any case, its letter ("option B", "(B)") or number ("option 2")."""
    if _score(q, text, i) or _own_word(q, text, i):
        return True
    o = q.options[i]
    lower = view(text).lower
    if any(_CAMEL.search(t) and t.lower() in lower for t in re.findall(r"[A-Za-z0-9]+", o.text)):
        return True
    return _by_mark(q, text, i)


@per_question
def _own_words(q: Question) -> tuple[frozenset[str], ...]:
    words = [option_words(o.text) for o in q.options]
    return tuple(w - frozenset().union(*(v for j, v in enumerate(words) if j != i)) for i, w in enumerate(words))


def _own_word(q: Question, text: str, i: int) -> bool:
    """A word only option i's text has, or one that agrees with it on all but its last letter
    ("agili" of agility, "agile"), occurs in `text`."""
    own = _own_words(q)[i]
    if not own:
        return False
    have = option_words(text)
    if own & have:
        return True
    heads = _heads(text)  # near words share their first four letters: compare only those
    return any(_near(a, b) for a in own if len(a) >= 4 for b in heads.get(a[:4], ()))


@per_text
def _heads(text: str) -> dict[str, tuple[str, ...]]:
    """`option_words(text)` of four letters or more, by their first four."""
    out: dict[str, list[str]] = {}
    for w in option_words(text):
        if len(w) >= 4:
            out.setdefault(w[:4], []).append(w)
    return {h: tuple(ws) for h, ws in out.items()}


def _near(a: str, b: str) -> bool:
    if "-" in a + b or not (a + b).isalpha():
        return False  # names kept whole ("multi-model" is not "multi"; "Cloud9" is not "cloud")
    short, long = sorted((a, b), key=len)
    if len(short) >= 4 and long.startswith(short) and len(long) - len(short) <= 2:
        return True  # "shar" (of "shared") and "share"; not "scal" and "scalable"
    n = len(short) - 1
    return n >= 4 and a[:n] == b[:n]


_ARGUED_HEAD = 12  # tokens: where a clause names what it is about ("Use X", "The team should choose X")


def argued(q: Question, text: str) -> tuple[int, ...]:
    """Options `text` argues for: named as strongly as `_score` asks by its words outside
    negation and contrast scopes ("does not use Mechanical Turk" names it only to deny it), in
    the first twelve of them, where a clause names its subject or object, in some clause that
    does not refute them. Words a clause only shares with an option further on ("share the same
    geographic area") are description, not an argument for it."""
    out = []
    for o in q.options:
        words = identity(q)[o.index]
        for c in clauses(text):
            head = " ".join(_free_text(c).split()[:_ARGUED_HEAD])
            if _score(q, head, o.index) and not refutes(c, words):
                out.append(o.index)
                break
    return tuple(out)


_SCOPE = frozenset("unlike than instead whereas versus vs opposed compared contrast not no never without nor "
                   "cannot neither".split())
_SCOPE_END = frozenset("but while whereas although though yet however".split())


@per_text
def _free_text(clause: str) -> str:
    """The clause without the words inside a negation or contrast scope, which runs to the next
    comma or contrasting conjunction ("does not use Mechanical Turk or involve human bidding")."""
    keep: list[str] = []
    inside = False
    for t in re.findall(r"[A-Za-z0-9][A-Za-z0-9'\-]*|[,;:]", clause):
        low = t.lower()
        if t in ",;:" or low in _SCOPE_END:
            inside = False
            keep.append(t)
        elif low in _SCOPE or low.endswith("n't"):
            inside = True
        elif not inside:
            keep.append(t)
    return " ".join(keep)


@per_question
def tellable(q: Question) -> tuple[bool, ...]:
    """Per option, whether any word sets it apart (a word only its text has): "AWS and the customer share responsibility" beside "AWS shares responsibility
    with ..." and "The customer is responsible" has none, so no text can be said to omit it."""
    return tuple(bool(w) for w in _own_words(q))


def argued_for(q: Question, text: str, i: int) -> bool:
    """True if some clause of `text` names option i (by `names`) outside a negation or
    contrast scope without refuting it: an explanation that names the key only to deny it
    ("X does not ...", "unlike X") never argues for it."""
    words = identity(q)[i]
    for c in clauses(text):
        if names(q, _free_text(c), i) and not refutes(c, words):
            return True
    return False


_OPENS_AGAINST = re.compile(r"^\W*(?:no|incorrect|wrong|false|not correct|not quite|not this one)\b", re.I)


def contrasts(q: Question, text: str, own: int, other: int) -> bool:
    """True if `text`, the reason of option `own`, argues by contrast: it rejects its own option
    (opens with a verdict against it, "No: ...", "Incorrect.", or refutes it by name) and then
    states that option `other` is the answer ("...; Y is right", "the correct one is Y"). Such a
    reason names the other option's words because it points to the right one, not because it
    was written for it."""
    against = bool(_OPENS_AGAINST.match(view(text).plain)) or bool(refutes(text, identity(q)[own]))
    if not against:
        return False
    return any(other in resolve(q, st.target) and own not in resolve(q, st.target) for st in statements(text))
