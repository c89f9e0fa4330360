// The admin API's logic: any method, target and body against a rule store that already holds
// rules, then a listing of what is left (which must always render).
#include "faults/admin_api.hpp"

#include <fuzzer/FuzzedDataProvider.h>

#include <cstddef>
#include <cstdint>
#include <string>

using namespace s3fault::faults;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzedDataProvider input(data, size);
  rule_store store(1, clock::now());
  handle_admin_request(store, "POST", "/rules",
                       R"({"rules":[{"name":"slow","match":{"operations":["GetObject"]},)"
                       R"("actions":[{"error":"SlowDown"}]}]})",
                       "0.1.0");
  const char* methods[] = {"GET", "POST", "PUT", "DELETE", "PATCH"};
  while (input.remaining_bytes() > 0) {
    const char* method = methods[input.ConsumeIntegralInRange<int>(0, 4)];
    const std::string target = input.ConsumeRandomLengthString(200);
    const std::string body = input.ConsumeRandomLengthString(4096);
    const auto reply = handle_admin_request(store, method, target, body, "0.1.0");
    if (reply.status < 200 || reply.status > 599) {
      __builtin_trap();
    }
    (void)admin_body_text(reply.body); // as the admin server renders it
  }
  const auto listing = handle_admin_request(store, "GET", "/rules", "", "0.1.0");
  if (listing.status != 200) {
    __builtin_trap(); // the listing never fails, whatever was done before
  }
  (void)admin_body_text(listing.body);
  return 0;
}
