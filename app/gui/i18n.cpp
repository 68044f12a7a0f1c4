#include "app/gui/i18n.h"

#include <string_view>
#include <unordered_map>

namespace ipt::gui {

static Lang g_lang = Lang::En;

void set_lang(Lang l) { g_lang = l; }
Lang lang() { return g_lang; }
const char* lang_code() { return g_lang == Lang::Zh ? "zh" : "en"; }

static const std::unordered_map<std::string_view, const char*>& zh_table() {
  static const std::unordered_map<std::string_view, const char*> zh = {
      {"Lessons", "课程"},
      {"Lesson", "课程"},
      {"Steps", "步骤"},
      {"Step", "步骤"},
      {"coming", "即将推出"},
      {"Next", "下一步"},
      {"Previous", "上一步"},
      {"Run to here", "运行到此"},
      {"Reset", "重置"},
      {"Narration", "讲解"},
      {"Code", "代码"},
      {"Output", "输出"},
      {"Playground", "练习场"},
      {"Run", "运行"},
      {"Examples", "示例"},
      {"Tensor & storage", "张量与存储"},
      {"Dispatch", "调度"},
      {"Event log", "事件日志"},
      {"File", "文件"},
      {"Open trace...", "打开追踪文件..."},
      {"Export trace...", "导出追踪文件..."},
      {"Export PNG...", "导出 PNG..."},
      {"Language", "语言"},
      {"View", "视图"},
      {"Quit", "退出"},
      {"Search", "搜索"},
      {"Category", "类别"},
      {"Operator", "算子"},
      {"events", "个事件"},
      {"No events yet: run a step or a snippet.", "还没有事件：运行一个步骤或一段代码。"},
      {"Select a call in the event log or in the list.", "在事件日志或列表中选择一次调用。"},
      {"Calls", "调用"},
      {"Tensor key sets", "张量调度键集"},
      {"Thread-local included", "线程局部包含集"},
      {"Thread-local excluded", "线程局部排除集"},
      {"Merged key set", "合并后的调度键集"},
      {"Dispatch table", "调度表"},
      {"Redispatch chain", "重新调度链"},
      {"kernel", "内核"},
      {"registered at", "注册于"},
      {"Tensors", "张量"},
      {"Storage", "存储"},
      {"shares storage with", "与之共享存储"},
      {"new storage", "新存储"},
      {"Error", "错误"},
      {"No tensors in this step.", "这一步没有张量。"},
      {"Only temporaries in this step: tick Temporaries to see them.", "这一步只有临时张量：勾选“临时张量”即可查看。"},
      {"view", "视图"},
      {"A view: it shares its storage with the tensor it was made from.", "视图：与创建它的张量共享同一块存储。"},
      {"%s: its input (self) is tensor #%llu on storage #%llu; the result's data was written to a new storage.", "%s：输入（self）是张量 #%llu，位于存储 #%llu；结果的数据写入了一块新存储。"},
      {"earlier step", "先前步骤"},
      {"Not used in this step; made earlier.", "本步骤未使用；在之前创建。"},
      {"temporary", "临时"},
      {"An intermediate of one statement (indexing, a wrapped scalar): no variable names it.", "某条语句的中间结果（索引、包装的标量）：没有变量指向它。"},
      {"sizes", "形状"},
      {"strides", "步幅"},
      {"shares storage with tensor", "与以下张量共享存储："},
      {"Earlier tensors", "先前的张量"},
      {"Tensors made in earlier steps that share a storage with this step's tensors.", "之前步骤创建、与本步骤张量共享存储的张量。"},
      {"Temporaries", "临时张量"},
      {"Intermediates of one statement that no variable names, e.g. b[2] in b[2, 1].item().", "某条语句里没有变量指向的中间结果，例如 b[2, 1].item() 中的 b[2]。"},
      {"Each storage is a strip of cells (its values, by storage index), in its own color; the tensors over it are grids of their elements. Element [i, j, …] reads cell storage_offset + Σ index·stride. Dim cells: no shown tensor reads them. Orange corner: written during this step. Click a tensor to select it.", "每块存储画成一排格子（按存储下标排列的值），各用一种颜色；其上的张量画成元素网格。元素 [i, j, …] 读取第 storage_offset + Σ 下标·步幅 个单元。暗色格子：没有显示的张量读取它。橙色角标：本步骤中被写入。点击张量可选中它。"},
      {"Hover an element: offset = storage_offset + Σ index·stride. Click a tensor to select it.", "悬停元素：offset = storage_offset + Σ 下标·步幅。点击张量可选中。"},
      {"cell", "单元"},
      {"read by", "读取者："},
      {"not read by any shown tensor", "没有显示的张量读取它"},
      {"(%lld element)", "（%lld 个元素）"},
      {"(%lld elements)", "（%lld 个元素）"},
      {"allocated in this step", "本步骤分配"},
      {"A storage allocation event was recorded in this step.", "本步骤记录了一次存储分配事件。"},
      {"freed", "已释放"},
      {"The storage was freed before the step ended.", "这块存储在本步骤结束前被释放。"},
      {"empty storage (0 bytes)", "空存储（0 字节）"},
      {"values not recorded (device %s)", "未记录数值（设备 %s）"},
      {"showing the first %zu of %lld elements", "仅显示前 %zu 个元素（共 %lld 个）"},
      {"no elements", "没有元素"},
      {"… %lld more rows", "… 还有 %lld 行"},
      {"… %lld more slices", "… 还有 %lld 个切片"},
      {"this step only", "仅本步骤"},
      {"All", "全部"},
      {"Name", "名称"},
      {"Details", "详情"},
      {"No events match the filters.", "没有符合筛选条件的事件。"},
      {"Dispatch key sets", "调度键集"},
      {"No dispatcher calls in this step.", "这一步没有经过调度器的调用。"},
      {"No dispatch table recorded for this operator.", "追踪中没有记录这个算子的调度表。"},
      {"higher priority", "优先级高"},
      {"lower priority", "优先级低"},
      {"tensors", "张量"},
      {"included", "包含集"},
      {"excluded", "排除集"},
      {"merged", "合并结果"},
      {"arg", "参数"},
      {"(no tensor arguments)", "（没有张量参数）"},
      {"chosen", "选中"},
      {"chosen: the highest-priority key", "选中：优先级最高的键"},
      {"fallthrough for this operator", "对这个算子是 fallthrough"},
      {"excluded by the thread-local excluded set", "被线程局部排除集排除"},
      {"no key left: the Undefined entry runs", "一个键都不剩：执行 Undefined 条目"},
      {"also in the set, but no tensor here has this key", "集合中还有这个键，但这里没有张量带有它"},
      {"also in the set, but no tensor here has these keys:", "集合中还有这些键，但这里没有张量带有它们："},
      {"redispatch", "重新调度"},
      {"redispatched with", "重新调度时带的键"},
      {"called by", "调用方"},
      {"Only interesting keys", "只显示相关的键"},
      {"key", "键"},
      {"kind", "类型"},
      {"Path", "路径"},
      {"Open", "打开"},
      {"Save", "保存"},
      {"Cancel", "取消"},
      {"Running line", "当前行"},
      {"No Chinese font found (install fonts-wqy-microhei): staying in English.",
       "未找到中文字体（请安装 fonts-wqy-microhei）：继续使用英文。"},
      {"Autograd entered, grad mode off: no graph recorded", "进入了 Autograd，但梯度模式关闭：不记录计算图"},
      {"Autograd keys excluded: the Autograd kernel is skipped", "Autograd 键被排除：跳过 Autograd 内核"},
  };
  return zh;
}

const char* tr(const char* en) {
  if (g_lang == Lang::En) return en;
  const auto& zh = zh_table();
  auto it = zh.find(en);
  return it == zh.end() ? en : it->second;
}

void for_each_translation(void (*fn)(const char* zh, void* ctx), void* ctx) {
  for (const auto& [en, zh] : zh_table()) fn(zh, ctx);
}

}  // namespace ipt::gui
