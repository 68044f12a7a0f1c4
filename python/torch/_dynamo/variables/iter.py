"""Iterators over trackers."""

from torch._dynamo.variables.base import VariableTracker


class IteratorVariable(VariableTracker):
    def __init__(self, items):
        self.items = list(items)
        self.index = 0

    def next(self):
        if self.index >= len(self.items):
            return None
        self.index += 1
        return self.items[self.index - 1]

    def reconstruct(self, tx):
        parts = [i.reconstruct(tx) for i in self.items[self.index:]]
        return lambda env: iter([p(env) for p in parts])
