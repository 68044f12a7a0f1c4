"""python3 -m inside_pytorch run prog.py [--trace out.json]: runs prog.py with this project's
torch package (not an installed PyTorch) and optionally writes its trace (Perfetto JSON)."""
import argparse
import os
import runpy
import sys


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python3 -m inside_pytorch",
                                     description="Run a PyTorch program on Inside PyTorch's runtime.")
    sub = parser.add_subparsers(dest="command", required=True)
    run = sub.add_parser("run", help="run a program, print what it prints")
    run.add_argument("program", help="the Python file to run")
    run.add_argument("--trace", metavar="OUT.json", help="write the run's trace (Chrome Trace Event JSON, opens in Perfetto)")
    args = parser.parse_args(argv)

    import torch  # this project's package: it must come from the same folder as this module
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    if not os.path.abspath(torch.__file__).startswith(here):
        print("error: 'import torch' found {} instead of Inside PyTorch's package in {}".format(torch.__file__, here),
              file=sys.stderr)
        return 2
    try:
        source = open(args.program, encoding="utf-8").read()
    except OSError as e:
        print("error: cannot read {}: {}".format(args.program, e.strerror), file=sys.stderr)
        return 2
    if args.trace:
        torch._C._trace_set_enabled(True)
    sys.argv = [args.program]
    status = 0
    try:
        runpy.run_path(args.program, run_name="__main__")
    except SystemExit as e:
        status = e.code if isinstance(e.code, int) else 1
    except BaseException:
        import traceback
        traceback.print_exc()
        status = 1
    finally:
        if args.trace:
            torch._C._trace_set_enabled(False)
            n = torch._C._trace_write(args.trace, os.path.basename(args.program), source)
            print("trace written to {} ({} events)".format(args.trace, n), file=sys.stderr)
    return status


if __name__ == "__main__":
    sys.exit(main())
