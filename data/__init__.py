"""The game data: one folder per game (rules, levels, card lists), installed
with the package as `balance.data` (read through `balance.simcore.files.data_file`).
Copy a file from here to edit it, and pass it with `--set cards=FILE`."""
