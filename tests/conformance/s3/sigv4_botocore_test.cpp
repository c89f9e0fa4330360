// Cross-check against botocore, the SigV4 signer behind the AWS CLI and boto3.
//
//   botocore_sigv4_cases.py ──JSON lines──► for each case:
//     header form:  sign_request(unsigned headers)  == botocore's Authorization
//                   verify_request(botocore's request) accepts it
//                   ... and refuses it after one byte of the signature, of each signed header
//                   value, or of the path is changed
//     presigned:    presign_target(...) == botocore's URL target, verified and tampered the same
#include "conformance/s3/hashing.hpp"
#include "conformance/s3/sigv4.hpp"
#include "conformance/s3/sigv4_canonical.hpp"
#include "tests/conformance/s3/sigv4_test_support.hpp"
#include "tests/support/command_output.hpp"
#include "text/text.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <set>
#include <sstream>

namespace s3fault::s3 {
namespace {

using testing::header;
using testing::signature_of;

/// Runs the botocore script and returns its standard output; fails the test if it fails.
std::string run_botocore_script() {
  const std::string command =
      std::string("'") + S3FAULT_BOTOCORE_PYTHON + "' '" + S3FAULT_BOTOCORE_SCRIPT + "'";
  const auto run = s3fault::testing::run_command(command);
  EXPECT_EQ(run.status, 0) << command << " failed (is python3-botocore installed?)";
  return run.text;
}

std::vector<nlohmann::json> botocore_cases() {
  std::vector<nlohmann::json> cases;
  std::istringstream lines(run_botocore_script());
  for (std::string line; std::getline(lines, line);) {
    if (!line.empty()) {
      cases.push_back(nlohmann::json::parse(line));
    }
  }
  return cases;
}

header_list headers_from(const nlohmann::json& pairs) {
  header_list headers;
  for (const auto& pair : pairs) {
    headers.emplace_back(pair.at(0).get<std::string>(), pair.at(1).get<std::string>());
  }
  return headers;
}

credentials creds_of(const nlohmann::json& c) {
  return {c.at("access_key"), c.at("secret_key"), c.at("session_token")};
}

std::chrono::system_clock::time_point time_of(const nlohmann::json& c) {
  return std::chrono::system_clock::time_point{std::chrono::seconds{c.at("epoch").get<long>()}};
}

verify_result verify_case(const nlohmann::json& c, const http_request_view& request) {
  return verify_request(request, testing::only_key(c.at("access_key"), c.at("secret_key")),
                        time_of(c));
}

void expect_refused(const nlohmann::json& c, const http_request_view& request,
                    std::string_view what, std::string_view code = "SignatureDoesNotMatch") {
  const auto result = verify_case(c, request);
  ASSERT_TRUE(result.error.has_value()) << what << " was accepted";
  EXPECT_EQ(result.error->code, code) << what << ": " << result.error->message;
}

/// Index of a byte to tamper with in a path: its last character that is not '/'.
std::size_t last_path_byte(std::string_view target) {
  const auto path = detail::split_target(target).path;
  const auto at = path.find_last_not_of('/');
  return at == std::string_view::npos ? path.size() - 1 : at;
}

void check_header_case(const nlohmann::json& c) {
  const std::string authorization = c.at("authorization");

  // 1. Our signer, given the request botocore started from, produces botocore's header.
  if (c.at("compare_sign").get<bool>()) {
    http_request_view ours{c.at("method"), c.at("target"), headers_from(c.at("unsigned_headers"))};
    sign_request(ours, creds_of(c), c.at("region").get<std::string>(),
                 c.at("payload_hash").get<std::string>(), time_of(c));
    EXPECT_EQ(header(ours, "authorization"), authorization);
  }
  const std::string payload_hash = c.at("payload_hash");
  if (payload_hash.size() == 64) {
    EXPECT_EQ(payload_hash, sha256_hex(c.at("body").get<std::string>()));
  }

  // 2. Our verifier accepts botocore's signed request.
  const http_request_view theirs{c.at("method"), c.at("target"),
                                 headers_from(c.at("signed_headers"))};
  const auto accepted = verify_case(c, theirs);
  ASSERT_TRUE(accepted.context.has_value())
      << accepted.error->code << ": " << accepted.error->message;
  EXPECT_EQ(accepted.context->seed_signature, signature_of(authorization));
  EXPECT_EQ(accepted.context->payload_hash, payload_hash);

  // 3. ... and refuses it after one byte is changed.
  {
    auto request = theirs;
    for (auto& [name, value] : request.headers) {
      if (text::ascii_lower(name) == "authorization") {
        testing::flip_byte(value, value.size() - 1);
      }
    }
    expect_refused(c, request, "a flipped signature byte");
  }
  const auto signed_list = authorization.substr(authorization.find("SignedHeaders=") + 14,
                                                authorization.find(", Signature=") -
                                                    authorization.find("SignedHeaders=") - 14);
  int flipped_headers = 0;
  for (std::size_t i = 0; i < theirs.headers.size(); ++i) {
    const auto name = text::ascii_lower(theirs.headers[i].first);
    const auto& value = theirs.headers[i].second;
    const bool is_signed = (";" + signed_list + ";").find(";" + name + ";") != std::string::npos;
    const auto byte = value.find_first_not_of(" \t");
    if (!is_signed || name == "x-amz-date" || name == "date" || byte == std::string::npos) {
      continue; // dates have their own errors (skew, scope); empty values have no byte
    }
    auto request = theirs;
    testing::flip_byte(request.headers[i].second, byte);
    const auto result = verify_case(c, request);
    ASSERT_TRUE(result.error.has_value()) << "flipped " << name << " was accepted";
    if (name != "x-amz-content-sha256") {
      EXPECT_EQ(result.error->code, "SignatureDoesNotMatch") << "flipped " << name;
    }
    ++flipped_headers;
  }
  EXPECT_GE(flipped_headers, 2); // at least host and x-amz-content-sha256
  {
    auto request = theirs;
    testing::flip_byte(request.target, last_path_byte(request.target));
    expect_refused(c, request, "a flipped path byte");
  }
}

void check_presign_case(const nlohmann::json& c) {
  const std::string expected = c.at("presigned_target");
  const auto target = presign_target(
      c.at("method").get<std::string>(), c.at("host").get<std::string>(),
      c.at("target").get<std::string>(), creds_of(c), c.at("region").get<std::string>(),
      std::chrono::seconds{c.at("expires").get<long>()}, time_of(c));
  EXPECT_EQ(target, expected);

  const http_request_view theirs{c.at("method"), expected, {{"Host", c.at("host")}}};
  const auto accepted = verify_case(c, theirs);
  ASSERT_TRUE(accepted.context.has_value())
      << accepted.error->code << ": " << accepted.error->message;
  EXPECT_EQ(accepted.context->seed_signature, expected.substr(expected.size() - 64));

  auto request = theirs;
  testing::flip_byte(request.target, request.target.size() - 1);
  expect_refused(c, request, "a flipped signature byte");
  request = theirs;
  testing::flip_byte(request.headers[0].second, 0);
  expect_refused(c, request, "a flipped host byte");
  request = theirs;
  testing::flip_byte(request.target, last_path_byte(request.target));
  expect_refused(c, request, "a flipped path byte");
}

TEST(Botocore, SignsAndVerifiesLikeBotocore) {
  const auto cases = botocore_cases();
  std::set<std::string> names;
  int header_cases = 0;
  int presign_cases = 0;
  for (const auto& c : cases) {
    const std::string name = c.at("name");
    SCOPED_TRACE("case " + name + " (botocore " + c.at("botocore").get<std::string>() + ")");
    EXPECT_TRUE(names.insert(name).second) << "duplicate case name";
    if (c.at("kind") == "header") {
      ++header_cases;
      check_header_case(c);
    } else {
      ++presign_cases;
      check_presign_case(c);
    }
  }
  // The table is the point of the test: it must not silently shrink.
  EXPECT_GE(header_cases, 30);
  EXPECT_GE(presign_cases, 5);
}

} // namespace
} // namespace s3fault::s3
