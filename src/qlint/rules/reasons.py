"""Reasons that teach nothing or undermine the key: a rationale that only gives a verdict (K016), a
key its own reasoning doubts (K017), a distractor the text calls correct too (K018)."""

from __future__ import annotations

import re
from typing import Iterator

from qlint.model import Question
from qlint.prose.views import per_text, view
from qlint.rules import RULES, Finding, rule
from qlint.rules.core import rationale_flaw
from qlint.rules.leftovers import blank_code
from qlint.text import plain, sentences

_HDR = "Haladyna, Downing & Rodriguez (2002)"

# Words that carry no reason: verdicts, pointers at the option, fillers. A rationale made only of
# these (and its own option's words) says that the option is right or wrong, never why. A few
# languages' verdict sentences too ("Esta opción es incorrecta.", "Diese Antwort ist falsch.").
_VERDICT = frozenset("""
correct incorrect wrong right false true valid invalid untrue inaccurate accurate best worst
suitable unsuitable appropriate inappropriate applicable inapplicable relevant irrelevant wrongly incorrectly correctly
incorrecto incorrecta correcto correcta falso falsa erróneo errónea equivocado equivocada verdadero verdadera
faux fausse vrai vraie correct correcte incorrecte juste mauvais mauvaise bon bonne
falsch richtig korrekt inkorrekt unzutreffend zutreffend
sbagliato sbagliata errato errata corretto corretta vero vera
correto correta incorreto incorreta errado errada verdadeiro verdadeira
""".split())
_FILLER = frozenset("""
this that these those it its the a an is are was were be being been not no isn't aren't wasn't n't
option options choice choices answer answers response responses alternative alternatives selection one key
distractor statement claim solution question scenario case situation context here given asked described
listed mentioned above so therefore hence thus and also as well for in to of with which why just simply
clearly obviously definitely certainly entirely completely totally absolutely very quite really
does do doesn't don't meet meets requirement requirements apply applies fit fits
would will can could should must chosen choose selected select pick picked
esta este esto es no la el las los opción respuesta alternativa una un de en para pregunta caso
cette ce c'est n'est est pas le les réponse choix une un de dans pour cas
diese dieser dieses dies das ist nicht die der antwort auswahl eine ein hier frage fall
questa questo è non il risposta opzione scelta di per domanda
é não o resposta opção alternativa uma um em
""".split()) | _VERDICT
_NEGATION = frozenset(("not", "no", "never", "cannot", "can't", "n't", "doesn't", "don't", "isn't", "aren't",
                       "nicht", "kein", "pas", "non", "não", "nunca", "jamais"))
_POINTER = frozenset(("answer", "answers", "option", "choice", "key", "solution", "respuesta", "opción", "réponse",
                      "antwort", "risposta", "opzione", "resposta", "opção"))
_LETTER = re.compile(r"^(?:[a-j]|\d)$")  # "Option B", "(c)", "3." point at an option, they say nothing


def _key(word: str) -> str:
    """A coarse word key: 'using' and 'use', 'policies' and 'policy', 'stores' and 'store' agree."""
    w = word
    if w.endswith("ies") and len(w) > 4:
        w = w[:-3] + "y"
    else:
        for suf in ("ing", "ed", "es", "s"):
            if w.endswith(suf) and len(w) - len(suf) >= 2 and not w.endswith("ss"):
                w = w[: -len(suf)]
                break
    return w[:-1] if w.endswith("e") and len(w) > 2 else w


# Words of any script (the shared tokeniser splits "opción" at the accent); apostrophes kept.
_WORDS = re.compile(r"[^\W_]+(?:['’][^\W_]+)*")


@per_text
def _words(text: str) -> tuple[str, ...]:
    low = plain(text).lower()
    return tuple(_WORDS.findall(low.replace("’", "'") if "’" in low else low))


@per_text
def _option_words(text: str) -> frozenset[str]:
    return frozenset(map(_key, _words(text)))


def _negations(tokens: tuple[str, ...]) -> int:
    return sum(1 for t in tokens if t in _NEGATION or t.endswith("n't"))


def non_reason(rationale: str, option_text: str) -> str | None:
    """How a rationale that is long enough still gives no reason: "verdict" (it only says the option
    is right or wrong), "restates" (it only repeats its option's text), or None (it says something)."""
    own = _option_words(option_text)
    # stop at the first word of substance: almost every rationale has one among its first words
    low = plain(rationale).lower()
    for m in _WORDS.finditer(low):
        t = m.group(0).replace("’", "'")
        if t not in _FILLER and not _LETTER.match(t) and _key(t) not in own:
            return None
    tokens = _words(rationale)
    if any(t in _VERDICT or t in _POINTER for t in tokens):
        return "verdict"  # "The answer is not S3." names the verdict without the adjective
    if _negations(tokens) > _negations(_words(option_text)):
        return None  # "S3 does not store blocks" under "S3 stores blocks": a correction of the claim
    return "restates"


def _k001_min_words(ctx) -> int:
    """K001's configured minimum: what K001 already calls short, K016 leaves to it (one flaw, one finding)."""
    configured = ctx.config.rules.get("K001", {}) or ctx.config.rules.get("option-rationale", {}) or {}
    return int(configured.get("min-words", RULES.get("K001").options["min-words"].default))


@rule("K016", "verdict-only-rationale", "warning",
      source=f"Team standard (K001's: each option says why it is right or wrong here); {_HDR}")
def verdict_only_rationale(q: Question, ctx) -> Iterator[Finding]:
    """A rationale that only says the option is wrong (or right), or only repeats the option.

    ## What it does
    Reads each option's rationale that K001 accepts (present, not a placeholder, at least K001's
    `min-words` long, not a copy of another option's) and reports it when, once its own option's
    words, pointers at the option ("Option B", "this answer") and fillers are set aside, nothing
    is left but a verdict: "Amazon S3 is not the correct answer to this question.", "This option
    is incorrect here.", "Esta opción es incorrecta.", or nothing at all: a rationale that only
    repeats its option's text. A rationale that negates its option's claim ("S3 does not store
    blocks" under "S3 stores blocks") corrects it and passes. Short verdicts ("Incorrect.",
    "Not the answer.") are K001's.

    ## Why it matters
    The rationale is where a learner finds out why a tempting option fails; a verdict repeats
    what the key already told them. Such rationales pass every length check and are easy to miss
    in review because they read as sentences.

    ## Example
    ```yaml
    - id: s3
      text: Amazon S3
      correct: false
      rationale: Amazon S3 is not the correct answer to this question.
    ```

    ## Fix
    Say what in the scenario rules the option out:
    ```yaml
      rationale: Amazon S3 stores objects; it cannot be mounted as a block device by the instance.
    ```
    """
    min_words = _k001_min_words(ctx)
    seen: set[str] = set()
    for o in q.options:
        text = o.rationale
        if text is None or rationale_flaw(text, min_words):
            continue
        normal = view(text).normal
        if normal in seen:
            continue  # K001 reports the copy
        seen.add(normal)
        kind = non_reason(text, o.text)
        if kind is None or second_key_in(text):
            continue  # a verdict that calls a distractor correct too is K018's
        verdict = "right" if o.correct else "wrong"
        if kind == "verdict":
            msg = f"the rationale of option {o.id!r} only says it is {verdict}: say why it is {verdict} here"
        else:
            msg = f"the rationale of option {o.id!r} only repeats the option's text: say why it is {verdict} here"
        yield Finding(f"{o.pointer}/rationale", msg)


# ---------------------------------------------------------------------------------------------
# doubt about the key

# Doubt in the writer's own voice: doubt about the key only in a sentence about the answer or the
# item ("I think the correct answer is 4", "I think the case is poorly stated"), not an aside ("I
# think this is a nice question", "we are not sure if she is a carrier": clinical uncertainty).
_VOICE = re.compile(
    r"\bi (?:think|believe|guess|reckon)\b"  # not "we think of", "we assume", "suppose you have"
    r"|\b(?:i(?: am|'m)|we(?: are|'re)) (?:not (?:\d+ ?% |entirely |completely |totally |really |quite )?(?:sure|certain|convinced)|unsure)\b"
    r"|\bnot (?:\d+ ?% )?sure (?:if|whether|about|that|this|it)\b"
    r"|\bin my (?:humble )?opinion\b|\bimh?o\b|\bif i (?:remember|recall) correctly\b"
    r"|\b(?:creo que|no estoy segur[oa]|en mi opinión|je pense que|je crois que|pas sûr|ich glaube|ich denke|nicht sicher|penso che|credo che|non sono sicur[oa])\b",
    re.I,
)
# Doubt about the item itself, wherever it stands.
_ITEM_DOUBT = re.compile(
    r"\bsome (?:sources|references|books|textbooks|authors|experts|people|guides) (?:say|state|suggest|argue|claim|disagree|consider|give|list)\b"
    r"|\b(?:sources|references|experts|authors) (?:differ|disagree|vary)\b"
    r"|\b(?:this|the) (?:question|wording|item|stem|statement|case|clinical case) (?:is|seems|looks) (?:ambiguous|unclear|confusing|misleading"
    r"|(?:poorly|badly) (?:worded|written|stated|phrased|posed))\b"
    r"|\bopen to (?:challenge|dispute|debate)\b|\b(?:controversial|debatable|disputed|questionable|contested) question\b"
    r"|\b(?:this|the|our) (?:answer|key|keyed (?:answer|option)|official answer|marked answer) (?:is|may be|might be|seems|could be|looks) "
    r"(?:wrong|incorrect|outdated|disputed|questionable|debatable|doubtful|arguable|not (?:correct|right))\b"
    r"|\b(?:may|might|could) not be (?:the )?(?:correct|right|best|accurate|valid) (?:answer|option|choice|key)\b",
    re.I,
)
# Words that doubt only when the sentence is about the answer ("arguably the best option", not
# "arguably more readable"; "may incur costs" is caution, never doubt).
# Not "controversial": medicine calls a treatment option controversial without doubting the key.
_SOFT = re.compile(r"\b(?:arguabl[ey]|debatable|questionable|disputable|disputed|doubtful|not (?:entirely|completely|strictly|100 ?%) (?:correct|right|accurate|true))\b", re.I)
_ABOUT_ANSWER = re.compile(
    r"\b(?:answer|answers|key|correct|incorrect|right|wrong|alternative|option|choice|ambiguous|misleading|poorly|badly"
    r"|respuesta|correcta|correcto|réponse|bonne|antwort|richtig|risposta|corretta)\b", re.I)


@per_text
def doubt_in(text: str) -> str | None:
    """The first phrase of `text` that doubts the answer, outside sentences that assert a second key."""
    for s in sentences(blank_code(text)):
        if second_key_in(s):
            continue  # K018's
        found = _ITEM_DOUBT.search(s)
        if found is None and _ABOUT_ANSWER.search(s):
            found = _VOICE.search(s) or _SOFT.search(s)
        if found:
            return found.group(0)
    return None


@rule("K017", "hedged-key", "warning", preview=True, types=("single", "multiple"),
      source=f"{_HDR} H19 (only one of the choices is the right answer); NBME item-writing guide "
             "(Paniagua & Swygert 2016): one-best-answer items whose key content experts agree on")
def hedged_key(q: Question, ctx) -> Iterator[Finding]:
    """The key's own rationale or the explanation doubts the key.

    ## What it does
    Reads each keyed option's rationale and the explanation, sentence by sentence, for doubt about
    the item ("some sources say", "the question is ambiguous", "the case is poorly stated", "open
    to challenge", "this answer may be outdated", "may not be the correct answer") and, in a
    sentence about the answer or the item (it names the answer, the key, an option or alternative,
    correct or wrong, or calls the wording poor), doubt in the writer's voice ("I think", "I
    believe", "we are not sure whether", "in my opinion", "creo que") or a soft word ("arguably",
    "debatable", "questionable", "not entirely correct"): "I think the correct answer is 4" and
    "arguably the best option" doubt, "I think this is a nice question", "we are not sure if she is
    a carrier" and "arguably more readable" do not. Technical caution ("may incur costs", "can
    fail") is not doubt. A sentence that says another option is correct too is K018's.

    ## Why it matters
    An item whose writer doubts the key is an item experts may not agree on: it should go back to
    review before learners see it, and a learner who reads the doubt cannot trust the lesson.

    ## Example
    ```yaml
    explanation: I think B is the answer, but some sources say the limit is 10 GB.
    ```

    ## Fix
    Settle the key against a source and say why it is right without hedging (cite the source in
    `references`); if experts disagree, rewrite or retire the item.
    """
    for o in q.keys:
        if o.rationale:
            found = doubt_in(o.rationale)
            if found:
                yield Finding(f"{o.pointer}/rationale", f"the rationale of the key {o.id!r} doubts it ({found!r}): "
                                                        "settle the key and say why it is right")
    if q.explanation:
        found = doubt_in(q.explanation)
        if found:
            yield Finding("/explanation", f"the explanation doubts the key ({found!r}): settle the key and say why it is right")


# ---------------------------------------------------------------------------------------------
# a second key

_ALSO_CORRECT = re.compile(
    r"\b(?:is|are|was|would be|could be|might be|may be|can be|seems|appears) (?:also|equally) (?:a |the )?(?:correct|valid|right|acceptable|defensible)\b(?! (?:that|to say)\b)"
    r"|\b(?:would|could|can|might|may) also be (?:considered )?(?:a |the )?(?:correct|valid|right|acceptable|defensible)\b(?! (?:that|to say)\b)"
    r"|\b(?:also|equally) (?:a )?(?:correct|valid|right|acceptable) (?:answer|option|choice|response)\b"
    r"|\b(?:correct|valid|right|acceptable) (?:answer|option|choice)? ?(?:as well|too)\b"
    r"|\b(?:two|both|several|multiple|more than one) (?:of the )?(?:options|answers|choices) (?:are|could be|would be|may be|might be) (?:correct|valid|right|acceptable|defensible)\b"
    r"|\bmore than one (?:correct|valid|right) (?:answer|option)\b"
    r"|\b(?:también|igualmente) (?:es |sería |podría ser )?(?:correcta|correcto|válida|válido)\b"
    r"|\b(?:aussi|également) (?:correcte|juste|valable)\b|\bebenfalls (?:richtig|korrekt)\b|\banche (?:corretta|giusta)\b",
    re.I,
)
# ... unless the same sentence ranks it below the key: in a best-answer item a distractor may
# "also work, but cost more" (NBME one-best-answer items); that is not a second key.
_RANKED = re.compile(r"\b(?:but|however|though|although|yet|less|not as|not the best|not the most|except|only if|only when|if|when|unless|whereas|while)\b", re.I)


@per_text
def second_key_in(text: str) -> str | None:
    """The first phrase of `text` that calls another option correct too, unranked."""
    if not view(text).may_find(_SECOND_HINT):
        return None
    for s in sentences(blank_code(text)):
        found = _ALSO_CORRECT.search(s)
        if found and not _RANKED.search(s):
            return found.group(0)
    return None


_SECOND_HINT = re.compile(r"also|equally|as well|too\b|both|two|several|multiple|more than one")


@rule("K018", "second-key", "warning", types=("single",),
      source=f"{_HDR} H19 (only one of the choices is the right answer); NBME one-best-answer items: "
             "distractors are clearly worse than the key")
def second_key(q: Question, ctx) -> Iterator[Finding]:
    """A distractor's own rationale, or the explanation, says another option is correct too.

    ## What it does
    In a single-answer question, reads every distractor's rationale and the explanation, sentence
    by sentence, for a claim that an option is also correct: "is also correct", "would also be a
    valid answer", "correct as well", "both options are correct", "también es correcta". A
    sentence that ranks the option below the key ("would also work, but costs more", "is also
    valid when ...") describes a best-answer item and passes.

    ## Why it matters
    A single-answer item with two defensible keys marks right answers wrong; learners who chose
    the other defensible option learn that they were mistaken when they were not.

    ## Example
    ```yaml
    - id: efs
      text: Amazon EFS
      correct: false
      rationale: Amazon EFS is also a correct answer for shared file storage.
    ```

    ## Fix
    Make the distractor clearly wrong for the scenario (add the requirement it fails), key both
    as a multiple-answer item, or say in the rationale why the key is better.
    """
    for o in q.distractors:
        if o.rationale:
            found = second_key_in(o.rationale)
            if found:
                yield Finding(f"{o.pointer}/rationale", f"the rationale of distractor {o.id!r} calls it correct too "
                                                        f"({found!r}): make it clearly wrong or key it")
    if q.explanation:
        found = second_key_in(q.explanation)
        if found:
            yield Finding("/explanation", f"the explanation calls a second option correct ({found!r}): "
                                          "make the distractor clearly wrong or key it")
