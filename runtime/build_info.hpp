#pragma once
// What this binary is: the project's version and the git commit it was built from. The same
// text is printed by `s3fault --version` and written as "version" in every JSON report, so a
// report says which build made it.
#include <string_view>

namespace s3fault::runtime {

// "0.1.0 (commit 1a2b3c4d5e6f)"; "(commit 1a2b3c4d5e6f, modified)" when tracked files differed
// from that commit at build time; "(commit unknown)" when built outside a git checkout.
std::string_view build_version();

} // namespace s3fault::runtime
