"""Write the docs pages of ``mcp-tui check``'s rules: ``index.md`` and one ``ID.md`` per rule.

Run: ``python scripts/rule_docs.py DIR`` (the folder is made if missing). The pages come from
where the rules are declared (``mcp_tui/check/rule_docs.py``), so they never drift from the code;
a docs site builds from DIR.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from mcp_tui.check.rule_docs import write_rule_docs  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("directory", type=Path, help="where to write the pages")
    args = parser.parse_args(argv)
    written = write_rule_docs(args.directory)
    print(f"wrote {len(written)} pages to {args.directory}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
