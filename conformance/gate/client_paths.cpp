#include "conformance/gate/client_paths.hpp"

#include "conformance/gate/reader_process.hpp"

#include <cctype>
#include <cstring>
#include <optional>
#include <vector>

namespace s3fault::gate {
namespace {

namespace fs = std::filesystem;

/// One word of a shell command: where it is, and whether bash would run it as a command.
struct command_word {
  std::size_t begin = 0;
  std::size_t end = 0;
  bool command_position = false;
};

bool separates_commands(char c) {
  return std::strchr(";&|()\n", c) != nullptr;
}

bool ends_word(char c) {
  return c == ' ' || c == '\t' || separates_commands(c) || c == '<' || c == '>';
}

/// Where the word starting at `at` ends: at the first unquoted blank or operator.
std::size_t word_end(const std::string& command, std::size_t at) {
  char quote = 0;
  for (; at < command.size(); ++at) {
    const char c = command[at];
    if (quote != 0) {
      quote = c == quote ? 0 : quote;
    } else if (c == '\'' || c == '"') {
      quote = c;
    } else if (c == '\\') {
      ++at;
    } else if (ends_word(c)) {
      break;
    }
  }
  return std::min(at, command.size());
}

std::vector<command_word> split_words(const std::string& command) {
  std::vector<command_word> words;
  bool command_position = true;
  for (std::size_t at = 0; at < command.size();) {
    const char c = command[at];
    if (c == ' ' || c == '\t' || c == '<' || c == '>') {
      ++at;
    } else if (separates_commands(c)) {
      command_position = true;
      ++at;
    } else {
      const std::size_t end = word_end(command, at);
      words.push_back({at, end, command_position});
      command_position = false;
      at = end;
    }
  }
  return words;
}

/// The word's text when it is a plain word or wholly single-quoted, without the quotes.
std::optional<std::string> literal_text(std::string_view word) {
  if (word.size() >= 2 && word.front() == '\'' && word.back() == '\'' &&
      word.substr(1, word.size() - 2).find('\'') == std::string_view::npos) {
    return std::string(word.substr(1, word.size() - 2));
  }
  for (const char c : word) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && std::strchr("._+,@%/:=-", c) == nullptr) {
      return std::nullopt;
    }
  }
  return std::string(word);
}

/// The absolute form of `text` (or of its value, `--option=VALUE`), when it names something that
/// exists from `dir`.
std::optional<std::string> absolute_form(const std::string& text, bool command_position,
                                         const fs::path& dir) {
  const std::size_t equals = text.rfind('=');
  const bool option = text.rfind('-', 0) == 0 && equals != std::string::npos;
  const std::string prefix = option ? text.substr(0, equals + 1) : "";
  const std::string path = text.substr(prefix.size());
  if (path.empty() || path.front() == '/' || path.front() == '-') {
    return std::nullopt;
  }
  std::error_code ignored;
  const fs::path target = (dir / path).lexically_normal();
  const bool slash = path.find('/') != std::string::npos;
  const bool usable = slash ? fs::exists(target, ignored)
                            : !command_position && fs::is_regular_file(target, ignored);
  if (!usable) {
    return std::nullopt;
  }
  return prefix + target.string();
}

} // namespace

std::string with_absolute_paths(const std::string& command, const fs::path& dir) {
  std::string result;
  std::size_t copied = 0;
  for (const auto& word : split_words(command)) {
    const auto text =
        literal_text(std::string_view(command).substr(word.begin, word.end - word.begin));
    const auto absolute = text ? absolute_form(*text, word.command_position, dir) : std::nullopt;
    if (!absolute) {
      continue;
    }
    result += command.substr(copied, word.begin - copied) + shell_quote(*absolute);
    copied = word.end;
  }
  return result + command.substr(copied);
}

std::string absolute_origin(const std::string& origin, const fs::path& dir) {
  const std::size_t colon = origin.rfind(':');
  const std::string file = colon == std::string::npos ? origin : origin.substr(0, colon);
  const std::string line = colon == std::string::npos ? "" : origin.substr(colon);
  std::error_code ignored;
  if (file.empty() || file.front() == '/' || !fs::is_regular_file(dir / file, ignored)) {
    return origin;
  }
  return (dir / file).lexically_normal().string() + line;
}

} // namespace s3fault::gate
