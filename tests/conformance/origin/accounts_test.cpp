// Several accounts: the KEY:SECRET syntax of --account and --accounts-file, and bucket
// ownership through origin_service (no sockets): the secret is found by the request's access
// key, other accounts' buckets answer 403 AccessDenied, ListBuckets shows the caller's own.
#include "conformance/origin/accounts.hpp"
#include "conformance/origin/origin_service.hpp"
#include "conformance/s3/hashing.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>

namespace s3fault::origin {
namespace {

const s3::credentials alice{"alice", "alice-secret", ""};
const s3::credentials bob{"bob", "bob-secret", ""};

TEST(AccountSyntax, KeyAndSecret) {
  const auto parsed = parse_account("AKIA1:se:cr/et+");
  ASSERT_TRUE(std::holds_alternative<s3::credentials>(parsed));
  EXPECT_EQ(std::get<s3::credentials>(parsed).access_key, "AKIA1");
  EXPECT_EQ(std::get<s3::credentials>(parsed).secret_key, "se:cr/et+");
}

TEST(AccountSyntax, BadEntriesSayWhy) {
  const auto message = [](std::string_view text) {
    const auto parsed = parse_account(text);
    return std::holds_alternative<std::string>(parsed) ? std::get<std::string>(parsed) : "";
  };
  EXPECT_EQ(message("nosecret"), "expected KEY:SECRET");
  EXPECT_EQ(message(":secret"), "the access key is empty");
  EXPECT_EQ(message("key:"), "the secret key is empty");
  EXPECT_EQ(message("a/b:secret"),
            "the access key may not contain '/', blanks or control characters");
  EXPECT_EQ(message("key:sec ret"), "the secret key may not contain blanks or control characters");
}

TEST(AccountsFile, CommentsBlankLinesAndCrlf) {
  const auto file =
      parse_accounts_file("# team accounts\n\nalice:alice-secret\r\n  bob:bob-secret  \n"
                          "   # indented comment\n");
  EXPECT_TRUE(file.errors.empty());
  ASSERT_EQ(file.accounts.size(), 2u);
  EXPECT_EQ(file.accounts[0].access_key, "alice");
  EXPECT_EQ(file.accounts[0].secret_key, "alice-secret");
  EXPECT_EQ(file.accounts[1].access_key, "bob");
  EXPECT_EQ(file.accounts[1].secret_key, "bob-secret");
}

TEST(AccountsFile, EveryBadLineIsNamed) {
  const auto file = parse_accounts_file("alice:a\nbroken\n\nalice:b\n:x\n");
  ASSERT_EQ(file.errors.size(), 3u);
  EXPECT_EQ(file.errors[0], "line 2: expected KEY:SECRET");
  EXPECT_EQ(file.errors[1], "line 4: access key 'alice' given twice");
  EXPECT_EQ(file.errors[2], "line 5: the access key is empty");
  ASSERT_EQ(file.accounts.size(), 1u);
}

TEST(AccountOwner, IdIsStableAndDiffersPerKey) {
  EXPECT_EQ(owner_of("alice").id, owner_of("alice").id);
  EXPECT_NE(owner_of("alice").id, owner_of("bob").id);
  EXPECT_EQ(owner_of("alice").id.size(), 64u);
  EXPECT_EQ(owner_of("alice").display_name, "alice");
}

/// An origin_service with alice (first) and bob, driven request by request.
class Ownership : public ::testing::Test {
protected:
  static origin_settings two_accounts() {
    origin_settings settings;
    settings.credentials = alice;
    settings.more_accounts = {bob};
    return settings;
  }

  Ownership() : service_(two_accounts(), make_memory_backend()) {}

  origin_response call(const s3::credentials& who, std::string method, std::string target,
                       s3::header_list headers = {}, std::string body = {}) {
    s3::http_request_view view{std::move(method), std::move(target), std::move(headers)};
    view.headers.insert(view.headers.begin(), {"Host", "127.0.0.1:9000"});
    s3::sign_request(view, who, "us-east-1", s3::sha256_hex(body),
                     std::chrono::system_clock::now());
    request_head head;
    head.method = view.method;
    head.target = view.target;
    head.headers = view.headers;
    head.content_length = body.size();
    auto begun = service_.begin(head);
    origin_response response = std::move(begun.start.response);
    if (begun.start.consumer) {
      if (auto error = begun.start.consumer->consume(body)) {
        response = error_response(*error, begun.resource);
      } else {
        response = begun.start.consumer->finish();
      }
    }
    service_.finalize(response, "TESTREQUEST", head.method == "HEAD");
    return response;
  }

  static std::string code(const origin_response& response) {
    return response.error ? response.error->code : std::string();
  }

  origin_service service_;
};

TEST_F(Ownership, OtherAccountsAreDeniedEverywhere) {
  ASSERT_EQ(call(alice, "PUT", "/alices").status, 200u);
  ASSERT_EQ(call(alice, "PUT", "/alices/k", {}, "hello").status, 200u);
  ASSERT_EQ(call(alice, "POST", "/alices/up?uploads").status, 200u);

  for (const auto& [method, target] :
       std::vector<std::pair<std::string, std::string>>{{"GET", "/alices/k"},
                                                        {"HEAD", "/alices/k"},
                                                        {"PUT", "/alices/k2"},
                                                        {"DELETE", "/alices/k"},
                                                        {"GET", "/alices?list-type=2"},
                                                        {"GET", "/alices"},
                                                        {"GET", "/alices?uploads"},
                                                        {"HEAD", "/alices"},
                                                        {"DELETE", "/alices"},
                                                        {"GET", "/alices?location"},
                                                        {"GET", "/alices?acl"},
                                                        {"GET", "/alices/k?acl"},
                                                        {"GET", "/alices/k?tagging"},
                                                        {"POST", "/alices/k?uploads"}}) {
    const auto response = call(bob, method, target);
    EXPECT_EQ(response.status, 403u) << method << " " << target;
    EXPECT_EQ(code(response), "AccessDenied") << method << " " << target;
  }
  const auto get_attributes =
      call(bob, "GET", "/alices/k?attributes", {{"x-amz-object-attributes", "ETag"}});
  EXPECT_EQ(get_attributes.status, 403u);
  EXPECT_EQ(code(get_attributes), "AccessDenied");
  // The denied requests changed nothing, and the owner still gets its object.
  const auto get = call(alice, "GET", "/alices/k");
  EXPECT_EQ(get.status, 200u);
  EXPECT_EQ(get.body_length(), 5u);
  EXPECT_EQ(call(alice, "HEAD", "/alices").status, 200u);
}

TEST_F(Ownership, CopiesFromAnotherAccountsBucketAreDenied) {
  ASSERT_EQ(call(alice, "PUT", "/alices").status, 200u);
  ASSERT_EQ(call(alice, "PUT", "/alices/k", {}, "hello").status, 200u);
  ASSERT_EQ(call(bob, "PUT", "/bobs").status, 200u);
  const auto copy = call(bob, "PUT", "/bobs/copy", {{"x-amz-copy-source", "/alices/k"}});
  EXPECT_EQ(copy.status, 403u);
  EXPECT_EQ(code(copy), "AccessDenied");
  EXPECT_EQ(call(alice, "PUT", "/alices/copy", {{"x-amz-copy-source", "/alices/k"}}).status, 200u);
}

TEST_F(Ownership, CreateBucketOfAnotherAccountIsBucketAlreadyExists) {
  ASSERT_EQ(call(alice, "PUT", "/shared-name").status, 200u);
  const auto taken = call(bob, "PUT", "/shared-name");
  EXPECT_EQ(taken.status, 409u);
  EXPECT_EQ(code(taken), "BucketAlreadyExists");
  EXPECT_NE(taken.body.find("<BucketName>shared-name</BucketName>"), std::string::npos);
  // The owner re-creating it: 200 in us-east-1, as before.
  EXPECT_EQ(call(alice, "PUT", "/shared-name").status, 200u);
}

TEST_F(Ownership, ListBucketsShowsTheCallersBucketsAndOwner) {
  ASSERT_EQ(call(alice, "PUT", "/alice-one").status, 200u);
  ASSERT_EQ(call(alice, "PUT", "/alice-two").status, 200u);
  ASSERT_EQ(call(bob, "PUT", "/bob-one").status, 200u);
  const auto for_bob = call(bob, "GET", "/");
  ASSERT_EQ(for_bob.status, 200u);
  EXPECT_NE(for_bob.body.find("<Name>bob-one</Name>"), std::string::npos);
  EXPECT_EQ(for_bob.body.find("alice-"), std::string::npos) << for_bob.body;
  EXPECT_NE(for_bob.body.find("<Owner><ID>" + owner_of("bob").id +
                              "</ID><DisplayName>bob</"
                              "DisplayName></Owner>"),
            std::string::npos)
      << for_bob.body;
  const auto for_alice = call(alice, "GET", "/");
  EXPECT_NE(for_alice.body.find("<Name>alice-one</Name>"), std::string::npos);
  EXPECT_NE(for_alice.body.find("<Name>alice-two</Name>"), std::string::npos);
  EXPECT_EQ(for_alice.body.find("bob-one"), std::string::npos);
}

TEST_F(Ownership, AclsAndListingsShowTheBucketOwner) {
  ASSERT_EQ(call(bob, "PUT", "/bobs").status, 200u);
  ASSERT_EQ(call(bob, "PUT", "/bobs/k", {}, "x").status, 200u);
  const std::string bob_owner = "<ID>" + owner_of("bob").id + "</ID><DisplayName>bob</DisplayName>";
  for (const std::string target :
       {"/bobs?acl", "/bobs/k?acl", "/bobs", "/bobs?list-type=2&fetch-owner=true"}) {
    const auto response = call(bob, "GET", target);
    ASSERT_EQ(response.status, 200u) << target;
    EXPECT_NE(response.body.find(bob_owner), std::string::npos) << target << ": " << response.body;
    EXPECT_EQ(response.body.find(owner_of("alice").id), std::string::npos) << target;
  }
}

TEST_F(Ownership, SecretIsFoundByTheAccessKey) {
  const s3::credentials stranger{"mallory", "whatever", ""};
  const auto unknown = call(stranger, "GET", "/");
  EXPECT_EQ(unknown.status, 403u);
  EXPECT_EQ(code(unknown), "InvalidAccessKeyId");
  const s3::credentials wrong_secret{"bob", "alice-secret", ""};
  const auto wrong = call(wrong_secret, "GET", "/");
  EXPECT_EQ(wrong.status, 403u);
  EXPECT_EQ(code(wrong), "SignatureDoesNotMatch");
  EXPECT_EQ(call(bob, "GET", "/").status, 200u);
  EXPECT_EQ(call(alice, "GET", "/").status, 200u);
}

TEST_F(Ownership, MissingBucketIsNoSuchBucketForEveryone) {
  const auto response = call(bob, "GET", "/nobody/k");
  EXPECT_EQ(response.status, 404u);
  EXPECT_EQ(code(response), "NoSuchBucket");
}

TEST(OwnershipAnonymous, NoChecksAndOneOwner) {
  origin_settings settings; // no credentials: --anonymous
  origin_service service(settings, make_memory_backend());
  request_head head;
  head.method = "PUT";
  head.target = "/anon";
  head.headers = {{"Host", "127.0.0.1"}};
  auto begun = service.begin(head);
  ASSERT_TRUE(begun.start.consumer);
  EXPECT_EQ(begun.start.consumer->finish().status, 200u);
  head.method = "GET";
  head.target = "/";
  auto listed = service.begin(head).start.response;
  EXPECT_NE(listed.body.find("<Name>anon</Name>"), std::string::npos);
  EXPECT_NE(listed.body.find("<DisplayName>s3fault</DisplayName>"), std::string::npos);
}

/// A data directory under the system temp dir, removed at the end.
struct temp_directory {
  std::filesystem::path path;
  temp_directory() {
    std::random_device random;
    path = std::filesystem::temp_directory_path() /
           ("s3fault-accounts-test-" + std::to_string(random()) + std::to_string(random()));
  }
  ~temp_directory() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
};

TEST(OwnershipOnDisk, OwnersSurviveARestartAndOldRecordsBelongToTheFirstAccount) {
  temp_directory dir;
  {
    origin_settings settings;
    settings.credentials = alice;
    settings.more_accounts = {bob};
    origin_service service(settings, make_disk_backend(dir.path.string()));
    service.store().create_bucket("bobs", std::chrono::system_clock::now(), "bob");
  }
  // A bucket record as written before buckets had owners.
  {
    std::ofstream old(dir.path / "buckets" / "legacy.json");
    old << R"({"name":"legacy","created_ms":1700000000000})";
  }
  origin_settings settings;
  settings.credentials = alice;
  settings.more_accounts = {bob};
  origin_service service(settings, make_disk_backend(dir.path.string()));
  EXPECT_EQ(service.store().bucket_owner("bobs"), "bob");
  EXPECT_EQ(service.store().bucket_owner("legacy"), "");
  EXPECT_EQ(service.settings().owner_key(""), "alice");
  EXPECT_EQ(service.settings().owner_key("bob"), "bob");
}

} // namespace
} // namespace s3fault::origin
