#include "cli/man_page.hpp"

#include <cctype>
#include <sstream>

namespace s3fault::cli {
namespace {

bool starts_option_word(std::string_view text, std::size_t i) {
  if (i == 0) {
    return true;
  }
  const char before = text[i - 1];
  return before == ' ' || before == '-' || before == '(' || before == ',' || before == '\'' ||
         before == '[' || before == '|';
}

/// Text for roff: backslashes kept literal, the dashes of option names real minus signs (so
/// that they can be searched and copied), a leading period or quote not read as a request.
std::string roff(std::string_view text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\\') {
      out += "\\e";
    } else if (c == '-' && starts_option_word(text, i)) {
      out += "\\-";
    } else {
      out += c;
    }
  }
  if (!out.empty() && (out.front() == '.' || out.front() == '\'')) {
    out.insert(0, "\\&");
  }
  return out;
}

/// The checkout's paths in a help text (`see docs/faults.md`, `examples/readers/aws-cli.sh`,
/// right for `--help` in a clone) as the package installs them, for the man pages, which are
/// read where the package put the docs and the examples: /usr/share/doc/s3fault/.
std::string installed_paths(std::string_view text) {
  constexpr std::string_view installed = "/usr/share/doc/s3fault/";
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const bool word_start =
        i == 0 || !(std::isalnum(static_cast<unsigned char>(text[i - 1])) || text[i - 1] == '/' ||
                    text[i - 1] == '_' || text[i - 1] == '-' || text[i - 1] == '.');
    const std::string_view rest = text.substr(i);
    if (word_start && (rest.starts_with("docs/") || rest.starts_with("examples/"))) {
      out += installed;
    }
    out += text[i];
  }
  return out;
}

/// A help text as roff: plain lines filled into paragraphs, indented lines (examples, lists,
/// tables) kept as they are, blank lines between paragraphs; paths as installed.
void write_text(std::ostream& out, std::string_view help) {
  const std::string text = installed_paths(help);
  std::istringstream lines{text};
  bool verbatim = false;
  for (std::string line; std::getline(lines, line);) {
    const bool blank = line.find_first_not_of(' ') == std::string::npos;
    const bool indented = !blank && line.front() == ' ';
    if (verbatim && !indented) {
      out << ".fi\n.RE\n";
      verbatim = false;
    }
    if (blank) {
      out << ".PP\n";
    } else if (indented) {
      if (!verbatim) {
        out << ".RS 2\n.nf\n";
        verbatim = true;
      }
      out << roff(line) << "\n";
    } else {
      out << roff(line) << "\n";
    }
  }
  if (verbatim) {
    out << ".fi\n.RE\n";
  }
}

std::string command_words(const command_node& command) {
  std::string words = "s3fault";
  for (const auto& part : command.path) {
    words += " " + part;
  }
  return words;
}

void write_synopsis(std::ostream& out, const command_node& command) {
  out << ".SH SYNOPSIS\n.B " << command_words(command) << "\n[\\fIOPTIONS\\fR]";
  for (const CLI::Option* option : shown_options(*command.app)) {
    if (option->get_positional()) {
      out << " \\fI" << roff(option->get_name(true)) << "\\fR";
    }
  }
  if (!shown_subcommands(*command.app).empty()) {
    const bool required = command.app->get_require_subcommand_min() > 0;
    out << (required ? " \\fISUBCOMMAND\\fR" : " [\\fISUBCOMMAND\\fR]");
  }
  out << "\n";
}

void write_options(std::ostream& out, const command_node& command) {
  out << ".SH OPTIONS\n";
  for (const CLI::Option* option : shown_options(*command.app)) {
    out << ".TP\n\\fB" << roff(option_names(*option)) << "\\fR"
        << roff(option_value_text(*command.app, *option)) << "\n";
    write_text(out, option->get_description());
  }
}

void write_subcommands(std::ostream& out, const command_node& command) {
  const auto subs = shown_subcommands(*command.app);
  if (subs.empty()) {
    return;
  }
  out << ".SH SUBCOMMANDS\nEach has its own page: \\fB" << roff(man_page_name(command))
      << "\\-NAME\\fR(1).\n";
  for (const CLI::App* sub : subs) {
    out << ".TP\n\\fB" << roff(sub->get_name()) << "\\fR\n"
        << roff(installed_paths(first_sentence(sub->get_description()))) << "\n";
  }
}

void write_see_also(std::ostream& out, const command_node& command) {
  std::vector<std::string> pages;
  if (!command.path.empty()) {
    pages.push_back("s3fault");
  }
  for (const CLI::App* sub : shown_subcommands(*command.app)) {
    pages.push_back(man_page_name(command) + "-" + sub->get_name());
  }
  if (pages.empty()) {
    return;
  }
  out << ".SH SEE ALSO\n";
  for (std::size_t i = 0; i < pages.size(); ++i) {
    out << "\\fB" << roff(pages[i]) << "\\fR(1)" << (i + 1 < pages.size() ? ",\n" : "\n");
  }
  out << ".PP\nThe documentation: /usr/share/doc/s3fault/README.md and "
         "/usr/share/doc/s3fault/docs/.\n";
}

std::string upper(std::string text) {
  for (char& c : text) {
    c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  }
  return text;
}

} // namespace

std::string first_sentence(std::string_view description) {
  std::string line;
  for (char c : description) {
    line += c == '\n' ? ' ' : c;
  }
  if (const auto colon = line.find(": ");
      colon != std::string::npos && line.find(' ') > colon) { // "s3fault: makes ..."
    line.erase(0, colon + 2);
  }
  for (std::size_t i = 0; i < line.size(); ++i) {
    if (line[i] == '.' && (i + 1 == line.size() || line[i + 1] == ' ')) {
      return line.substr(0, i);
    }
  }
  return line;
}

std::string man_page_name(const command_node& command) {
  std::string name = "s3fault";
  for (const auto& part : command.path) {
    name += "-" + part;
  }
  return name;
}

std::string man_page(const command_node& command, std::string_view version) {
  std::ostringstream out;
  const std::string name = man_page_name(command);
  out << ".TH \"" << roff(upper(name)) << "\" 1 \"\" \"s3fault " << roff(version)
      << "\" \"s3fault manual\"\n"
      << ".SH NAME\n"
      << roff(name) << " \\- "
      << roff(installed_paths(first_sentence(command.app->get_description()))) << "\n";
  write_synopsis(out, command);
  out << ".SH DESCRIPTION\n";
  write_text(out, command.app->get_description());
  if (!command.app->get_footer().empty()) {
    out << ".PP\n";
    write_text(out, command.app->get_footer());
  }
  write_options(out, command);
  write_subcommands(out, command);
  write_see_also(out, command);
  return out.str();
}

} // namespace s3fault::cli
