# Writes OUTPUT, a C++ file whose dashboard_page() returns the bytes of INPUT: the dashboard is
# edited as HTML and compiled in, so the binary serves it with nothing to install beside it.
file(READ ${INPUT} hex HEX)
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
string(REGEX REPLACE "(0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,)" "\\1\n" bytes "${bytes}")
file(WRITE ${OUTPUT} "// Generated from proxy/dashboard/dashboard.html by embed_page.cmake; edit that file.
#include \"proxy/dashboard_page.hpp\"

namespace s3fault::proxy {
namespace {
const unsigned char page[] = {
${bytes}};
} // namespace

std::string_view dashboard_page() {
  return {reinterpret_cast<const char*>(page), sizeof page};
}

} // namespace s3fault::proxy
")
