"""simcore: the numba simulation core of `balance`.

Layers: `jit` (the one decorator), `rng` (counter-based streams), `spec`
(declarative game headers), `runner` (the one game loop and the policies),
`batch` (the Python wrapper that allocates and calls it), and one subpackage
per game, named like the CLI's `--game` (dashes become underscores).
"""
