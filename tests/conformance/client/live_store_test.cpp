// The client against a real store on 127.0.0.1. Which store: S3FAULT_STORE_ENV names the
// endpoint.env of a CTest store fixture (Ceph RGW, s3rver), or S3FAULT_ORIGIN_BIN names an
// s3fault binary whose `origin` subcommand this test starts on port 0 (a failure when the binary
// has no such subcommand). Run by CTest as integration.client_live.<store>; the Live* tests are
// left out of the unit test discovery.
#include "conformance/client/s3_client.hpp"
#include "conformance/s3/hashing.hpp"

#include <gtest/gtest.h>

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <random>
#include <sstream>
#include <thread>

extern char** environ;

namespace s3fault::client {
namespace {

using namespace std::chrono_literals;

struct store_under_test {
  std::string name; // rgw, s3rver, origin
  std::string endpoint;
  std::string access_key;
  std::string secret_key;
  std::string region = "us-east-1";
};

/// What a store is known not to do (seen with the versions tests/deps.sh installs). These tests
/// check the client, so a store's known gap changes what the check expects for that store (the
/// store's real answer), and tests a store cannot run at all are left out of its CTest filter
/// (tests/conformance/client/CMakeLists.txt); the audit, not this test, reports deviations.
struct store_gaps {
  bool ignores_part_number = false;       // RGW 16 and s3rver ignore ?partNumber= (whole object)
  bool empty_complete_etag = false;       // RGW 16 sends <ETag></ETag> in the Complete result
  bool whole_body_multipart_etag = false; // s3rver: the MD5 of the whole body, no "-N"
  bool no_list_parts_or_abort = false;    // s3rver: 405
  bool broken_suffix_ranges = false;      // s3rver: bytes=-N read as bytes=0-N
  bool ignores_if_match = false;          // s3rver ignores If-Match
  bool serves_anonymous = false;          // s3rver serves anonymous requests
};

store_gaps gaps_of(std::string_view store) {
  store_gaps gaps;
  if (store == "rgw") {
    gaps.ignores_part_number = true;
    gaps.empty_complete_etag = true;
  } else if (store == "s3rver") {
    gaps.ignores_part_number = true;
    gaps.whole_body_multipart_etag = true;
    gaps.no_list_parts_or_abort = true;
    gaps.broken_suffix_ranges = true;
    gaps.ignores_if_match = true;
    gaps.serves_anonymous = true;
  }
  return gaps;
}

/// Reads KEY=VALUE lines (shell syntax without expansions; quotes stripped).
std::map<std::string, std::string> read_env_file(const std::string& path) {
  std::map<std::string, std::string> values;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    const auto equals = line.find('=');
    if (line.empty() || line[0] == '#' || equals == std::string::npos) {
      continue;
    }
    std::string value = line.substr(equals + 1);
    if (value.size() >= 2 && (value.front() == '"' || value.front() == '\'') &&
        value.back() == value.front()) {
      value = value.substr(1, value.size() - 2);
    }
    values[line.substr(0, equals)] = value;
  }
  return values;
}

/// Runs `argv` with stdout and stderr to /dev/null; its exit status (-1 when it cannot run).
int run_quietly(std::vector<std::string> args) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
  std::vector<char*> argv;
  for (auto& arg : args) {
    argv.push_back(arg.data());
  }
  argv.push_back(nullptr);
  pid_t pid = -1;
  const int spawned = ::posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (spawned != 0) {
    return -1;
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/// `s3fault origin` started on port 0, stopped by PID at the end of the suite.
class origin_process {
public:
  /// The binary has an `origin` subcommand.
  static bool available(const std::string& binary) {
    return ::access(binary.c_str(), X_OK) == 0 && run_quietly({binary, "origin", "--help"}) == 0;
  }

  /// False with `why` set when the origin did not start and say where it listens.
  bool start(const std::string& binary, std::string& endpoint, std::string& why) {
    int out[2];
    if (::pipe2(out, O_CLOEXEC) != 0) {
      why = "pipe failed";
      return false;
    }
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO);
    // Its per-request log goes to a file, named here for when a test fails.
    log_path_ = testing::TempDir() + "s3fault_client_origin_" + std::to_string(::getpid()) + ".log";
    std::printf("origin log: %s\n", log_path_.c_str());
    posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, log_path_.c_str(),
                                     O_WRONLY | O_CREAT | O_TRUNC, 0644);
    std::vector<std::string> args = {binary,         "origin",  "--listen",     "127.0.0.1:0",
                                     "--access-key", "s3fault", "--secret-key", "s3fault-secret"};
    std::vector<char*> argv;
    for (auto& arg : args) {
      argv.push_back(arg.data());
    }
    argv.push_back(nullptr);
    const int spawned =
        ::posix_spawn(&pid_, binary.c_str(), &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    ::close(out[1]);
    if (spawned != 0) {
      ::close(out[0]);
      pid_ = -1;
      why = binary + ": cannot start";
      return false;
    }
    // The first stdout line says where it listens; EOF first means it exited.
    std::string line;
    char c;
    while (::read(out[0], &c, 1) == 1 && c != '\n') {
      line += c;
    }
    stdout_fd_ = out[0];
    const std::string marker = "listening on ";
    const auto at = line.find(marker);
    if (at == std::string::npos) {
      why = "`s3fault origin` did not start (first line: '" + line + "')";
      stop();
      return false;
    }
    endpoint = line.substr(at + marker.size());
    return true;
  }

  void stop() {
    if (pid_ > 0) {
      ::kill(pid_, SIGTERM);
      int status = 0;
      ::waitpid(pid_, &status, 0);
      pid_ = -1;
    }
    if (stdout_fd_ >= 0) {
      ::close(stdout_fd_);
      stdout_fd_ = -1;
    }
  }
  ~origin_process() { stop(); }
  const std::string& log_path() const { return log_path_; }

private:
  pid_t pid_ = -1;
  int stdout_fd_ = -1;
  std::string log_path_;
};

std::string random_suffix() {
  std::random_device device;
  std::mt19937_64 engine(device());
  return std::to_string(engine() % 1000000000);
}

std::string patterned(std::size_t size, unsigned seed) {
  std::string data(size, '\0');
  std::uint32_t x = seed * 2654435761u + 1;
  for (auto& c : data) {
    x = x * 1664525u + 1013904223u;
    c = static_cast<char>(x >> 24);
  }
  return data;
}

std::string quoted_md5(std::string_view data) {
  return "\"" + s3::md5_hex(data) + "\"";
}

class Live : public testing::Test {
protected:
  static void SetUpTestSuite() {
    store_ = std::make_unique<store_under_test>();
    if (const char* env_file = std::getenv("S3FAULT_STORE_ENV")) {
      auto values = read_env_file(env_file);
      store_->name = values["S3_STORE"];
      store_->endpoint = values["S3_ENDPOINT"];
      store_->access_key = values["S3_ACCESS_KEY"];
      store_->secret_key = values["S3_SECRET_KEY"];
      if (values.count("S3_REGION")) {
        store_->region = values["S3_REGION"];
      }
      if (store_->endpoint.empty()) {
        setup_error_ = std::string("no S3_ENDPOINT in ") + env_file;
      }
    } else if (const char* binary = std::getenv("S3FAULT_ORIGIN_BIN")) {
      if (!origin_process::available(binary)) {
        setup_error_ = std::string(binary) + " has no origin subcommand";
        return;
      }
      origin_ = std::make_unique<origin_process>();
      std::string why;
      if (!origin_->start(binary, store_->endpoint, why)) {
        setup_error_ = why;
        return;
      }
      store_->name = "origin";
      store_->access_key = "s3fault";
      store_->secret_key = "s3fault-secret";
    } else {
      setup_error_ = "set S3FAULT_STORE_ENV or S3FAULT_ORIGIN_BIN";
    }
  }
  static void TearDownTestSuite() {
    if (origin_) {
      const std::string log = origin_->log_path();
      origin_.reset();
      // The log is kept only when it can explain a failure.
      if (testing::UnitTest::GetInstance()->current_test_suite()->Passed()) {
        std::remove(log.c_str());
      }
    }
  }

  void SetUp() override {
    ASSERT_TRUE(setup_error_.empty()) << setup_error_;
    client_ = std::make_unique<s3_client>(config());
    bucket_ = "client-" + random_suffix();
    const auto created = client_->create_bucket(bucket_);
    ASSERT_TRUE(created.ok()) << "CreateBucket " << bucket_ << ": " << created.describe();
  }

  void TearDown() override {
    if (!client_) {
      return;
    }
    // Empty and delete the bucket; failures here are reported but do not hide test failures.
    for (int round = 0; round < 20; ++round) {
      const auto listed = client_->list_objects_v2(bucket_);
      if (!listed.ok() || listed.value->contents.empty()) {
        break;
      }
      for (const auto& object : listed.value->contents) {
        client_->delete_object(bucket_, object.key);
      }
    }
    const auto deleted = client_->delete_bucket(bucket_);
    EXPECT_TRUE(deleted.status == 204 || deleted.status == 200) << deleted.describe();
  }

  static client_config config() {
    client_config config;
    config.endpoint = store_->endpoint;
    config.credentials = {store_->access_key, store_->secret_key, ""};
    config.region = store_->region;
    return config;
  }
  static store_gaps gaps() { return gaps_of(store_->name); }

  /// Uploads `data` in parts of `part_size`; returns the completed upload's ETag.
  std::string upload_in_parts(const std::string& key, const std::string& data,
                              std::size_t part_size) {
    const auto created = client_->create_multipart_upload(bucket_, key);
    EXPECT_TRUE(created.ok()) << created.raw.describe() << " " << created.parse_error;
    if (!created.ok()) {
      return "";
    }
    std::vector<completed_part> parts;
    for (std::size_t offset = 0, number = 1; offset < data.size(); offset += part_size, ++number) {
      const auto part = std::string_view(data).substr(offset, part_size);
      upload_part_options options;
      options.content_md5 = true;
      const auto uploaded =
          client_->upload_part(bucket_, key, created.value->upload_id, static_cast<int>(number),
                               body_source::from_view(part), options);
      EXPECT_TRUE(uploaded.ok()) << uploaded.describe();
      EXPECT_EQ(uploaded.header("ETag"), quoted_md5(part));
      parts.push_back(
          {static_cast<int>(number), std::string(uploaded.header("ETag").value_or("")), "", ""});
    }
    if (!gaps().no_list_parts_or_abort) {
      const auto listed = client_->list_parts(bucket_, key, created.value->upload_id);
      EXPECT_TRUE(listed.ok()) << listed.raw.describe() << " " << listed.parse_error;
      if (listed.ok()) {
        EXPECT_EQ(listed.value->parts.size(), parts.size());
        EXPECT_EQ(listed.value->upload_id, created.value->upload_id);
      }
    }
    const auto completed =
        client_->complete_multipart_upload(bucket_, key, created.value->upload_id, parts);
    EXPECT_TRUE(completed.ok()) << completed.raw.describe() << " " << completed.parse_error;
    if (!completed.ok()) {
      return "";
    }
    if (!gaps().empty_complete_etag) {
      EXPECT_FALSE(completed.value->etag.empty()) << completed.raw.body;
    }
    // The ETag of the object as HEAD reports it (the Complete result's may be empty).
    const auto head = client_->head_object(bucket_, key);
    EXPECT_TRUE(head.ok()) << head.describe();
    return std::string(head.header("ETag").value_or(""));
  }

  static inline std::unique_ptr<store_under_test> store_;
  static inline std::unique_ptr<origin_process> origin_;
  static inline std::string setup_error_;
  std::unique_ptr<s3_client> client_;
  std::string bucket_;
};

TEST_F(Live, BucketsAreListedAndHeaded) {
  const auto head = client_->head_bucket(bucket_);
  EXPECT_EQ(head.status, 200u) << head.describe();
  const auto listed = client_->list_buckets();
  ASSERT_TRUE(listed.ok()) << listed.raw.describe() << " " << listed.parse_error;
  bool found = false;
  for (const auto& bucket : listed.value->buckets) {
    found = found || bucket.name == bucket_;
  }
  EXPECT_TRUE(found);
  const auto missing = client_->head_bucket(bucket_ + "-missing");
  EXPECT_EQ(missing.status, 404u) << missing.describe();
  EXPECT_TRUE(missing.body.empty()) << "HEAD errors carry no body";
}

TEST_F(Live, PutHeadGetWithMetadataMd5AndHashes) {
  const std::string data = patterned(100 * 1024, 1);
  put_options put;
  put.content_type = "application/x-test";
  put.metadata = {{"color", "blue"}};
  put.content_md5 = true;
  const auto stored = client_->put_object(bucket_, "dir/obj", body_source::from_string(data), put);
  ASSERT_TRUE(stored.ok()) << stored.describe();
  EXPECT_EQ(stored.header("ETag"), quoted_md5(data));

  const auto head = client_->head_object(bucket_, "dir/obj");
  ASSERT_TRUE(head.ok()) << head.describe();
  EXPECT_EQ(head.content_length, data.size());
  EXPECT_EQ(head.body_bytes, 0u);
  EXPECT_EQ(head.header("Content-Type"), "application/x-test");
  EXPECT_EQ(head.header("x-amz-meta-color"), "blue");
  EXPECT_EQ(head.header("etag"), quoted_md5(data));

  get_options get;
  get.read.sha256 = true;
  get.read.md5 = true;
  const auto got = client_->get_object(bucket_, "dir/obj", get);
  ASSERT_TRUE(got.ok()) << got.describe();
  EXPECT_EQ(got.status, 200u);
  EXPECT_TRUE(got.body == data);
  EXPECT_EQ(got.body_sha256, s3::sha256_hex(data));
  EXPECT_EQ(got.body_md5, s3::md5_hex(data));
  EXPECT_GT(got.timing.first_byte.count(), 0);
  EXPECT_GE(got.timing.total, got.timing.first_byte);
  EXPECT_GT(client_->counters().reused, 0u) << "keep-alive across requests";
}

TEST_F(Live, KeysThatNeedEncodingRoundTripAndList) {
  const std::vector<std::string> keys = {"dir/a b+c~d.txt", "dir/caf\xc3\xa9 %25&=?.bin",
                                         "dir/sub/x", "top"};
  for (const auto& key : keys) {
    const auto stored = client_->put_object(bucket_, key, body_source::from_string(key));
    ASSERT_TRUE(stored.ok()) << key << ": " << stored.describe();
    const auto got = client_->get_object(bucket_, key);
    ASSERT_TRUE(got.ok()) << key << ": " << got.describe();
    EXPECT_EQ(got.body, key);
  }
  list_objects_options list;
  list.prefix = "dir/";
  list.delimiter = "/";
  const auto listed = client_->list_objects_v2(bucket_, list);
  ASSERT_TRUE(listed.ok()) << listed.raw.describe() << " " << listed.parse_error;
  ASSERT_EQ(listed.value->contents.size(), 2u);
  EXPECT_EQ(listed.value->contents[0].key, keys[0]);
  EXPECT_EQ(listed.value->contents[1].key, keys[1]);
  EXPECT_EQ(listed.value->common_prefixes, std::vector<std::string>{"dir/sub/"});
}

TEST_F(Live, ListingPagesWithContinuationTokens) {
  for (int i = 0; i < 5; ++i) {
    ASSERT_TRUE(
        client_->put_object(bucket_, "k" + std::to_string(i), body_source::from_string("x")).ok());
  }
  std::vector<std::string> seen;
  list_objects_options list;
  list.max_keys = 2;
  for (int page = 0; page < 10; ++page) {
    const auto listed = client_->list_objects_v2(bucket_, list);
    ASSERT_TRUE(listed.ok()) << listed.raw.describe() << " " << listed.parse_error;
    for (const auto& object : listed.value->contents) {
      seen.push_back(object.key);
    }
    if (!listed.value->is_truncated) {
      break;
    }
    EXPECT_LE(listed.value->contents.size(), 2u);
    list.continuation_token = listed.value->next_continuation_token;
  }
  EXPECT_EQ(seen, (std::vector<std::string>{"k0", "k1", "k2", "k3", "k4"}));
}

TEST_F(Live, RangesAndConditionals) {
  const std::string data = patterned(1000, 2);
  const auto stored = client_->put_object(bucket_, "r", body_source::from_string(data));
  ASSERT_TRUE(stored.ok()) << stored.describe();
  const std::string etag(stored.header("ETag").value_or(""));

  get_options ranged;
  ranged.range = byte_range(10, 19);
  auto got = client_->get_object(bucket_, "r", ranged);
  EXPECT_EQ(got.status, 206u) << got.describe();
  EXPECT_EQ(got.body, data.substr(10, 10));
  EXPECT_EQ(got.header("Content-Range"), "bytes 10-19/1000");

  if (!gaps().broken_suffix_ranges) {
    ranged.range = byte_range_suffix(5);
    got = client_->get_object(bucket_, "r", ranged);
    EXPECT_EQ(got.status, 206u) << got.describe();
    EXPECT_EQ(got.body, data.substr(995));
  }

  ranged.range = byte_range_from(1000);
  got = client_->get_object(bucket_, "r", ranged);
  EXPECT_EQ(got.status, 416u) << got.describe();
  ASSERT_TRUE(got.error) << got.body;
  EXPECT_EQ(got.error->code, "InvalidRange");

  get_options conditional;
  conditional.if_none_match = etag;
  got = client_->get_object(bucket_, "r", conditional);
  EXPECT_EQ(got.status, 304u) << got.describe();
  EXPECT_EQ(got.body_bytes, 0u);

  if (!gaps().ignores_if_match) {
    conditional = {};
    conditional.if_match = "\"00000000000000000000000000000000\"";
    got = client_->get_object(bucket_, "r", conditional);
    EXPECT_EQ(got.status, 412u) << got.describe();
    ASSERT_TRUE(got.error) << got.body;
    EXPECT_EQ(got.error->code, "PreconditionFailed");
  }

  conditional = {};
  conditional.if_match = etag;
  got = client_->get_object(bucket_, "r", conditional);
  EXPECT_EQ(got.status, 200u) << got.describe();
}

TEST_F(Live, MissingKeyIsAParsedNoSuchKey) {
  const auto got = client_->get_object(bucket_, "absent");
  EXPECT_EQ(got.status, 404u);
  EXPECT_FALSE(got.failure) << got.failure.message;
  ASSERT_TRUE(got.error) << got.body;
  EXPECT_EQ(got.error->code, "NoSuchKey");
  EXPECT_FALSE(got.ok());
}

TEST_F(Live, FileUploadStreamsAndDownloadGoesToAFile) {
  const std::string data = patterned(3 * 1024 * 1024 + 17, 3);
  const std::string source = testing::TempDir() + "s3fault_live_src_" + std::to_string(::getpid());
  const std::string target = testing::TempDir() + "s3fault_live_dst_" + std::to_string(::getpid());
  std::ofstream(source, std::ios::binary) << data;
  put_options put;
  put.content_md5 = true;
  const auto stored = client_->put_object(bucket_, "file", body_source::from_file(source), put);
  ASSERT_TRUE(stored.ok()) << stored.describe();
  EXPECT_EQ(stored.header("ETag"), quoted_md5(data));

  get_options get;
  get.read.target = body_target::file(target);
  get.read.sha256 = true;
  const auto got = client_->get_object(bucket_, "file", get);
  ASSERT_TRUE(got.ok()) << got.describe();
  EXPECT_EQ(got.body_bytes, data.size());
  EXPECT_EQ(got.body_sha256, s3::sha256_hex(data));
  std::ifstream in(target, std::ios::binary);
  std::ostringstream copy;
  copy << in.rdbuf();
  EXPECT_TRUE(copy.str() == data);
  std::remove(source.c_str());
  std::remove(target.c_str());
}

TEST_F(Live, MultipartUploadAndPartReads) {
  const std::size_t part_size = 5 * 1024 * 1024;
  const std::string data = patterned(2 * part_size + 1234, 4);
  const std::string etag = upload_in_parts("mp", data, part_size);
  ASSERT_FALSE(etag.empty());
  if (!gaps().whole_body_multipart_etag) {
    EXPECT_TRUE(etag.ends_with("-3\"")) << etag;
  }

  get_options get;
  get.read.sha256 = true;
  const auto whole = client_->get_object(bucket_, "mp", get);
  ASSERT_TRUE(whole.ok()) << whole.describe();
  EXPECT_EQ(whole.body_sha256, s3::sha256_hex(data));
  EXPECT_FALSE(whole.has_header("x-amz-mp-parts-count")) << "only sent for partNumber reads";

  get_options part;
  part.part_number = 2;
  if (gaps().ignores_part_number) {
    // The store ignores partNumber: the client must show exactly that (whole object, 200, no
    // parts count), not make up a part.
    const auto whole_again = client_->get_object(bucket_, "mp", part);
    ASSERT_TRUE(whole_again.ok()) << whole_again.describe();
    EXPECT_EQ(whole_again.status, 200u);
    EXPECT_EQ(whole_again.body_bytes, data.size());
    EXPECT_FALSE(whole_again.has_header("x-amz-mp-parts-count"));
    return;
  }
  const auto second = client_->get_object(bucket_, "mp", part);
  ASSERT_TRUE(second.ok()) << second.describe();
  EXPECT_EQ(second.status, 206u);
  EXPECT_TRUE(second.body == data.substr(part_size, part_size));
  EXPECT_EQ(second.header("x-amz-mp-parts-count"), "3");
  EXPECT_EQ(second.header("Content-Range"), "bytes " + std::to_string(part_size) + "-" +
                                                std::to_string(2 * part_size - 1) + "/" +
                                                std::to_string(data.size()));
  EXPECT_EQ(second.header("ETag"), etag);

  const auto head = client_->head_object(bucket_, "mp", part);
  EXPECT_EQ(head.status, 206u) << head.describe();
  EXPECT_EQ(head.header("x-amz-mp-parts-count"), "3");
  EXPECT_EQ(head.content_length, part_size);
}

TEST_F(Live, AbortedUploadIsGone) {
  const auto created = client_->create_multipart_upload(bucket_, "aborted");
  ASSERT_TRUE(created.ok()) << created.raw.describe();
  ASSERT_TRUE(client_
                  ->upload_part(bucket_, "aborted", created.value->upload_id, 1,
                                body_source::from_string("part"))
                  .ok());
  const auto aborted =
      client_->abort_multipart_upload(bucket_, "aborted", created.value->upload_id);
  EXPECT_EQ(aborted.status, 204u) << aborted.describe();
  const auto listed = client_->list_parts(bucket_, "aborted", created.value->upload_id);
  EXPECT_EQ(listed.raw.status, 404u) << listed.raw.describe();
  ASSERT_TRUE(listed.raw.error) << listed.raw.body;
  // NoSuchUpload per AWS; RGW 16 says NoSuchKey. Either way the client parsed a code.
  EXPECT_FALSE(listed.raw.error->code.empty());
  EXPECT_FALSE(listed.ok());
}

TEST_F(Live, OpenUploadsAreListedUntilAborted) {
  const auto created = client_->create_multipart_upload(bucket_, "open/one");
  ASSERT_TRUE(created.ok()) << created.raw.describe();
  const std::string& upload_id = created.value->upload_id;
  list_uploads_options options;
  options.prefix = "open/";
  const auto listed = client_->list_multipart_uploads(bucket_, options);
  ASSERT_TRUE(listed.ok()) << listed.raw.describe() << " " << listed.parse_error;
  ASSERT_EQ(listed.value->uploads.size(), 1u) << listed.raw.body;
  EXPECT_EQ(listed.value->uploads[0].key, "open/one");
  EXPECT_EQ(listed.value->uploads[0].upload_id, upload_id);
  ASSERT_EQ(client_->abort_multipart_upload(bucket_, "open/one", upload_id).status, 204u);
  const auto after = client_->list_multipart_uploads(bucket_, options);
  ASSERT_TRUE(after.ok()) << after.raw.describe() << " " << after.parse_error;
  EXPECT_TRUE(after.value->uploads.empty()) << after.raw.body;
}

TEST_F(Live, CopyAndDeleteObjects) {
  ASSERT_TRUE(client_->put_object(bucket_, "src", body_source::from_string("copy me")).ok());
  const auto copied = client_->copy_object(bucket_, "src", bucket_, "dst");
  ASSERT_TRUE(copied.ok()) << copied.raw.describe() << " " << copied.parse_error;
  // RGW leaves the quotes off the CopyObjectResult ETag.
  EXPECT_NE(copied.value->etag.find(s3::md5_hex("copy me")), std::string::npos)
      << copied.value->etag;
  EXPECT_EQ(client_->get_object(bucket_, "dst").body, "copy me");

  const auto deleted = client_->delete_objects(bucket_, {"src", "dst"});
  ASSERT_TRUE(deleted.ok()) << deleted.raw.describe() << " " << deleted.parse_error;
  EXPECT_EQ(deleted.value->deleted.size(), 2u);
  EXPECT_EQ(client_->get_object(bucket_, "src").status, 404u);
  const auto single = client_->delete_object(bucket_, "never-existed");
  EXPECT_EQ(single.status, 204u) << single.describe();
}

TEST_F(Live, PresignedAndAnonymousRequests) {
  ASSERT_TRUE(client_->put_object(bucket_, "p", body_source::from_string("presigned")).ok());
  const std::string url = client_->presign_url("GET", bucket_, "p", 300s);
  const auto origin = endpoint::parse(store_->endpoint).url();
  ASSERT_TRUE(url.starts_with(origin)) << url;
  auto anonymous_config = config();
  anonymous_config.anonymous = true;
  s3_client anonymous(anonymous_config);
  const auto got = anonymous.send_raw("GET", url.substr(origin.size()), {});
  EXPECT_EQ(got.status, 200u) << got.describe();
  EXPECT_EQ(got.body, "presigned");

  if (!gaps().serves_anonymous) {
    const auto denied = anonymous.get_object(bucket_, "p");
    EXPECT_EQ(denied.status, 403u) << denied.describe();
    ASSERT_TRUE(denied.error) << denied.body;
    EXPECT_EQ(denied.error->code, "AccessDenied");
  }
}

TEST_F(Live, SendRawSignedWithAnOddQuery) {
  ASSERT_TRUE(client_->put_object(bucket_, "odd", body_source::from_string("x")).ok());
  raw_options raw;
  raw.sign = true;
  const auto got = client_->send_raw("GET", "/" + bucket_ + "/odd", {}, {}, raw);
  EXPECT_EQ(got.status, 200u) << got.describe();
  EXPECT_EQ(got.body, "x");
}

TEST_F(Live, OneClientPerThreadForConcurrentRequests) {
  const std::string data = patterned(64 * 1024, 5);
  ASSERT_TRUE(client_->put_object(bucket_, "shared", body_source::from_string(data)).ok());
  constexpr int threads = 4;
  constexpr int requests = 10;
  std::vector<int> good(threads, 0);
  std::vector<std::uint64_t> opened(threads, 0);
  std::vector<std::thread> workers;
  for (int t = 0; t < threads; ++t) {
    workers.emplace_back([&, t] {
      s3_client client(config());
      get_options get;
      get.read.target = body_target::discard();
      get.read.sha256 = true;
      for (int i = 0; i < requests; ++i) {
        const auto got = client.get_object(bucket_, "shared", get);
        if (got.ok() && got.body_sha256 == s3::sha256_hex(data)) {
          ++good[t];
        }
      }
      opened[t] = client.counters().connections_opened;
    });
  }
  for (auto& worker : workers) {
    worker.join();
  }
  for (int t = 0; t < threads; ++t) {
    EXPECT_EQ(good[t], requests) << "thread " << t;
    EXPECT_LT(opened[t], static_cast<std::uint64_t>(requests)) << "keep-alive in thread " << t;
  }
}

TEST_F(Live, WrongSecretIsSignatureDoesNotMatch) {
  auto wrong = config();
  wrong.credentials.secret_key = "not-the-secret";
  s3_client client(wrong);
  const auto got = client.get_object(bucket_, "anything");
  EXPECT_EQ(got.status, 403u) << got.describe();
  ASSERT_TRUE(got.error) << got.body;
  EXPECT_EQ(got.error->code, "SignatureDoesNotMatch");
}

} // namespace
} // namespace s3fault::client
