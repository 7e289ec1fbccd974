"""The lint engine: discovery to diagnostics (engine), parallel runs (runner, workers,
interrupts), the result cache, rule selection, suppression comments, config checks."""
