"""`python -m bosun.interfaces.cli` runs the `bosun` command."""

from bosun.interfaces.cli import main

main()
