"""Dicts of trackers."""

from torch._dynamo.variables.base import VariableTracker


class DictVariable(VariableTracker):
    def __init__(self, items):
        self.items = dict(items)  # constant keys -> trackers

    def python_type(self):
        return dict

    def reconstruct(self, tx):
        parts = {k: v.reconstruct(tx) for k, v in self.items.items()}
        return lambda env: {k: p(env) for k, p in parts.items()}
