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
