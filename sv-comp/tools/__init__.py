# BenchExec tool-info modules of this project (importable as tools.<name> with sv-comp/ on
# PYTHONPATH).
