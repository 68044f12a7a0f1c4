// Where an operator comes from, read from the embedded sources alone (core/ops/op_sources.h),
// checked against what the live dispatcher registered.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>

#include "core/dispatch/dispatcher.h"
#include "core/ops/generated_sources.h"
#include "core/ops/op_sources.h"
#include "generated/ops.h"

using namespace ipt;

TEST(OpSources, TheAddFamilyFromYamlToRegistrations) {
  OpSources s = op_sources("aten::add.Tensor");
  ASSERT_TRUE(s.found());
  EXPECT_EQ(s.yaml.file, "core/ops/native_functions.yaml");
  EXPECT_EQ(s.yaml_entry.rfind("- func: add.Tensor(", 0), 0u);
  EXPECT_NE(s.yaml_entry.find("structured_delegate: add.out"), std::string::npos);
  EXPECT_EQ(s.schema_registration.file, "build/generated/register_operators.cpp");
  EXPECT_TRUE(s.derivative.found());
  EXPECT_NE(s.derivative_entry.find("AddBackward0"), std::string::npos);
  const KernelSite* cpu = nullptr;
  const KernelSite* autograd = nullptr;
  for (const auto& k : s.kernels) {
    if (k.key == "CPU") cpu = &k;
    if (k.key == "Autograd") autograd = &k;
  }
  ASSERT_TRUE(cpu && autograd);
  // add.Tensor delegates to the structured add.out: its CPU kernel runs add.out's meta and impl.
  EXPECT_EQ(cpu->name, "meta_add + add_out_cpu");
  EXPECT_EQ(cpu->hand_written, (std::vector<std::string>{"meta_add", "add_out_cpu"}));
  EXPECT_TRUE(cpu->wrapper.empty());
  EXPECT_EQ(autograd->wrapper, "add_Tensor_Autograd");
  EXPECT_TRUE(autograd->hand_written.empty());
  Definition d = generated_definition(autograd->at.file, autograd->wrapper);
  ASSERT_GT(d.first, 0);
  EXPECT_NE(std::string(d.lines.front()).find("add_Tensor_Autograd("), std::string::npos);
  EXPECT_EQ(d.lines.back(), "}");
  EXPECT_FALSE(op_sources("aten::no_such_op").found());
}

TEST(OpSources, TheGeneratedDeclarationBindingAndBackwardNode) {
  auto line_of = [](const SourceSite& s) {
    return std::string(generated_source_lines(s.file, s.line, s.line).lines.at(0));
  };
  OpSources s = op_sources("add.Tensor");
  EXPECT_EQ(s.id, "add_Tensor");
  ASSERT_TRUE(s.declaration.found() && s.python_binding.found() && s.backward_node.found());
  EXPECT_EQ(line_of(s.declaration),
            "Tensor add_Tensor(const Tensor& self, const Tensor& other, const Scalar& alpha = Scalar(1));");
  EXPECT_EQ(line_of(s.python_binding), "PyObject* op_add_Tensor(PyObject* self_, PyObject* args, PyObject* kwargs) {");
  EXPECT_EQ(line_of(s.backward_node), "struct add_Tensor_Node : Node {");
  EXPECT_EQ(op_sources("aten::add_.Tensor").id, "add__Tensor");
  OpSources relu = op_sources("relu");
  EXPECT_EQ(relu.id, "relu");
  EXPECT_EQ(line_of(relu.declaration), "Tensor relu(const Tensor& self);");
  // No derivative formula, no backward node: a composite is differentiated through what it calls.
  OpSources t = op_sources("reshape");
  EXPECT_FALSE(t.derivative.found());
  EXPECT_FALSE(t.backward_node.found());
  EXPECT_TRUE(t.declaration.found());
}

// For every operator the dispatcher has, the sites found in the embedded text are exactly its
// generated registrations, at the lines its table prints.
TEST(OpSources, MatchEveryGeneratedRegistrationOfTheDispatcher) {
  int ops = 0;
  for (const auto& op : Dispatcher::singleton().operators()) {
    const std::string full = op->name() + (op->overload().empty() ? "" : "." + op->overload());
    if (full.find("_test_schema_") != std::string::npos) continue;  // registered by hand (test operators)
    std::set<std::string> live, found;
    for (const auto& [key, kernel] : op->registrations()) {
      const std::string at = kernel.registered_at;
      if (at.rfind("build/generated/", 0) == 0) live.insert(at);
    }
    const OpSources s = op_sources(full);
    EXPECT_TRUE(s.found()) << full;
    EXPECT_TRUE(s.schema_registration.found()) << full;
    for (const auto& k : s.kernels) found.insert(k.at.str());
    EXPECT_EQ(found, live) << full;
    ++ops;
  }
  EXPECT_GT(ops, 200);
}

TEST(OpSources, YamlOperatorsListsEveryDeclaredOperator) {
  auto ops = yaml_operators();
  EXPECT_NE(std::find(ops.begin(), ops.end(), "aten::add.out"), ops.end());
  EXPECT_NE(std::find(ops.begin(), ops.end(), "aten::zeros"), ops.end());
  EXPECT_EQ(ops.size(), Dispatcher::singleton().operators().size());
}

TEST(OpSources, SchemasToPickFromAreTheYamlsAndAllOfPyTorchs) {
  auto ours = yaml_schemas();
  EXPECT_EQ(ours.size(), yaml_operators().size());
  EXPECT_NE(std::find(ours.begin(), ours.end(), "add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor"),
            ours.end());
  auto theirs = pytorch_schemas();
  EXPECT_EQ(theirs.size(), 2590u);
  EXPECT_EQ(theirs.front(), "_cast_Byte(Tensor self, bool non_blocking=False) -> Tensor");
  EXPECT_NE(std::find(theirs.begin(), theirs.end(),
                      "add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)"),
            theirs.end());
}
