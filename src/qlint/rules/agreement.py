"""Key agreement read option by option: the explanation anchored on the key (K004), each
rationale's stance against `correct:` (K010), each rationale about its own option (K011).

How a text is read (which option it names, whether it argues for or against it) is in
`qlint.prose.stance`; these rules only compare what it finds with the key.
"""

from __future__ import annotations

import re
from typing import Iterator

from qlint.prose.misplaced import misplaces
from qlint.prose.relevance import against, asked, claimed
from qlint.prose.shapes import CODE_OPTIONS, NO_REASONS, TRUE_FALSE, shapes
from qlint.prose.views import per_question, view
from qlint.model import ITEM_TYPES, OptionView, Question
from qlint.rules import Finding, rule
from qlint.rules.core import _is_placeholder
from qlint.rules.parsing import lead_in
from qlint.rules.stem import negative_lead_words
from qlint.text import same_text
from qlint.prose.answers import _own_abbreviations, argued, argued_for, contrasts, names_clearly, resolve, statements, tellable
from qlint.prose.names import abbreviations, expand, question_keys, text_keys
from qlint.prose.stance import _CAMEL, _scoped_tokens, NEGATION, REFUTE, VENDOR, VENDOR_STEMS, claims, denies, clauses, identity, mentions, option_words, prefers, refutes, rejects, stem

_YES_NO = re.compile(r"^\W*(?:yes|no)\b", re.I)
_SOURCE = "rules.md 'Key agreement'; NegEx (Chapman et al. 2001) negation scope; issue 12 point 3"


def _name(o: OptionView) -> str:
    text = " ".join(o.text.split())
    return text if len(text) <= 60 else text[:57] + "..."


@per_question
def negative_stem(q: Question) -> bool:
    """A NOT / EXCEPT lead-in keys the option that fails: stances are inverted, so not judged."""
    return bool(negative_lead_words(lead_in(q.stem)))


def _rationale(o: OptionView) -> str | None:
    text = o.rationale
    return text if text and text.strip() and not _is_placeholder(text) else None


@per_question
def _reading(q: Question) -> tuple[tuple[str, tuple[tuple[int, str], ...]], ...]:
    """Per explanation sentence: (sentence, ((option index, stance), ...)) for each option it
    names outside a contrast; stance is "refute", "claim" or "neutral"."""
    ident = identity(q)
    out = []
    for sent in view(q.explanation).sentences:
        named = []
        for o in q.options:
            words = ident[o.index]
            # named: two of its words, or all (one shared word such as "scale" is weak evidence)
            if words and mentions(sent, words, free_only=True) >= min(2, len(words)):
                # refuted by a pronoun or its name, or its own statement denied under the subject
                # all options share ("Amazon Rekognition does not use Mechanical Turk")
                against = refutes(sent, words, strict=True) or denies(sent, words, frozenset(), option_words(o.text))
                stance = "refute" if against else "claim" if claims(sent, words) else "neutral"
                named.append((o.index, stance))
        out.append((sent, tuple(named)))
    return tuple(out)


@rule(
    "K004", "key-agreement", "warning",
    source=_SOURCE + "; MedIWF anchoring rule",
    # Where the options carry reasons: judged 2 of 12 true on snts42 (tune draw) before the key was
    # read by its short forms and own subject, 2 findings left there after, both true. Where they
    # carry none (casimedicos, kananinirav, msahihi, aqua) explanations argue in domain terms and
    # name the key by synonyms: preview there. A warning: a reading of prose, not a fact.
    preview_on=("no-reasons",),
)
def explanation_anchor(q: Question, ctx) -> Iterator[Finding]:
    """The explanation argues for the key, sentence by sentence.

    An explanation written for another question is K012's finding.

    ## What it does
    Reads the explanation one sentence at a time. In each sentence it finds the options named
    (by words of the option's text that the other options lack; words inside "unlike ...",
    "rather than ..." or a negation do not count) and whether the sentence refutes the named
    option ("X does not ...", "X is incorrect"), claims it is correct, or only describes it.
    Explaining the key and then refuting each distractor in turn is the normal shape and passes.
    It reports, comparing options with each other rather than judging one alone:
    - an explanation whose opening sentence argues for one distractor (names two of its words, or
      all) with no word of any key, while no key is named as strongly elsewhere;
    - a key refuted wherever it is named while one distractor is argued for;
    - an explanation that names no key outside a refutation and argues for one distractor most;
    - where the options carry reasons: an opening sentence about one distractor (two of its words,
      or all, outside contrasts and not refuting it) more than about some key, while that
      distractor's own reason does not argue against it (no refutation, verdict or denial, no
      negation before its first comma) and no key's reason calls it correct. This is the moved
      key whose reasons only describe the options: the explanation still opens on the old key.
      With several keys, each of the first paragraph's first sentences (one per key) is an
      opening, since a key paragraph often gives each key a sentence;
    Camel-case names are matched whole: "cloud" does not name "CloudTrail". A key is named by
    its short forms and letter too ("Amazon Machine Image" names "AMI", "Upfront" names
    "Up-front"); a negation is a refutation only when its subject is the option or "it"/"this"
    ("the application cannot risk interruption" is about the application), or when it denies the
    option's own statement under the subject every option shares.

    A NOT / EXCEPT lead-in keys the option that fails, so the stance checks are skipped there.
    Default where the options carry reasons; preview on items without them (`no-reasons`), whose
    explanations argue in domain terms and name the key by synonyms.

    ## Why it matters
    When an option is re-keyed or an explanation is pasted from a neighbouring question, the
    explanation silently argues for the wrong answer; learners then study a contradiction.

    ## Example
    ```yaml
    options:
      - {id: data, text: Data parallelism, correct: false, ...}
      - {id: model, text: Model parallelism, correct: true, ...}
    explanation: Data parallelism is the right choice because it copies the weights to every GPU.
    ```

    ## Fix
    Re-anchor the explanation on the key (or fix `correct:` if the key moved):
    ```yaml
    explanation: Model parallelism splits the layers across GPUs, so each holds part of the weights.
    ```
    """
    keys = q.keys
    if not keys or not q.explanation.strip():
        return  # K002 reports a missing key; the schema a missing explanation
    if negative_stem(q):
        return
    found = _argues_for_distractor(q)
    if found is None:
        found = _opening_outweighs_key(q)
    if found is not None:
        key = q.keys[0]
        yield Finding("/explanation", f"the explanation argues for {_name(q.options[found])!r} (a distractor) and "
                                      f"never names the key {_name(key)!r} except to refute it")


@per_question
def _own_words(q: Question) -> tuple[frozenset[str], ...]:
    """Per option, its words that no other option has, the stem's words included: an explanation
    that says "database" names the key "Database Migration Service" even when the stem says it.
    The vendor prefix names none: "Moving to AWS ..." does not name "AWS IAM" beside "Amazon VPC"."""
    words = [option_words(o.text) - VENDOR_STEMS for o in q.options]
    ident = identity(q)
    return tuple(ident[i] | (w - frozenset().union(*(v for j, v in enumerate(words) if j != i)))
                 for i, w in enumerate(words))


def _names_key(q: Question, text: str, k: int, free_only: bool = False) -> bool:
    """`text` names key k: by its own words (outside contrasts if `free_only`), or by a short
    form, alias or letter ("Amazon Machine Image" names "AMI")."""
    return bool(mentions(text, _own_words(q)[k], free_only=free_only)) or names_clearly(q, text, k)


@per_question
def _argues_for_distractor(q: Question) -> int | None:
    """The distractor the explanation clearly argues for instead of the key, or None.

    Comparative, not absolute. Per option, its strength is the most identity words one sentence
    names outside contrasts, over the sentences that do not refute it. Reported: a distractor
    named (two identity words, or all) in the opening sentence, where an explanation states its
    answer, while that sentence has no word of any key and no key is named elsewhere as strongly;
    or, when every key is named nowhere outside a refutation, the one distractor argued for most."""
    ident = identity(q)
    is_key = {k.index for k in q.keys}
    if any(not ident[k] for k in is_key):
        return None  # a key no word tells apart: nothing to compare
    reading = _reading(q)
    strength: dict[int, int] = {}
    key_free = True  # no key word outside a sentence that refutes that key
    for sent, named in reading:
        stances = dict(named)
        for i, stance in named:
            if stance != "refute":
                strength[i] = max(strength.get(i, 0), mentions(sent, ident[i], free_only=True))
        if key_free:  # (once a key is named freely, no other sentence can change that)
            key_free = not any(stances.get(k) != "refute" and _names_key(q, sent, k, free_only=True) for k in is_key)
    key_best = max((strength.get(k, 0) for k in is_key), default=0)
    opening, lead = reading[0] if reading else ("", ())
    if not any(_names_key(q, opening, k) for k in is_key):
        lead_dis = sorted(((strength.get(i, 0), i) for i, st in lead if i not in is_key and st != "refute"),
                          reverse=True)
        if len(lead_dis) == 1 or (len(lead_dis) > 1 and lead_dis[0][0] > lead_dis[1][0]):
            n, i = lead_dis[0]
            if n > key_best:
                return i
    ranked = sorted(((n, i) for i, n in strength.items() if i not in is_key), reverse=True)
    for k in is_key:  # a key refuted wherever it is named, while a distractor is argued for
        said = [st for _s, named in reading for i, st in named if i == k]
        if key_free and said and all(st == "refute" for st in said) and ranked \
                and ranked[0][0] >= min(2, len(ident[ranked[0][1]])):
            if len(ranked) == 1 or ranked[1][0] < ranked[0][0]:
                return ranked[0][1]
    if not key_free:
        return None
    ranked = sorted(((n, i) for i, n in strength.items() if i not in is_key), reverse=True)
    if not ranked or (len(ranked) > 1 and ranked[1][0] == ranked[0][0]):
        return None  # no distractor argued for, or two equally: no single one to name
    return ranked[0][1]


_SKIPPED = frozenset({NO_REASONS, TRUE_FALSE, CODE_OPTIONS})
_MAIN_PART = re.compile(r"[,;:]")


@per_question
def _opening_outweighs_key(q: Question) -> int | None:
    """Where the options carry reasons: the distractor the explanation's opening sentence is
    about more than about some key, while that distractor's own reason does not argue against
    it. The opening sentence is where an explanation states its answer; the reasons are the
    writer's verdicts, so a distractor reason that denies its option keeps the reading out. With
    several keys, each of the first paragraph's first sentences, one per key, is an opening (a
    key paragraph often gives each key a sentence)."""
    if shapes(q) & _SKIPPED:
        return None  # no reasons to corroborate; True/False and code options have no words to weigh
    ident = identity(q)
    keys = [k.index for k in q.keys]
    reading = _reading(q)
    if not reading or any(not ident[k] for k in keys):
        return None
    if any(claimed(q, k) for k in keys):
        return None  # a key's reason says it is correct: K010/K014 read the verdicts
    first = view(q.explanation.strip().split("\n", 1)[0]).sentences if len(keys) > 1 else ()
    for opening, named in reading[:max(1, min(len(keys), len(first)))]:
        d = _outweighs(q, opening, named, keys)
        if d is not None:
            return d
    return None


def _outweighs(q: Question, opening: str, named: tuple[tuple[int, str], ...], keys: list[int]) -> int | None:
    """The distractor `opening` is about more than about some key, whose reason does not argue
    against it (see `_opening_outweighs_key`), or None."""
    ident = identity(q)
    lead = sorted(((mentions(opening, ident[i], free_only=True), i) for i, st in named
                   if i not in keys and st != "refute"), reverse=True)
    if not lead or (len(lead) > 1 and lead[0][0] == lead[1][0]):
        return None
    n, d = lead[0]
    if n < min(2, len(ident[d])):
        return None
    weakest = min(max(mentions(opening, _own_words(q)[k], free_only=True), 2 if names_clearly(q, opening, k) else 0)
                  for k in keys)
    if weakest >= n:
        return None  # every key named as strongly: a comparison, not an argument for d
    text = _rationale(q.options[d]) or ""
    if text and _reason_against(q, d, text):
        return None
    return d


def _reason_against(q: Question, i: int, text: str) -> bool:
    """Option i's reason argues against it: a refutation, a verdict, a denial of what is asked,
    "the opposite of", or a negation before its first comma ("X is not solely ...")."""
    words = identity(q)[i]
    if refutes(text, words) or rejects(text, words) or REFUTE.search(text) or against(text):
        return True
    if denies(text, words, asked(q), option_words(q.options[i].text)):
        return True
    first = clauses(text)[:1]
    return bool(first and NEGATION.search(_MAIN_PART.split(first[0])[0]))


@rule(
    "K010", "rationale-stance", "error",
    source=_SOURCE,
)
def rationale_stance(q: Question, ctx) -> Iterator[Finding]:
    """Each rationale argues the way `correct:` says: for the key, against a distractor.

    ## What it does
    Reads each rationale against its own option. It reports a key whose rationale gives an
    explicit verdict against it (a clause whose subject is the option, or "it": "is incorrect",
    "is not the right choice", "does not meet the requirement"), and a distractor whose
    rationale claims it is correct ("is the correct answer", "Correct:"). Reasons that judge
    each option in turn by a first word ("No: ...", "Yes, ...") give a verdict too, except on
    options that are themselves "Yes" or "No". A negation that
    describes a feature is not a verdict ("no servers to manage", "has no permissions until
    granted", "does not receive requests"). Conditionals that describe another scenario ("would be the correct choice when",
    "is the right choice if") are not claims. Only clear stances are judged: a rationale that
    only describes its option passes. NOT / EXCEPT lead-ins invert stances and are skipped.

    ## Why it matters
    A rationale whose verdict disagrees with `correct:` means the key moved or the rationale
    was written for another option; learners are told the opposite of the answer key.

    ## Example
    ```yaml
    - id: model
      text: Model parallelism
      correct: true
      rationale: Model parallelism does not reduce the memory each GPU needs.
    ```

    ## Fix
    Correct the key, or rewrite the rationale so it says why this option is right (or wrong) here.
    """
    if negative_stem(q):
        return
    ident = identity(q)
    for o in q.options:
        text = _rationale(o)
        if text is None:
            continue  # K001's finding
        if _YES_NO.match(o.text):
            continue  # an option "Yes" / "No": its reason's first word restates it, it is no verdict
        if o.correct:
            said = rejects(text, ident[o.index])
            if said:
                yield Finding(f"{o.pointer}/rationale", f"the key {o.id!r} has a rationale that argues against it ({said!r})")
        else:
            said = claims(text, ident[o.index])
            if said:
                yield Finding(f"{o.pointer}/rationale", f"distractor {o.id!r} has a rationale that claims it is correct ({said!r})")


@rule(
    "K019", "key-rationale-denies", "warning",
    abstains=("true-false",),
    source=_SOURCE + "; Haladyna, Downing & Rodriguez (2002), guideline 31 (plausible distractors, keyed answer defensible)",
)
def key_rationale_denies(q: Question, ctx) -> Iterator[Finding]:
    """A key's rationale says the key does not do what the question asks.

    ## What it does
    Reads each key's rationale for a negated predicate about the key (a clause whose subject is
    the key, or "it"/"this", or a consequence "so it does not ...") and reports it when the
    negated words include a word of the lead-in that no option has ("Which service stores source
    code?" and "... but does not store source code"), or a need the stem's scenario states
    ("must keep the full history": "... does not keep the full history"; not a word the stem
    itself negates, as in "must not keep copies on laptops"), or when the clause denies the key's own
    statement ("AWS does not take care of patching" for the key "AWS takes care of patching"),
    or when the rationale calls the key an anti-pattern or says it contradicts the requirement.
    A clause with no subject of its own ("..., and is a messaging tool with no capability to
    store code", "..., providing neither ...") and "which is unrelated to <what is asked>" after
    the key's own statement are read as about the key. It also reports a key's rationale that
    places the key outside what is asked with no negation (`qlint.prose.misplaced`): "is the
    opposite of" / "contradicts" a word of the stem, "rather than" two or more words of the
    lead-in ("... runs builds rather than storing the versions of the code"), "the most
    expensive" where the lead-in asks for the most cost-effective, or "is the
    customer's responsibility" where the stem gives that noun one other owner ("Which task is
    the responsibility of AWS?"), or "the claim that it ... is false". Negated burdens ("does not require
    servers", "no need to manage") are praise and pass, unless what they negate is what the
    question asks ("does not manage connections between VPCs"), as do negations in subordinate
    clauses ("so that a failure does not cascade") and explicit verdicts against the key, which
    are K010's. NOT / EXCEPT lead-ins invert stances and are skipped;
    True/False items, whose key "False" is a negation, are not judged.

    ## Why it matters
    Distractor reasons say why an option does not meet the need. When such a reason sits on the
    key, the key moved (or was never right): learners are told the keyed answer fails the
    question they were asked.

    ## Example
    ```yaml
    stem: Which AWS service stores and versions private source code?
    options:
      - id: codebuild
        text: AWS CodeBuild
        correct: true
        rationale: CodeBuild compiles and tests code, but does not store source code repositories.
    ```

    ## Fix
    Move `correct: true` to the option that meets the need, or rewrite the rationale if the key is
    right.
    """
    if negative_stem(q):
        return
    lead = option_words(lead_in(q.stem)).difference(*(option_words(o.text) for o in q.options))
    # the scenario's needs too, but not what the stem itself negates ("must not share hardware")
    needs = asked(q).intersection(_scoped_tokens(q.stem)[1])
    ident = identity(q)
    for o in q.keys:
        text = _rationale(o)
        if text is None or _YES_NO.match(o.text) or NEGATION.search(o.text):
            continue  # no reason (K001), a Yes/No option, or an option that is itself a negation
        if rejects(text, ident[o.index]):
            continue  # an explicit verdict against the key: K010's finding
        said = denies(text, ident[o.index], lead | needs, option_words(o.text))
        if said:
            yield Finding(f"{o.pointer}/rationale",
                          f"the key {o.id!r} has a rationale that says it does not do what the question asks ({said!r})")
            continue
        if claims(text, ident[o.index]):
            continue  # "Correct: ... rather than ...": the writer compares, the key stands
        said = misplaces(text, q.stem, lead_in(q.stem), asked(q), lead, option_words(o.text))
        if said:
            yield Finding(f"{o.pointer}/rationale",
                          f"the key {o.id!r} has a rationale that places it outside what the question asks ({said!r})")


@rule(
    "K011", "rationale-alignment", "warning",  # judged precision 0.90 on real text: on, below the error bar
    source=_SOURCE,
)
def rationale_alignment(q: Question, ctx) -> Iterator[Finding]:
    """Each rationale is about its own option, not another one.

    ## What it does
    For each rationale and each other option, compares the words of the rationale's own
    option that the other option lacks with the words of the other option that its own lacks.
    It reports the rationale when it names a larger share of the other option's words than of
    its own. Words inside a contrast or a negation ("unlike X", "rather than X", "not X") do not
    count for the other option, so a rationale that compares itself with another option passes,
    as does one that names its own option where it states its subject (its first clause, or a
    short form such as "Amazon S3" for "Amazon Simple Storage Service").
    Options whose words are all contained in the other's cannot be told apart and are skipped.
    A reason that argues by contrast passes: one that rejects its own option ("No: ...", or a
    refutation naming it) and then says the other option is the answer ("...; Y is right").

    ## Why it matters
    Rationales swapped between options (a paste into the wrong block, options reordered by
    hand) read fluently and pass every other check, but explain the wrong option.

    ## Example
    ```yaml
    - id: data
      text: Data parallelism
      rationale: Model parallelism places each layer on its own GPU, which fits the memory limit.
    ```

    ## Fix
    Move the rationale to the option it explains, or rewrite it about this option.
    """
    for o in q.options:
        text = _rationale(o)
        if text is None:
            continue
        opening = clauses(text)[0] if clauses(text) else ""
        if _own_abbreviations(q)[o.index] & expand(q, text_keys(opening)):
            continue  # opens by naming its own option's short form ("Amazon S3 ..." for Simple Storage Service)
        for other in q.options:
            if other.index != o.index and prefers(q, text, o.index, other.index) \
                    and not contrasts(q, text, o.index, other.index):
                yield Finding(f"{o.pointer}/rationale",
                              f"the rationale of {o.id!r} is about {_name(other)!r} rather than its own option")
                break


_FOREIGN_MIN_WORDS = 8  # a short explanation (a link, "See the docs") says too little to judge
_FOREIGN_SHARE = 1 / 12
# An explanation that shares a fifth of its words with the stem works through this question's
# own case (a clinical vignette, a scenario) even when it names the options by synonyms
_CASE_SHARE = 1 / 5


def _names_an_option(q: Question, text: str) -> bool:
    """True if `text` names some option: two of its identity words; its one identity word when
    that word is a name (capitalised past the option's first word, or the option's only word
    besides the vendor); a camel-case name in any case ("cloudwatch"); or an abbreviation
    ("SQS" for "Simple Queue Service", short forms the question defines included). One common
    word ("region", "secure") is not enough: a pasted explanation shares such words by chance."""
    ident = identity(q)
    keys = expand(q, text_keys(text))
    lower = {t.lower() for t in _ALNUM.findall(text)}
    own_abbr = _option_abbreviations(q)
    for o in q.options:
        if names_clearly(q, text, o.index):
            return True  # its own words as written (the stem's too), a short form, its letter or number
        words = ident[o.index]
        toks = _ALNUM.findall(o.text)
        if own_abbr[o.index] & keys or any(_CAMEL.search(t) and t.lower() in lower for t in toks):
            return True
        if len(words) >= 2 and mentions(text, words) >= 2:
            return True
        if words and mentions(text, words) == len(words) and _is_name(toks, words) and _written(toks, words, lower):
            return True
    return False


@per_question
def _option_abbreviations(q: Question) -> tuple[frozenset[str], ...]:
    """Per option, the short forms no other option has: "EC2" in every option names none of them."""
    every = [abbreviations(o.text) for o in q.options]
    return tuple(a.difference(*(b for j, b in enumerate(every) if j != i)) for i, a in enumerate(every))


def _written(toks: list[str], words: frozenset[str], lower: set[str]) -> bool:
    """A name's word occurs as written (or plural), not only a word of the same five letters:
    "manages" is not "Manager", "configuration" not "Config"."""
    return any(t.lower() in lower or t.lower() + "s" in lower for t in toks if stem(t) in words)


_ALNUM = re.compile(r"[A-Za-z0-9]+")


def _is_name(toks: list[str], words: frozenset[str]) -> bool:
    if len([t for t in toks if t.lower() not in VENDOR]) == 1:
        return True
    return any(stem(t) in words and (t[:1].isupper() or any(c.isdigit() for c in t)) for t in toks[1:])


@rule(
    "K012", "foreign-explanation", "warning", types=ITEM_TYPES,
    source=_SOURCE,
    # Items without per-option reasons (`no-reasons`) get only the long-paragraph reading: the
    # full reading there was judged 0 of 31 true on casimedicos-arg (clinical explanations name
    # the options by synonym or drug class), and the rule reads the shapes itself for that.
    # code and True/False options carry no words an explanation would share (judged 0 of 15 on
    # lydiahallie's code items before this declaration)
    abstains=("code-stem", "code-options", "true-false"),
)
def foreign_explanation(q: Question, ctx) -> Iterator[Finding]:
    """The explanation belongs to this question.

    ## What it does
    Reports an explanation of eight distinct content words or more that names none of the
    options and either shares under a twelfth of its words and names with the stem and the
    option texts, or holds none of the words that set one option apart from the others (when
    every option has such words: a pasted explanation from the same exam shares the domain's
    vocabulary, rarely the options'; one that shares a fifth of its words with the stem works
    through this question's own case, whatever it calls the options). An option is named by two of its distinctive words, by its one distinctive word when
    that is a name ("Artifact" in "AWS Artifact", a one-word option), by a camel-case name in any
    case ("cloudwatch"), or by an abbreviation ("SQS" for "Simple Queue Service", a short form the
    question defines as "Long Name (LN)", the vendor's initials as in "AMI"), by two of the words only
    its text has as written (or all of them) even when the stem uses them too, by a name written
    with or without its hyphen ("HER-2"), or by its letter or number ("Option 3 is correct",
    "Answer: E", "la respuesta correcta es la 4"). An explanation that shares a fifth of its words
    with the options' rationales (the stem's words aside) is the same writer's and passes: it may name the key by a
    synonym the rationales use. Items whose options carry no rationales (`no-reasons`) give no
    such evidence: there only an explanation of a paragraph or more (25 distinct content words)
    that names no option and shares under a twentieth of its words with the stem and options is
    reported; a shorter one may name the key by a synonym or a class. Code and True/False items are not read:
    their options have no words to share. The vendor prefix "Amazon" / "AWS" counts for nothing: every option has it.

    ## Why it matters
    An explanation pasted from a neighbouring question (a copy slip, a bank merged by position)
    reads fluently and passes every other check, but teaches nothing about this question.

    ## Example
    ```yaml
    stem: A transformer exceeds one GPU's memory. Which strategy splits its layers across GPUs?
    options: [Data parallelism, Model parallelism, Hyperparameter search]
    explanation: Lifecycle policies move infrequently read objects to a cheaper storage class after thirty days.
    ```

    ## Fix
    Write the explanation for this question: say why the key is right, naming it.
    ```yaml
    explanation: Model parallelism splits the layers across GPUs, so each holds part of the weights.
    ```
    """
    read = _foreign_reading(q)
    if read is None:
        return
    text, words, shared = read
    if NO_REASONS in shapes(q):
        # no reasons to tell a synonym from a paste: only a paragraph that shares almost nothing
        if _long_paste(q, text, words, shared):
            yield Finding("/explanation", _share_message(shared, len(words)))
        return
    said = _pasted(q, text, words, shared)
    if said:
        yield Finding("/explanation", said)


def _foreign_reading(q: Question) -> tuple[str, frozenset[str], int] | None:
    """(explanation, its keys, how many the stem and options share) for K012 and K021, or None
    when there is nothing to read: no explanation, too few words, or the reasons' own words."""
    text = q.explanation
    if not text.strip():
        return None
    words = text_keys(text)
    if len(words) < _FOREIGN_MIN_WORDS or _shares_the_reasons(q, words):
        return None  # the writer's own words for the options: a synonym of the key, not a paste
    return text, words, len(words & question_keys(q))


def _long_paste(q: Question, text: str, words: frozenset[str], shared: int) -> bool:
    return len(words) >= _LONG_WORDS and shared < _LONG_SHARE * len(words) and not _names_an_option(q, text)


def _share_message(shared: int, n: int) -> str:
    return (f"the explanation names none of the options and shares {shared} of its {n} words with the stem and "
            "options: was it written for another question?")


def _pasted(q: Question, text: str, words: frozenset[str], shared: int) -> str | None:
    """K012's full reading: the message, or None."""
    # the word share first: it is cheap and clears nearly every explanation
    if shared < _FOREIGN_SHARE * len(words) and not _names_an_option(q, text):
        return _share_message(shared, len(words))
    if (len(words & text_keys(q.stem)) < _CASE_SHARE * len(words) and _misses_every_option(q, words)
            and not _names_an_option(q, text)):
        return ("the explanation holds no word that sets an option apart from the others, nor any option's name: "
                "was it written for another question?")
    return None


@rule(
    "K021", "foreign-explanation-unchecked", "warning", types=ITEM_TYPES,
    source=_SOURCE + "; issue 23",
    judges=("no-reasons",), abstains=("code-stem", "code-options", "true-false"),
    preview=True,  # judged 0 of 31 true on casimedicos-arg (as K012's reading there, before this split)
)
def foreign_explanation_unchecked(q: Question, ctx) -> Iterator[Finding]:
    """The explanation belongs to this question, where no rationale can confirm it.

    ## What it does
    K012's full reading (an explanation that names no option and shares under a twelfth of its
    words with the stem and options, or holds no word that sets an option apart) on items whose
    options carry no rationales, where K012 itself reports only a long paragraph that shares
    almost nothing. Preview: without the writer's reasons a short explanation that names the key
    by a synonym, a class or a number reads the same as a paste (clinical explanations).

    ## Why it matters
    A pasted explanation teaches nothing about the question; without per-option reasons, this
    is the only hint.

    ## Example
    ```yaml
    options: [Data parallelism, Model parallelism, Hyperparameter search]
    explanation: Lifecycle policies move old objects to a cheaper storage class.
    ```

    ## Fix
    Write the explanation for this question: say why the key is right, naming it.
    """
    read = _foreign_reading(q)
    if read is None:
        return
    text, words, shared = read
    if _long_paste(q, text, words, shared):
        return  # K012's finding
    said = _pasted(q, text, words, shared)
    if said:
        yield Finding("/explanation", said)


_REASON_SHARE = 1 / 5
# Without reasons: a paragraph (25 distinct content words) that shares under a twentieth of them with
# the stem and options. An explanation that works through the question in other words (a clinical
# case argued by drug class) still reuses more of the case's words as it grows: the short ones
# with a twelfth or less were casimedicos-arg's false findings.
_LONG_WORDS = 25
_LONG_SHARE = 1 / 20


def _shares_the_reasons(q: Question, words: frozenset[str]) -> bool:
    """The explanation shares a fifth of its words with the options' rationales, the stem's words
    left out: the same writer naming the options in the same words. A paste from the same domain
    shares the domain's words (the stem's: "GPU", "memory"), rarely the reasons' own."""
    said = frozenset().union(*(text_keys(o.rationale) for o in q.options if o.rationale)) - text_keys(q.stem)
    return len(words & said) >= _REASON_SHARE * len(words)


def _misses_every_option(q: Question, words: frozenset[str]) -> bool:
    """Every option has words of its own and the explanation holds none of them. A pasted
    explanation from the same exam shares the domain's words with the stem (so the share test
    passes it) but rarely a word that tells this question's options apart. Options that differ
    only in order or in small words ("one" / "two") give nothing to test."""
    own = _own_words(q)
    if not own or not all(own) or any(w & words for w in own):
        return False
    return not any(_same_word(a, b) for w in own for a in w for b in words)


def _same_word(a: str, b: str) -> bool:
    """Two stems of one word the stemmer leaves apart ("agili" of agility, "agile"): they share
    all but the last letter of the shorter one, and at least four."""
    n = min(len(a), len(b)) - 1
    return n >= 4 and a[:n] == b[:n]


@per_question
def _twins(q: Question) -> bool:
    """Two options with the same text on screen (homoglyphs and markup aside)."""
    seen = [same_text(o.text) for o in q.options]
    return len(set(seen)) < len(seen)


def _texts(q: Question) -> Iterator[tuple[str, str, int | None]]:
    """The teaching texts that state or argue the answer: the explanation and each rationale
    (pointer, text, the rationale's option or None). `right_when`, `why_chosen` and the trap
    describe why a distractor tempts or when it would be right: a claim there is expected."""
    if q.explanation.strip():
        yield "/explanation", q.explanation, None
    for o in q.options:
        text = _rationale(o)
        if text is not None:
            yield f"{o.pointer}/rationale", text, o.index


@rule(
    "K013", "answer-names-distractor", "error",
    source=_SOURCE + "; issue 23",
)
def answer_names_distractor(q: Question, ctx) -> Iterator[Finding]:
    """The explanation or a rationale states a distractor is the answer.

    ## What it does
    Finds answer statements in the explanation and the rationales: "The correct answer is X",
    "Answer: X", "X is the best choice", "Option B is right", "The answer is 3". It resolves X to
    options by letter or number (the position in `options`), by the option's text, by the words
    only that option has, or by a short form ("RCF" for "Random Cut Forest", a "Long Name (LN)"
    alias). It reports a statement that resolves to a distractor. A statement that names no
    option, or two as strongly, is not read; nor is one that describes another scenario ("is not
    the correct answer", "would be the right choice", "is the best choice if ...", "is the best
    choice for archives", "is correct, but ..."). A distractor's rationale that calls its own
    option correct is K010's finding. Under a NOT / EXCEPT lead-in, where "X is correct" may
    mean the statement X is true, only "the answer is X" forms are read.

    ## Why it matters
    A key moved without its explanation, or an explanation edited for another version of the
    question, tells learners in so many words that a wrong option is right.

    ## Example
    ```yaml
    options:
      - {id: hyperband, text: Hyperband strategy, correct: false, ...}
      - {id: bayesian, text: Bayesian strategy, correct: true, ...}
    explanation: The correct answer is Hyperband, which stops weak jobs early.
    ```

    ## Fix
    Fix `correct:` if the key moved; otherwise rewrite the statement to name the key.
    """
    keys = {k.index for k in q.keys}
    if not keys or _twins(q):
        return  # two options the same on screen (O006): no text can tell them apart
    neg = negative_stem(q)
    for pointer, text, own in _texts(q):
        for st in statements(text):
            if neg and not st.lead:
                continue
            named = resolve(q, st.target)
            wrong = sorted(named - keys)
            if not wrong or (own is not None and named == {own}):
                continue  # the key named; or a distractor's own claim, which K010 reports
            where = "the explanation" if own is None else f"the rationale of {q.options[own].id!r}"
            yield Finding(pointer, f"{where} says the answer is {_name(q.options[wrong[0]])!r}, a distractor "
                                   f"({st.quote!r}); the key is {_name(q.keys[0])!r}", within=st.quote)
            break


@per_question
def _argued_distractor(q: Question) -> int | None:
    """The one distractor the explanation argues for while it never argues for a key, or None."""
    keys = q.keys
    if not keys or not q.explanation.strip() or negative_stem(q) or _twins(q):
        return None
    text = q.explanation
    if not all(tellable(q)[k.index] for k in keys) or any(argued_for(q, text, k.index) for k in keys):
        return None  # a key no word sets apart cannot be said to be left unnamed
    if any(resolve(q, st.target) for st in statements(text)):
        return None  # it names its answer in so many words: K013 reads that
    dis = [i for i in argued(q, text) if not q.options[i].correct]
    return dis[0] if len(dis) == 1 else None


def _corroborated(q: Question, d: int) -> str | None:
    """What in the rationales contradicts an explanation that argues for distractor d (or the
    key flag): d's own rationale refuting it or calling it correct, or a key's rationale
    claiming the key is correct."""
    own = _rationale(q.options[d])
    if own and (said := rejects(own, identity(q)[d]) or refutes(own, identity(q)[d])):
        return f"its own rationale says {said!r}"
    if own and (said := claims(own, identity(q)[d])):
        return f"its own rationale says {said!r}: was the key moved?"  # agrees with the explanation, not the flag
    for k in q.keys:
        text = _rationale(k)
        if text and (said := claims(text, identity(q)[k.index])):
            return f"the key's rationale says {said!r}"
    return None


@rule(
    "K014", "explanation-argues-distractor", "warning",
    source=_SOURCE + "; issue 23",
)
def explanation_argues_distractor(q: Question, ctx) -> Iterator[Finding]:
    """The explanation argues for a distractor that the rationales reject.

    ## What it does
    Reports an explanation that names exactly one distractor outside a refutation (its whole
    text, two of the words only it has or all of them, or a short form only it has, in the first
    words of a clause, outside negation and contrast scopes) and never argues for a key (no
    clause names a key that way without refuting it; a key is named by any word only its text
    has, the stem's included, by a short form, its letter or number), when the rationales say
    otherwise: the distractor's own rationale refutes it, or a key's rationale says the key is
    correct; or the distractor's rationale calls it correct, as after a moved key. The
    explanation then contradicts the author's own verdicts or the key flag. Without such a
    rationale the same reading is K015 (preview): on real explanations that argue by clinical or
    domain reasoning it is wrong more often than right. A key no word sets apart is skipped, as
    are NOT / EXCEPT lead-ins, two options the same on screen, and an explanation that names its
    answer in so many words (K013 reads that).

    ## Why it matters
    An explanation written for the option that used to be the key, or pasted from the
    distractor's own notes, teaches the wrong answer without ever saying "correct".

    ## Example
    ```yaml
    options:
      - {id: hyperband, text: Hyperband strategy, correct: false, rationale: It needs per-epoch metrics, which this script does not emit.}
      - {id: bayesian, text: Bayesian strategy, correct: true, rationale: Correct, it models completed results.}
    explanation: Use the Hyperband strategy, which stops weak jobs early from per-epoch metrics.
    ```

    ## Fix
    Rewrite the explanation to say why the key is right, or fix `correct:` if the key moved.
    """
    d = _argued_distractor(q)
    if d is None:
        return
    why = _corroborated(q, d)
    if why:
        yield Finding("/explanation", f"the explanation argues for {_name(q.options[d])!r} (a distractor) and never "
                                      f"names the key {_name(q.keys[0])!r}; {why}")


@rule(
    "K015", "explanation-argues-distractor-unchecked", "warning",
    source=_SOURCE + "; issue 23",
    preview=True,  # judged 2 of 28 true on real text (casimedicos 0/20): only where rationales corroborate, K014
)
def explanation_argues_distractor_unchecked(q: Question, ctx) -> Iterator[Finding]:
    """The explanation argues for a distractor, with no rationale to check it against.

    ## What it does
    K014's reading of the explanation (one distractor argued for, no key argued for) where no
    rationale contradicts it: questions without per-option rationales, or whose rationales give
    no verdict. Preview: on real banks whose explanations reason in domain terms (a clinical
    case, a paraphrased key) the reading is usually wrong.

    ## Why it matters
    An explanation written for another option teaches the wrong answer; where nothing else in
    the question says which option is right, this is the only hint.

    ## Example
    ```yaml
    options:
      - {id: hyperband, text: Hyperband strategy, correct: false}
      - {id: bayesian, text: Bayesian strategy, correct: true}
    explanation: Use the Hyperband strategy, which stops weak jobs early from per-epoch metrics.
    ```

    ## Fix
    Rewrite the explanation to say why the key is right, or fix `correct:` if the key moved.
    """
    d = _argued_distractor(q)
    if d is not None and not _corroborated(q, d):
        yield Finding("/explanation", f"the explanation argues for {_name(q.options[d])!r} (a distractor) and "
                                      f"never names the key {_name(q.keys[0])!r}")
