"""The sections of check_nn_against_pytorch.py (run that script, not these modules)."""
