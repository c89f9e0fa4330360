#include "cli/profile_command.hpp"

#include "faults/config/profiles.hpp"

#include <iostream>
#include <memory>
#include <string>

namespace s3fault::cli {
namespace {

namespace config = faults::config;

struct profile_options {
  std::string show; // NAME|FILE for `show`
};

std::string counted(std::size_t count, const std::string& noun) {
  return std::to_string(count) + " " + noun + (count == 1 ? "" : "s");
}

int list_profiles() {
  for (const auto& shipped : config::shipped_profiles()) {
    faults::error_list errors;
    const auto profile = config::load_profile(std::string(shipped.name), errors);
    if (!profile) {
      std::cerr << "s3fault profile: the shipped profile " << shipped.name << " is broken:\n";
      for (const auto& error : errors) {
        std::cerr << "  " << error << "\n";
      }
      return 1;
    }
    const auto& d = profile->description;
    std::cout << d.name << "  " << d.store << " " << d.version << " ("
              << counted(profile->rules.entries.size(), "rule") << ", "
              << counted(d.not_reproduced.size(), "deviation") << " not reproduced)\n";
  }
  return 0;
}

int show_profile(const std::string& name) {
  faults::error_list errors;
  const auto profile = config::load_profile(name, errors);
  if (!profile) {
    std::cerr << "s3fault profile show: " << (errors.empty() ? name : errors.front()) << "\n";
    for (std::size_t i = 1; i < errors.size(); ++i) {
      std::cerr << "  " << errors[i] << "\n";
    }
    return 2;
  }
  if (const auto* shipped = config::find_shipped_profile(name)) {
    std::cout << shipped->text;
    return 0;
  }
  const auto& d = profile->description;
  std::cout << d.name << ": " << d.store << " " << d.version << "\n"
            << d.description << "\n"
            << counted(profile->rules.entries.size(), "rule") << ", "
            << counted(d.not_reproduced.size(), "deviation") << " not reproduced\n";
  return 0;
}

} // namespace

std::function<int()> add_profile_command(CLI::App& app) {
  auto options = std::make_shared<profile_options>();
  auto* command = app.add_subcommand(
      "profile",
      "Store profiles: proxy rules that make any store answer like Ceph RGW 16.2, s3rver 3.7 or "
      "RustFS 1.0.0-rc.5. Use one with 's3fault proxy --profile NAME' (most need "
      "--resign-access-key/--resign-secret-key, the store's keys); see docs/profiles.md.");
  command->require_subcommand(1);
  command->add_subcommand("list", "Print every shipped profile: name, store, version");
  auto* show = command->add_subcommand(
      "show", "Print a profile: a shipped one's YAML as shipped, or a profile file's summary");
  show->add_option("NAME", options->show, "A shipped profile's name, or a profile file")
      ->required();
  return [command, show, options]() -> int {
    if (show->parsed()) {
      return show_profile(options->show);
    }
    (void)command;
    return list_profiles();
  };
}

} // namespace s3fault::cli
