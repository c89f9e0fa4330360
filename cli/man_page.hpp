#pragma once
// A man page (roff, section 1) for one command, made from its CLI11 definition: the same
// description, options and subcommands as its --help. The package's pages are written by
// `s3fault manpages DIR` at build time.
#include "cli/command_tree.hpp"

#include <string>
#include <string_view>

namespace s3fault::cli {

/// "s3fault-gate-merge": the page's name (and file name without ".1").
std::string man_page_name(const command_node& command);

/// The whole page. `version` goes in the footer.
std::string man_page(const command_node& command, std::string_view version);

/// The first sentence of a description, one line, without a leading "NAME: ": the page's
/// one-line summary.
std::string first_sentence(std::string_view description);

} // namespace s3fault::cli
