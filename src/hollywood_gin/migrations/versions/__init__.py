"""One file per schema revision, ``r<NNNN>_<slug>.py``, in order (docs/deploy.md)."""
