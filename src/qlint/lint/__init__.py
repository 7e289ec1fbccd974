"""The lint: one run's orchestration (engine), its settings and results, the check of one file
(check), the bank run (bankrun), parallel runs (runner, workers, interrupts), the result cache,
rule selection, suppression comments, config checks."""
