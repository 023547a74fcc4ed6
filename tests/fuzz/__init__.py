"""A fuzzing harness for mbparse's readers.

``python -m tests.fuzz --format urdf --seed 1 --inputs 100000 --jobs 2`` runs
a campaign: structure-aware mutations of the corpus files (``mutate.py``),
each input loaded in-process under a time and memory limit (``run.py``),
outcomes classified, crashes grouped and minimised (``minimize.py``) and saved
under ``tests/fuzz/regressions/<format>/`` where ``tests/test_fuzz_regressions.py``
replays them. ``tests/test_fuzz_smoke.py`` runs a bounded campaign in every
test run.
"""
