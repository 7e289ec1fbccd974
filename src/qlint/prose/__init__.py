"""What a question's words say: memoised text views, names and stances, letter references,
phrase matching, data soundness. Read by the rules, the bank rules and the exporters."""
