#include "cli/completion_command.hpp"

#include "cli/bash_completion.hpp"
#include "cli/man_page.hpp"
#include "runtime/atomic_file.hpp"
#include "runtime/build_info.hpp"

#include <filesystem>
#include <iostream>

namespace s3fault::cli {
namespace {

int write_man_pages(const CLI::App& root, const std::filesystem::path& dir) {
  std::error_code error;
  std::filesystem::create_directories(dir, error); // a failure shows when the first page is written
  for (const auto& command : command_tree(root)) {
    const auto path = (dir / (man_page_name(command) + ".1")).string();
    std::string why;
    if (!runtime::write_file_atomically(path, man_page(command, runtime::build_version()), why)) {
      std::cerr << "s3fault manpages: " << path << ": " << why << "\n";
      return 2;
    }
  }
  return 0;
}

} // namespace

std::function<int()> add_completion_command(CLI::App& app) {
  auto shell = std::make_shared<std::string>();
  auto* completion = app.add_subcommand(
      "completion",
      "Prints the shell completion script (subcommands, options, fault actions, presets, "
      "profiles, built-in readers and writers, op= names).\n"
      "The Debian package installs it; from a build:\n"
      "  source <(s3fault completion bash)");
  completion->add_option("SHELL", *shell, "The shell; only bash is supported")
      ->required()
      ->check(CLI::IsMember({"bash"}));
  auto dir = std::make_shared<std::string>();
  // Hidden (no group): the build writes the package's man pages with it.
  auto* manpages = app.add_subcommand("manpages", "Writes a man page per command into DIR");
  manpages->group("");
  manpages->add_option("DIR", *dir, "Where the pages go")->required();
  // The options write into *shell and *dir while parsing: the lambda keeps both alive.
  return [&app, completion, manpages, shell, dir]() -> int {
    if (manpages->parsed()) {
      return write_man_pages(app, *dir);
    }
    (void)completion; // bash is the only shell CLI11 lets through
    std::cout << bash_completion_script(app, registry_words(), runtime::build_version());
    return 0;
  };
}

} // namespace s3fault::cli
