"""`python scripts/corpora --out DIR`: convert the corpora into DIR."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from corpora import main  # noqa: E402

sys.exit(main())
