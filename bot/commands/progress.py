"""Progress of long commands (``simulate``, ``fuzz``) on the terminal, through tqdm.

A bar is drawn on standard error only when it is a terminal, so piped output and the
reports printed on standard output stay exactly as they are.
"""

from __future__ import annotations

import sys
from typing import Any

from tqdm import tqdm


def bar(total: int, unit: str, what: str) -> Any:
    """A tqdm bar of ``total`` ``unit``s described as ``what``, on standard error, shown only
    when standard error is a terminal; removed when closed."""
    return tqdm(total=total, unit=f" {unit}", desc=what, file=sys.stderr, leave=False,
                disable=not sys.stderr.isatty(), dynamic_ncols=True)
