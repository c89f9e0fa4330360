// Versioning in the index: what each write and delete does under each versioning state, reads
// by version id, delete markers, ListObjectVersions pages, retried Completes, and a data
// directory that keeps all of it across a restart.
#include "conformance/origin/object_store.hpp"

#include <gtest/gtest.h>

#include <filesystem>

#include <unistd.h>

namespace s3fault::origin {
namespace {

const time_point now = std::chrono::system_clock::from_time_t(1700000000);

/// A fresh directory, removed with everything in it.
struct scratch_dir {
  scratch_dir()
      : path_(std::filesystem::temp_directory_path() /
              ("s3fault-versioning-" + std::to_string(::getpid()))) {
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~scratch_dir() { std::filesystem::remove_all(path_); }
  std::string path() const { return path_.string(); }
  std::filesystem::path path_;
};

std::shared_ptr<object_record> record_with_etag(const std::string& etag) {
  auto record = std::make_shared<object_record>();
  record->etag = etag;
  return record;
}

std::string etag_of(const object_store& store, const std::string& key,
                    const std::optional<std::string>& version = std::nullopt) {
  const auto found = store.find_object("b", key, version);
  if (const auto* error = std::get_if<s3_error>(&found)) {
    return error->code;
  }
  return std::get<object_ptr>(found)->etag;
}

std::vector<std::string> listed(const version_listing& page) {
  std::vector<std::string> out;
  for (const auto& v : page.versions) {
    out.push_back(v.key + "@" + (v.delete_marker ? "marker" : v.etag) + (v.latest ? "*" : ""));
  }
  return out;
}

class Versioning : public ::testing::Test {
protected:
  void SetUp() override { store_.create_bucket("b", now); }
  std::string put(const std::string& key, const std::string& etag) {
    auto record = record_with_etag(etag);
    EXPECT_FALSE(store_.put_object("b", key, record).has_value());
    return record->version_id;
  }
  version_listing versions(version_listing_request request = {}) {
    return std::get<version_listing>(store_.list_versions("b", request));
  }
  object_store store_{make_memory_backend()};
};

TEST_F(Versioning, OffKeepsOneNullVersion) {
  EXPECT_EQ(put("k", "e1"), "null");
  EXPECT_EQ(put("k", "e2"), "null");
  EXPECT_EQ(listed(versions()), (std::vector<std::string>{"k@e2*"}));
  EXPECT_EQ(etag_of(store_, "k", "null"), "e2");
  EXPECT_EQ(etag_of(store_, "k", "other"), "NoSuchVersion");
  const auto deleted = std::get<delete_result>(store_.delete_object("b", "k", now));
  EXPECT_FALSE(deleted.delete_marker);
  EXPECT_TRUE(versions().versions.empty()) << "no delete marker while versioning is off";
}

TEST_F(Versioning, EnabledKeepsEveryVersionAndHidesBehindAMarker) {
  put("k", "e0"); // the null version from before versioning
  ASSERT_FALSE(store_.set_versioning("b", versioning_status::enabled).has_value());
  const auto v1 = put("k", "e1");
  const auto v2 = put("k", "e2");
  EXPECT_NE(v1, "null");
  EXPECT_NE(v1, v2);
  EXPECT_EQ(etag_of(store_, "k"), "e2");
  EXPECT_EQ(etag_of(store_, "k", v1), "e1");
  EXPECT_EQ(etag_of(store_, "k", "null"), "e0");

  const auto deleted = std::get<delete_result>(store_.delete_object("b", "k", now));
  EXPECT_TRUE(deleted.delete_marker);
  const auto hidden = std::get<s3_error>(store_.find_object("b", "k"));
  EXPECT_EQ(hidden.code, "NoSuchKey");
  EXPECT_EQ(hidden.headers,
            (std::vector<std::pair<std::string, std::string>>{
                {"x-amz-delete-marker", "true"}, {"x-amz-version-id", deleted.version_id}}));
  const auto of_marker = std::get<s3_error>(store_.find_object("b", "k", deleted.version_id));
  EXPECT_EQ(of_marker.status, 405u);
  EXPECT_EQ(etag_of(store_, "k", v1), "e1") << "older versions stay readable";
  EXPECT_EQ(listed(versions()), (std::vector<std::string>{"k@marker*", "k@e2", "k@e1", "k@e0"}));
  EXPECT_TRUE(std::get<object_listing>(store_.list_objects("b", {})).objects.empty());
  EXPECT_EQ(store_.delete_bucket("b")->code, "BucketNotEmpty");

  // Removing the marker brings the newest version back.
  const auto removed =
      std::get<delete_result>(store_.delete_object("b", "k", now, deleted.version_id));
  EXPECT_TRUE(removed.delete_marker);
  EXPECT_EQ(etag_of(store_, "k"), "e2");
  // Removing versions for good, the current one included.
  store_.delete_object("b", "k", now, v2);
  EXPECT_EQ(etag_of(store_, "k"), "e1");
  EXPECT_EQ(etag_of(store_, "k", v2), "NoSuchVersion");
  // The last versions gone, the key is gone and the bucket can go.
  store_.delete_object("b", "k", now, v1);
  store_.delete_object("b", "k", now, std::string("null"));
  EXPECT_EQ(etag_of(store_, "k"), "NoSuchKey");
  EXPECT_TRUE(versions().versions.empty());
  EXPECT_FALSE(store_.delete_bucket("b").has_value());
}

TEST_F(Versioning, SuspendedReplacesOnlyTheNullVersion) {
  ASSERT_FALSE(store_.set_versioning("b", versioning_status::enabled).has_value());
  const auto v1 = put("k", "e1");
  ASSERT_FALSE(store_.set_versioning("b", versioning_status::suspended).has_value());
  EXPECT_EQ(put("k", "n1"), "null");
  EXPECT_EQ(put("k", "n2"), "null");
  EXPECT_EQ(listed(versions()), (std::vector<std::string>{"k@n2*", "k@e1"}));
  const auto deleted = std::get<delete_result>(store_.delete_object("b", "k", now));
  EXPECT_TRUE(deleted.delete_marker);
  EXPECT_EQ(deleted.version_id, "null");
  EXPECT_EQ(listed(versions()), (std::vector<std::string>{"k@marker*", "k@e1"}))
      << "the null delete marker replaced the null version";
  EXPECT_EQ(etag_of(store_, "k", v1), "e1");
}

TEST_F(Versioning, ConditionsLookAtTheCurrentVersion) {
  ASSERT_FALSE(store_.set_versioning("b", versioning_status::enabled).has_value());
  put("k", "e1");
  store_.delete_object("b", "k", now);
  write_condition only_new;
  only_new.if_none_match = "*";
  EXPECT_FALSE(store_.put_object("b", "k", record_with_etag("e2"), only_new).has_value())
      << "a delete marker is no object";
  EXPECT_EQ(store_.put_object("b", "k", record_with_etag("e3"), only_new)->status, 412u);
}

TEST_F(Versioning, ADeleteDuringAConditionalWriteIsAConflict) {
  put("k", "e1");
  write_condition match_e1;
  match_e1.if_match = "\"e1\"";
  match_e1.started = store_.write_started();
  write_condition unrelated = match_e1;
  store_.delete_object("b", "k", now);
  EXPECT_EQ(store_.put_object("b", "k", record_with_etag("e2"), match_e1)->code,
            "ConditionalRequestConflict");
  unrelated.started = store_.write_started();
  EXPECT_EQ(store_.put_object("b", "k", record_with_etag("e2"), unrelated)->code, "NoSuchKey")
      << "a write that began after the delete just finds no object";
  EXPECT_FALSE(store_.put_object("b", "k", record_with_etag("e3")).has_value())
      << "an unconditional write never conflicts";

  // A Complete whose key was deleted while its upload was open: 409, and the upload is over.
  const auto id = std::get<std::string>(store_.create_upload("b", "k", {}, "", "COMPOSITE", now));
  part_record part;
  part.md5_raw = std::string(16, 'x');
  part.data = store_.new_blob(0)->commit();
  ASSERT_FALSE(store_.add_part("b", "k", id, 1, part).has_value());
  store_.delete_object("b", "k", now);
  completed_part listed_part;
  listed_part.number = 1;
  listed_part.etag = "78787878787878787878787878787878";
  write_condition only_new;
  only_new.if_none_match = "*";
  EXPECT_EQ(
      std::get<s3_error>(store_.complete_upload("b", "k", id, {listed_part}, 0, now, only_new))
          .code,
      "ConditionalRequestConflict");
  EXPECT_EQ(std::get<s3_error>(store_.find_upload("b", "k", id)).code, "NoSuchUpload");
}

TEST_F(Versioning, PagesResumeInsideAKey) {
  ASSERT_FALSE(store_.set_versioning("b", versioning_status::enabled).has_value());
  put("a", "a1");
  put("a", "a2");
  put("a", "a3");
  put("d/x", "x1");
  put("d/y", "y1");
  put("z", "z1");
  version_listing_request request;
  request.max_keys = 2;
  request.delimiter = "/";
  std::vector<std::string> seen;
  std::vector<std::string> prefixes;
  for (int page_number = 0; page_number < 10; ++page_number) {
    const auto page = versions(request);
    for (const auto& entry : listed(page)) {
      seen.push_back(entry);
    }
    prefixes.insert(prefixes.end(), page.common_prefixes.begin(), page.common_prefixes.end());
    if (!page.truncated) {
      break;
    }
    request.key_marker = page.next_key_marker;
    request.version_id_marker = page.next_version_id_marker;
  }
  EXPECT_EQ(seen, (std::vector<std::string>{"a@a3*", "a@a2", "a@a1", "z@z1*"}));
  EXPECT_EQ(prefixes, (std::vector<std::string>{"d/"}));
}

TEST_F(Versioning, RetriedCompleteGetsTheSameResult) {
  const auto id = std::get<std::string>(store_.create_upload("b", "k", {}, "", "COMPOSITE", now));
  part_record part;
  part.size = 3;
  part.md5_raw = std::string(16, 'x');
  part.data = nullptr;
  auto writer = store_.new_blob(3);
  writer->write("abc");
  part.data = writer->commit();
  ASSERT_FALSE(store_.add_part("b", "k", id, 1, part).has_value());
  completed_part listed_part;
  listed_part.number = 1;
  listed_part.etag = "\"78787878787878787878787878787878\"";
  const std::vector<completed_part> parts{listed_part};
  const auto first = store_.complete_upload("b", "k", id, parts, 0, now);
  ASSERT_TRUE(std::holds_alternative<object_ptr>(first)) << std::get<s3_error>(first).message;
  const auto again = store_.complete_upload("b", "k", id, parts, 0, now + std::chrono::minutes(5));
  ASSERT_TRUE(std::holds_alternative<object_ptr>(again)) << std::get<s3_error>(again).code;
  EXPECT_EQ(std::get<object_ptr>(again)->etag, std::get<object_ptr>(first)->etag);
  EXPECT_EQ(std::get<object_ptr>(again)->version_id, std::get<object_ptr>(first)->version_id);
  EXPECT_EQ(listed(versions()).size(), 1u) << "a retry publishes nothing";

  auto other = parts;
  other[0].etag = "\"00000000000000000000000000000000\"";
  EXPECT_EQ(std::get<s3_error>(store_.complete_upload("b", "k", id, other, 0, now)).code,
            "NoSuchUpload")
      << "another part list is not a retry";
  EXPECT_EQ(std::get<s3_error>(store_.complete_upload("b", "other", id, parts, 0, now)).code,
            "NoSuchUpload");
  EXPECT_EQ(std::get<s3_error>(
                store_.complete_upload("b", "k", id, parts, 0,
                                       now + completed_upload_memory + std::chrono::seconds(1)))
                .code,
            "NoSuchUpload")
      << "forgotten after the window";
  EXPECT_EQ(std::get<s3_error>(store_.complete_upload("b", "k", "unknown", parts, 0, now)).code,
            "NoSuchUpload");
}

TEST(VersioningOnDisk, VersionsMarkersAndStatusSurviveARestart) {
  const scratch_dir dir;
  std::string v1;
  std::string marker;
  {
    object_store store(make_disk_backend(dir.path()));
    store.create_bucket("b", now);
    auto old = record_with_etag("e0");
    store.put_object("b", "k", old);
    ASSERT_FALSE(store.set_versioning("b", versioning_status::enabled).has_value());
    auto first = record_with_etag("e1");
    store.put_object("b", "k", first);
    v1 = first->version_id;
    store.put_object("b", "k", record_with_etag("e2"));
    marker = std::get<delete_result>(store.delete_object("b", "k", now)).version_id;
  }
  object_store store(make_disk_backend(dir.path()));
  EXPECT_TRUE(store.load_warnings().empty());
  EXPECT_EQ(std::get<versioning_status>(store.versioning("b")), versioning_status::enabled);
  EXPECT_EQ(etag_of(store, "k"), "NoSuchKey");
  EXPECT_EQ(etag_of(store, "k", v1), "e1");
  EXPECT_EQ(etag_of(store, "k", "null"), "e0");
  const auto page = std::get<version_listing>(store.list_versions("b", {}));
  EXPECT_EQ(listed(page), (std::vector<std::string>{"k@marker*", "k@e2", "k@e1", "k@e0"}));
  EXPECT_EQ(page.versions.front().version_id, marker);
  // New versions sort after the loaded ones.
  store.put_object("b", "k", record_with_etag("e3"));
  EXPECT_EQ(etag_of(store, "k"), "e3");
}

} // namespace
} // namespace s3fault::origin
