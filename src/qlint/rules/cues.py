"""Cue rules (C): options that give the answer away to a testwise candidate."""

from __future__ import annotations

import re
import statistics
from typing import Iterator

from qlint.prose.shapes import is_true_false
from qlint.prose.views import per_question, per_text, view
from qlint.model import OptionView, Question
from qlint.rules import Finding, Option, rule
from qlint.rules.lexicons import ACTORS, ANTONYMS, CATEGORY_NOUNS
from qlint.rules.options import near_form, regular_options
from qlint.rules.parsing import BLANK, lead_in, name_like, name_spans, name_words, stem_body
from qlint.text import STOPWORDS, plain, stem

_H = "Haladyna, Downing & Rodriguez (2002) guideline"


@per_question
def _option_chars(q: Question) -> tuple[int, ...]:
    """Each option's length in characters, Markdown and repeated spaces aside."""
    return tuple(len(" ".join(plain(o.text).split())) for o in q.options)


def _text(o: OptionView) -> str:
    return o.text.strip()


# Words that attach a qualification to an option: a clause (that, when, unless, so that), a
# purpose or manner (to, by, with, using, including, rather than) or a scope (across, within).
# Plain prepositions (of, on, at, during) are left out: "latency at any scale" is a phrase
# of the same kind the distractors are, not a condition the writer added.
_QUALIFYING = frozenset("""with without using that which who whom whose where when whenever while if unless
    until so because to by via through including such rather than depending except across within after
    before""".split())
_PARTICLE_PREP = frozenset("on in at to for with from by across within into over under after before".split())
_JOINED = re.compile(r"\band\b|,|&")


@per_text
def _words(text: str) -> int:
    return len(view(text).tokens)


def qualified(text: str) -> bool:
    """True if `text` carries a qualifying clause or phrase: a qualifying word, or a participle
    phrase after a content word ("software running on EC2", "MFA enabled on the root user")."""
    toks = view(text).tokens
    if any(t in _QUALIFYING for t in toks):
        return True
    return any(t.endswith(("ed", "ing")) and len(t) > 4 and toks[i - 1] not in STOPWORDS and toks[i + 1] in _PARTICLE_PREP
               for i, t in enumerate(toks[1:-1], 1))


def _fuller(q: Question, key: OptionView) -> bool:
    """A single-answer key that joins parts ("security groups and network ACLs") where every
    distractor is one part: the fuller answer. Values ("3 hours, 5 minutes, and 6 seconds") are not."""
    body = plain(key.text)
    return (len(q.keys) == 1 and bool(_JOINED.search(body)) and sum(t[:1].isdigit() for t in view(body).tokens) < 2
            and not any(_JOINED.search(plain(d.text)) for d in q.distractors))


# preview: opentriviaqa and casimedicos report draws 16/20 each (keys only slightly longer than a
# distractor of like length, ratios 1.27-1.42); no item shape sets those items apart
@rule("C001", "longest-key", "warning", preview=True,
      options={"ratio": Option(1.25, "How many times longer (characters) than the longest distractor the key must be.", min=1.0, max=10.0),
               "min-words": Option(4, "Keys shorter than this many words are not reported.", min=1, max=100),
               "margin": Option(1.75, "The key's length ratio in characters times its ratio in words (to the "
                                      "longest distractor) must be at least this: longer in words as well.", min=1.0, max=100.0)},
      source=f"{_H} 28d (keep options similar in length); NBME 'longest answer is correct'")
def longest_key(q: Question, ctx) -> Iterator[Finding]:
    """The key is conspicuously longer than every distractor, and its extra length is a qualification.

    ## What it does
    Reports a key whose text (characters, Markdown aside) is more than `ratio` (1.25) times the
    longest distractor's and has at least `min-words` (4) words, when the difference is
    conspicuous to a candidate:
    - longer in words as well: the key has more words than every distractor and its ratio in
      characters times its ratio in words is at least `margin` (1.75, e.g. 1.25 x 1.4). Parallel
      statements whose key is a few characters longer in as many words are not reported;
    - the extra length is a qualification the writer added: a clause or phrase ("that ...",
      "when ...", "to ...", "with ...", "by ...", "including ...", "software running on EC2"),
      or, in a single-answer item, two parts joined ("X and Y") where every distractor is one.
      Not reported: a key that is a name ("Amazon EC2 instance store", "AWS Key Management
      Service (AWS KMS)", with at most two other words), two names or a value listed ("3 hours,
      5 minutes, and 6 seconds"): their length is the thing's, not the writer's;
    - in a multiple-answer item, only when every key is longer than every distractor: when one
      key is shorter than a distractor, "pick the longest" does not find the answer; and not when
      the keys outnumber the distractors (most options are right, so guessing the longest gains
      nothing, and one or two short distractors set no norm of length).
    Names are told by shape (acronyms, mixed case, capitalised runs).

    ## Why it matters
    Item writers qualify the right answer until it is unimpeachable, so "pick the longest" is a
    classic testwise strategy; a conspicuously long key rewards it.

    ## Example
    ```yaml
    options:
      - {text: Amazon S3, correct: false}
      - {text: Amazon S3 with an S3 Lifecycle rule that moves objects to Glacier after 30 days, correct: true}
    ```

    ## Fix
    Trim the key to the deciding fact, or give the distractors the same level of detail.
    """
    ratio, min_words, margin = float(ctx.option("ratio")), int(ctx.option("min-words")), float(ctx.option("margin"))
    if len(q.keys) > len(q.distractors):
        return  # most options are right: a longest-option guess gains nothing, a lone distractor sets no norm
    chars = _option_chars(q)
    longest = max((chars[d.index] for d in q.distractors), default=0)
    if not longest or any(chars[k.index] <= longest for k in q.keys):
        return
    most_words = max(1, max(_words(d.text) for d in q.distractors))  # a distractor of symbols only has 0
    for k in q.keys:
        c_ratio, words = chars[k.index] / longest, _words(k.text)
        if c_ratio <= ratio or words < min_words or words <= most_words or c_ratio * words / most_words < margin:
            continue  # not longer by a margin a candidate sees
        if name_like(k.text, 2) or not (qualified(k.text) or _fuller(q, k)):
            continue  # the length is a name's or a list's, not a qualification
        yield Finding(f"{k.pointer}/text", f"the key is {c_ratio:.2f} times as long as the longest distractor "
                                           f"({words} words against {most_words}): testwise candidates pick the longest")


@rule("C002", "length-outlier", "info", default_enabled=False,
      options={"ratio": Option(1.75, "An option longer than ratio x median, or shorter than median / ratio, is an outlier.", min=1.0, max=10.0),
               "min-median": Option(12, "Only judge options whose median length is at least this many characters.", min=1, max=1000)},
      source="Moore, Nguyen, Chen & Stamper (2023) rubric: option length; MedIWF length-outlier detector")
def length_outlier(q: Question, ctx) -> Iterator[Finding]:
    """One option is much longer or shorter than the others (off by default).

    ## What it does
    Computes the median length of the options in characters; when it is at least `min-median`,
    reports options longer than `ratio` x median or shorter than median / `ratio`. Off by default:
    published detectors of this kind are imprecise (MedIWF: precision 0.25); C001 covers the case
    that cues the key.

    ## Why it matters
    An option that looks different draws attention whether or not it is the key.

    ## Example
    Three options of 20 characters and one of 60.

    ## Fix
    Bring the odd option in line with the others.
    """
    opts = regular_options(q)
    if len(opts) < 3:
        return
    ratio, floor = float(ctx.option("ratio")), float(ctx.option("min-median"))
    chars = _option_chars(q)
    med = statistics.median(chars[o.index] for o in opts)
    if med < floor:
        return
    for o in opts:
        n = chars[o.index]
        if n > ratio * med or n < med / ratio:
            yield Finding(f"{o.pointer}/text", f"option {_text(o)!r} is {n} characters against a median of {med:g}")


# Code items repeat the stem's identifiers in every option by design, and a maths item's key
# repeats the stem's quantities: neither is a clang association. Nor is a true/false item's
# "True" that happens to match a word of the statement ("The True Confessions of ...").
# preview: judged precision on real text below the bar after the fixes (casimedicos-arg 11/20: an
# English stemmer on Spanish, case data; opentriviaqa 16/20) (docs/rules-design.md)
@rule("C003", "word-repeat", "warning", abstains=("code-stem", "code-options", "numeric", "true-false"), preview=True,
      options={"min-length": Option(4, "Shortest word (characters) that counts as salient.", min=1, max=50),
               "min-exclusive": Option(2, "Stem words shared with the key and no distractor that always flag.", min=1, max=50),
               "statement-words": Option(12, "A key of this many words needs `min-exclusive` words of its own.", min=1, max=500),
               "case-words": Option(80, "A stem of more words is a case: its words recur in options by chance.", min=1, max=10000)},
      source=f"{_H} 28b (clang associations); MedIWF word-repeat detector; rules.md thresholds")
def word_repeat(q: Question, ctx) -> Iterator[Finding]:
    """A salient stem word reappears in the key and in no distractor (clang association).

    ## What it does
    Takes the content words of the stem (stemmed, at least `min-length` characters, stopwords
    removed; in a case vignette, a stem with 60 or more words of scenario before its question,
    only the question's words: the case's findings are data any option may cite) and, for each key, the stem words it shares. A repeated word counts only when it is
    a distinctive word of the problem, not one every option shares. Not counted:
    - words that are part of a name in both the stem and the key ("Amazon CloudFront" in the
      stem, "Amazon CloudWatch" the key): one entity named twice, not a description of the key;
    - the lead-in's wh-phrase ("Which AWS security features ...", "Which of the following
      Cloud Computing deployment models ...", up to its category noun or head) and the topic
      after "regarding" / "about": they name what every option is;
    - the noun a name qualifies in the stem ("the price paid for an EC2 instance"), unless the
      key holds it in a name; a stem name one word of which every option holds ("the AWS Cloud"
      when each option says "AWS"); the scenario's people (users, administrators, developers).
    A generic stem word that reappears in the key's product name ("storing secrets", "AWS
    Secrets Manager") still counts: the author can reword the stem. Names are told by shape
    (acronyms, mixed case, capitalised words inside a sentence). Reports the key when
    `min-exclusive` (2) or more of its shared words occur in no distractor, or when one does and
    it shares at least twice as many stem words as the best distractor, unless the key is a
    statement of `statement-words` (12) words or more. In a multiple-answer item where some key
    repeats nothing, only keys of fewer than four words (a term named after the stem word,
    "Network ACLs") are reported: a statement ("Rotate all access keys") refers back to the
    scenario rather than echoing it A stem of more than `case-words` (80) words is a case (a
    clinical vignette, a long scenario): options share its words by chance, and none is reported.

    ## Why it matters
    "Model" in the stem and only in "Model parallelism" lets a candidate match words instead of
    knowing that model parallelism splits layers.

    ## Example
    ```yaml
    stem: ... split the model layers across GPUs. Which strategy should they use?
    options: [{text: Data parallelism}, {text: Model parallelism, correct: true}]
    ```

    ## Fix
    Reword the stem (say "network", "weights"), or let distractors share the word.
    """
    n = int(ctx.option("min-length"))
    body = stem_body(q.stem)
    if _words(body) > int(ctx.option("case-words")):
        # a clinical case or long scenario: every option shares some of its words, and one it
        # shares with the key alone is chance, not an echo a candidate can match
        return
    # Every word the rule can report is a content word of both the stem and a key: when no key
    # shares one, skip the name analysis below (most of this rule's time, most questions).
    body_words = view(body).content(n)
    lead = lead_in(q.stem)
    if len(view(body).tokens) - len(view(lead).tokens) >= _VIGNETTE_WORDS:
        # a case vignette: its findings are data every option may cite; only the question's words echo
        body_words = view(lead).content(n)
    if not any(view(k.text).content(n) & body_words for k in q.keys):
        return
    # the category the lead-in asks for, and a name every option shares a word of ("the AWS
    # Cloud" when each option says "AWS"), belong to every option: neither points to the key
    stem_names = name_words(body)
    stem_words = body_words - _CATEGORY - _asked_category(body) - _shared_topic(body, q)
    dist_words = [view(d.text).content(n) for d in q.distractors]
    every_d = set().union(*dist_words) if dist_words else set()
    best_d = max((len(w & stem_words) for w in dist_words), default=0)
    heads = _name_heads(body)
    found: list[tuple[OptionView, frozenset[str]]] = []
    for k in q.keys:
        # a word both texts hold as part of a name is one entity named twice, not a cue; the noun
        # a stem's name qualifies ("an EC2 instance") is its topic, unless the key names it
        key_names = name_words(k.text)
        shared = (view(k.text).content(n) & stem_words) - (stem_names & key_names) - (heads - key_names)
        own = shared - every_d
        # one shared word in a statement of many words is ordinary vocabulary, not a salient echo
        single_ok = _words(k.text) < int(ctx.option("statement-words"))
        if len(own) >= int(ctx.option("min-exclusive")) or (own and single_ok and len(shared) >= 2 * best_d):
            found.append((k, own))
    if len(found) < len(q.keys):
        # some key repeats nothing: only a short term named after the stem word stands out
        # ("Network ACLs"); a statement ("Rotate all access keys") refers back to the scenario
        found = [(k, own) for k, own in found if _words(k.text) < _TERM_WORDS]
    for k, own in found:
        yield Finding(f"{k.pointer}/text", f"the key repeats the stem's {', '.join(repr(w) for w in sorted(own))} "
                                           "and no distractor does: candidates can match words")


_CATEGORY = frozenset(map(stem, CATEGORY_NOUNS + ACTORS))
_VIGNETTE_WORDS = 60  # words of scenario before the question that make the stem a case vignette
_TERM_WORDS = 4  # a key of fewer words is a term (a name or a noun phrase), not a statement
_ABOUT = re.compile(r"\b(?:regarding|concerning|about)\s+", re.I)
_WH = re.compile(r"\b(?:which|what)\s+(?:(?:one\s+)?of\s+the\s+following\s+)?", re.I)


@per_text
def _asked_category(body: str) -> frozenset[str]:
    """The words of the lead-in's wh-phrase ("Which AWS security features ...", "Which of the
    following Cloud Computing deployment models ..."): they name what every option is. The phrase
    runs to its first category noun, else to its first plural-looking word (the head, or the verb
    after a singular head), at most five words, never past a stopword. The words after "regarding"
    or "about" name the topic every option is on, and count the same way."""
    out: set[str] = set()
    lead = lead_in(body)
    for m in _WH.finditer(lead):
        words: list[str] = []
        for w in re.findall(r"[A-Za-z0-9][\w/&-]*", lead[m.end():])[:5]:
            low = w.lower()
            if low in STOPWORDS:
                break
            words.append(stem(low))
            if stem(low) in _CATEGORY or (low.endswith("s") and not low.endswith("ss") and not w.isupper()):
                break
        out.update(words)
    for m in _ABOUT.finditer(lead):  # "Which statement is true regarding AWS pricing?": the topic
        for w in re.findall(r"[A-Za-z0-9][\w/&-]*", lead[m.end():])[:4]:
            if w.lower() in STOPWORDS and out:
                break
            out.add(stem(w.lower()))
    return frozenset(out)


@per_text
def _name_heads(body: str) -> frozenset[str]:
    """The stemmed noun right after a name in `body` ("an EC2 instance", "AWS pricing")."""
    spans = name_spans(body)
    return frozenset(stem(low) for (_, named), (low, nxt) in zip(spans, spans[1:])
                     if named and not nxt and low not in STOPWORDS)


def _shared_topic(body: str, q: Question) -> frozenset[str]:
    """Stemmed words of each name in `body` one of whose words every option holds."""
    opts = [view(o.text).content(1) for o in q.options]
    out: set[str] = set()
    run: list[str] = []
    for low, named in (*name_spans(body), ("", False)):
        if named:
            run.append(stem(low))
        elif run:
            if any(all(w in o for o in opts) for w in run):
                out.update(run)
            run = []
    return frozenset(out)


_VOWEL_LETTERS = set("AEFHILMNORSX")  # letters whose names start with a vowel sound ("an S3 bucket")
_CONSONANT_U = ("uni", "use", "usu", "uti", "ura", "ure", "uro", "eu", "one", "once", "ubi")
_SILENT_H = ("hour", "honest", "honor", "honour", "heir")


def wants_an(word: str) -> bool:
    """True if `word` starts with a vowel sound, so it takes "an"."""
    w = word.strip("`*_\"'(")
    if not w:
        return False
    if w[0].isdigit():
        return w.startswith("8") or bool(re.match(r"1[18](?!\d)|1[18]\d{3}(?!\d)", w))
    if len(w) == 1 or (w.isupper() and len(w) <= 5) or re.match(r"^[A-Z]+\d", w):
        return w[0].upper() in _VOWEL_LETTERS
    low = w.lower()
    if low.startswith(_SILENT_H):
        return True
    return low[0] in "aeiou" and not low.startswith(_CONSONANT_U)


_SINGULAR_DET = {"a", "an", "one", "each", "every", "this", "that", "it"}
_PLURAL_DET = {"two", "three", "four", "several", "many", "multiple", "both", "these", "those", "some", "all"}
_CHUNK_END = {"of", "for", "with", "in", "on", "to", "that", "which", "by", "from", "and", "or", "at", "via"}


def is_plural(text: str) -> bool | None:
    """A rough number for an option phrase: True plural, False singular, None unknown."""
    raw = re.findall(r"[A-Za-z0-9][A-Za-z0-9'’\-]*", plain(text))
    if not raw:
        return None
    first = raw[0].lower()
    if first in _SINGULAR_DET:
        return False
    if first in _PLURAL_DET or (first.isdigit() and first != "1"):
        return True
    head = raw[0]
    for w in raw:
        if w.lower() in _CHUNK_END:
            break
        head = w
    if head.isupper() or head[:1].isdigit():
        return False
    low = head.lower()
    if len(low) > 3 and low.endswith("s") and not low.endswith(("ss", "us", "is", "ics")):
        return True
    return None  # a bare singular-looking head may be a mass noun ("Reduced expenditure"): unknown


@per_text
def _stem_tail(stem_text: str) -> str:
    """The stem's last word before a closing blank, colon or ellipsis."""
    body = stem_body(stem_text)
    if "___" in body or view(body).may_contain("blank"):  # else BLANK cannot match
        body = BLANK.sub(" ", body)
    body = body.rstrip(" \n\t*_")
    if body.endswith("?") or (body.endswith(".") and not body.endswith("..")):
        return ""  # a question or a finished sentence: nothing the options must continue
    body = body.rstrip(" .:…\n\t*_")
    # letters of any script: "sería" is one word, not "ser" + "a" (an English article)
    found = re.findall(r"[^\W\d_]+", body[-40:])
    # a capital "A" is a letter or a name ("Toothpaste A"), not the article
    return found[-1] if found and found[-1].islower() else ""


_PHRASE_WORDS = 5  # a longer option is an action or a statement, not a noun phrase with a number


def _phrase_number(text: str) -> bool | None:
    """An option's number as a noun phrase after "is"/"are": unknown for one bare word (a disease,
    a surname or a mass noun: "Measles", "Enophthalmos") and for an action or statement of more
    than `_PHRASE_WORDS` words ("Add corticosteroids to the antibiotic treatment"), which has none."""
    words = re.findall(r"[^\W_][\w'’\-]*", plain(text))
    if len(words) <= 1 or len(words) > _PHRASE_WORDS:
        return None
    return is_plural(text)


# Numbers have no grammatical number ("The probability is 3/5") and code is not English.
@rule("C004", "grammatical-cue", "warning", abstains=("numeric", "code-options"), source=f"{_H} 28c (grammatical consistency); NBME grammatical cues")
def grammatical_cue(q: Question, ctx) -> Iterator[Finding]:
    """An incomplete-statement stem ends in "a"/"an" or "is"/"are" that fits only some options.

    ## What it does
    For a stem that ends with an article or a verb (optionally followed by a blank or a colon; not
    a question or a finished sentence, and a word of any script is read whole: Spanish "sería"
    does not end in "a"):
    - "a" / "an": reports options whose first word's sound needs the other article (acronyms by
      letter name: "an S3 bucket", "a KMS key"; "a unit", "an hour");
    - "is" / "are" (or "was" / "were"): reports options whose number disagrees ("are" ... "A
      single endpoint"), in single-answer items only (in a multiple-answer item "are" is the
      number of the answer set). An option's number is known only from a determiner ("a",
      "one", "several") or a plural head; a bare singular head may be a mass noun
      ("Reduced operational expenditure"), so it fits either verb; so does a one-word option
      ("Measles") or one of more than five words (an action or a statement has no number).
    Numeric and code options are not judged: numbers and code have no grammatical number.
    Nothing is reported when no option fits: that is a typo, not a cue.

    ## Why it matters
    Candidates drop the options that do not read as a sentence with the stem, without knowing
    anything about them.

    ## Example
    ```yaml
    stem: To store features for low-latency lookups, the team should use an
    options: [{text: online store}, {text: S3 bucket}, {text: Redshift table}]
    ```

    ## Fix
    End the stem before the article ("... should use:") or write "a(n)"; make the verb agree.
    """
    tail = _stem_tail(q.stem)
    if tail not in ("a", "an", "is", "are", "was", "were"):
        return  # the stem does not end in a word the options must agree with
    opts = regular_options(q)
    first_words = {o.index: (re.findall(r"[A-Za-z0-9][A-Za-z0-9'’\-]*", plain(o.text)) or [""])[0] for o in opts}
    if tail in ("a", "an"):
        fits = {o.index: wants_an(first_words[o.index]) == (tail == "an") for o in opts}
        why = f"does not follow {tail!r}"
    elif q.choose == 1:
        plural = tail in ("are", "were")
        fits = {o.index: _phrase_number(o.text) in (None, plural) for o in opts}
        why = f"does not agree in number with {tail!r}"
    else:
        return
    if any(fits.values()) and not all(fits.values()):
        for o in opts:
            if not fits[o.index]:
                yield Finding(f"{o.pointer}/text", f"option {_text(o)!r} {why} at the end of the stem: a grammatical cue")


_COMPONENT_SPLIT = re.compile(r"\s*(?:,|\+|\band\b|&)\s*")


@per_text
def components(text: str) -> tuple[tuple[str, ...], ...]:
    body = " ".join(plain(text).split())  # `\s*` on a long run of spaces is quadratic; tokens ignore spacing
    # without a separator the split returns the text whole: skip the pattern, tried at every position
    parts = _COMPONENT_SPLIT.split(body) if any(c in body for c in (",", "+", "&", "and")) else [body]
    return tuple(f for f in (near_form(p) for p in parts) if f)


# Code items: the options are outputs fixed by the code (orderings, value lists), so shared parts
# are not a convergence cue (lydiahallie report draw 0/6, docs/accuracy-notes.md).
@rule("C005", "convergence", "warning", abstains=("code-options",),
      options={"share": Option(0.5, "Share of distractors in which each key component must appear.", min=0.0, max=1.0)},
      source="NBME item-writing guide (convergence strategy); rules.md cue rules")
def convergence(q: Question, ctx) -> Iterator[Finding]:
    """The key is assembled from the components that recur most across the options.

    ## What it does
    Splits each option into components on commas, "and", "&" and "+". Reports a key
    with two or more components each of which appears in at least `share` (half) of the
    distractors, when those distractors are combinations too. Ordering items, whose options
    are all permutations of the same parts ("Envision, Align, Launch, Scale"), are skipped.

    ## Why it matters
    Writers build distractors by varying one part of the key at a time, so the answer is the
    option that shares the most parts with the others: candidates converge on it.

    ## Example
    ```yaml
    options:
      - {text: Versioning and MFA delete, correct: true}
      - {text: Versioning and public access}
      - {text: Replication and MFA delete}
      - {text: Versioning and MFA delete and replication}
    ```

    ## Fix
    Vary components independently across distractors so that no option is their centre.
    """
    share = float(ctx.option("share"))
    dparts = [set(components(d.text)) for d in q.distractors]
    combos = [p for p in dparts if len(p) >= 2]
    if len(combos) < 2:
        return
    for k in q.keys:
        kparts = components(k.text)
        if len(kparts) < 2 or all(p == set(kparts) for p in dparts):
            continue  # an ordering item: every option holds the same parts
        if all(sum(1 for p in dparts if c in p) >= share * len(dparts) for c in kparts):
            yield Finding(f"{k.pointer}/text", "every part of the key recurs in most distractors: "
                                               "candidates can converge on it without knowing the content")


_NEG = {"not", "no", "never"}


def _unnegated(toks: list[str]) -> tuple[list[str], int]:
    out, negs = [], 0
    for t in toks:
        if t in _NEG:
            negs += 1
            if out and out[-1] in ("do", "does", "did"):
                out.pop()  # "do not encrypt" opposes "encrypt"
        elif t == "cannot":
            out.append("can")
            negs += 1
        elif t.endswith("n't"):
            base = {"won't": "will", "can't": "can"}.get(t, t[:-3])
            if base not in ("do", "does", "did"):
                out.append(base)
            negs += 1
        else:
            out.append(t)
    return out, negs


_OPPOSITE = {frozenset((stem(a), stem(b))) for a, b in ANTONYMS}


@per_text
def _polarity(text: str) -> tuple[tuple[str, ...], int]:
    """The stemmed words of `text` with negations taken out, and how many there were."""
    toks, negs = _unnegated(view(text).tokens)
    return tuple(stem(t) for t in toks), negs


def opposite(a: str, b: str) -> bool:
    """True if two option texts differ only by a negation or by one antonym pair."""
    return _opposite(_polarity(a), _polarity(b))


def _opposite(pa: tuple[tuple[str, ...], int], pb: tuple[tuple[str, ...], int]) -> bool:
    (ta, na), (tb, nb) = pa, pb
    if ta == tb:
        return na != nb
    if len(ta) != len(tb) or na != nb:
        return False
    diff = [(x, y) for x, y in zip(ta, tb) if x != y]
    return len(diff) == 1 and frozenset(diff[0]) in _OPPOSITE


# True/False (Yes/No) is opposite by design: the item's format, not a cue.
@rule("C006", "opposite-pair", "info", abstains=("true-false",), source=f"{_H} 28e (avoid pairs of opposite options); rules.md cue rules")
def opposite_pair(q: Question, ctx) -> Iterator[Finding]:
    """Exactly two options are opposites of each other and one of them is the key.

    ## What it does
    Finds pairs of options that differ only by a negation ("is encrypted" / "is not encrypted")
    or by one antonym ("Increase the batch size" / "Decrease the batch size"). Reports when
    there is exactly one such pair and it holds a key.

    ## Why it matters
    Candidates reason that one of two opposites must be right and ignore the other options,
    which halves the item's difficulty.

    ## Example
    ```yaml
    options:
      - {text: Increase the learning rate, correct: true}
      - {text: Decrease the learning rate}
      - {text: Add more training data}
    ```

    ## Fix
    Replace one of the pair with an independent distractor, or make every option part of a
    parallel set (increase/decrease for two different parameters).
    """
    opts = q.options
    pol = [_polarity(o.text) for o in opts]
    # a True/False (Yes/No) pair among other options is the value asked for ("What does `x == y`
    # print?", "True or False: ..." with fillers), not two rival claims
    pairs = [(a, opts[j]) for i, a in enumerate(opts) for j in range(i + 1, len(opts))
             if _opposite(pol[i], pol[j]) and not is_true_false((a.text, opts[j].text))]
    if len(pairs) == 1:
        a, b = pairs[0]
        if a.correct != b.correct:
            key = a if a.correct else b
            other = b if a.correct else a
            yield Finding(f"{key.pointer}/text", f"the key and {_text(other)!r} are opposites: candidates narrow the choice to the pair")
