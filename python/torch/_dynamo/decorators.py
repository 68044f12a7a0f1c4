"""torch._dynamo.graph_break and friends: markers the capture recognizes."""


def graph_break():
    """Ends the graph here: what comes after is captured as a graph of its own."""
    pass
