"""`python -m cli ...`: the `kickoff` command, as the tests and the benchmarks start its processes."""

import sys

from cli import main

sys.exit(main())
