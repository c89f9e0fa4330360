#include "cli/bash_completion.hpp"

#include "conformance/readers/readers.hpp"
#include "conformance/writers/writers.hpp"
#include "faults/action_registry.hpp"
#include "faults/config/presets.hpp"
#include "faults/config/profiles.hpp"
#include "faults/operations/catalogue.hpp"
#include "text/text.hpp"

#include <sstream>

namespace s3fault::cli {
namespace {

/// A word list in a bash double-quoted string: the names hold no quote, dollar or backslash,
/// but a stray one must not end the string.
std::string quoted(const std::vector<std::string>& words) {
  std::string out = "\"";
  for (std::size_t i = 0; i < words.size(); ++i) {
    for (char c : words[i]) {
      if (c == '"' || c == '\\' || c == '$' || c == '`') {
        out += '\\';
      }
      out += c;
    }
    out += i + 1 < words.size() ? " " : "";
  }
  return out + "\"";
}

/// The set of an IsMember validator, from the type name CLI11 shows: "TEXT:{text,json}".
std::vector<std::string> validated_set(const CLI::Option& option) {
  const std::string type = option.get_type_name();
  const auto open = type.find('{');
  const auto close = type.find('}', open);
  if (open == std::string::npos || close == std::string::npos) {
    return {};
  }
  return text::split_nonempty(std::string_view(type).substr(open + 1, close - open - 1), ',');
}

/// "s3fault gate merge": never empty, which a bash array key may not be.
std::string command_key(const command_node& command) {
  return text::join(command.path, " ").insert(0, command.path.empty() ? "s3fault" : "s3fault ");
}

struct command_tables {
  std::ostringstream subcommands, options, valued, values;
};

void add_command(const command_node& command, const completion_words& words,
                 command_tables& tables) {
  const std::string key = command_key(command);
  std::vector<std::string> subs;
  for (const CLI::App* sub : shown_subcommands(*command.app)) {
    subs.push_back(sub->get_name());
  }
  std::vector<std::string> names;
  for (const CLI::Option* option : shown_options(*command.app)) {
    if (option->get_positional()) {
      continue;
    }
    for (const auto& name : option->get_snames()) {
      names.push_back("-" + name);
    }
    for (const auto& name : option->get_lnames()) {
      const std::string flag = "--" + name;
      names.push_back(flag);
      if (!takes_value(*option)) {
        continue;
      }
      tables.valued << "  [\"" << key << " " << flag << "\"]=1\n";
      auto set = validated_set(*option);
      if (const auto known = words.option_values.find(flag);
          set.empty() && known != words.option_values.end()) {
        set = known->second;
      }
      if (!set.empty()) {
        tables.values << "  [\"" << key << " " << flag << "\"]=" << quoted(set) << "\n";
      }
    }
  }
  tables.subcommands << "  [\"" << key << "\"]=" << quoted(subs) << "\n";
  tables.options << "  [\"" << key << "\"]=" << quoted(names) << "\n";
}

// How a word is completed: `op=NAME` anywhere; the value of an option that takes one (its
// set, else files by bash's default); an option of the command named so far; a subcommand.
constexpr std::string_view completion_function = R"(_s3fault() {
  local cur=${COMP_WORDS[COMP_CWORD]} prev= before= command=s3fault word i
  (( COMP_CWORD > 0 )) && prev=${COMP_WORDS[COMP_CWORD-1]}
  (( COMP_CWORD > 1 )) && before=${COMP_WORDS[COMP_CWORD-2]}
  # The command the words so far name; options and the values they take are skipped.
  for (( i = 1; i < COMP_CWORD; i++ )); do
    word=${COMP_WORDS[i]}
    if [[ $word == -* ]]; then
      [[ $word != *=* && -n ${_s3fault_valued["$command $word"]} ]] && (( i++ ))
    elif [[ " ${_s3fault_subcommands[$command]} " == *" $word "* ]]; then
      command="$command $word"
    fi
  done
  # op=NAME as one word, or as three when COMP_WORDBREAKS splits at '='.
  if [[ $cur == op=* ]]; then
    COMPREPLY=( $(compgen -P op= -W "$_s3fault_operations" -- "${cur#op=}") )
    return
  elif [[ $prev == = && $before == op ]]; then
    COMPREPLY=( $(compgen -W "$_s3fault_operations" -- "$cur") )
    return
  elif [[ $cur == = && $prev == op ]]; then
    COMPREPLY=( $_s3fault_operations )
    return
  fi
  if [[ $prev == -* && -n ${_s3fault_valued["$command $prev"]} ]]; then
    local values=${_s3fault_values["$command $prev"]}
    [[ -n $values ]] && COMPREPLY=( $(compgen -W "$values" -- "$cur") )
    return
  fi
  if [[ $cur == -* ]]; then
    COMPREPLY=( $(compgen -W "${_s3fault_options[$command]}" -- "$cur") )
  else
    COMPREPLY=( $(compgen -W "${_s3fault_subcommands[$command]}" -- "$cur") )
  fi
}
complete -o bashdefault -o default -F _s3fault s3fault
)";

} // namespace

completion_words registry_words() {
  completion_words words;
  auto& actions = words.option_values["--fault"];
  for (const auto& kind : faults::action_kinds()) {
    actions.emplace_back(kind.type);
  }
  auto& presets = words.option_values["--preset"];
  for (const auto& preset : faults::config::presets()) {
    presets.emplace_back(preset.name);
  }
  auto& profiles = words.option_values["--profile"];
  for (const auto& profile : faults::config::shipped_profiles()) {
    profiles.emplace_back(profile.name);
  }
  auto& readers = words.option_values["--reader"];
  for (const auto name : readers::reader_names()) {
    readers.push_back("builtin:" + std::string(name));
  }
  auto& writers = words.option_values["--writer"];
  for (const auto name : writers::writer_names()) {
    writers.push_back("builtin:" + std::string(name));
  }
  for (const auto& shape : faults::catalogue()) {
    words.operations.emplace_back(shape.name);
  }
  return words;
}

std::string bash_completion_script(const CLI::App& root, const completion_words& words,
                                   std::string_view version) {
  command_tables tables;
  for (const auto& command : command_tree(root)) {
    add_command(command, words, tables);
  }
  std::ostringstream out;
  out << "# bash completion for s3fault " << version << "\n"
      << "# Made by `s3fault completion bash` from the command definitions; do not edit.\n"
      << "# -g: bash-completion loads this file inside a function.\n"
      << "declare -gA _s3fault_subcommands=(\n"
      << tables.subcommands.str() << ")\n"
      << "declare -gA _s3fault_options=(\n"
      << tables.options.str() << ")\n"
      << "declare -gA _s3fault_valued=(\n"
      << tables.valued.str() << ")\n"
      << "declare -gA _s3fault_values=(\n"
      << tables.values.str() << ")\n"
      << "_s3fault_operations=" << quoted(words.operations) << "\n"
      << completion_function;
  return out.str();
}

} // namespace s3fault::cli
