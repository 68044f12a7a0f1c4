// torch.utils.codegen_sources: the embedded generated code, read through the same C++ as the
// Schema view (core/ops/op_sources), from Python.
#include <gtest/gtest.h>

#include "core/embed/session.h"

using namespace ipt::python;

namespace {

StepResult run(Session& s, const std::string& code) { return s.run(code, "prog.py"); }

}  // namespace

TEST(CodegenSources, RegistrationsCarryTheirGeneratedBlocks) {
  Session s;
  auto r = run(s,
               "from torch.utils import codegen_sources as cs\n"
               "regs = {r.key: r for r in cs.registrations('add.Tensor')}\n"
               "cpu = regs['CPU']\n"
               "print(cpu.file, cpu.text.splitlines()[0], cpu.text.splitlines()[-1])\n"
               "print('k.registered_at = IPT_HERE;' in cpu.text, 'add_out_cpu' in cpu.text)\n"
               "print(sorted(regs))\n"
               "print(cs.registrations('aten::add.Tensor') == cs.registrations('add.Tensor'))\n");
  ASSERT_TRUE(r.result.ok) << r.result.traceback;
  EXPECT_EQ(r.output,
            "build/generated/RegisterCPU.cpp { }\n"
            "True True\n"
            "['Autograd', 'CPU', 'CUDA', 'Meta']\n"
            "True\n");
}

TEST(CodegenSources, DefinitionIsTheWholeGeneratedFunction) {
  Session s;
  auto r = run(s,
               "from torch.utils import codegen_sources as cs\n"
               "d = cs.definition('build/generated/RegisterAutograd.cpp', 'add_Tensor_Autograd').splitlines()\n"
               "print(d[0].startswith('Tensor add_Tensor_Autograd('), d[-1])\n"
               "print(cs.definition('build/generated/RegisterAutograd.cpp', 'no_such_function'))\n"
               "try:\n"
               "    cs.definition('build/generated/nothing.cpp', 'f')\n"
               "except RuntimeError as e:\n"
               "    print('RuntimeError:', e)\n");
  ASSERT_TRUE(r.result.ok) << r.result.traceback;
  EXPECT_EQ(r.output,
            "True }\n"
            "None\n"
            "RuntimeError: no generated source named 'build/generated/nothing.cpp' is embedded in this build\n");
}
