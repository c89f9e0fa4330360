#pragma once
// The objects a bench reads and writes on one store. Every object is a window onto the bench's
// one buffer of seeded random bytes (fixture_content.hpp), so each object has its own content
// while the process holds the largest size only once, and PUT bodies are sent without copies.
//
//   <prefix><size>/obj-<i>    single PUT, read by get and get-ranges, listed by list
//   <prefix><size>/mp-<i>     multipart in --part-size parts, read by get-parts
//   <prefix><size>/put-<i>    overwritten by put (i rotates over --objects)
//   <prefix><size>/mpput-<i>  overwritten by put-multipart
//   <prefix><size>/del-<w>-<n> written and deleted by delete
//   <prefix>fill/<n>          filler for --prefill (8 MiB each, the last one smaller)
#include "conformance/bench/fixture_content.hpp"

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace s3fault::bench {

/// One store's objects: its bucket and key prefix, and what create/fill_to/remove wrote there.
class bench_fixtures {
public:
  /// Names the bucket and prefix on `store`; nothing is sent yet. `content` (the objects'
  /// bytes, shared by every store of the bench) and `store` must outlive the fixtures.
  bench_fixtures(const bench_settings& settings, const fixture_content& content,
                 const store_target& store, std::string bucket, bool bucket_given,
                 std::string prefix);

  const store_target& store() const { return store_; }
  const std::string& bucket() const { return bucket_; }
  bool bucket_given() const { return bucket_given_; }
  const std::string& prefix() const { return prefix_; }
  unsigned objects() const { return content_.objects(); }

  /// The objects' bytes and digests (fixture_content.hpp): the same on every store.
  std::string_view content(std::uint64_t size, std::uint64_t index) const {
    return content_.content(size, index);
  }
  std::uint64_t content_hash_of(std::uint64_t index, std::uint64_t offset,
                                std::uint64_t length) const {
    return content_.content_hash_of(index, offset, length);
  }
  const std::string& md5_of(std::uint64_t index, std::uint64_t offset, std::uint64_t length) const {
    return content_.md5_of(index, offset, length);
  }

  std::string single_key(std::uint64_t size, std::uint64_t index) const;
  std::string multipart_key(std::uint64_t size, std::uint64_t index) const;
  std::string put_key(std::uint64_t size, std::uint64_t index) const;
  std::string multipart_put_key(std::uint64_t size, std::uint64_t index) const;
  std::string delete_key(std::uint64_t size, unsigned worker, std::uint64_t n) const;
  /// The prefix ListObjectsV2 uses for the single-PUT objects of a size.
  std::string single_prefix(std::uint64_t size) const;

  /// Creates the bucket (unless given) and writes the objects the planned cells read, with up
  /// to `parallel` uploads at once. Throws std::runtime_error naming the object and the store's
  /// answer when one cannot be written.
  void create(const std::vector<cell>& cells, unsigned parallel);
  /// --prefill: writes new filler objects under the prefix's fill/ until `bytes` of filler are
  /// stored in all (earlier calls' included), with up to `parallel` uploads at once. Throws
  /// like create.
  void fill_to(std::uint64_t bytes, unsigned parallel);
  std::uint64_t filled() const { return filled_; }

  /// Deletes every object under the prefix and the bucket when it was created here. Problems
  /// are reported to `problem` and do not stop the rest.
  void remove(const std::function<void(const std::string&)>& problem);

private:
  void upload_single(client::s3_client& store, std::uint64_t size, std::uint64_t index) const;
  void upload_multipart(client::s3_client& store, std::uint64_t size, std::uint64_t index) const;
  /// Runs `upload(store, i)` for i in [0, count) on `parallel` clients; the first failure
  /// stops the rest and is thrown.
  void upload_all(std::size_t count, unsigned parallel,
                  const std::function<void(client::s3_client&, std::size_t)>& upload) const;

  const bench_settings& settings_;
  const fixture_content& content_;
  const store_target& store_;
  std::string bucket_;
  bool bucket_given_;
  bool bucket_created_ = false;
  std::uint64_t filled_ = 0;  // bytes of filler written
  std::uint64_t fillers_ = 0; // filler objects written
  std::string prefix_;
};

} // namespace s3fault::bench
