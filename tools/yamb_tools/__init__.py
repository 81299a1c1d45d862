"""Development tools, installed with the project (pyproject.toml) and never shipped to Lambda:
the `yamb` command's core commands (cli: check, score, demo, solve, verify; the console script
is yamb_client.cli), the demo game (demo), the solver's table builder (solve) and the hard bot's
offline tuning (tune: `python -m yamb_tools.tune KEY`). They import the domain package (yamb);
nothing in shared/ imports them."""
