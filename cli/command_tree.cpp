#include "cli/command_tree.hpp"

namespace s3fault::cli {
namespace {

void add_commands(const CLI::App& app, std::vector<std::string> path,
                  std::vector<command_node>& tree) {
  tree.push_back({&app, path});
  for (const CLI::App* sub : shown_subcommands(app)) {
    std::vector<std::string> sub_path = path;
    sub_path.push_back(sub->get_name());
    add_commands(*sub, std::move(sub_path), tree);
  }
}

} // namespace

std::vector<command_node> command_tree(const CLI::App& root) {
  std::vector<command_node> tree;
  add_commands(root, {}, tree);
  return tree;
}

std::vector<const CLI::Option*> shown_options(const CLI::App& app) {
  // CLI11's help leaves out options of the empty group (hidden ones); so does every page.
  return app.get_options([](const CLI::Option* option) { return !option->get_group().empty(); });
}

std::vector<const CLI::App*> shown_subcommands(const CLI::App& app) {
  return app.get_subcommands([](const CLI::App* sub) {
    return !sub->get_name().empty() && !sub->get_group().empty() && !sub->get_description().empty();
  });
}

std::string option_names(const CLI::Option& option) {
  if (option.get_lnames().empty() && option.get_snames().empty()) {
    return option.get_name(true);
  }
  return option.get_name(false, true);
}

std::string option_value_text(const CLI::App& app, const CLI::Option& option) {
  const auto formatter = std::dynamic_pointer_cast<CLI::Formatter>(app.get_formatter());
  return formatter ? formatter->make_option_opts(&option) : std::string();
}

bool takes_value(const CLI::Option& option) {
  return option.get_type_size_max() > 0;
}

} // namespace s3fault::cli
