#pragma once
// UI strings in English and 中文. tr("Next") returns the current language's text; every
// UI string goes through it (narration comes from the lesson files).

#include <string>

namespace ipt::gui {

enum class Lang { En, Zh };
void set_lang(Lang l);
Lang lang();
const char* lang_code();  // "en" / "zh"
// The text for `en` in the current language (itself when no translation is known).
const char* tr(const char* en);
// Calls fn with every Chinese UI string (to build the font's glyph set).
void for_each_translation(void (*fn)(const char* zh, void* ctx), void* ctx);

}  // namespace ipt::gui
