"""inside_pytorch: run a program on Inside PyTorch's runtime from your own python3.

    PYTHONPATH=build/python python3 -m inside_pytorch run prog.py [--trace out.json]
"""
