"""Word lists shared by the item-writing rules, in one place so a rule's option can override them.

Each list cites where its words come from; rules take a copy as their option default, so a
team can replace one list in `[tool.qlint.rules.CODE]` without touching the others.
"""

from __future__ import annotations

# Negation words that make a lead-in ask for the excluded option (H17; NBME "negatively phrased").
# `n't` contractions are matched separately. LEAST counts only before a quality word (below).
NEGATIVE_LEAD = ("not", "cannot", "never", "except", "false", "incorrect", "untrue", "wrong")

# LEAST asks for the worst option only before one of these; "LEAST operational overhead/cost/
# effort/latency/privilege" is an AWS optimisation criterion, not a negation.
LEAST_QUALITY = ("likely", "appropriate", "suitable", "correct", "accurate", "true", "valid", "effective",
                 "useful", "helpful", "relevant", "important", "applicable", "beneficial", "reasonable")

# Words that start a subordinate or purpose clause: a negation after them describes the scenario
# ("so that data does not leave the VPC"), it does not ask for the excluded option. The scan for a
# negative lead-in starts at the wh-word and stops at the first of these.
CLAUSE_BREAKS = ("so", "that", "to", "ensure", "ensures", "sure", "prevent", "avoid", "without", "unless", "if",
                 "when", "whenever", "while", "because", "although", "though", "after", "before", "until",
                 "once", "whether", "even", "where")

# Any negation, for counting double negatives (NBME).
NEGATIONS = ("not", "no", "never", "none", "nothing", "neither", "nor", "cannot", "except", "false",
             "incorrect", "untrue")

# Phrases in which a negation word does not negate.
NEGATION_IDIOMS = ("not only", "not just", "or not", "whether or not", "if not", "at least", "no later than",
                   "no more than", "no fewer than", "no less than",
                   # a purpose clause's negation is the purpose's ("What should one do in order not to ...?")
                   "in order not to", "so as not to",
                   # "True or False: ..." names a true/false item's answer format, whatever its options
                   "true or false")

# Specific determiners (H28a): absolute words that testwise candidates learn to avoid.
ABSOLUTE_TERMS = ("always", "never", "all", "every", "none", "only", "completely", "entirely", "totally",
                  "absolutely", "guarantee", "guarantees", "guaranteed", "invariably", "impossible", "certainly")
ABSOLUTE_IDIOMS = ("not only", "only if", "only when", "if only", "read-only", "write-only", "all-in-one",
                   "all of the above", "at all times")
# The quantifiers among them: they are absolute only when they scope a claim ("All services are
# global", "Glacier only accepts ..."), not the object of an action ("Delete all users") or a name.
SCOPED_ABSOLUTES = ("all", "every", "only", "none")
# Finite verbs that mark an option as a statement (a claim) rather than an action or a name.
FINITE_AUXILIARIES = ("is", "are", "was", "were", "can", "cannot", "can't", "could", "will", "won't", "would",
                      "shall", "should", "must", "may", "might", "does", "doesn't", "do", "don't", "did",
                      "didn't", "has", "have", "had", "isn't", "aren't", "wasn't", "weren't")
SUBJECT_PRONOUNS = ("it", "they", "you", "we", "he", "she", "there", "this", "these", "those")
# Words after which a finite verb belongs to a restrictive clause inside a noun phrase
# ("users that have access"), not to the option's own statement.
RESTRICTIVE = ("that", "who", "whom", "whose", "to")
# Conjunctions that open a subordinate clause: a verb after them is the condition's, not the option's.
SUBORDINATORS = ("until", "if", "when", "whenever", "unless", "since", "after", "before", "because", "while",
                 "once", "so")

# Vague frequency and hedging terms (NBME): candidates read them differently.
VAGUE_TERMS = ("usually", "often", "sometimes", "rarely", "seldom", "frequently", "occasionally",
               "generally", "typically", "commonly", "may", "might", "in most cases", "in some cases")

# Words that make a vague term concrete ("often, when the batch exceeds 1 GB").
CONCRETE_MARKERS = ("when", "if", "unless", "after", "before", "within", "whenever", "once")

# Opposite pairs for the opposite-option cue (H28e); negation insertion is detected separately.
ANTONYMS = (
    ("increase", "decrease"), ("increase", "reduce"), ("enable", "disable"), ("add", "remove"),
    ("allow", "deny"), ("higher", "lower"), ("more", "less"), ("more", "fewer"), ("larger", "smaller"),
    ("true", "false"), ("before", "after"), ("synchronous", "asynchronous"), ("public", "private"),
    ("online", "offline"), ("raise", "lower"), ("encrypt", "decrypt"), ("start", "stop"),
    ("include", "exclude"), ("maximum", "minimum"), ("maximize", "minimize"),
)

# Wh-words and imperative verbs that make a last sentence a question or a task (H15).
WH_WORDS = ("which", "what", "how", "why", "where", "when", "who", "whom", "whose")
TASK_VERBS = ("choose", "select", "identify", "determine", "name", "calculate", "compute", "estimate",
              "recommend", "pick", "complete", "find", "list", "specify", "indicate", "match", "order",
              "rank", "describe", "give", "state", "mark", "tick")

# Superlatives whose criterion the explanation should restate (rules.md key agreement 7).
SUPERLATIVES = ("most", "least")
# Words between the superlative and its criterion that carry no meaning of their own.
CRITERION_FILLER = ("amount", "amounts", "of", "the", "a", "an", "number", "possible", "way", "ways",
                    "solution", "approach", "option", "options", "method", "choice", "level", "degree")
# Words that restate a cost criterion ("MOST cost-effective") in other terms: an explanation that
# says "lowest price" or "deepest discount" has restated it.
COST_WORDS = ("cost", "costs", "cheap", "cheaper", "cheapest", "price", "prices", "pricing", "priced", "discount",
              "discounts", "saving", "savings", "save", "saves", "expensive", "inexpensive", "economical")
# Criteria that name the kind of answer, not a property to optimise ("MOST likely", "MOST
# appropriate", "BEST describes"): there is nothing for an explanation to restate.
EMPTY_CRITERIA = LEAST_QUALITY + ("accurately", "commonly", "common", "closely", "likely", "significant",
                                  "significantly", "important", "importantly", "probable", "probably", "typical",
                                  "typically", "often", "frequently", "correctly", "appropriately", "benefit",
                                  "beneficial", "advantage", "advantageous", "directly", "specific", "specifically",
                                  # clinical and general lead-ins ("the most indicated examination",
                                  # "the most frequent cause", "the most advisable approach")
                                  "indicated", "frequent", "advisable", "accepted", "acceptable", "coherent",
                                  "recommended", "adequate", "preferred", "plausible", "consistent", "logical",
                                  "usual", "prudent", "characteristic", "representative", "sensitive",
                                  "immediate")
# Families of words that restate one criterion in other terms: an explanation that says "free"
# has restated "LEAST expensive"; "fully managed" or "serverless" restates "LEAST operational
# overhead". A criterion with a word of a family is restated by any word of that family.
CRITERION_FAMILIES = (
    COST_WORDS + ("free", "charge", "charges", "charged", "pay", "paid", "billed", "billing", "money", "budget",
                  "cost-effective", "affordable", "spend", "spending"),
    ("overhead", "effort", "operational", "administrative", "administration", "maintenance", "manage", "managed",
     "management", "serverless", "automatic", "automatically", "automated", "automate", "manual", "manually",
     "simple", "simplest", "simpler", "simplicity", "easy", "easiest", "easier", "complexity", "complex"),
    ("latency", "fast", "faster", "fastest", "quick", "quickly", "quicker", "speed", "performance", "performant",
     "milliseconds", "throughput", "responsive", "slow"),
    ("available", "availability", "resilient", "resilience", "fault", "tolerant", "tolerance", "redundant",
     "redundancy", "failover", "durable", "durability", "downtime", "reliable", "reliability", "outage"),
    ("secure", "security", "securely", "encrypt", "encrypted", "encryption", "protect", "protection", "privilege",
     "permissions", "access", "attack", "compliance", "compliant"),
    ("scalable", "scalability", "scale", "scales", "scaling", "elastic", "elasticity", "grow", "growth"),
    ("time", "quickly", "fast", "faster", "soon", "sooner", "minutes", "hours", "immediately", "immediate"),
)
# Category nouns a lead-in asks for ("Which AWS service ...?"): every option is one, so the word
# in one option's name ("Key Management Service") is no clang cue.
CATEGORY_NOUNS = ("service", "services", "feature", "features", "tool", "tools", "solution", "solutions", "product",
                  "products", "capability", "capabilities", "resource", "resources", "component", "components",
                  "option", "options", "method", "methods", "approach", "approaches", "offering", "offerings",
                  "measure", "measures", "mechanism", "mechanisms")
# The people a scenario is about ("allow users to", "do customers inherit"): an option that names
# them again is about who acts, and matching the word does not point to the key.
ACTORS = ("user", "users", "administrator", "administrators", "developer", "developers",
          "engineer", "engineers", "employee", "employees")
CRITERION_STOP = ("to", "for", "while", "and", "or", "that", "which", "when", "if", "in", "on", "with")

# Unit words for numeric options: canonical unit and factor within a dimension.
UNITS = {
    "ms": ("time", 0.001), "millisecond": ("time", 0.001), "milliseconds": ("time", 0.001),
    "s": ("time", 1), "sec": ("time", 1), "secs": ("time", 1), "second": ("time", 1), "seconds": ("time", 1),
    "min": ("time", 60), "mins": ("time", 60), "minute": ("time", 60), "minutes": ("time", 60),
    "h": ("time", 3600), "hr": ("time", 3600), "hrs": ("time", 3600), "hour": ("time", 3600), "hours": ("time", 3600),
    "day": ("time", 86400), "days": ("time", 86400), "week": ("time", 604800), "weeks": ("time", 604800),
    "b": ("data", 1), "byte": ("data", 1), "bytes": ("data", 1),
    "kb": ("data", 1e3), "mb": ("data", 1e6), "gb": ("data", 1e9), "tb": ("data", 1e12), "pb": ("data", 1e15),
    "kib": ("data", 2**10), "mib": ("data", 2**20), "gib": ("data", 2**30), "tib": ("data", 2**40),
    "%": ("percent", 1), "percent": ("percent", 1),
    "$": ("usd", 1), "usd": ("usd", 1), "dollars": ("usd", 1),
}
