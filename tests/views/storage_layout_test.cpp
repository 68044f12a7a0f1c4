// The Storage view's model on hand-built event lists shaped like what a program records (a
// statement line, top-level calls with their "self" and "result" tensors, bindings of Python
// names): which storages a step touches, the tensors over each, the cells each tensor covers,
// the cells the step wrote, and the index math and cell labels the view prints.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "core/views/storage_layout.h"
#include "event_list.h"

namespace ipt::views::storage {
namespace {

using trace::Category;
using trace::Event;
using trace::Phase;
using trace::TensorMeta;

TensorMeta meta(uint64_t tensor, uint64_t storage, std::vector<int64_t> sizes, std::vector<int64_t> strides,
                int64_t offset = 0, std::vector<double> values = {}, const char* label = "") {
  TensorMeta m;
  m.tensor_id = tensor;
  m.storage_id = storage;
  m.storage_nbytes = static_cast<int64_t>(values.size()) * 4;
  m.sizes = std::move(sizes);
  m.strides = std::move(strides);
  m.storage_offset = offset;
  m.storage_values = std::move(values);
  m.label = label;
  return m;
}

// Builds an event list the way a running program records it.
struct Events : testing::EventList {
  // A statement starts; returns its first event's index.
  size_t line(int n) { return add(Category::Script, Phase::Instant, "line", trace::ScriptLine{n, 1}); }
  // A tensor recorded with `role` ("self", "result"; "" outside a call).
  void tensor(TensorMeta m, const char* role) {
    m.label = role;
    add(Category::Tensor, Phase::Instant, "tensor", std::move(m));
  }
  // A module-level Python name bound to a tensor.
  void bind(uint64_t tensor, const char* name) {
    TensorMeta m;
    m.tensor_id = tensor;
    m.label = name;
    add(Category::Script, Phase::Instant, "binding", m);
  }
  void begin(const char* op) {
    trace::DispatchStep d;
    d.op = op;
    add(Category::Dispatch, Phase::Begin, op, d);
  }
  void end(const char* op) { add(Category::Dispatch, Phase::End, op); }
  // A top-level call: self, then result.
  void call(const char* op, const TensorMeta& self, const TensorMeta& result) {
    begin(op);
    tensor(self, "self");
    tensor(result, "result");
    end(op);
  }
  void storage(uint64_t id, bool freed) {
    add(Category::Storage, Phase::Instant, freed ? "storage freed" : "storage allocated",
        trace::StorageInfo{id, 24, "cpu", freed});
  }
};

const std::vector<double> kSix = {0, 1, 2, 3, 4, 5};
// a = torch.arange(6.).reshape(2, 3): tensor 1 over storage 100.
TensorMeta a_meta() { return meta(1, 100, {2, 3}, {3, 1}, 0, kSix); }
// b = a[:, 1:]: tensor 2, a view of a (offset 1, a's strides).
TensorMeta b_meta() {
  TensorMeta m = meta(2, 100, {2, 2}, {3, 1}, 1, kSix);
  m.is_view = true;
  return m;
}

std::vector<uint64_t> tensor_ids(const StorageItem& s) {
  std::vector<uint64_t> ids;
  for (const auto& t : s.tensors) ids.push_back(t.meta->tensor_id);
  return ids;
}

// a = ...; b = a[:, 1:]; c = b.contiguous() (a copy onto storage 200). Returns where each
// statement starts.
std::vector<size_t> view_then_copy(Events& e) {
  std::vector<size_t> at;
  at.push_back(e.line(1));
  e.tensor(a_meta(), "");
  e.bind(1, "a");
  at.push_back(e.line(2));
  e.call("aten::slice.Tensor", a_meta(), b_meta());
  e.bind(2, "b");
  at.push_back(e.line(3));
  e.begin("aten::contiguous");
  e.tensor(b_meta(), "self");
  e.begin("aten::clone");  // nested: its tensors are not the top-level call's
  e.tensor(meta(3, 200, {2, 2}, {2, 1}, 0, {1, 2, 4, 5}), "result");
  e.end("aten::clone");
  e.tensor(meta(3, 200, {2, 2}, {2, 1}, 0, {1, 2, 4, 5}), "result");
  e.end("aten::contiguous");
  e.bind(3, "c");
  at.push_back(e.ev.size());
  return at;
}

TEST(StorageLayout, ViewSharesItsBaseStorage) {
  Events e;
  const auto at = view_then_copy(e);
  // The step b = a[:, 1:]: both tensors live on storage 100.
  const StorageModel m = build_storage_model(e.ev, at[1], at[2]);
  EXPECT_EQ(m.step_tensors, 2u);
  ASSERT_EQ(m.storages.size(), 1u);
  const StorageItem& s = m.storages[0];
  EXPECT_EQ(s.id, 100u);
  EXPECT_EQ(s.nbytes, 24);
  EXPECT_EQ(s.elements, 6);
  EXPECT_STREQ(s.dtype, "float32");
  EXPECT_STREQ(s.device, "cpu");
  EXPECT_EQ(s.labels, (std::vector<std::string>{"0", "1", "2", "3", "4", "5"}));
  EXPECT_EQ(s.written, (std::vector<uint8_t>{0, 0, 0, 0, 0, 0}));  // a view writes nothing
  EXPECT_FALSE(s.truncated);
  EXPECT_FALSE(s.allocated_in_step);
  EXPECT_FALSE(s.freed_in_step);
  ASSERT_EQ(tensor_ids(s), (std::vector<uint64_t>{1, 2}));
  const TensorItem& a = s.tensors[0];
  const TensorItem& b = s.tensors[1];
  EXPECT_EQ(a.kind, TensorKind::Step);
  EXPECT_EQ(b.kind, TensorKind::Step);
  EXPECT_EQ(a.names, (std::vector<std::string>{"a"}));
  EXPECT_EQ(b.names, (std::vector<std::string>{"b"}));
  // Which storage cells each tensor's elements land on: a all six, b (offset 1, strides
  // (3, 1)) cells 1, 2, 4, 5.
  EXPECT_EQ(a.covers, (std::vector<uint16_t>{1, 1, 1, 1, 1, 1}));
  EXPECT_EQ(b.covers, (std::vector<uint16_t>{0, 1, 1, 0, 1, 1}));
  EXPECT_FALSE(b.covers_partial);
  EXPECT_FALSE(b.new_storage);  // a view, not a copy
  EXPECT_TRUE(b.meta->is_view);
}

TEST(StorageLayout, CopyOntoNewStorageAndEarlierContext) {
  Events e;
  const auto at = view_then_copy(e);
  // The step c = b.contiguous(): storage 100 (b read) first, then storage 200 (c made).
  const StorageModel m = build_storage_model(e.ev, at[2], at[3]);
  EXPECT_EQ(m.step_tensors, 2u);  // b and c; a appears only before the step
  ASSERT_EQ(m.storages.size(), 2u);
  EXPECT_EQ(m.storages[0].id, 100u);
  EXPECT_EQ(m.storages[1].id, 200u);
  // a gives context: seen only before the step, named, on a storage the step touches.
  ASSERT_EQ(tensor_ids(m.storages[0]), (std::vector<uint64_t>{1, 2}));
  EXPECT_EQ(m.storages[0].tensors[0].kind, TensorKind::Earlier);
  EXPECT_EQ(m.storages[0].tensors[1].kind, TensorKind::Step);
  const StorageItem& s = m.storages[1];
  EXPECT_EQ(s.elements, 4);  // 16 bytes of float32
  EXPECT_EQ(s.labels, (std::vector<std::string>{"1", "2", "4", "5"}));
  // A storage nobody saw before the step has nothing to compare with: no cell counts as
  // written (the view tells a new storage by its "new storage" badge instead).
  EXPECT_EQ(s.written, (std::vector<uint8_t>{0, 0, 0, 0}));
  ASSERT_EQ(tensor_ids(s), (std::vector<uint64_t>{3}));
  const TensorItem& c = s.tensors[0];
  EXPECT_EQ(c.kind, TensorKind::Step);
  EXPECT_EQ(c.names, (std::vector<std::string>{"c"}));
  // The top-level call's "self" lives on another storage: the "new storage" badge.
  EXPECT_TRUE(c.new_storage);
  EXPECT_STREQ(c.made_by, "aten::contiguous");
  EXPECT_EQ(c.from_tensor, 2u);
  EXPECT_EQ(c.from_storage, 100u);
  EXPECT_EQ(c.covers, (std::vector<uint16_t>{1, 1, 1, 1}));
}

TEST(StorageLayout, StepRangeIsHalfOpen) {
  Events e;
  const auto at = view_then_copy(e);
  // [first, last) of the first statement: only a; b's events start at `last`.
  StorageModel m = build_storage_model(e.ev, at[0], at[1]);
  EXPECT_EQ(m.step_tensors, 1u);
  ASSERT_EQ(m.storages.size(), 1u);
  EXPECT_EQ(tensor_ids(m.storages[0]), (std::vector<uint64_t>{1}));
  // Later events do not leak in: a's name comes from its binding, inside the range.
  EXPECT_EQ(m.storages[0].tensors[0].names, (std::vector<std::string>{"a"}));
  // An empty range shows nothing; a range past the end is clamped to the events.
  EXPECT_TRUE(build_storage_model(e.ev, at[1], at[1]).storages.empty());
  EXPECT_EQ(build_storage_model(e.ev, 0, 1000).step_tensors, 3u);
  EXPECT_TRUE(build_storage_model(e.ev, 1000, 2000).storages.empty());
}

TEST(StorageLayout, NamesComeFromBindings) {
  Events e;
  e.line(1);
  e.tensor(a_meta(), "");
  e.bind(1, "a");
  e.bind(1, "alias");
  e.bind(1, "a");  // bound again: listed once
  e.bind(1, "");   // an empty name is no name
  const StorageModel m = build_storage_model(e.ev, 0, e.ev.size());
  ASSERT_EQ(m.storages.size(), 1u);
  ASSERT_EQ(m.storages[0].tensors.size(), 1u);
  EXPECT_EQ(m.storages[0].tensors[0].names, (std::vector<std::string>{"a", "alias"}));
  // A binding is not a snapshot of the tensor: the shown metadata is the recorded one.
  EXPECT_EQ(m.storages[0].tensors[0].meta->storage_id, 100u);
  EXPECT_EQ(m.step_tensors, 1u);
}

// a = torch.zeros(3); a[1] = 5; a.add_(1)
std::vector<size_t> write_through_view(Events& e) {
  std::vector<size_t> at;
  at.push_back(e.line(1));
  e.storage(100, false);
  e.tensor(meta(1, 100, {3}, {1}, 0, {0, 0, 0}), "");
  e.bind(1, "a");
  at.push_back(e.line(2));
  const TensorMeta elem = meta(2, 100, {}, {}, 1, {0, 0, 0});  // a[1], 0-d
  e.call("aten::select.int", meta(1, 100, {3}, {1}, 0, {0, 0, 0}), elem);
  e.call("aten::fill_.Scalar", elem, meta(2, 100, {}, {}, 1, {0, 5, 0}));
  at.push_back(e.line(3));
  e.call("aten::add_.Tensor", meta(1, 100, {3}, {1}, 0, {0, 5, 0}), meta(1, 100, {3}, {1}, 0, {1, 6, 1}));
  at.push_back(e.ev.size());
  return at;
}

TEST(StorageLayout, WrittenCellsAndTemporaries) {
  Events e;
  const auto at = write_through_view(e);
  const StorageModel m = build_storage_model(e.ev, at[1], at[2]);
  ASSERT_EQ(m.storages.size(), 1u);
  const StorageItem& s = m.storages[0];
  // The latest preview is fill_'s result; only cell 1 differs from before the step.
  EXPECT_EQ(s.labels, (std::vector<std::string>{"0", "5", "0"}));
  EXPECT_EQ(s.written, (std::vector<uint8_t>{0, 1, 0}));
  EXPECT_FALSE(s.allocated_in_step);  // allocated by statement 1
  ASSERT_EQ(tensor_ids(s), (std::vector<uint64_t>{1, 2}));
  // a[1]: no name, all its events in one statement, and the statement's last call (fill_)
  // is in-place, so it is not the statement's result: a temporary.
  EXPECT_EQ(s.tensors[1].kind, TensorKind::Temporary);
  EXPECT_EQ(s.tensors[1].covers, (std::vector<uint16_t>{0, 1, 0}));
  EXPECT_EQ(s.tensors[0].kind, TensorKind::Step);
  EXPECT_EQ(m.step_tensors, 2u);  // temporaries count as seen in the step
  // The first statement allocates the storage (no earlier values: nothing counts as written).
  const StorageModel first = build_storage_model(e.ev, at[0], at[1]);
  ASSERT_EQ(first.storages.size(), 1u);
  EXPECT_TRUE(first.storages[0].allocated_in_step);
  EXPECT_EQ(first.storages[0].written, (std::vector<uint8_t>{0, 0, 0}));
  // A later step does not list an earlier step's temporary as context.
  const StorageModel third = build_storage_model(e.ev, at[2], at[3]);
  ASSERT_EQ(third.storages.size(), 1u);
  EXPECT_EQ(tensor_ids(third.storages[0]), (std::vector<uint64_t>{1}));
  EXPECT_EQ(third.storages[0].labels, (std::vector<std::string>{"1", "6", "1"}));
  EXPECT_EQ(third.storages[0].written, (std::vector<uint8_t>{1, 1, 1}));
  EXPECT_EQ(third.step_tensors, 1u);
}

TEST(StorageLayout, StatementResultIsNotTemporary) {
  Events e;
  e.line(1);
  e.tensor(meta(1, 100, {3}, {1}, 0, {0, 1, 2}), "");
  e.bind(1, "a");
  const size_t first = e.line(2);
  // a[1:] (not bound to a name, but the statement's result: what a REPL would print)
  e.call("aten::slice.Tensor", meta(1, 100, {3}, {1}, 0, {0, 1, 2}), meta(2, 100, {2}, {1}, 1, {0, 1, 2}));
  const StorageModel m = build_storage_model(e.ev, first, e.ev.size());
  ASSERT_EQ(m.storages.size(), 1u);
  ASSERT_EQ(tensor_ids(m.storages[0]), (std::vector<uint64_t>{1, 2}));
  EXPECT_EQ(m.storages[0].tensors[1].kind, TensorKind::Step);
  EXPECT_TRUE(m.storages[0].tensors[1].names.empty());
}

TEST(StorageLayout, FreesAtTheEndAreTeardown) {
  Events e;
  const auto at = write_through_view(e);
  e.storage(100, true);  // the session ends: nothing after the free
  StorageModel m = build_storage_model(e.ev, at[2], e.ev.size());
  ASSERT_EQ(m.storages.size(), 1u);
  EXPECT_FALSE(m.storages[0].freed_in_step);
  // With a statement after it, the same free is the step's work.
  e.line(4);
  m = build_storage_model(e.ev, at[2], e.ev.size());
  ASSERT_EQ(m.storages.size(), 1u);
  EXPECT_TRUE(m.storages[0].freed_in_step);
}

TEST(StorageLayout, CoversCountsRepeatedCellsAndStopsAtThePreview) {
  Events e;
  e.line(1);
  // a[0].expand(2, 3): stride 0 reads each of cells 0..2 twice.
  e.tensor(meta(1, 100, {2, 3}, {0, 1}, 0, {7, 8, 9, 10}), "");
  // Elements past the preview (offsets 4 and 5 of a 4-value preview) are not counted.
  e.tensor(meta(2, 100, {3}, {1}, 3, {7, 8, 9, 10}), "");
  const StorageModel m = build_storage_model(e.ev, 0, e.ev.size());
  ASSERT_EQ(m.storages.size(), 1u);
  ASSERT_EQ(m.storages[0].tensors.size(), 2u);
  EXPECT_EQ(m.storages[0].tensors[0].covers, (std::vector<uint16_t>{2, 2, 2, 0}));
  EXPECT_EQ(m.storages[0].tensors[1].covers, (std::vector<uint16_t>{0, 0, 0, 1}));
}

TEST(StorageLayout, SnapshotsWithMismatchedStridesAreIgnored) {
  Events e;
  e.line(1);
  e.tensor(meta(1, 100, {2, 3}, {1}, 0, kSix), "");  // one stride for two sizes
  EXPECT_TRUE(build_storage_model(e.ev, 0, e.ev.size()).storages.empty());
}

// ---- index math and formatting ----

TEST(StorageLayoutMath, DtypeSize) {
  EXPECT_EQ(dtype_size("float64"), 8);
  EXPECT_EQ(dtype_size("int64"), 8);
  EXPECT_EQ(dtype_size("float32"), 4);
  EXPECT_EQ(dtype_size("float16"), 2);
  EXPECT_EQ(dtype_size("bfloat16"), 2);
  EXPECT_EQ(dtype_size("bool"), 1);
  EXPECT_EQ(dtype_size("uint8"), 1);
  EXPECT_EQ(dtype_size("qint4"), 4);  // unknown
  EXPECT_EQ(dtype_size(nullptr), 4);
}

TEST(StorageLayoutMath, OffsetsAndFormula) {
  const TensorMeta b = b_meta();  // sizes (2, 2), strides (3, 1), offset 1
  const int64_t idx[] = {1, 1};
  EXPECT_EQ(element_offset(b, idx), 5);
  EXPECT_EQ(offset_formula(b, {1, 1}),
            "offset = 1 + 1\xC2\xB7"
            "3 + 1\xC2\xB7"
            "1 = 5");
  EXPECT_EQ(offset_formula(b, {0, 0}),
            "offset = 1 + 0\xC2\xB7"
            "3 + 0\xC2\xB7"
            "1 = 1");
  const TensorMeta scalar = meta(2, 100, {}, {}, 6);
  EXPECT_EQ(element_offset(scalar, nullptr), 6);
  EXPECT_EQ(offset_formula(scalar, {}), "offset = storage_offset = 6");
}

TEST(StorageLayoutMath, ForEachElementWalksRowMajor) {
  // a.t(): sizes (3, 2), strides (1, 3).
  const TensorMeta t = meta(1, 100, {3, 2}, {1, 3});
  std::vector<std::string> seen;
  EXPECT_TRUE(for_each_element(t, 100, [&](const std::vector<int64_t>& idx, int64_t off) {
    seen.push_back(index_text(idx) + "=" + std::to_string(off));
  }));
  EXPECT_EQ(seen, (std::vector<std::string>{"[0, 0]=0", "[0, 1]=3", "[1, 0]=1", "[1, 1]=4", "[2, 0]=2", "[2, 1]=5"}));
  // A limit stops the walk early and says so.
  seen.clear();
  EXPECT_FALSE(for_each_element(t, 4, [&](const std::vector<int64_t>& idx, int64_t off) {
    seen.push_back(index_text(idx) + "=" + std::to_string(off));
  }));
  EXPECT_EQ(seen, (std::vector<std::string>{"[0, 0]=0", "[0, 1]=3", "[1, 0]=1", "[1, 1]=4"}));
  // A 0-d tensor has one element at its offset; an empty tensor none.
  std::vector<int64_t> offs;
  EXPECT_TRUE(for_each_element(meta(2, 100, {}, {}, 4), 100, [&](const auto&, int64_t off) { offs.push_back(off); }));
  EXPECT_EQ(offs, (std::vector<int64_t>{4}));
  offs.clear();
  EXPECT_TRUE(
      for_each_element(meta(3, 100, {2, 0}, {0, 1}), 100, [&](const auto&, int64_t off) { offs.push_back(off); }));
  EXPECT_TRUE(offs.empty());
}

TEST(StorageLayoutMath, Numel) {
  EXPECT_EQ(numel(meta(1, 1, {2, 3}, {3, 1})), 6);
  EXPECT_EQ(numel(meta(1, 1, {}, {})), 1);
  EXPECT_EQ(numel(meta(1, 1, {4, 0}, {1, 1})), 0);
}

TEST(StorageLayoutMath, FormatValue) {
  EXPECT_EQ(format_value(6, "float32"), "6");
  EXPECT_EQ(format_value(-0.5, "float32"), "-0.5");
  EXPECT_EQ(format_value(3.14159265, "float32"), "3.142");
  EXPECT_EQ(format_value(1234.56, "float32"), "1234.6");
  EXPECT_EQ(format_value(1.85e31, "float32"), "1.8e31");  // two digits (1.85e31 is 1.8499...e31)
  EXPECT_EQ(format_value(123456.5, "float32"), "1.2e5");
  EXPECT_EQ(format_value(2.8e-5, "float64"), "2.8e-5");
  EXPECT_EQ(format_value(1e6, "float32"), "1e6");
  EXPECT_EQ(format_value(999999, "float32"), "999999");
  EXPECT_EQ(format_value(std::nan(""), "float32"), "nan");
  EXPECT_EQ(format_value(std::numeric_limits<double>::infinity(), "float32"), "inf");
  EXPECT_EQ(format_value(-std::numeric_limits<double>::infinity(), "float32"), "-inf");
  EXPECT_EQ(format_value(-3, "int64"), "-3");
  EXPECT_EQ(format_value(7.9, "int32"), "7");  // integer dtypes truncate
  EXPECT_EQ(format_value(1, "bool"), "T");
  EXPECT_EQ(format_value(0, "bool"), "F");
}

TEST(StorageLayoutMath, ShapesIndexesAndSlices) {
  const std::vector<int64_t> s43 = {4, 3}, s3 = {3}, s0 = {};
  EXPECT_EQ(shape_text(s43), "(4, 3)");
  EXPECT_EQ(shape_text(s3), "(3,)");
  EXPECT_EQ(shape_text(s0), "()");
  EXPECT_EQ(index_text({2, 1}), "[2, 1]");
  EXPECT_EQ(index_text({}), "[]");
  EXPECT_EQ(slice_label({0}, 3), "[0, :, :]");
  EXPECT_EQ(slice_label({1, 2}, 4), "[1, 2, :, :]");
}

}  // namespace
}  // namespace ipt::views::storage
