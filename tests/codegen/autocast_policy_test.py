"""ipt-codegen with core/ops' real schema files and a test autocast.yaml per case, and with a
code template that names a placeholder the generator gives no value.

usage: autocast_policy_test.py <ipt-codegen> <core/ops folder> <tools/codegen/templates folder>
"""
import os
import shutil
import subprocess
import sys
import tempfile

codegen, ops_dir, templates = sys.argv[1], sys.argv[2], sys.argv[3]
failures = []


def generate(policy_text, template_dir=templates):
    with tempfile.TemporaryDirectory() as d:
        policy = os.path.join(d, "autocast.yaml")
        with open(policy, "w") as f:
            f.write(policy_text)
        p = subprocess.run([codegen, os.path.join(ops_dir, "native_functions.yaml"),
                            os.path.join(ops_dir, "derivatives.yaml"), policy, d, template_dir],
                           capture_output=True, text=True, timeout=120)
        out = os.path.join(d, "generated", "RegisterAutocast.cpp")
        generated = open(out).read() if os.path.exists(out) else None
        return p.returncode, p.stderr, generated


def refused(name, text, message):
    rc, err, generated = generate(text)
    if rc != 1 or message not in err or generated is not None:
        failures.append("%s: rc=%d, stderr=%r (expected %r)" % (name, rc, err, message))


refused("unknown key", "AutocastTPU:\n  fp32: [mm]\n", "autocast.yaml:1: unknown key 'AutocastTPU'")
refused("unknown policy", "AutocastCPU:\n  fp16: [mm]\n", "autocast.yaml:2: unknown cast policy 'fp16'")
refused("unknown operator", "AutocastCPU:\n  fp32:\n    - mm\n    - no_such_op\n",
        "autocast.yaml:4: no operator 'no_such_op' in native_functions.yaml")
refused("two policies", "AutocastCPU:\n  fp32: [mm]\n  promote: [mm]\n", "autocast.yaml:3: 'mm' has two policies under AutocastCPU")
refused("no dtype argument", "AutocastCUDA:\n  fp32_set_opt_dtype: [mm]\n",
        "fp32_set_opt_dtype needs a dtype argument, and 'mm' has none")
refused("not a list", "AutocastCPU:\n  fp32: mm\n", "autocast.yaml:2: expected a list of operators")
refused("not a map", "- mm\n", "autocast.yaml:1: expected a map from Autocast key to policies")
refused("invalid YAML", "AutocastCPU: [\n", "invalid YAML")

rc, err, generated = generate("AutocastCPU:\n  lower_precision_fp: [mm]\nAutocastCUDA:\n  fp32_set_opt_dtype: [sum]\n")
if rc != 0 or generated is None:
    failures.append("a good file: rc=%d, stderr=%r" % (rc, err))
else:
    for want in ("Tensor mm_AutocastCPU(", "autocast::lower_precision_dtype(DeviceType::CPU)",
                 "return ops::sum(self, autocast::fp32_unless_given(dtype));", '"AutocastCUDA::sum [fp32_set_opt_dtype]"'):
        if want not in generated:
            failures.append("the generated file lacks %r" % want)

# A placeholder without a value stops the generator with the template and the placeholder.
with tempfile.TemporaryDirectory() as broken:
    shutil.copytree(templates, broken, dirs_exist_ok=True)
    with open(os.path.join(broken, "Autocast_kernel.cpp.in"), "a") as f:
        f.write("${no_such_value}\n")
    lines = open(os.path.join(broken, "Autocast_kernel.cpp.in")).read().count("\n")
    rc, err, generated = generate("AutocastCPU:\n  fp32: [mm]\n", broken)
    want = "templates/Autocast_kernel.cpp.in:%d: no value for the placeholder ${no_such_value}" % lines
    if rc != 1 or want not in err or generated is not None:
        failures.append("a template placeholder without a value: rc=%d, stderr=%r (expected %r)" % (rc, err, want))

for f in failures:
    print("FAIL", f)
print("%d failure(s)" % len(failures))
sys.exit(1 if failures else 0)
