"""What a piece of teaching text is about and whether it argues for or against an option.

The key-agreement rules (K004 explanation anchoring, K010 rationale stance, K011 rationale
alignment) read each rationale against its own option and the explanation sentence by sentence.
Two questions are asked of a text:

- *About which option?* An option is identified by its distinctive words: the content words of
  its text that no other option's text has (for a pair of options, the words one has and the
  other lacks). Words inside a contrast ("unlike X", "rather than X", "instead of X") or a
  negation scope do not make a text about another option: "unlike data parallelism" is a
  comparison, not a change of subject.
- *Which stance?* A text refutes its subject when the clause that names it (or opens with "it",
  "this") negates a predicate ("does not provide", "cannot", "is not designed for") or carries a
  verdict ("incorrect", "wrong"); negations of a burden ("does not require servers", "no need
  to manage") are praise, not refutation. It claims correctness with a verdict ("is the correct
  answer", "Correct:"), except in a conditional that describes another scenario ("would be the
  correct choice when", "is the right choice if").

Every function here is pure and memoised per string or per question (`qlint.prose.views`).
"""

from __future__ import annotations

import re
from itertools import chain

from qlint.prose.views import per_question, per_text, view
from qlint.model import Question
from qlint.text import STOPWORDS, WordMemo

_PREFIX = 5  # word forms compared by their first five letters after common suffixes are cut
_CAMEL = re.compile(r"[a-z][A-Z]|[A-Z]{2}[a-z]{2}")  # "CloudTrail", "DynamoDB", "IAMRole"
_WORD = re.compile(r"[A-Za-z0-9][A-Za-z0-9'’\-]*")


def _stem(word: str) -> str:
    """A coarse word key: "denies", "denying" and "deny" agree, as do "accounts" and "account".
    Coarser than `qlint.text.stem` on purpose: here a missed match hides a swap. A name written
    in camel case ("CloudTrail", "DynamoDB") is kept whole, so "cloud" does not match it; pass
    tokens with their case for that."""
    if _CAMEL.search(word):
        return word.lower()
    w = word.lower()
    if "-" in w or any(c.isdigit() for c in w):
        return w  # "multi-model" / "multi-container", "Cloud9" / "cloud": names differ past five letters
    if w.endswith("ies") and len(w) > 4:
        w = w[:-3] + "y"
    for suf in ("ing", "ed", "es", "s"):
        if w.endswith(suf) and len(w) - len(suf) >= 3:
            w = w[: -len(suf)]
            if suf in ("ing", "ed") and len(w) > 3 and w[-1] == w[-2] and w[-1] not in "aeiouls":
                w = w[:-1]  # "stopping", "stopped" -> "stop"
            break
    else:
        if w.endswith("e") and len(w) > 3:
            w = w[:-1]  # "store" as "stores", "storing" and "stored": "stor"
    return w[:_PREFIX]


stem = WordMemo(_stem).__getitem__  # dict-cached: the rules stem ~100 tokens a question

# ---------------------------------------------------------------------------------------------
# words of an option

_NAME_MIN = 2  # "S3", "EC2": short names are the most distinctive words of an option


# Verdict words say nothing about which option a text is about ("Correct: recall is ...").
_VERDICT = frozenset("correct incorrect right wrong true false best answer choice".split())
_SKIP = STOPWORDS | _VERDICT


def _token_words(t: str) -> tuple[str, ...]:
    """The stemmed words one token gives `option_words`."""
    t = t.strip("-'")
    # "up-front" is also "upfront", "pre-trained" "pretrained": writers spell them both ways
    parts = (t, t.replace("-", ""), *filter(None, t.split("-"))) if "-" in t else (t,)
    return tuple(stem(p) for p in parts if len(p) >= _NAME_MIN and p.lower() not in _SKIP)


_token_memo = WordMemo(_token_words)  # a bank's tokens repeat: each is read once


@per_text
def option_words(text: str) -> frozenset[str]:
    """Stemmed content words of an option's text, names of two characters included (tokens
    keep their case so that camel-case names stay whole)."""
    plain = view(text).plain
    if "’" in plain:
        plain = plain.replace("’", "'")
    # one pass in C: this runs on every option, stem and rationale
    return frozenset(chain.from_iterable(map(_token_memo.__getitem__, _WORD.findall(plain))))


@per_question
def words_of(q: Question) -> tuple[frozenset[str], ...]:
    """Per option, its words less the stem's: a word the stem uses ("AWS", "cost") is the
    question's context, not what tells one option from another."""
    stem_words = option_words(q.stem)
    return tuple(option_words(o.text) - stem_words for o in q.options)


@per_question
def distinctive(q: Question) -> tuple[frozenset[str], ...]:
    """Per option, its words that no other option's text has."""
    words = words_of(q)
    out = []
    for i, w in enumerate(words):
        others: set[str] = set()
        for j, v in enumerate(words):
            if j != i:
                others |= v
        out.append(frozenset(w - others))
    return tuple(out)


# Words after these, up to a clause break, are a comparison with something else.
_CONTRAST = frozenset("unlike than instead whereas versus vs opposed compared contrast not no never without nor "
                      "cannot neither".split())
_CONTRAST_SPAN = 6
_BREAKS = frozenset(",;:.!?()")
_SCOPED = re.compile(r"[A-Za-z0-9][A-Za-z0-9'\-]*|[,;:.!?()]")


def _scoped_token(r: str) -> tuple[tuple[str, ...], bool]:
    """(the stemmed keys one token gives `_scoped_tokens`, whether it opens a contrast scope)."""
    cased = r.strip("-'")
    keys = (stem(cased), *map(stem, filter(None, cased.split("-")))) if "-" in cased else (stem(cased),)
    low = cased.lower()
    return keys, low in _CONTRAST or low.endswith("n't")


_scoped_memo = WordMemo(_scoped_token)  # a bank's tokens repeat: each is read once


@per_text
def _scoped_tokens(text: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(all stemmed tokens, stemmed tokens outside contrast and negation scopes)."""
    plain = view(text).plain
    if "’" in plain:
        plain = plain.replace("’", "'")
    every: list[str] = []
    free: list[str] = []
    left = 0
    memo, breaks = _scoped_memo, _BREAKS  # locals: one pass per token of every text
    for r in _SCOPED.findall(plain):
        if r in breaks:
            left = 0
            continue
        keys, opens = memo[r]
        every += keys
        if opens:
            left = _CONTRAST_SPAN
        elif left:
            left -= 1
        else:
            free += keys
    return tuple(every), tuple(free)


def mentions(text: str, words: frozenset[str], free_only: bool = False) -> int:
    """How many of `words` occur in `text` (outside contrast scopes if `free_only`)."""
    every, free = _scoped_tokens(text)
    return len(words.intersection(free if free_only else every))


def pair_words(q: Question, i: int, j: int) -> frozenset[str]:
    """Words of option i's text that option j's text (and the stem) lack. An option whose words
    the stem all uses ("Fail step" in a stem about failing) keeps its own words: else nothing
    could name it."""
    words = words_of(q)
    return (words[i] or _short_name(q, i)) - (words[j] or _short_name(q, j))


# The vendor prefix every AWS option carries names none of them.
VENDOR = frozenset({"amazon", "aws"})
VENDOR_STEMS = frozenset(stem(w) for w in VENDOR)


def _short_name(q: Question, i: int) -> frozenset[str]:
    """The words of a short option ("Fail step", "Hyperband strategy"; three words at most,
    vendor left out) whose words the stem all uses; empty for a longer one, whose words the
    stem's context explains ("There are no service limits on AWS")."""
    words = option_words(q.options[i].text) - VENDOR_STEMS
    return words if len(words) <= 3 else frozenset()


def prefers(q: Question, text: str, i: int, j: int) -> bool:
    """True if `text`, written for option i, is clearly about option j instead: it names more of
    j's words that i lacks (outside contrasts) than of i's words that j lacks (anywhere), and
    at least two of them or all."""
    own, other = pair_words(q, i, j), pair_words(q, j, i)
    if not own or not other:
        return False  # one option's words contain the other's: no word can tell them apart
    b = mentions(text, other, free_only=True)
    # one shared word is weak evidence ("parallel tuning jobs" beside "Data parallelism"):
    # ask for two of the other option's words, or all of them
    if not (b > mentions(text, own) and (b >= 2 or b == len(other))):
        return False
    # a rationale that opens by naming its own option is about it, whatever it compares later
    return not own.intersection(_opening(text))


_OPENING = 10  # tokens: where a rationale names its subject
_OPENING_CLAUSE = 16  # free tokens of the first clause (a subject after a fronted phrase)


@per_text
def _opening(text: str) -> frozenset[str]:
    """The words where a rationale names its subject: its first ten word keys, or its whole
    first clause outside contrasts ("For steady-state workloads over three years, Reserved
    Instances offer ... compared to On-Demand" names Reserved, not On-Demand)."""
    every, _free = _scoped_tokens(text)
    first = clauses(text)[:1]
    _all, free = _scoped_tokens(first[0]) if first else ((), ())
    return frozenset(every[:_OPENING]) | frozenset(free[:_OPENING_CLAUSE])


# ---------------------------------------------------------------------------------------------
# stance

_BURDEN = ("requir|need|manag|maintain|provision|pay|incur|worry|have to|has to|own|buy|purchas|upfront|up-front"
           "|additional|extra|hidden|long-term|minimum|commitment|server|infrastructure|downtime|chang|code"
           "|lock|limit|patch|capacity planning|charge|cost|fee")
_NEG = (r"(?:does|do|did|is|are|was|were|can|could|will|would|should|has|have|may|might)\s+not"
        r"|doesn't|don't|didn't|isn't|aren't|wasn't|weren't|can't|cannot|won't|wouldn't|shouldn't|couldn't"
        r"|never|(?:has|have|had|offers?|provides?|gives?|plays?) no")
_NEG_TAIL = r"(?!\s+(?:only|just|merely|always|necessarily|solely|so)\b)"
_VERDICTS = (r"|\b(?:is|are) (?:a|an|the|only|just|merely)\b[^,;:]{0,80}? rather than\b"
             r"|\b(?:is|are) (?:the )?opposite of\b|\b(?:is|are) false\b"
             r"|\b(?:incorrect|inaccurate|untrue|wrong|unsuitable|inappropriate|unrelated|irrelevant|insufficient|inadequate"
             r"|not (?:the )?(?:correct|right|best|appropriate|suitable|ideal|answer|solution|designed|intended"
             r"|meant|relevant|related|responsible|capable|a|an))\b")
REFUTE = re.compile(rf"\b(?:{_NEG})\b{_NEG_TAIL}(?!\s+(?:\w+\s+)?(?:{_BURDEN}))" + _VERDICTS, re.I)
CLAIM = re.compile(
    r"\b(?:is|are|be) (?:the |a |an )?(?:correct|right|best|only correct)"
    r"(?: (?:answer|choice|option|approach|solution|service|tool|way))?\b"
    r"|^(?:correct|right)\b|\bmeets (?:the|all|every) requirements?\b", re.I)
# A claim in these frames describes another scenario, not this question.
_CONDITIONAL = re.compile(r"\b(?:would|could|might|may|will)(?: (?:also|still|instead|then))? be\b", re.I)
_SCENARIO = re.compile(r"^ ?(?:when|if|where|whenever|once|unless)\b", re.I)
_PRONOUN_SUBJECT = frozenset("it this that these they this option the option choice answer correct right".split())
_SENTENCE = re.compile(r"(?<=[.!?;])\s+|\n\s*\n")
_SUBJECT_WINDOW = 12  # tokens from the clause start within which the option must be named


@per_text
def clauses(text: str) -> tuple[str, ...]:
    """Sentences and semicolon clauses, markup removed, one space between words. Words keep their
    case (camel-case names stay whole); the patterns that read them ignore case."""
    parts = _SENTENCE.split(view(text).plain.strip())
    return tuple(" ".join(re.findall(r"[A-Za-z0-9][A-Za-z0-9'’\-]*|[,:]", p.replace("’", "'"))) for p in parts
                 if p.strip())


def _subject_is(clause_head: str, words: frozenset[str], first: frozenset[str] = _PRONOUN_SUBJECT,
                last: frozenset[str] = frozenset(("it", "this", "they"))) -> bool:
    """True if the words before a verdict name the option (or are only a pronoun / empty): a
    `first` word opening them, a `last` word ending them."""
    toks, opening, closing, head = _head_words(clause_head)
    if not toks:
        return True
    if opening in first or closing in last:
        return True
    return not head.isdisjoint(words)


@per_text
def _head_words(clause_head: str) -> tuple[tuple[str, ...], str, str, frozenset[str]]:
    """A clause head's tokens, first and last word (lower case) and the stems of its first
    `_SUBJECT_WINDOW` tokens: read once per head, whichever option it is tested against."""
    toks = tuple(t for t in clause_head.split() if t not in (",", ":"))
    if not toks:
        return toks, "", "", frozenset()
    return toks, toks[0].lower(), toks[-1].lower(), frozenset(stem(t) for t in toks[:_SUBJECT_WINDOW])


# Where the clause holding a negation starts. A subordinate clause ("where a single GPU cannot
# hold the model", "which does not ...") describes something else: its negation is not a verdict.
_COORD = re.compile(r",|\b(?:and|but|while|although|though|yet)\b", re.I)
_SUBORD = re.compile(r"^\s*(?:where|which|who|whom|whose|that|because|since|when|if|unless|so|as|whereas"
                     r"|even|until|once|whether)\b", re.I)


_SUBORD_IN = re.compile(r"\b(?:so that|that|which|where|who|whose|because|since|unless|until|whether|once)\b", re.I)


def _clause_head(sentence: str, at: int) -> str | None:
    """The words between the start of the clause holding position `at` and `at`: the sentence
    start when the clause has no subject of its own ("X ..., and does not ..."); None when the
    clause is subordinate."""
    before = sentence[:at]
    cuts = [m.end() for m in _COORD.finditer(before)]
    segment = before[cuts[-1]:] if cuts else before
    if _SUBORD.match(segment) or _SUBORD_IN.search(segment):
        return None
    if not segment.strip() and cuts:
        first = before[: next(m.start() for m in _COORD.finditer(before))]
        return first
    return segment


# An explicit verdict against an option: no description of a feature ("no servers to manage",
# "have no permissions until granted") reads as one.
VERDICT_AGAINST = re.compile(
    r"\b(?:incorrect|wrong)\b"
    r"|\bnot (?:the |a |an )?(?:correct|right|best|valid|appropriate|suitable)(?: (?:answer|choice|option|solution))?\b"
    r"|\bnot (?:the|an?) (?:answer|solution)\b"
    r"|\b(?:does|do|did|would|will|could|can)(?: not|n't)|cannot\b", re.I)
_UNMET = re.compile(r"^\s*(?:meet|satisfy|fulfil|fulfill|address|solve)\s+(?:the|this|these|that|any|all|every)"
                    r"\b[^,;:.]{0,40}?\b(?:requirements?|need|needs|criteria|criterion|problem|goal|scenario)\b", re.I)


def rejects(text: str, words: frozenset[str]) -> str | None:
    """The verdict if a main clause whose subject is the option (or a pronoun) says explicitly
    that it is not the answer ("is incorrect", "is not the right choice", "does not meet the
    requirement", or an opening "No:" as in reasons that judge each option in turn); else None.
    Narrower than `refutes`, which also reads negated features."""
    m = OPENING_NO.match(view(text).plain)
    if m:
        return m.group(0).strip()
    for said, head in _verdicts_against(text):
        if _subject_is(head, words):
            return said
    return None


@per_text
def _verdicts_against(text: str) -> tuple[tuple[str, str], ...]:
    """`rejects`' verdicts in `text` with their clause heads, in order: the part that does not
    depend on the option, found once per text."""
    out = []
    for c in clauses(text):
        for m in VERDICT_AGAINST.finditer(c):
            said = m.group(0)
            if said.lower().startswith(("does", "do", "did", "would", "will", "could", "can")):
                tail = _UNMET.match(c[m.end():])
                if not tail:
                    continue
                said += " " + tail.group(0).strip()
            if _CONDITIONAL_NOT.search(c[m.end(): m.end() + 40]):
                continue
            head = _clause_head(c, m.start())
            if head is not None:
                out.append((said, head))
    return tuple(out)


# A reason that opens with a one-word verdict ("No: `.` is the current directory", "Yes, ...").
OPENING_NO = re.compile(r"^\W*(?:no|nope)\s*[:.,;!\-–—]", re.I)
OPENING_YES = re.compile(r"^\W*(?:yes|yep)\s*[:.,;!\-–—]", re.I)
_CONDITIONAL_NOT = re.compile(r"^[^,;:.]{0,30}\b(?:if|unless|when|without)\b", re.I)


def refutes(text: str, words: frozenset[str], strict: bool = False) -> str | None:
    """The refuting phrase if a main clause whose subject is the option (named by `words`, or a
    pronoun) negates a predicate or carries a negative verdict; else None. `strict`: only "it",
    "this", "they", "these" stand for the option ("the customer-facing application cannot ..."
    is about the application)."""
    about = _about if strict else _subject_is
    for said, head in _refutations(text):
        if about(head, words):
            return said
    return None


@per_text
def _refutations(text: str) -> tuple[tuple[str, str], ...]:
    """Each REFUTE phrase of `text` in a main clause, with its clause head, in order (found once
    per text; `refutes` asks it for every option a sentence names)."""
    out = []
    for c in clauses(text):
        for m in REFUTE.finditer(c):
            head = _clause_head(c, m.start())
            if head is not None:
                out.append((m.group(0), head))
    return tuple(out)


def claims(text: str, words: frozenset[str]) -> str | None:
    """The claim if a clause about the option asserts it is correct, outside a negation and
    outside a conditional that describes another scenario, or an opening "Yes:"; else None."""
    m = OPENING_YES.match(view(text).plain)
    if m:
        return m.group(0).strip()
    for said, head in _claimed(text):
        if _subject_is(head, words):
            return said
    return None


@per_text
def _claimed(text: str) -> tuple[tuple[str, str], ...]:
    """`claims`' assertions in `text` with their clause heads, in order, found once per text."""
    out = []
    for c in clauses(text):
        for m in CLAIM.finditer(c):
            before = c[: m.start()]
            if _CONDITIONAL.search(c[max(0, m.start() - 25): m.end()]) or _SCENARIO.match(c[m.end():]):
                continue
            if re.search(r"\b(?:not|n't|never|no|neither|nor|cannot)\b|n't\b", before[-30:], re.I):
                continue
            if _RETRACTED.search(c[m.end():]):
                continue  # "is correct but the second part is wrong": a partial verdict, not a claim
            # the subject is the clause's own ("..., but for an employee, an IAM user is the
            # correct type" claims the user, not the role the rationale is about)
            head = _clause_head(c, m.start())
            if head is not None:
                out.append((m.group(0).strip(), head))
    return tuple(out)


_RETRACTED = re.compile(r"^[^.;]*?\b(?:but|however|although|though|yet|except)\b[^.;]*?"
                        r"\b(?:wrong|incorrect|not|false|invalid|fails?)\b", re.I)


@per_question
def identity(q: Question) -> tuple[frozenset[str], ...]:
    """Per option, the words that name it: its distinctive words, or, when another option's text
    contains all of its words ("Amazon S3 Glacier" beside "Amazon S3 Glacier Deep Archive"), the
    words it shares with some but not all other options."""
    words = words_of(q)
    out = []
    for i, d in enumerate(distinctive(q)):
        if d:
            out.append(d)
            continue
        common = frozenset.intersection(*[v for j, v in enumerate(words) if j != i]) if len(words) > 1 else frozenset()
        out.append(words[i] - common)
    return tuple(out)


# ---------------------------------------------------------------------------------------------
# a rationale that denies what the question asks

_SCOPE_END = re.compile(r"[,;:]|\b(?:but|and|while|whereas|rather than|instead of)\b", re.I)
_CONSEQUENCE = re.compile(r"\b(?:so|therefore|thus|hence)\s+(?:it|this|they)\s*$", re.I)
_OUTCOME_AGAINST = re.compile(
    r"\b(?:an? anti-pattern|contradict(?:s|ing)? the (?:requirement|goal|need|principle|best practices?)"
    r"|is not a valid)\b", re.I)
NEGATION = re.compile(r"\b(?:not|no|never|without|cannot|neither|nor)\b(?<!\bno(?= matter\b))|n't\b", re.I)
_STRICT_PRONOUN = frozenset("it this they these".split())
# What a reason denies of its option, burdens included: "does not manage connections between VPCs"
# denies the asked "connection management" although "manage" is also a burden word. Beside REFUTE's
# forms, "with no capability to ..." and "offering neither ... nor ...".
_DENIAL = re.compile(rf"\b(?:{_NEG}|with no|neither)\b{_NEG_TAIL}" + _VERDICTS, re.I)
_PURPOSE = re.compile(r"\b(?:to|for|so|in order to)\b", re.I)
_BURDEN_AFTER = re.compile(rf"\s+(?:\w+\s+)?(?:{_BURDEN})", re.I)  # REFUTE's burden test
_BURDEN_WORD = re.compile(rf"^(?:{_BURDEN})", re.I)
# A clause that opens with a verb, an adverb or a participle continues the sentence's subject:
# "X is a storage service, and is not designed for ...", "..., providing neither ...".
_FINITE = re.compile(r"(?:is|are|was|were|has|have|had|does|do|did|can|could|will|would|may|might|must|should"
                     r"|offers?|provides?|gives?|remains?|stays?)", re.I)
_LOOSE = re.compile(r"(?:therefore|thus|also|still|only|[a-z]+ly|[a-z]{3,}ing)", re.I)
# "X describes Y, which is unrelated to Z": the relative clause judges what the key was said to be.
_WHICH_IS = re.compile(r"^\s*which (?:is|are)\b", re.I)
_DEFINING = re.compile(r"\b(?:is|are)\s+(?:an?|the)\b[^,;:]{0,60}?\b(?:that|which)\s*$", re.I)
_UNRELATED = re.compile(r"unrelated|irrelevant|with no|not related|has no|have no", re.I)


def _about(head: str, words: frozenset[str]) -> bool:
    """`_subject_is` with pronouns only: a head that opens with "the" is not a pronoun."""
    return _subject_is(head, words, _STRICT_PRONOUN, _STRICT_PRONOUN)


def _denial_head(sentence: str, at: int, said: str) -> str | None:
    """`_clause_head`, except that a coordinate clause with no subject of its own (it opens with a
    finite verb, or holds only adverbs and participles: "..., and is a storage service with no
    ...", "..., providing neither ...") and a "which is unrelated to ..." after the sentence's
    main clause are about the sentence's subject: the words before its first comma or
    coordinator."""
    head = _clause_head(sentence, at)
    if head is None:
        before = sentence[:at]
        cuts = [m.end() for m in _COORD.finditer(before)]
        segment = before[cuts[-1]:] if cuts else before
        defining = _DEFINING.search(segment)
        if defining:  # "X is a messaging tool that does not store code": the tool is X
            head = segment[: defining.start()]
            if head.split() and not all(_LOOSE.fullmatch(t) for t in head.split()):
                return head
        elif not (cuts and _WHICH_IS.match(segment) and _UNRELATED.match(said)):
            return None
    else:
        toks = head.split()
        if not toks or not (_FINITE.fullmatch(toks[0]) or all(_LOOSE.fullmatch(t) for t in toks)):
            return head  # "..., ensuring you are not paying ..." has a subject of its own
    first = _COORD.search(sentence)
    return sentence[: first.start()] if first else head


def _asked_words(said: frozenset[str], asked: frozenset[str], burden: bool) -> frozenset[str]:
    """The asked words a negated predicate names; a burden it negates ("does not require servers")
    is praise, so after a burden verb only asked words that are not burdens count."""
    hit = said & asked
    return frozenset(w for w in hit if not _BURDEN_WORD.match(w)) if burden else hit


def denies(text: str, words: frozenset[str], asked: frozenset[str], own: frozenset[str]) -> str | None:
    """The phrase if `text` says its option (named by `words`, or a pronoun) does not do what the
    question asks (a negated predicate whose words include one of `asked`, the lead-in's words
    that no option has: "... but does not store source code" under "Which service stores source
    code?"), or denies the option's own statement (two or more of `own`, the option's words:
    "AWS does not take care of patching" for "AWS takes care of patching"), or calls it an
    anti-pattern or a contradiction of the requirement; else None. A negated burden ("does not
    require servers") is praise: after one, only asked words that are not burdens count, and the
    option's own statement counts only when it holds the negated verb ("AWS manages the database
    type" and "AWS does not manage the database type")."""
    for event in _denials(text):
        if len(event) == 1:
            return event[0]  # an anti-pattern, a contradiction of the requirement
        said_phrase, head, consequence, subject, burden, verb, said, said_before = event
        main = head is not None and _about(head, words)
        # the option's own subject: "AWS does not take care of ..." for "AWS will take care of ..."
        own_subject = bool(subject & own) and len(subject) <= 2
        if not (main or consequence or own_subject):
            continue  # a subordinate clause describes something else ("so that a failure does not ...")
        ownhit = said & own
        if burden and verb not in {stem(w) for w in ownhit}:
            ownhit = frozenset()  # "does not need servers" under "Serverless" names no claim of the key
        if ((main or consequence) and _asked_words(said, asked, burden)) or (
                len(ownhit - said_before) >= 2 and len(said_before & own) <= 2):
            return said_phrase
    return None


@per_text
def _denials(text: str) -> tuple[tuple, ...]:
    """What `denies` reads in `text`, in order, found once per text whichever option it is asked
    about: (phrase,) for an outcome against the option, else (phrase, clause head, after "so
    it", the head's words, a negated burden, the negated verb's stem, the negated predicate's
    words, the words before the negation)."""
    out: list[tuple] = []
    for c in clauses(text):
        m = _OUTCOME_AGAINST.search(c)
        if m and _clause_head(c, m.start()) is not None:
            out.append((m.group(0),))
            return tuple(out)
        for m in _DENIAL.finditer(c):
            before = c[: m.start()]
            head = _denial_head(c, m.start(), m.group(0))
            consequence = bool(_CONSEQUENCE.search(before))
            subject = option_words(head) if head is not None else frozenset()
            tail = _SCOPE_END.split(c[m.end():], maxsplit=1)[0]
            burden = bool(_BURDEN_AFTER.match(c, m.end()))
            verb = next(iter(re.findall(r"[A-Za-z][A-Za-z'\-]*", tail)), "")
            if burden:  # "does not need servers to store it": what follows "to" is the purpose, praised
                tail = _PURPOSE.split(tail, maxsplit=1)[0]
            out.append(((m.group(0) + tail).strip(), head, consequence, subject, burden, stem(verb),
                        option_words(tail), option_words(before)))
    return tuple(out)
