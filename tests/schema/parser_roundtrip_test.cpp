// parse_schema(s).str() == s for canonical schemas taken from PyTorch's
// native_functions.yaml (and a few TorchScript-only forms), and non-canonical spellings
// print back in canonical form.

#include <gtest/gtest.h>

#include "core/schema/schema_parser.h"

namespace ipt::schema {
namespace {

class RoundTrip : public ::testing::TestWithParam<const char*> {};

TEST_P(RoundTrip, PrintsBackTheSameText) {
  std::string text = GetParam();
  EXPECT_EQ(parse_schema(text).str(), text);
}

TEST_P(RoundTrip, ReparsesToAnEqualSchema) {
  FunctionSchema first = parse_schema(GetParam());
  EXPECT_EQ(parse_schema(first.str()), first);
}

INSTANTIATE_TEST_SUITE_P(
    Schemas, RoundTrip,
    ::testing::Values(
        "add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor",
        "add_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)",
        "add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)",
        "add.Scalar(Tensor self, Scalar other, Scalar alpha=1) -> Tensor",
        "split.Tensor(Tensor(a -> *) self, SymInt split_size, int dim=0) -> Tensor(a)[]",
        "chunk(Tensor(a -> *) self, int chunks, int dim=0) -> Tensor(a)[]",
        "max.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)",
        "max.dim_max(Tensor self, int dim, bool keepdim=False, *, Tensor(a!) max, Tensor(b!) max_values) -> (Tensor(a!) values, Tensor(b!) indices)",
        "is_nonzero(Tensor self) -> bool", "nonzero_numpy(Tensor self) -> Tensor[]",
        "record_stream(Tensor(a!) self, Stream s) -> ()",
        "_backward(Tensor self, Tensor[] inputs, Tensor? gradient=None, bool? retain_graph=None, bool create_graph=False) -> ()",
        "_foreach_add_.Scalar(Tensor(a!)[] self, Scalar scalar) -> ()",
        "_foreach_add_.ScalarList(Tensor(a!)[] self, Scalar[] scalars) -> ()",
        "index.Tensor(Tensor self, Tensor?[] indices) -> Tensor",
        "index_put_(Tensor(a!) self, Tensor?[] indices, Tensor values, bool accumulate=False) -> Tensor(a!)",
        "sum.dim_IntList(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor",
        "mean.names_dim(Tensor self, Dimname[1] dim, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor",
        "rename_(Tensor(a!) self, Dimname[]? names) -> Tensor(a!)",
        "conv2d(Tensor input, Tensor weight, Tensor? bias=None, int[2] stride=1, int[2] padding=0, int[2] dilation=1, int groups=1) -> Tensor",
        "conv2d.padding(Tensor input, Tensor weight, Tensor? bias=None, int[2] stride=1, str padding=\"valid\", int[2] dilation=1, int groups=1) -> Tensor",
        "layer_norm(Tensor input, int[] normalized_shape, Tensor? weight=None, Tensor? bias=None, float eps=1e-05, bool cudnn_enable=True) -> Tensor",
        "empty.memory_format(SymInt[] size, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, MemoryFormat? memory_format=None) -> Tensor",
        "as_strided(Tensor(a) self, SymInt[] size, SymInt[] stride, SymInt? storage_offset=None) -> Tensor(a)",
        "to.dtype(Tensor(a) self, ScalarType dtype, bool non_blocking=False, bool copy=False, MemoryFormat? memory_format=None) -> Tensor(a)",
        "set_.source_Storage_storage_offset(Tensor(a!) self, Storage source, SymInt storage_offset, SymInt[] size, SymInt[] stride=[]) -> Tensor(a!)",
        "bernoulli_.float(Tensor(a!) self, float p=0.5, *, Generator? generator=None) -> Tensor(a!)",
        "native_batch_norm.out(Tensor input, Tensor? weight, Tensor? bias, Tensor? running_mean, Tensor? running_var, bool training, float momentum, float eps, *, Tensor(a!) out, Tensor(b!) save_mean, Tensor(c!) save_invstd) -> (Tensor(a!), Tensor(b!), Tensor(c!))",
        "native_batch_norm_backward(Tensor grad_out, Tensor input, Tensor? weight, Tensor? running_mean, Tensor? running_var, Tensor? save_mean, Tensor? save_invstd, bool train, float eps, bool[3] output_mask) -> (Tensor, Tensor, Tensor)",
        "nll_loss(Tensor self, Tensor target, Tensor? weight=None, int reduction=Mean, int ignore_index=-100) -> Tensor",
        "fft_fft2(Tensor self, int[1]? s=None, int[1] dim=[-2,-1], str? norm=None) -> Tensor",
        "upsample_nearest2d.vec(Tensor input, SymInt[]? output_size, float[]? scale_factors) -> Tensor",
        "std_mean.correction(Tensor self, int[1]? dim, *, int? correction, bool keepdim=False) -> (Tensor, Tensor)",
        "randint.low_generator_out(int low, int high, int[] size, *, Generator? generator, Tensor(a!) out) -> Tensor(a!)",
        "empty.out(SymInt[] size, *, MemoryFormat? memory_format=None, Tensor(a!) out) -> Tensor(a!)",
        "__and__.Tensor(Tensor self, Tensor other) -> Tensor",
        "__iand__.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)",
        "linalg_norm.ord_str(Tensor self, str ord, int[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor",
        "linalg_eigh(Tensor self, str UPLO=\"L\") -> (Tensor eigenvalues, Tensor eigenvectors)",
        "frobenius_norm(Tensor self, int[1] dim, bool keepdim=False) -> Tensor",
        "nuclear_norm(Tensor self, bool keepdim=False) -> Tensor",
        "linalg_matrix_norm.str_ord(Tensor self, str ord='fro', int[] dim=[-2,-1], bool keepdim=False, *, ScalarType? dtype=None) -> Tensor",
        R"S(_test_string_default(Tensor dummy, str a="\"'\\", str b='"\'\\') -> Tensor)S",
        "rrelu(Tensor self, Scalar lower=0.125, Scalar upper=0.3333333333333333, bool training=False, Generator? generator=None) -> Tensor",
        "a(Tensor x, Tensor y) -> Tensor y", "aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor",
        "aten::format(str self, ...) -> str", "prim::TupleUnpack(Any tup) -> ...",
        "prim::Tail(Tensor a, ...) -> (Tensor, ...)", "f(Tensor(b|c) x) -> Tensor(b|c)",
        "f(Tensor(a! -> a|b) x) -> Tensor(*)", "f(*, Tensor(a!) out) -> Tensor(a!)", "f() -> ()"));

TEST(RoundTrip, NormalizesWhitespace) {
  auto s = parse_schema("  add.Tensor( Tensor  self ,Tensor other,* ,Scalar alpha = 1 )->Tensor  ");
  EXPECT_EQ(s.str(), "add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor");
}

TEST(RoundTrip, NormalizesAliasSpacing) {
  EXPECT_EQ(parse_schema("f(Tensor( a->* ) self) -> Tensor( a )[]").str(), "f(Tensor(a -> *) self) -> Tensor(a)[]");
  EXPECT_EQ(parse_schema("f(Tensor(b | c !) self) -> ()").str(), "f(Tensor(b|c!) self) -> ()");
}

TEST(RoundTrip, SingleNamedReturnInParenthesesPrintsBare) {
  EXPECT_EQ(parse_schema("f(Tensor x) -> (Tensor y)").str(), "f(Tensor x) -> Tensor y");
}

}  // namespace
}  // namespace ipt::schema
