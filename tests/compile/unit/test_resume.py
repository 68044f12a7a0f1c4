# Resume functions (python/torch/_dynamo/resume.py, Note [Resume functions]) on their own: a
# code object that continues a function after a given instruction, with the stack put back and
# the locals passed by name.
import dis

from torch._dynamo import resume


def f(a, b):
    x = a + 1
    y = x * b
    return y - a


code = f.__code__
ins = list(dis.get_instructions(code))
# Resume at the start of line `y = x * b`: nothing on the stack, y unbound.
start = next(i for i in ins if i.opname == "LOAD_FAST" and i.argval == "x")
r = resume.make_resume_code(code, start.offset, [], ["y"], start.positions.lineno, "f")
assert r.co_name == "torch_dynamo_resume_in_f_at_{}".format(start.positions.lineno), r.co_name
assert r.co_varnames[:len(code.co_varnames)] == code.co_varnames  # every local keeps its slot
fn = type(f)(r, globals())
args = resume.resume_call_args(code, [], {"a": 2, "b": 3, "x": 3}, [])
assert fn(*args) == 3 * 3 - 2, fn(*args)

# Resume in the middle of an expression: `x * b` with x already on the stack.
mul = next(i for i in ins if i.opname == "LOAD_FAST" and i.argval == "b")
r = resume.make_resume_code(code, mul.offset, [False], ["y"], mul.positions.lineno, "f")
assert r.co_varnames[-1] == "___stack0", r.co_varnames
fn = type(f)(r, globals())
assert fn(*resume.resume_call_args(code, [10], {"a": 2, "b": 3, "x": 3}, [False])) == 10 * 3 - 2

# A NULL below a callable is pushed again and not passed.
assert resume.resume_call_args(code, [resume.NULL, print], {"a": 1}, [True, False])[-1] is print
# A function with cells (a closure's variables) cannot be resumed this way.
assert resume.can_resume(code) and not resume.can_resume((lambda z: (lambda: z))(1).__code__)
print("resume: ok")
