"""Translation rules (L): a question in another language (`translation_of:` its source) keeps the
source's answer structure, follows the source's current meaning (`source_hash`), is translated,
keeps product names as written; and every configured language has every question."""

from __future__ import annotations

import difflib
from typing import Any, Iterator

from qlint.bank.entry import BankEntry
from qlint.bank.parity import Parity
from qlint.project.contenthash import with_case
from qlint.rules import Finding, Option, rule

_SOURCE = ("ITC Guidelines for Translating and Adapting Tests (2nd ed., 2017): item format, keys and "
           "structure kept across languages; versions tracked")


def lang_of(e: BankEntry, ctx: Any) -> str:
    """The question's language (its own `lang`, else the configured default), compared without
    case as BCP 47 tags are."""
    return (e.lang or ctx.config.lang).lower()


def _pairs(bank: Any, ctx: Any) -> Iterator[tuple[BankEntry, BankEntry | None, int]]:
    """(translation, its source or None, index) for each translation among the target files;
    the source is the question of that id outside the translation's own file."""
    memo = bank.memo("L:pairs", lambda: {e.id: e for e in bank.entries})
    for i, (e, target) in enumerate(zip(bank.entries, bank.target_flags())):
        if target and e.translation_of:
            source = memo.get(e.translation_of)
            yield e, (source if source is not None and source.path != e.path else None), i


def _parity(bank: Any, e: BankEntry) -> Parity:
    return bank.memo(f"L:parity:{e.path}", lambda: Parity.of(e.parity))


@rule("L001", "translation-link", "error", scope="bank", source=_SOURCE)
def translation_link(bank, ctx) -> Iterator[Finding]:
    """`translation_of` names no question, a translation, or a source in the same language.

    ## What it does
    For each translation (a question with `translation_of:`), checks that the id names another
    question of the bank, that the source is not itself a translation (translate from the
    source, so every language follows one text), and that the two are in different languages
    (`lang`, or the configured default).

    ## Why it matters
    The parity rules compare a translation with its source: with no source, none of them can
    check that the keys and the structure match, and a chain of translations drifts a little
    further at each step.

    ## Example
    ```yaml
    lang: es
    translation_of: mla-c01-dev-bayesian-tunning   # misspelt
    ```

    ## Fix
    Name the id of the question in the default language that this one translates.
    """
    ids = [e.id for e in bank.entries]
    for e, source, _ in _pairs(bank, ctx):
        if e.translation_of == e.id:
            yield Finding("/translation_of", "a question cannot translate itself", path=e.path)
        elif source is None:
            close = difflib.get_close_matches(e.translation_of, ids, n=1, cutoff=0.8)
            hint = f"; did you mean {close[0]!r}?" if close else ""
            yield Finding("/translation_of", f"no question has the id {e.translation_of!r}{hint}", path=e.path)
        elif source.translation_of:
            yield Finding("/translation_of", f"{source.id!r} is itself a translation (of "
                                             f"{source.translation_of!r}): translate from the source", path=e.path)
        elif lang_of(source, ctx) == lang_of(e, ctx):
            yield Finding("/translation_of", f"the source {source.id!r} is in the same language "
                                             f"({lang_of(e, ctx)}): set this question's lang", path=e.path)


def _structure(src: Parity, tr: Parity) -> Iterator[tuple[str, str]]:
    """(pointer in the translation, what differs from the source)."""
    a, b = src.shape, tr.shape
    for key in ("type", "choose", "case"):
        if a.get(key) != b.get(key):
            shown = repr(a.get(key)) if a.get(key) not in (None, "") else "none"
            yield f"/{key}" if b.get(key) not in (None, "") else "", f"{key} differs from the source's ({shown})"
    if a.get("type") != b.get("type"):
        return  # the parts of another type cannot be compared
    for part in ("options", "responses"):
        ida, idb = src.part_ids(part), tr.part_ids(part)
        if sorted(ida) != sorted(idb):
            missing, extra = [i for i in ida if i not in idb], [i for i in idb if i not in ida]
            yield f"/{part}", _ids_message(part, missing, extra)
    keys_a = {o[0]: o[1] for o in a.get("options", [])}
    for i, (oid, correct) in enumerate(b.get("options", [])):
        if oid in keys_a and keys_a[oid] != correct:
            yield f"/options/{i}/correct", (f"option {oid!r} is {'a key' if correct else 'a distractor'} here and "
                                            f"{'a key' if keys_a[oid] else 'a distractor'} in the source")
    steps_a, steps_b = [tuple(s) for s in a.get("steps", [])], [tuple(s) for s in b.get("steps", [])]
    if steps_a != steps_b:
        ida, idb = [s[0] for s in steps_a], [s[0] for s in steps_b]
        if sorted(ida) != sorted(idb):
            yield "/steps", _ids_message("steps", [i for i in ida if i not in idb], [i for i in idb if i not in ida])
        elif ida != idb:
            yield "/steps", f"the steps are in another order than the source's ({', '.join(ida)})"
        else:
            flags = dict(steps_a)
            for i, (sid, correct) in enumerate(steps_b):
                if flags[sid] != correct:
                    yield f"/steps/{i}/correct", f"step {sid!r} is {'keyed' if correct else 'a distractor'} here, " \
                                                 f"{'keyed' if flags[sid] else 'a distractor'} in the source"
    match_a = {p[0]: p[1] for p in a.get("prompts", [])}
    ida, idb = list(match_a), [p[0] for p in b.get("prompts", [])]
    if sorted(ida) != sorted(idb):
        yield "/prompts", _ids_message("prompts", [i for i in ida if i not in idb], [i for i in idb if i not in ida])
    for i, (pid, match) in enumerate(b.get("prompts", [])):
        if pid in match_a and match_a[pid] != match:
            yield f"/prompts/{i}/match", f"prompt {pid!r} matches {match!r} here and {match_a[pid]!r} in the source"


def _ids_message(part: str, missing: list[str], extra: list[str]) -> str:
    said = []
    if missing:
        said.append(f"lacks the source's {', '.join(map(repr, missing))}")
    if extra:
        said.append(f"has {', '.join(map(repr, extra))}, which the source has not")
    return f"the {part} {' and '.join(said)}: keep the source's ids" if said else f"the {part} differ from the source's"


@rule("L002", "translation-structure", "error", scope="bank", source=_SOURCE)
def translation_structure(bank, ctx) -> Iterator[Finding]:
    """A translation's answer structure differs from its source's.

    ## What it does
    Compares a translation with its source (`translation_of:`): the type, `choose` and case
    study, the option ids and which of them are keys, the step ids with their order and keyed
    steps, the prompt and response ids and each prompt's `match`. Options and responses may be
    listed in another order (they are shuffled at export); keyed steps may not.

    ## Why it matters
    Learners in every language sit the same item, and responses from every language are scored
    and analysed together by id: a key that differs grades one language's learners wrong, and a
    renamed option id splits its statistics.

    ## Example
    ```yaml
    translation_of: mla-c01-dev-bayesian-tuning
    options:
      - id: grid
        text: Búsqueda en cuadrícula
        correct: true        # a distractor in the source
    ```

    ## Fix
    Copy the structure from the source (ids, `correct`, `match`, step order) and translate only
    the texts.
    """
    for e, source, _ in _pairs(bank, ctx):
        if source is None or source.translation_of:
            continue
        for pointer, message in _structure(_parity(bank, source), _parity(bank, e)):
            yield Finding(pointer, f"{message} ({source.id})", path=e.path)


@rule("L003", "stale-translation", "warning", scope="bank", source=_SOURCE)
def stale_translation(bank, ctx) -> Iterator[Finding]:
    """The source changed meaning since the translation was made.

    ## What it does
    Compares the translation's `source_hash:` (the source's content hash when it was
    translated) with the source's content hash now. The content hash reads what a question
    means, not its layout (docs/review.md): re-wrapping or `qlint format` never makes a
    translation stale, a changed word of a rationale or a changed key does, and so does a
    changed scenario of the source's case study. The message gives the source's current hash.

    ## Why it matters
    A translation of the old text teaches what the source no longer says, and may key an answer
    the source no longer keys.

    ## Example
    ```yaml
    translation_of: mla-c01-dev-bayesian-tuning
    source_hash: sha256:5d1c...   # the source's rationale was reworded since
    ```

    ## Fix
    Bring the translation in line with the source (`git log -p` on the source shows what
    changed), then set `source_hash:` to the hash the message gives.
    """
    cases = bank.memo("L:cases", lambda: {c.id: c for c in reversed(bank.cases)})  # the first of an id, as B001
    for e, source, _ in _pairs(bank, ctx):
        if source is None:
            continue
        now, then = _parity(bank, source).content_hash, _parity(bank, e).source_hash
        if source.case and source.case in cases:  # a case question's hash covers its case study
            now = with_case(now, cases[source.case].content)
        if now != then:
            yield Finding("/source_hash", f"the source {source.id!r} has changed since this translation "
                                          f"(its content hash is now {now}): update the translation, then "
                                          "source_hash", path=e.path)


@rule("L004", "missing-translation", "warning", scope="bank", source=_SOURCE)
def missing_translation(bank, ctx) -> Iterator[Finding]:
    """A question of the default language has no translation into a configured language.

    ## What it does
    With `languages` configured (e.g. `languages = ["en", "es"]`), reports each question in the
    default `lang` that is not retired and that no question translates into one of the other
    languages, naming the languages missing. Without `languages`, nothing is reported.

    ## Why it matters
    An exam form assembled in each language from the bank must offer the same items: a question
    missing in one language shifts that form's blueprint coverage and its difficulty.

    ## Example
    `languages = ["en", "es"]` and `mla-c01-dev-recall-metric` has no question with
    `translation_of: mla-c01-dev-recall-metric` and `lang: es`.

    ## Fix
    Add the translation (a copy of the question with `lang`, `translation_of`, `source_hash`,
    a new id and the texts translated), or retire the question.
    """
    default = ctx.config.lang.lower()
    wanted = [lang.lower() for lang in ctx.config.languages if lang.lower() != default]
    if not wanted:
        return
    have: dict[str, set[str]] = {}
    for e in bank.entries:
        if e.translation_of:
            have.setdefault(e.translation_of, set()).add(lang_of(e, ctx))
    for e, target in zip(bank.entries, bank.target_flags()):
        if target and not e.translation_of and e.status != "retired" and lang_of(e, ctx) == default:
            missing = [lang for lang in wanted if lang not in have.get(e.id, set())]
            if missing:
                yield Finding("/id", f"no translation into {', '.join(missing)} (languages: "
                                     f"{', '.join(ctx.config.languages)})", path=e.path)


def _text_pairs(bank, ctx) -> Iterator[tuple[BankEntry, BankEntry, Any, Any]]:
    """(translation, source, its text field, the source's same field) for each field both have."""
    for e, source, _ in _pairs(bank, ctx):
        if source is None or source.translation_of:
            continue
        src, tr = _parity(bank, source), _parity(bank, e)
        for key, text in tr.texts.items():
            if key in src.texts:
                yield e, source, text, src.texts[key]


@rule("L005", "untranslated-text", "warning", scope="bank", source=_SOURCE, options={
    "min-words": Option(3, "Fewest words (besides product names, code and addresses) a text needs to be "
                           "reported: shorter texts, such as a product name as an option, stay as written.",
                        min=1, max=100),
})
def untranslated_text(bank, ctx) -> Iterator[Finding]:
    """A text of a translation is the source's text, left untranslated.

    ## What it does
    Compares each text of a translation (stem, trap, option, step, prompt and response texts,
    rationales, right_when, why_chosen, explanation) with the same field of the source, after
    removing layout (wrapping, spacing). A text equal to the source's is reported when it has at
    least `min-words` words besides product names, inline code and web addresses, so an option
    that is a product name ("Amazon S3") is not.

    ## Why it matters
    A learner of the other language meets a sentence they may not read, and the bank counts the
    question as translated.

    ## Example
    ```yaml
    lang: es
    translation_of: mla-c01-dev-bayesian-tuning
    explanation: |
      The Bayesian strategy treats tuning as a regression problem. ...
    ```

    ## Fix
    Translate the text.
    """
    least = int(ctx.option("min-words"))
    for e, source, text, original in _text_pairs(bank, ctx):
        if text.digest == original.digest and text.words >= least:
            yield Finding(text.pointer, f"the same text as the source's ({source.id}): translate it", path=e.path)


@rule("L006", "translated-name", "warning", scope="bank", source=_SOURCE + "; the vendor's trademark guidance: "
      "service names are not translated", options={
          "names": Option([], "Product and service names that stay as written in every language, besides "
                              "Amazon and AWS product names and the lifecycle catalogue's services."),
      })
def translated_name(bank, ctx) -> Iterator[Finding]:
    """A product name of the source is missing from the same text of the translation.

    ## What it does
    Finds the product names in each text of the source: vendor names ("Amazon S3", "AWS Glue"),
    the services of the lifecycle catalogue (`qlint/project/lifecycle.json` and the project's
    `<bank>/lifecycle.json`) and the configured `names`, and reports each one the same field of
    the translation does not contain as written (case-sensitive).

    ## Why it matters
    Product names are trademarks and are what learners see in the console and on the exam: a
    translated name ("Amazon Almacenamiento Simple") names no product and hides the service
    from a search.

    ## Example
    ```yaml
    stem: ... los datos en el almacenamiento simple de Amazon ...   # the source says Amazon S3
    ```

    ## Fix
    Write the name as the source does; translate only the words around it.
    """
    for e, source, text, original in _text_pairs(bank, ctx):
        for name in original.names:
            if not any(name in kept for kept in text.names):  # "Amazon S3" within "Amazon S3 Glacier"
                yield Finding(text.pointer, f"{name!r} in the source ({source.id}) is missing here: product names "
                                            "stay as written", path=e.path)
